"""The turn-based d6 fight through the services: given these sheets and these dice, this happens."""

import pytest

from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.models import Encounter
from d6 import services
from d6.models import Fight
from d6.sheet import write

pytestmark = pytest.mark.django_db

# Initiative (Dexterity): Anselm C0 d6 2 → 2; Marta C2 3, 8, 4 → 8; Bandit 1 C1 5, 1 → 5;
# Bandit 2 C1 1, 6 → 6.
INITIATIVE = (2, 3, 8, 4, 5, 1, 1, 6)


def kinds(encounter):
    return list(encounter.events.order_by("seq").values_list("kind", flat=True))


def start(table, dice):
    dice(*INITIATIVE)
    return services.start_fight(table.storyguide, table.encounter.pk, table.v)


def order(fight):
    return [f.combatant.character.name for f in fight.fighters.select_related("combatant__character")]


def test_initiative_is_a_dexterity_challenge_highest_first(table, dice):
    fight = start(table, dice)
    assert order(fight) == ["Marta", "Bandit 2", "Bandit 1", "Brother Anselm"]
    encounter = table.refresh()
    assert (encounter.status, encounter.round_number) == (Encounter.Status.RUNNING, 1)
    event = encounter.events.order_by("-seq").first()
    assert event.kind == "d6_fight_started"
    assert [row["faces"] for row in event.payload["order"]] == [[3, 8, 4], [1, 6], [5, 1], [2]]
    assert fight.fighters.get(combatant=table.marta).base_fatigue == 3  # 4 - Stamina 1


def test_an_attack_then_the_defenders_roll_the_page_example(table, dice):
    start(table, dice)
    dice(2, 7, 3)  # Marta: d6 2, d10s 7 and 3 → die result 7; the d6 2 is below her fatigue 3
    attack = services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        value=6,
        target_id=table.bandits[1].pk,
    )
    assert (attack["die_result"], attack["success"], attack["defence_needed"]) == (7, True, True)
    assert (attack["fatigue_before"], attack["fatigue_after"]) == (3, 4)
    assert table.fatigue(table.marta) == 4
    fight = Fight.objects.get(encounter=table.encounter)
    assert fight.defence == {
        "attacker": str(table.marta.pk),
        "defender": str(table.bandits[1].pk),
        "value": 7,
    }

    # Bandit 2 has fatigue 4 and the d6 shows 3: fatigue becomes 5 (the seed's example).
    dice(3, 5)
    defence = services.roll(
        table.storyguide, table.encounter.pk, table.v, table.bandits[1].pk, "attribute:dexterity"
    )
    assert defence["value"] == 7  # a defence with no value must meet the attack's result
    assert (defence["defending"], defence["success"], defence["attacker_name"]) == (True, False, "Marta")
    assert (defence["fatigue_before"], defence["fatigue_after"]) == (4, 5)
    assert table.fatigue(table.bandits[1]) == 5
    fight.refresh_from_db()
    assert fight.defence == {}
    assert kinds(table.refresh())[-2:] == ["d6_roll", "d6_roll"]


def test_only_the_defender_rolls_while_a_defence_is_awaited(table, dice):
    start(table, dice)
    dice(5, 7, 3)
    services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.bandits[1].pk,
    )
    dice(5, 5)
    with pytest.raises(WrongPhase, match="Bandit 2 must defend first"):
        services.roll(
            table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, "attribute:dexterity"
        )


def test_fatigue_rises_at_most_once_per_turn(table, dice):
    start(table, dice)
    dice(2, 7, 3)
    services.roll(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", value=4
    )
    dice(1, 9, 9)  # the d6 1 is below fatigue 4 again, but the turn's one rise is spent
    second = services.roll(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", value=4
    )
    assert (second["fatigue_after"], second["rise_held_back"]) == (4, True)
    assert table.fatigue(table.marta) == 4


def test_a_failed_attack_needs_no_defence(table, dice):
    start(table, dice)
    services.end_turn(table.storyguide, table.encounter.pk, table.v)  # Bandit 2's turn
    write(table.bandits[1].character, fatigue=5)
    table.bandits[1].character.save()
    dice(2, 3)  # die result 3 below fatigue 5: fails outright
    attack = services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.bandits[1].pk,
        "attribute:dexterity",
        value=2,
        target_id=table.marta.pk,
    )
    assert (attack["auto_failed"], attack["success"], attack["defence_needed"]) == (True, False, False)
    assert Fight.objects.get(encounter=table.encounter).defence == {}
    assert attack["fatigue_after"] == 6  # a new turn: the d6 2 below 5 raises it


def test_a_non_physical_roll_neither_fails_nor_raises(table, dice):
    start(table, dice)
    dice(1, 2, 2)
    result = services.roll(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", physical=False
    )
    assert (result["physical"], result["auto_failed"], result["fatigue_after"]) == (False, False, 3)


def test_the_breather_is_the_turns_action_and_returns_fatigue_to_base(table, dice):
    start(table, dice)
    write(table.marta.character, fatigue=9)
    table.marta.character.save()
    result = services.take_breather(table.storyguide, table.encounter.pk, table.v)
    assert (result["fatigue_before"], result["fatigue_after"]) == (9, 3)
    assert table.fatigue(table.marta) == 3
    dice(4, 4, 4)
    with pytest.raises(InvalidCommand, match="took a breather"):
        services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    with pytest.raises(InvalidCommand, match="already took a breather"):
        services.take_breather(table.storyguide, table.encounter.pk, table.v)


def test_no_breather_after_acting(table, dice):
    start(table, dice)
    dice(4, 4, 4)
    services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    with pytest.raises(InvalidCommand, match="already acted"):
        services.take_breather(table.storyguide, table.encounter.pk, table.v)


def test_turns_pass_in_order_and_a_new_round_begins(table, dice):
    start(table, dice)
    names = []
    for _ in range(4):
        names.append(services.end_turn(table.storyguide, table.encounter.pk, table.v)["next_name"])
    assert names == ["Bandit 2", "Bandit 1", "Brother Anselm", "Marta"]
    fight = Fight.objects.get(encounter=table.encounter)
    assert (fight.round, fight.turn, table.refresh().round_number) == (2, 0, 2)
    assert table.refresh().events.order_by("-seq").first().payload["new_round"] is True


def test_a_defence_not_rolled_lapses_at_the_end_of_the_turn(table, dice):
    start(table, dice)
    dice(5, 7, 3)
    services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.bandits[1].pk,
    )
    ended = services.end_turn(table.storyguide, table.encounter.pk, table.v)
    assert ended["defence_lapsed"] == "Bandit 2"
    assert Fight.objects.get(encounter=table.encounter).defence == {}


def test_a_stale_command_changes_nothing(table, dice):
    start(table, dice)
    version = table.v
    services.end_turn(table.storyguide, table.encounter.pk, version)
    events = table.refresh().events.count()
    with pytest.raises(StaleCommand):
        services.end_turn(table.storyguide, table.encounter.pk, version)
    assert Fight.objects.get(encounter=table.encounter).turn == 1
    assert table.refresh().events.count() == events


def test_only_the_storyguide_runs_the_fight(table, dice):
    dice(*INITIATIVE)
    with pytest.raises(NotAllowed):
        services.start_fight(table.alice, table.encounter.pk, table.v)
    assert not Fight.objects.exists()


def test_the_fight_starts_once_with_two_combatants_at_least(table, dice):
    start(table, dice)
    with pytest.raises(WrongPhase, match="already started"):
        services.start_fight(table.storyguide, table.encounter.pk, table.v)


def test_a_score_the_sheet_lacks_is_refused(table, dice):
    start(table, dice)
    with pytest.raises(InvalidCommand, match="Marta's sheet has no ability 'Flying'"):
        services.roll(table.storyguide, table.encounter.pk, table.v, table.marta.pk, "ability:Flying")


def test_physical_dice_are_typed_d6_first_then_the_d10s(physical_table):
    table = physical_table
    typed = {
        str(table.anselm.pk): "2",
        str(table.marta.pk): "3 8 4",
        str(table.bandits[0].pk): "5 1",
        str(table.bandits[1].pk): "1 6",
    }
    with pytest.raises(
        InvalidCommand, match="Marta \\(initiative\\) rolls one d6 and 2 d10s: type 3 faces, not 2"
    ):
        services.start_fight(
            table.storyguide, table.encounter.pk, table.v, {**typed, str(table.marta.pk): "3 8"}
        )
    assert not Fight.objects.exists()
    fight = services.start_fight(table.storyguide, table.encounter.pk, table.v, typed)
    assert order(fight) == ["Marta", "Bandit 2", "Bandit 1", "Brother Anselm"]
    with pytest.raises(InvalidCommand, match="Marta's d6 shows 1 to 6, not 7"):
        services.roll(
            table.storyguide,
            table.encounter.pk,
            table.v,
            table.marta.pk,
            "attribute:dexterity",
            typed="7 1 1",
        )
    result = services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        value=9,
        typed="2 10 10",
    )
    assert (result["faces"], result["die_result"], result["success"]) == ([2, 10, 10], 11, True)


def test_an_ars_magica_encounter_is_refused(table, dice):
    table.saga.rule_system = "arsmagica"
    table.saga.save()
    dice(*INITIATIVE)
    with pytest.raises(InvalidCommand, match="plays Ars Magica"):
        services.start_fight(table.storyguide, table.encounter.pk, table.v)
