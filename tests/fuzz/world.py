"""The fuzzed world: an Ars Magica saga mid-round, a d6 saga with a fight and a chase, and another
saga nobody of ours is in. Its ids fill the URLs; its rows are what a refusal must leave alone."""

from __future__ import annotations

import functools

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F

from arsmagica import services as ars
from arsmagica.models import Weapon
from arsmagica.sheet import new_sheet as ars_sheet
from campaign.models import Character, Membership, Saga
from combat import services as core
from combat.models import Encounter
from d6 import services as d6
from d6.sheet import new_sheet as d6_sheet

RUNNING = {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}
SWORD = dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")


def _user(name: str):
    return get_user_model().objects.create_user(username=name)


def _saga(name: str, storyguide, players, rule_system: str) -> Saga:
    saga = Saga.objects.create(name=name, storyguide=storyguide, rule_system=rule_system)
    Membership.objects.create(saga=saga, user=storyguide, role=Membership.Role.STORYGUIDE)
    for player in players:
        Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    return saga


def _ars_character(saga: Saga, name: str, owner) -> Character:
    character = Character.objects.create(
        saga=saga, name=name, owner=owner, is_npc=owner is None, sheet=ars_sheet(soak=3, combat_fatigue=1)
    )
    Weapon.objects.create(character=character, **SWORD)
    return character


def _d6_character(saga: Saga, name: str, owner) -> Character:
    sheet = d6_sheet(attributes={"dexterity": 1, "stamina": 1, "strength": 1}, abilities=[RUNNING], fatigue=3)
    return Character.objects.create(saga=saga, name=name, owner=owner, is_npc=owner is None, sheet=sheet)


def _version(encounter: Encounter) -> int:
    encounter.refresh_from_db()
    return encounter.version


def _sides(encounter: Encounter, storyguide, characters: list[Character]) -> None:
    for side, character in zip(("Companions", "Bandits", "Bandits"), characters, strict=False):
        core.add_combatants(storyguide, encounter.pk, _version(encounter), [character.pk], side)


def _ars_encounter(saga: Saga, storyguide, characters: list[Character], *, opened: bool) -> Encounter:
    encounter = ars.create_encounter(storyguide, saga.pk, "Forest road")
    _sides(encounter, storyguide, characters)
    if opened:
        ars.open_declarations(storyguide, encounter.pk, _version(encounter))
        combatants = list(encounter.combatants.select_related("character"))
        for combatant in combatants:
            foe = next(other for other in combatants if other.side != combatant.side)
            declarer = combatant.character.owner or storyguide
            weapon = combatant.character.weapons.first().pk
            values = {"action": "attack", "weapon_id": weapon, "engage": [foe.pk], "range": "reach"}
            ars.declare(declarer, encounter.pk, combatant.pk, values)
    return encounter


def _d6_encounter(saga: Saga, storyguide, characters: list[Character], name: str) -> Encounter:
    encounter = d6.create_encounter(storyguide, saga.pk, name)
    _sides(encounter, storyguide, characters)
    return encounter


class World:
    """Built once per test class; every example runs in a transaction that is rolled back."""

    def __init__(self) -> None:
        self.storyguide, self.player, self.stranger, self.other_storyguide = (
            _user(name) for name in ("sg", "alice", "charlie", "oscar")
        )
        self.ars_saga = _saga("Ars saga", self.storyguide, [self.player], "arsmagica")
        ars_people = [
            _ars_character(self.ars_saga, "Sir Boris", self.player),
            _ars_character(self.ars_saga, "Bandit", None),
        ]
        self.ars_round = _ars_encounter(self.ars_saga, self.storyguide, ars_people, opened=True)
        self.ars_setup = _ars_encounter(self.ars_saga, self.storyguide, ars_people, opened=False)

        self.d6_saga = _saga("d6 saga", self.storyguide, [self.player], "d6fatigue")
        d6_people = [
            _d6_character(self.d6_saga, "Marta", self.player),
            _d6_character(self.d6_saga, "Thug", None),
            _d6_character(self.d6_saga, "Thug 2", None),
        ]
        self.d6_fight = _d6_encounter(self.d6_saga, self.storyguide, d6_people, "Brawl")
        d6.start_fight(self.storyguide, self.d6_fight.pk, _version(self.d6_fight))
        self.d6_chase = _d6_encounter(self.d6_saga, self.storyguide, d6_people, "Chase")
        runners = {c.character.name: c.pk for c in self.d6_chase.combatants.select_related("character")}
        d6.start_chase(
            self.storyguide,
            self.d6_chase.pk,
            _version(self.d6_chase),
            runners["Marta"],
            [(runners["Thug"], 2), (runners["Thug 2"], 3)],
            [("Market streets", "Running"), ("Alleys", "Running")],
        )

        self.other_saga = _saga("Other saga", self.other_storyguide, [], "arsmagica")
        other_people = [_ars_character(self.other_saga, f"Stranger {n}", None) for n in (1, 2)]
        self.other_encounter = _ars_encounter(
            self.other_saga, self.other_storyguide, other_people, opened=True
        )

        # The table rolls physical dice from now on: typed faces are the hostile input players reach.
        Saga.objects.filter(pk__in=[self.ars_saga.pk, self.d6_saga.pk]).update(physical_dice=True)

    @property
    def sagas(self) -> list[Saga]:
        return [self.ars_saga, self.d6_saga, self.other_saga]

    def ids(self) -> dict[str, list]:
        """Real values for each URL keyword, ours and the other saga's."""
        encounters = Encounter.objects.order_by("pk")
        combatant_ids = [c for e in encounters for c in e.combatants.values_list("pk", flat=True)]
        return {
            "saga_id": [saga.pk for saga in self.sagas],
            "encounter_id": list(encounters.values_list("pk", flat=True)),
            "combatant_id": combatant_ids,
            "character_id": list(Character.objects.order_by("pk").values_list("pk", flat=True)),
            "token": [saga.invite_token for saga in self.sagas],
        }


# Every model of these apps is tied to a saga by this path; a new model must say how.
SAGA_PATHS = {
    "campaign.saga": "pk",
    "campaign.membership": "saga",
    "campaign.character": "saga",
    "campaign.resetlink": "saga",
    "campaign.commandkey": "saga",
    "combat.encounter": "saga",
    "combat.combatant": "encounter__saga",
    "combat.event": "encounter__saga",
    "combat.sagarecord": "saga",
    "combat.encountersummary": "encounter__saga",
    "arsmagica.weapon": "character__saga",
    "arsmagica.declaration": "encounter__saga",
    "d6table.fight": "encounter__saga",
    "d6table.fighter": "fight__encounter__saga",
    "d6table.chase": "encounter__saga",
    "d6table.runner": "chase__encounter__saga",
}


def game_models() -> list:
    """Every model of the project's own apps (Django's and libraries' left out)."""
    root = str(settings.BASE_DIR)
    return [
        model
        for config in apps.get_app_configs()
        if str(config.path).startswith(root) and "site-packages" not in str(config.path)
        for model in config.get_models()
    ]


def fingerprint(saga_ids) -> dict[int, list]:
    """Every row of every game model, as the database holds it, grouped by the saga it belongs to."""
    rows: dict[int, list] = {pk: [] for pk in saga_ids}
    with connection.cursor() as cursor:
        for label, sql, params in _row_queries(tuple(saga_ids)):
            cursor.execute(sql, params)
            for *values, saga in cursor.fetchall():
                rows[saga].append((label, tuple(values)))
    return rows


@functools.cache
def _row_queries(saga_ids: tuple) -> list[tuple[str, str, tuple]]:
    """Each game model's query for `fingerprint` (every column, in primary key order, and the row's saga),
    compiled once: the sweep reads them some 1,700 times, and compiling them took half its time."""
    queries = []
    for model in game_models():
        label = model._meta.label_lower
        columns = [field.attname for field in model._meta.concrete_fields]
        rows = model.objects.filter(**{f"{SAGA_PATHS[label]}__in": list(saga_ids)})
        rows = rows.annotate(fuzz_saga=F(SAGA_PATHS[label])).order_by("pk").values_list(*columns, "fuzz_saga")
        queries.append((label, *rows.query.sql_with_params()))
    return queries
