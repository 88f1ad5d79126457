"""`manage.py load_demo_d6`: the d6 demo saga "The chase through Ashford", its chase ready to roll.

The same logins as `load_demo` (storyguide, player1, player2). Idempotent: a second run finds
what the first made and changes nothing; it prints the logins and the table's address.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.demo import PLAYERS as DEMO_PLAYERS
from campaign.demo import STORYGUIDE, demo_saga
from campaign.models import Character
from combat import services as combat_services
from combat import sides
from combat.models import Encounter
from d6 import services
from d6.rules.fatigue import base_fatigue
from d6.sheet import new_sheet

from ... import KEY

SAGA = "The chase through Ashford"
ENCOUNTER = "Thief in the market"
PLAYERS = DEMO_PLAYERS[:2]  # the same logins as load_demo

RUNNING = {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}
CLIMBING = {"name": "Climbing", "attribute": "strength", "consistency": 1, "physical": True}
SWIMMING = {"name": "Swimming", "attribute": "strength", "consistency": 0, "physical": True}
SWORDPLAY = {"name": "Swordplay", "attribute": "dexterity", "consistency": 1, "physical": True}
# (owner, name, attributes, abilities); base fatigue = 4 - Stamina, at least 1.
CHARACTERS = [
    (
        "player1",
        "Wren",
        dict(strength=0, dexterity=2, stamina=1, intelligence=1, perception=2, charisma=0),
        [RUNNING, CLIMBING, SWIMMING],
    ),
    (
        "player2",
        "Tobias",
        dict(strength=2, dexterity=0, stamina=2, intelligence=0, perception=0, charisma=1),
        [RUNNING, SWIMMING, SWORDPLAY],
    ),
    (
        None,
        "Watchman Hale",
        dict(strength=1, dexterity=1, stamina=0, intelligence=0, perception=1, charisma=0),
        [RUNNING, CLIMBING, SWIMMING, SWORDPLAY],
    ),
    (
        None,
        "Watchman Brock",
        dict(strength=2, dexterity=0, stamina=1, intelligence=0, perception=0, charisma=0),
        [RUNNING, {**CLIMBING, "consistency": 0}, SWIMMING, SWORDPLAY],
    ),
]
TERRAINS = [("Market streets", "Running"), ("Rooftops", "Climbing"), ("The river", "Swimming")]


class Command(BaseCommand):
    help = 'Load the d6 demo saga "The chase through Ashford": a chase ready to roll, two players.'

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the server answers, for the address printed (default: make run's)",
        )

    def handle(self, *args, **options):
        base = options["base_url"].rstrip("/")
        with transaction.atomic():
            saga, created, storyguide, players = demo_saga(SAGA, KEY, PLAYERS)
            characters = {
                name: self._character(saga, name, players.get(owner), attributes, abilities)
                for owner, name, attributes, abilities in CHARACTERS
            }
        encounter = Encounter.objects.filter(saga=saga, name=ENCOUNTER).first()
        if encounter is None:
            encounter = services.create_encounter(storyguide, saga.pk, ENCOUNTER)
            combat_services.add_combatants(
                storyguide,
                encounter.pk,
                encounter.version,
                [characters["Wren"].pk, characters["Tobias"].pk],
                sides.PLAYERS,
            )
            encounter.refresh_from_db()
            combat_services.add_combatants(
                storyguide,
                encounter.pk,
                encounter.version,
                [characters["Watchman Hale"].pk, characters["Watchman Brock"].pk],
                sides.OPPONENTS,
            )
            encounter.refresh_from_db()
            by_name = {c.character.name: c for c in encounter.combatants.select_related("character")}
            services.start_chase(
                storyguide,
                encounter.pk,
                encounter.version,
                by_name["Wren"].pk,
                [(by_name["Watchman Hale"].pk, 2), (by_name["Watchman Brock"].pk, 3)],
                TERRAINS,
                escape_distance=6,
            )
        self.stdout.write(
            self.style.SUCCESS(f'Demo saga "{SAGA}" is ready ({"made" if created else "already there"}).')
        )
        self.stdout.write(f"Chase: {base}/encounters/{encounter.pk}/d6/  (the same address for the players)")
        self.stdout.write("Logins (username / password):")
        self.stdout.write(f"  storyguide: {STORYGUIDE[0]} / {STORYGUIDE[1]}")
        for (name, password), character in zip(PLAYERS, ("Wren (the target)", "Tobias"), strict=True):
            self.stdout.write(f"  {character}: {name} / {password}")

    def _character(self, saga, name, owner, attributes, abilities):
        character = Character.objects.filter(saga=saga, name=name).first()
        if character is None:
            base = base_fatigue(attributes["stamina"])
            character = Character.objects.create(
                saga=saga,
                name=name,
                owner=owner,
                is_npc=owner is None,
                sheet=new_sheet(attributes=attributes, abilities=abilities, fatigue=base),
            )
        return character
