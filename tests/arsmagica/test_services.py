"""The round, step by step, through the services: given these sheets and these dice, this happens."""

import pytest

from arsmagica import services
from arsmagica.models import Declaration
from arsmagica.sheet import carried
from arsmagica.sheet import sheet_of as ars_sheet
from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.models import Encounter, Event
from combat.services import setup

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db


def kinds(encounter):
    return list(encounter.events.order_by("seq").values_list("kind", flat=True))


def start(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)


def through_movement(table, scripted_dice):
    scripted_dice(table, P168_FACES)
    start(table)
    table.declare_p168()
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)


def passed_by_itself(table, phase) -> list:
    """The quiet `phase_resolved` event of a phase nobody acted in, this round (empty if none)."""
    encounter = table.refresh()
    return list(
        encounter.events.filter(
            kind="phase_resolved",
            round_number=encounter.round_number,
            payload__phase=phase,
            payload__quiet=True,
        )
    )


def resolve(table, phase, options=None):
    """Roll and confirm the phase; a phase nobody acts in has passed by itself (its quiet event)."""
    if table.refresh().phase != phase:
        quiet = passed_by_itself(table, phase)
        assert quiet, f"{phase} neither is the round's phase nor passed by itself"
        return quiet
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, phase)
    return services.confirm_phase(table.storyguide, table.encounter.pk, table.v, phase, options)


def test_setup_puts_characters_on_sides_and_logs_it(table):
    encounter = table.refresh()
    assert encounter.status == Encounter.Status.PREPARING
    assert sorted(encounter.combatants.values_list("side", flat=True)) == ["Bandits"] * 3 + ["Companions"] * 2
    assert kinds(encounter) == ["encounter_created"] + ["combatant_added"] * 5
    assert list(encounter.events.values_list("seq", flat=True)) == [1, 2, 3, 4, 5, 6]


def test_only_the_storyguide_creates_encounters(table):
    with pytest.raises(NotAllowed):
        services.create_encounter(table.alice, table.saga.pk, "Mine")
    assert Encounter.objects.count() == 1


def test_a_character_joins_a_fight_once(table):
    with pytest.raises(InvalidCommand, match="Already in the fight: Sir Boris"):
        services.add_combatants(
            table.storyguide, table.encounter.pk, table.v, [table.boris_character.pk], "Again"
        )


def test_opening_declarations_starts_round_one(table):
    start(table)
    encounter = table.refresh()
    assert (encounter.status, encounter.round_number, encounter.phase) == ("running", 1, "declaring")
    assert kinds(encounter)[-1] == "declarations_opened"
    assert len(encounter.round_log["start"]) == 5


def test_a_player_declares_for_their_own_character(table):
    start(table)
    row = services.declare(
        table.alice,
        table.encounter.pk,
        table.boris.pk,
        {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]},
    )
    assert row.declared_by == table.alice
    event = table.refresh().events.order_by("-seq").first()
    assert (event.kind, event.storyguide_only, event.payload["name"]) == ("declared", False, "Sir Boris")


def test_a_player_cannot_declare_for_another_players_character(table):
    start(table)
    with pytest.raises(NotAllowed, match="Brother Anselm"):
        services.declare(table.alice, table.encounter.pk, table.anselm.pk, {"action": "other"})
    assert not Declaration.objects.exists()


def test_a_player_cannot_declare_for_an_npc(table):
    start(table)
    with pytest.raises(NotAllowed):
        services.declare(table.alice, table.encounter.pk, table.bandits[0].pk, {"action": "other"})
    assert not Declaration.objects.exists()


def test_the_storyguide_declares_for_npcs_and_the_log_hides_it_from_players(table):
    start(table)
    services.declare(
        table.storyguide,
        table.encounter.pk,
        table.bandits[0].pk,
        {"action": "attack", "weapon_id": table.weapon(table.bandits[0]), "engage": [table.boris.pk]},
    )
    event = table.refresh().events.order_by("-seq").first()
    assert event.kind == "declared" and event.storyguide_only


def test_a_declaration_the_rules_refuse_says_why(table):
    start(table)
    with pytest.raises(InvalidCommand, match="without naming a weapon"):
        services.declare(
            table.alice,
            table.encounter.pk,
            table.boris.pk,
            {"action": "attack", "engage": [table.bandits[0].pk]},
        )
    assert not Declaration.objects.exists()


def test_declaring_a_second_time_changes_the_declaration(table):
    start(table)
    services.declare(table.alice, table.encounter.pk, table.boris.pk, {"action": "other"})
    services.declare(
        table.alice, table.encounter.pk, table.boris.pk, {"action": "move", "movement": "walking"}
    )
    assert Declaration.objects.get().action == "move"


def test_declarations_are_refused_once_closed(table, scripted_dice):
    through_movement(table, scripted_dice)
    with pytest.raises(WrongPhase, match="closed"):
        services.declare(table.alice, table.encounter.pk, table.boris.pk, {"action": "other"})


def test_closing_declarations_rolls_initiative_and_settles_engagements_p168(table, scripted_dice):
    through_movement(table, scripted_dice)
    encounter = table.refresh()
    assert encounter.phase == "melee"  # nobody shoots or casts: First Missile passed by itself
    movement = encounter.events.get(kind="movement").payload
    ids = table.ids()
    order = [(row["combatant"], row["total"]) for row in movement["initiative"]]
    assert order == [(ids["bandit1"], 23), (ids["boris"], 20), (ids["bandit2"], 15), (ids["bandit3"], 11)]
    pairs = {(e["a"], e["b"]): e for e in movement["engagements"]}
    assert len(pairs) == 3
    dagger = next(e for e in movement["engagements"] if ids["bandit3"] in (e["a"], e["b"]))
    assert dagger["range"] == "reach" and dagger["prevailed"] == ids["boris"]  # his 11 against Sir Boris' 20
    assert movement["initiative"][0]["roll"]["faces"] == [1, 9]


def test_melee_totals_of_p168_and_wounds_on_the_rows(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    events = resolve(table, "melee")
    ids = table.ids()
    attacks = [e.payload for e in events if e.kind == "attack"]
    by_pair = {(a["attacker"], a["defender"]): a for a in attacks}
    for bandit in ("bandit1", "bandit2", "bandit3"):
        assert by_pair[(ids["boris"], ids[bandit])]["attack_total"] == 11  # 10 + 7 - 6
    assert by_pair[(ids["bandit1"], ids["boris"])]["defense_total"] == 9  # 8 + 7 - 6
    assert (ids["bandit3"], ids["boris"]) not in by_pair  # a dagger cannot strike at Reach
    boris_vs_b1 = by_pair[(ids["boris"], ids["bandit1"])]
    assert boris_vs_b1["defense_total"] == 9 and boris_vs_b1["result"] == "hit"
    assert boris_vs_b1["damage_total"] == 7 + 2 and boris_vs_b1["body_levels_lost"] == 1  # 9 - Soak 3 = 6
    table.bandit_characters[0].refresh_from_db()
    assert ars_sheet(table.bandit_characters[0]).body_level == "hurt"
    assert table.refresh().phase == "fatigue"  # Second Missile and Magic pass by themselves
    resolved = next(e for e in events if e.kind == "phase_resolved")
    assert resolved.payload["phase"] == "melee" and "quiet" not in resolved.payload
    assert [e.payload["phase"] for e in events if e.payload.get("quiet")] == ["second_missile", "magic"]


def test_a_second_click_on_confirm_melee_resolves_nothing_twice(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    version = table.v
    services.confirm_phase(table.storyguide, table.encounter.pk, version, "melee")
    attacks = Event.objects.filter(kind="attack").count()
    seqs = Event.objects.count()
    with pytest.raises(StaleCommand):
        services.confirm_phase(table.storyguide, table.encounter.pk, version, "melee")
    assert Event.objects.filter(kind="attack").count() == attacks
    assert Event.objects.count() == seqs
    table.bandit_characters[0].refresh_from_db()
    assert ars_sheet(table.bandit_characters[0]).body_level == "hurt"  # wounded once, not twice


def test_confirming_a_phase_that_was_not_previewed_is_refused(table, scripted_dice):
    through_movement(table, scripted_dice)
    with pytest.raises(WrongPhase, match="Roll Melee first"):
        services.confirm_phase(table.storyguide, table.encounter.pk, table.v, "melee")


def test_resolving_the_wrong_phase_is_refused(table, scripted_dice):
    through_movement(table, scripted_dice)
    with pytest.raises(WrongPhase, match="not Fatigue"):
        services.preview_phase(table.storyguide, table.encounter.pk, table.v, "fatigue")


def test_switching_a_hit_to_advantage_before_confirming(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    ids = table.ids()
    events = resolve(table, "melee", {"on_success": {f"{ids['boris']}:{ids['bandit1']}": "advantage_attack"}})
    attack = next(
        e.payload
        for e in events
        if e.kind == "attack"
        and (e.payload["attacker"], e.payload["defender"]) == (ids["boris"], ids["bandit1"])
    )
    assert attack["result"] == "advantage" and attack["difference"] == 2
    table.bandit_characters[0].refresh_from_db()
    assert ars_sheet(table.bandit_characters[0]).body_level == "unhurt"
    for phase in ("second_missile", "magic", "fatigue"):
        resolve(table, phase)
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    table.boris.refresh_from_db()
    assert (carried(table.boris).advantage_attack, carried(table.boris).advantage_defense) == (2, 0)
    assert table.refresh().round_number == 2


def test_a_preview_keeps_its_dice_when_the_storyguide_changes_options(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    first = services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    ids = table.ids()
    second = services.preview_phase(
        table.storyguide, table.encounter.pk, table.v, "melee", {"modifiers": {ids["boris"]: "3"}}
    )
    assert first["dice"] == second["dice"]
    totals = {(a["attacker"], a["defender"]): a["attack_total"] for a in second["result"]["attacks"]}
    assert totals[(ids["boris"], ids["bandit1"])] == 14


def test_bad_options_are_refused_with_a_name(table, scripted_dice):
    through_movement(table, scripted_dice)
    with pytest.raises(InvalidCommand, match="Sir Boris: botch dice go from 0 to 10"):
        services.preview_phase(
            table.storyguide,
            table.encounter.pk,
            table.v,
            "melee",
            {"botch_dice": {table.ids()["boris"]: "11"}},
        )


def test_fatigue_phase_with_a_changed_ease_factor(table, scripted_dice):
    through_movement(table, scripted_dice)
    for phase in ("first_missile", "melee", "second_missile", "magic"):
        resolve(table, phase)
    ids = table.ids()
    pending = services.preview_phase(table.storyguide, table.encounter.pk, table.v, "fatigue")
    rolls = {r["combatant"]: r for r in pending["result"]["fatigue"]}
    assert set(rolls) == {ids["boris"], ids["bandit1"], ids["bandit2"], ids["bandit3"]}
    assert rolls[ids["boris"]]["roll"]["faces"] == [9]
    events = services.confirm_phase(
        table.storyguide, table.encounter.pk, table.v, "fatigue", {"ease_factors": {ids["boris"]: "30"}}
    )
    boris = next(
        e.payload for e in events if e.kind == "fatigue_roll" and e.payload["combatant"] == ids["boris"]
    )
    assert boris["ease_factor"] == 30 and boris["levels_lost"] == 1
    table.boris_character.refresh_from_db()
    assert ars_sheet(table.boris_character).fatigue_level == "winded"
    assert table.refresh().phase == "round_over"


def test_a_whole_round_then_the_next_opens(table, scripted_dice):
    through_movement(table, scripted_dice)
    for phase in ("first_missile", "melee", "second_missile", "magic", "fatigue"):
        resolve(table, phase)
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    assert (encounter.round_number, encounter.phase) == (2, "declaring")
    seqs = list(encounter.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # gapless
    assert encounter.last_seq == seqs[-1]  # kept with the log: the next command numbers on from it
    assert kinds(encounter)[-2:] == ["round_ended", "declarations_opened"]


def test_ending_the_round_early_is_refused(table, scripted_dice):
    through_movement(table, scripted_dice)
    with pytest.raises(WrongPhase):
        services.end_round(table.storyguide, table.encounter.pk, table.v)


def test_players_cannot_drive_the_round(table, scripted_dice):
    with pytest.raises(NotAllowed):
        services.open_declarations(table.alice, table.encounter.pk, table.v)
    through_movement(table, scripted_dice)
    with pytest.raises(NotAllowed):
        services.preview_phase(table.alice, table.encounter.pk, table.v, "first_missile")
    with pytest.raises(NotAllowed):
        services.correct(
            table.alice, table.encounter.pk, table.v, table.boris.pk, {"body_level": "hurt"}, "x"
        )
    with pytest.raises(NotAllowed):
        services.end_encounter(table.alice, table.encounter.pk, table.v)


def test_physical_dice_typed_in_give_exact_totals(physical_table):
    table = physical_table
    start(table)
    table.declare_p168(P168_FACES)
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    movement = table.refresh().events.get(kind="movement").payload
    assert [row["total"] for row in movement["initiative"]] == [23, 20, 15, 11]
    resolve(table, "first_missile")
    pending = services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    assert {
        a["attack_total"] for a in pending["result"]["attacks"] if a["attacker"] == str(table.boris.pk)
    } == {11}


def test_physical_dice_missing_are_named(physical_table):
    table = physical_table
    start(table)
    faces = dict(P168_FACES)
    faces["bandit2"] = {}
    table.declare_p168(faces)
    with pytest.raises(InvalidCommand, match="Waiting for typed Initiative dice from: Bandit 2"):
        services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().phase == "declaring"


def test_physical_dice_that_run_short_say_whose(physical_table):
    table = physical_table
    start(table)
    faces = {name: dict(purposes) for name, purposes in P168_FACES.items()}
    faces["boris"]["initiative"] = [1]  # a 1 rolls again: one more face is needed
    table.declare_p168(faces)
    with pytest.raises(InvalidCommand, match="Sir Boris's Initiative roll needs another die"):
        services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    assert not Event.objects.filter(kind="movement").exists()


def test_the_storyguide_types_missing_faces_in_the_preview(physical_table):
    table = physical_table
    start(table)
    faces = {name: {"initiative": purposes["initiative"]} for name, purposes in P168_FACES.items()}
    table.declare_p168(faces)
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    resolve(table, "first_missile")
    with pytest.raises(InvalidCommand, match="combat die"):
        services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    ids = table.ids()
    typed = {
        ids[name]: {"combat": P168_FACES[name]["combat"]}
        for name in ("boris", "bandit1", "bandit2", "bandit3")
    }
    pending = services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee", faces=typed)
    assert pending["dice"][ids["boris"]]["combat"] == [7]


def test_a_correction_is_a_new_event_with_a_reason(table, scripted_dice):
    through_movement(table, scripted_dice)
    before = Event.objects.count()
    event = services.correct(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.boris.pk,
        {"body_level": "light_wounds", "fatigue_level": ""},
        "He was hurt in the ambush",
    )
    assert event.kind == "correction" and event.seq == before + 1 and not event.storyguide_only
    assert event.payload["changes"] == {"body_level": ["unhurt", "light_wounds"]}
    table.boris_character.refresh_from_db()
    assert ars_sheet(table.boris_character).body_level == "light_wounds"


def test_a_correction_mid_round_is_what_the_next_phase_sees(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "first_missile")
    services.correct(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.boris.pk,
        {"body_level": "medium_wounds"},
        "An arrow from the trees",
    )
    pending = services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    boris = next(a for a in pending["result"]["attacks"] if a["attacker"] == str(table.boris.pk))
    assert boris["attack_total"] == 11 - 3  # the Medium Wounds penalty


def test_a_correction_needs_a_reason(table):
    with pytest.raises(InvalidCommand, match="reason"):
        services.correct(
            table.storyguide, table.encounter.pk, table.v, table.boris.pk, {"body_level": "hurt"}, " "
        )
    table.boris_character.refresh_from_db()
    assert ars_sheet(table.boris_character).body_level == "unhurt"


def test_a_stale_correction_is_refused(table):
    version = table.v
    services.correct(
        table.storyguide, table.encounter.pk, version, table.boris.pk, {"body_level": "hurt"}, "a"
    )
    with pytest.raises(StaleCommand):
        services.correct(
            table.storyguide, table.encounter.pk, version, table.boris.pk, {"body_level": "heavy_wounds"}, "b"
        )
    table.boris_character.refresh_from_db()
    assert ars_sheet(table.boris_character).body_level == "hurt"


def test_ending_the_encounter(table):
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    assert encounter.status == "ended" and kinds(encounter)[-1] == "encounter_ended"
    with pytest.raises(WrongPhase):
        services.end_encounter(table.storyguide, table.encounter.pk, table.v)


def test_a_fight_needs_two_sides(table):
    encounter = services.create_encounter(table.storyguide, table.saga.pk, "Lonely")
    services.add_combatants(table.storyguide, encounter.pk, 1, [table.boris_character.pk], "Companions")
    with pytest.raises(InvalidCommand, match="two sides"):
        services.open_declarations(table.storyguide, encounter.pk, 2)


def test_removing_a_combatant_while_declaring(table):
    start(table)
    services.remove_combatant(table.storyguide, table.encounter.pk, table.v, table.anselm.pk)
    encounter = table.refresh()
    assert encounter.combatants.count() == 4 and len(encounter.round_log["start"]) == 4
    assert kinds(encounter)[-1] == "combatant_removed"


def test_an_encounter_runs_the_rule_system_its_saga_plays(table):
    table.saga.rule_system = "d6fatigue"
    table.saga.save()
    before = Encounter.objects.count()
    with pytest.raises(InvalidCommand, match="plays d6 fatigue track"):
        services.create_encounter(table.storyguide, table.saga.pk, "Wrong table")
    encounter = setup.create_encounter(table.storyguide, table.saga.pk, "Chase", rule_system="d6fatigue")
    assert Encounter.objects.count() == before + 1 and encounter.saga == table.saga


def test_a_correction_while_declaring_is_the_rounds_start(table, scripted_dice):
    """Issue 9's defect: Bandit 3, knocked out by a correction after declaring, starts the round
    incapacitated: his declaration no longer stands, the round rebuilds from its log and every phase rolls."""
    scripted_dice(table, P168_FACES)
    start(table)
    table.declare_p168()
    bandit3 = table.bandits[2]
    services.correct(
        table.storyguide, table.encounter.pk, table.v, bandit3.pk, {"body_level": "incapacitated"}, "Out"
    )
    start_entry = next(e for e in table.refresh().round_log["start"] if e["id"] == str(bandit3.pk))
    assert start_entry["body_level"] == "incapacitated"
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    for phase in ("first_missile", "melee"):
        resolve(table, phase)
    assert table.refresh().phase == "fatigue"
