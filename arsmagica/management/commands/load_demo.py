"""`manage.py load_demo`: the demo saga "Sir Boris and the bandits", ready for round one.

Idempotent: a second run finds what the first made and changes nothing; it prints the logins.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from campaign.demo import PLAYERS, STORYGUIDE, demo_saga
from campaign.models import Character
from combat import services, sides
from combat.models import Encounter

from ... import KEY
from ...models import Weapon
from ...sheet import new_sheet

SAGA = "Sir Boris and the bandits"
ENCOUNTER = "Ambush on the forest road"

SHEET = dict(
    quickness=0,
    stamina=0,
    finesse=0,
    athletics=1,
    ride=0,
    brawling=2,
    soak=4,
    dodge_defense=3,
    combat_fatigue=2,
    encumbrance=0,
)
# Sir Boris: a speedy knight, Attack score 10 (ArM3 p168).
COMPANIONS = [
    (
        "player1",
        "Sir Boris",
        dict(
            quickness=2,
            stamina=2,
            finesse=1,
            ride=3,
            brawling=3,
            soak=7,
            dodge_defense=5,
            combat_fatigue=4,
            encumbrance=-1,
        ),
        [dict(name="Sword", initiative=8, attack=10, defense=8, damage=7, optimum_range="reach")],
    ),
    (
        "player2",
        "Brother Anselm",
        dict(stamina=1, brawling=2, soak=5, dodge_defense=3, combat_fatigue=3),
        [dict(name="Mace", initiative=4, attack=7, defense=6, damage=8, optimum_range="reach")],
    ),
    (
        "player3",
        "Marta the Huntress",
        dict(quickness=2, finesse=2, athletics=3, soak=4, dodge_defense=6, combat_fatigue=3),
        [
            dict(
                name="Short bow",
                initiative=5,
                attack=8,
                defense=0,
                damage=6,
                optimum_range="long",
                missile=True,
                paces=60,
                twice=True,
            ),
            dict(name="Dagger", initiative=5, attack=5, defense=4, damage=3, optimum_range="touch"),
        ],
    ),
]
# Three bandits with sword, sword and dagger (ArM3 p168).
BANDITS = [
    ("Bandit 1", dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")),
    ("Bandit 2", dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")),
    ("Bandit 3", dict(name="Dagger", initiative=6, attack=6, defense=4, damage=3, optimum_range="touch")),
]


class Command(BaseCommand):
    help = 'Load the demo saga "Sir Boris and the bandits" with a storyguide and three players.'

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the server answers, for the addresses printed (default: make run's)",
        )

    def handle(self, *args, **options):
        base = options["base_url"].rstrip("/")
        with transaction.atomic():
            saga, created, storyguide, players = demo_saga(SAGA, KEY, PLAYERS)
            companions = [
                self._character(saga, name, players[owner], False, scores, weapons)
                for owner, name, scores, weapons in COMPANIONS
            ]
            bandits = [self._character(saga, name, None, True, {}, [weapon]) for name, weapon in BANDITS]
        encounter = Encounter.objects.filter(saga=saga, name=ENCOUNTER).first()
        if encounter is None:
            encounter = services.create_encounter(storyguide, saga.pk, ENCOUNTER, KEY)
            services.add_combatants(
                storyguide, encounter.pk, encounter.version, [c.pk for c in companions], sides.PLAYERS
            )
            encounter.refresh_from_db()
            services.add_combatants(
                storyguide, encounter.pk, encounter.version, [c.pk for c in bandits], sides.OPPONENTS
            )
        self.stdout.write(
            self.style.SUCCESS(f'Demo saga "{SAGA}" is ready ({"made" if created else "already there"}).')
        )
        page = f"{base}/encounters/{encounter.pk}/"
        self.stdout.write(f"Encounter: {page}  (players: {page}arsmagica/play/)")
        self.stdout.write(f"Log in at {base}/accounts/login/")
        self.stdout.write("Logins (username / password):")
        self.stdout.write(f"  storyguide: {STORYGUIDE[0]} / {STORYGUIDE[1]}")
        for (name, password), (_, character, _, _) in zip(PLAYERS, COMPANIONS, strict=True):
            self.stdout.write(f"  {character}: {name} / {password}")

    def _character(self, saga, name, owner, is_npc, scores, weapons):
        character = Character.objects.filter(saga=saga, name=name).first()
        if character is None:
            character = Character.objects.create(
                saga=saga, name=name, owner=owner, is_npc=is_npc, sheet=new_sheet(**{**SHEET, **scores})
            )
            for weapon in weapons:
                Weapon.objects.create(character=character, **weapon)
        return character
