"""Issue 8, item 10: a database made before the split into core and rule systems migrates forward with
nothing lost; and so does one made before the sheets became their rule systems' (campaign 0005).

An Ars Magica round and a d6 fight and chase are played with today's services; every row of the
campaign, combat, arsmagica and d6 apps is kept, with the history (page and JSON export, storyguide and
player) and the sheet pages. Then those apps are migrated to zero and back up to the schema of d003c0c
(the last commit before the split, where the declarations were `combat.Declaration`, the sheets and a
combatant's advantage were columns), the rows are
written back with that schema's historical models, primary keys and timestamps kept, and the database is
migrated forward to the latest migrations. Every row, the history and the sheets must read as before.
"""

import importlib
import re

import pytest
from django.apps import apps as live_apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from arsmagica import services as ars
from arsmagica import sheet as ars_sheet
from arsmagica.models import Declaration
from arsmagica.rules import ScriptedDiceBox
from arsmagica.services import dice as ars_dice
from campaign.models import Character
from combat.rules.dice import ScriptedDice
from d6 import services as d6
from d6.services import dice as d6_dice
from d6.sheet import DEFAULT_ATTRIBUTES
from tests import personas
from tests.arsmagica.conftest import P168_FACES, Table
from tests.d6 import conftest as d6_conftest

APPS = ("campaign", "combat", "arsmagica", "d6table")
# The leaf migrations of d003c0c's schema; arsmagica did not exist yet.
BEFORE_SPLIT = [
    ("campaign", "0003_character_fatigue_state"),
    ("combat", "0002_saga_records_and_recovery_events"),
    ("d6table", "0002_players_act"),
]
# Tables made since d003c0c (the saga page's one-time command keys); the game played here writes none.
NEW_TABLES = {"combat_commandkey", "campaign_resetlink", "combat_encountersummary"}
# The columns a character had before its sheet became its rule system's JSON, with their defaults.
SHEET_COLUMNS = {score.name: 0 for score in ars_sheet.SCORES}
SHEET_COLUMNS |= {"fatigue_level": "fresh", "body_level": "unhurt", "fatigue_state": {}}
SHEET_COLUMNS |= {"attributes": {}, "abilities": [], "fatigue": 1}
# Sides became a choice (combat 0007): the games below are played with free-text sides, which that
# migration renames; they are named as it names them before anything is kept, so it finds nothing to do.
SIDES_AS_A_CHOICE = importlib.import_module("combat.migrations.0007_sides_as_a_choice")
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value=|name="command_key" value=|"X-CSRFToken": ")"?[^"]+"')


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def live_models() -> dict:
    """Today's models of the four apps, by table."""
    return {
        model._meta.db_table: model
        for label in APPS
        for model in live_apps.get_app_config(label).get_models(include_auto_created=True)
    }


def rows() -> dict[str, list[dict]]:
    """Every row of every table, read through today's models (Declaration through arsmagica's)."""
    return {table: list(model.objects.order_by("pk").values()) for table, model in live_models().items()}


# --- what is played before the upgrade -----------------------------------------------------------


def p168_declared(monkeypatch) -> Table:
    """The p168 fight with the book's dice in the box, declared, and declarations closed."""
    table = Table()
    ids = table.ids()
    box = {ids[name]: purposes for name, purposes in P168_FACES.items()}
    monkeypatch.setattr(ars_dice, "server_box", lambda: ScriptedDiceBox(box))
    ars.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    ars.close_declarations(table.storyguide, table.encounter.pk, table.v)
    return table


def play_ars_magica_round(monkeypatch) -> Table:
    """The p168 fight: declarations, Initiative, every phase with the book's dice, a winded Sir Boris,
    wounded bandits, a correction, round 2 opened, the fight ended, then
    a minute's rest and a day's march after it."""
    table = p168_declared(monkeypatch)
    ids, encounter_id, sg = table.ids(), table.encounter.pk, table.storyguide
    # First Missile passes by itself (nobody shoots), so do Second Missile and Magic after Melee.
    ars.preview_phase(sg, encounter_id, table.v, "melee")
    ars.confirm_phase(sg, encounter_id, table.v, "melee")
    ars.preview_phase(sg, encounter_id, table.v, "fatigue")
    ars.confirm_phase(sg, encounter_id, table.v, "fatigue", {"ease_factors": {ids["boris"]: "30"}})
    ars.correct(sg, encounter_id, table.v, table.anselm.pk, {"body_level": "hurt"}, "An old wound")
    ars.end_round(sg, encounter_id, table.v)
    ars.end_encounter(sg, encounter_id, table.v)
    ars.pass_time(sg, 1, saga_id=table.saga.pk, character_ids=[table.boris_character.pk])
    ars.record_exertion(sg, table.boris_character.pk, 1, "A day's march", saga_id=table.saga.pk)
    return table


def play_d6_fight_and_chase(monkeypatch) -> d6_conftest.D6Table:
    """The d6 saga: initiative, Marta's attack and Bandit 2's failed defence, then a chase through the
    streets and onto the river, exchange by exchange, until it ends."""
    monkeypatch.setattr(
        personas, "make_user", lambda name: get_user_model().objects.create_user(username=f"d6-{name}")
    )
    table = d6_conftest.D6Table()

    def dice(*faces):
        monkeypatch.setattr(d6_dice, "server_dice", lambda: ScriptedDice(faces))

    encounter_id, sg = table.encounter.pk, table.storyguide
    dice(2, 3, 8, 4, 5, 1, 1, 6)
    d6.start_fight(sg, encounter_id, table.v)
    dice(2, 7, 3)
    marta, bandit_2 = table.marta.pk, table.bandits[1].pk
    d6.roll(sg, encounter_id, table.v, marta, "attribute:dexterity", value=6, target_id=bandit_2)
    dice(3, 5)
    d6.roll(sg, encounter_id, table.v, bandit_2, "attribute:dexterity")
    streets = [("Market streets", "Running"), ("The river", "Swimming")]
    chasers = [(table.bandits[0].pk, 2), (table.bandits[1].pk, 3)]
    d6.start_chase(sg, encounter_id, table.v, table.marta.pk, chasers, streets)
    dice(6, 6, 5, 0, 4, 1)
    d6.exchange(sg, encounter_id, table.v)
    d6.offer_terrain(sg, encounter_id, table.v, [("The river", "Swimming")])
    d6.choose_terrain(table.alice, encounter_id, table.v, "The river")
    dice(6, 5, 6)  # the river is Swimming, C0: one d6 each
    d6.exchange(sg, encounter_id, table.v)
    return table


def pages(ars_table, d6_table) -> dict[str, bytes]:
    """What the storyguide and a player get: the history page and export of each saga, the sheets."""
    got = {}
    for table in (ars_table, d6_table):
        characters = list(Character.objects.filter(saga=table.saga).order_by("pk"))
        for user in (table.storyguide, table.alice):
            client = Client()
            client.force_login(user)
            for name in ("saga_history", "saga_history_json"):
                url = reverse(name, args=[table.saga.pk])
                got[f"{user} {url}"] = client.get(url)
            url = reverse("encounter_page", args=[table.encounter.pk])
            got[f"{user} {url}"] = client.get(url, follow=True)  # a player's page is the play page
            for character in characters:
                url = reverse("character_detail", args=[character.pk])
                got[f"{user} {url}"] = client.get(url)
    for key, response in got.items():
        assert response.status_code == 200, key
    return {key: CSRF.sub(rb"\1CSRF", response.content) for key, response in got.items()}


# --- the upgrade ---------------------------------------------------------------------------------


def rebuild_before_the_split(kept: dict[str, list[dict]]) -> None:
    """Drop the four apps' tables, build d003c0c's schema from its migrations, and write the kept rows
    back with that schema's historical models (Declaration is combat's there)."""
    migrate([(label, None) for label in APPS])
    executor = migrate(BEFORE_SPLIT)
    old_apps = executor.loader.project_state(BEFORE_SPLIT).apps
    assert not any(m._meta.app_label == "arsmagica" for m in old_apps.get_models())
    old = {
        model._meta.db_table: model
        for label in ("campaign", "combat", "d6table")
        for model in old_apps.get_app_config(label).get_models(include_auto_created=True)
    }
    assert old["combat_declaration"]._meta.label == "combat.Declaration"
    assert set(old) == set(kept) - NEW_TABLES, "the old schema had today's tables but the new ones"
    for model in old.values():
        for field in model._meta.concrete_fields:  # keep created_at and the like as they were
            if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                field.auto_now = field.auto_now_add = False
    with transaction.atomic():
        assert not any(kept[table] for table in NEW_TABLES)
        for model in in_dependency_order(list(old.values())):
            table = model._meta.db_table
            attnames = {field.attname for field in model._meta.concrete_fields}
            old_rows = [as_before_the_split(table, row) for row in kept[table]]
            assert all(set(row) == attnames for row in old_rows), table
            model.objects.bulk_create(model(**row) for row in old_rows)
        with connection.cursor() as cursor:  # PostgreSQL: the next id follows the kept ones
            for sql in connection.ops.sequence_reset_sql(no_style(), list(old.values())):
                cursor.execute(sql)


def as_before_the_split(table: str, row: dict) -> dict:
    """A row of today's schema as d003c0c's held it: a sheet's fields were columns of the character
    (every system's, at their defaults where the sheet has none), the d6 attributes a column of the saga."""
    if table == "campaign_character":
        row = dict(row)
        row.pop("stamped_from_id")
        sheet = row.pop("sheet")
        return {**row, **{name: sheet.get(name, default) for name, default in SHEET_COLUMNS.items()}}
    if table == "combat_combatant":
        row = dict(row)
        state = row.pop("state")
        return {**row, **{name: state.get(name, 0) for name in ("advantage_attack", "advantage_defense")}}
    if table == "combat_encounter":  # last_seq: combat 0008 reads it back from the log
        row = dict(row)
        row.pop("archived_at")
        row.pop("last_seq")
        row.pop("evening_start")  # combat 0010: empty, the evenings go by the time between events
        row.pop("seat_holder_id")  # combat 0012: the saga's storyguide, who made it here
        return row
    if table == "campaign_saga":
        row = dict(row)
        options = row.pop("options")
        row.pop("npc_rolls")
        row.pop("archived_at")
        return {**row, "d6_attributes": options.get("attributes", list(DEFAULT_ATTRIBUTES))}
    return row


def as_upgraded(kept: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """What the upgrade gives back: the same rows, a d6 saga's attribute names now always written down,
    and a combatant that carries no advantage with nothing in its state."""
    written = {"attributes": list(DEFAULT_ATTRIBUTES)}
    d6_sagas = [
        {**row, "options": row["options"] or written} if row["rule_system"] == "d6fatigue" else row
        for row in kept["campaign_saga"]
    ]
    combatants = [
        {**row, "state": row["state"] if any(row["state"].values()) else {}}
        for row in kept["combat_combatant"]
    ]
    return {**kept, "campaign_saga": d6_sagas, "combat_combatant": combatants}


def in_dependency_order(models: list) -> list:
    ordered: list = []

    def visit(model):
        if model in ordered:
            return
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model in models and field.related_model is not model:
                visit(field.related_model)
        ordered.append(model)

    for model in models:
        visit(model)
    return ordered


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_split_migrates_forward_with_nothing_lost(monkeypatch, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    ars_table = play_ars_magica_round(monkeypatch)
    d6_table = play_d6_fight_and_chase(monkeypatch)
    SIDES_AS_A_CHOICE.sides_as_a_choice(live_apps, None)
    kept = rows()
    kept["combat_encountersummary"] = []  # folded from the log: a database from before has none
    assert len(kept["combat_declaration"]) == 4 and len(kept["combat_sagarecord"]) == 2
    assert kept["d6table_fight"] and kept["d6table_chase"] and kept["d6table_runner"]
    kinds = {row["kind"] for row in kept["combat_event"]}
    assert {"declared", "attack", "fatigue_roll", "correction", "round_ended"} <= kinds
    assert {"d6_fight_started", "d6_roll", "d6_chase_started", "d6_exchange", "d6_terrain_chosen"} <= kinds
    levels = {
        row["name"]: (row["sheet"]["fatigue_level"], row["sheet"]["body_level"])
        for row in kept["campaign_character"]
        if row["saga_id"] == ars_table.saga.pk
    }
    assert levels["Sir Boris"][0] != "fresh" and levels["Brother Anselm"][1] == "hurt"
    before = pages(ars_table, d6_table)
    boris_sheet = f"sg {reverse('character_detail', args=[ars_table.boris_character.pk])}"
    marta_sheet = f"d6-alice {reverse('character_detail', args=[d6_table.marta_character.pk])}"
    boris_level = levels["Sir Boris"][0].title().encode()
    assert b"<dt>Fatigue level</dt><dd>%s</dd>" % boris_level in before[boris_sheet]
    assert b"<dt>Fatigue</dt><dd><strong>4</strong>" in before[marta_sheet]

    try:
        rebuild_before_the_split(kept)
    finally:
        migrate(latest())  # whatever happens, the other tests get today's schema back

    assert MigrationExecutor(connection).migration_plan(latest()) == []
    assert rows() == as_upgraded(kept)
    after = pages(ars_table, d6_table)
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key
    declarations = Declaration.objects.filter(encounter=ars_table.encounter).order_by("pk")
    names = [d.combatant.character.name for d in declarations]
    assert names == ["Sir Boris", "Bandit 1", "Bandit 2", "Bandit 3"]
    assert {d.weapon.name for d in declarations} == {"Sword", "Dagger"}
