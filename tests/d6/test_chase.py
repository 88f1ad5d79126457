"""Chases through the services: the 3-point rule, dropping out, terrain changes chosen by the
target's player, and no breather while running."""

import pytest

from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from d6 import services
from d6.models import Chase, Runner

pytestmark = pytest.mark.django_db

STREETS = [("Market streets", "Running"), ("The river", "Swimming")]


def start(table, chasers=None, **kwargs):
    chasers = chasers or [(table.bandits[0].pk, 2), (table.bandits[1].pk, 3)]
    return services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, chasers, STREETS, **kwargs
    )


def runner(chase, combatant):
    return Runner.objects.get(chase=chase, combatant=combatant)


def test_a_chase_starts_with_each_chaser_behind_the_target(table):
    chase = start(table)
    assert chase.stretches == [{"name": "Market streets", "rolled": "Running", "starts_at": 1}]
    assert [(r.role, r.distance) for r in chase.runners.all()] == [
        ("target", None),
        ("chaser", 2),
        ("chaser", 3),
    ]
    event = table.refresh().events.order_by("-seq").first()
    assert event.kind == "d6_chase_started"
    assert event.payload["target_name"] == "Marta"
    assert table.refresh().status == "running"


def test_three_or_more_higher_closes_a_square_and_passing_becomes_an_action(table, dice):
    chase = start(table)
    # Exchange 1, Running (C1): Marta 4,6 → 6; Bandit 1 5,ten → 10 (+4: closes 2 → 1); Bandit 2 4,1 → 4 (-2).
    dice(4, 6, 5, 0, 4, 1)
    first = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert [r["result"] for r in first["rolls"]] == [6, 10, 4]
    assert [r.get("margin") for r in first["rolls"]] == [None, 4, -2]
    assert first["distances_after"] == {str(table.bandits[0].pk): 1, str(table.bandits[1].pk): 3}
    assert first["outcome"] == "ongoing"
    # Exchange 2: Marta 2,3 → 3 (her fatigue 3 → 4); Bandit 1 6,9 → 9 at distance 1: acts instead of passing.
    dice(2, 3, 6, 9)
    second = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (second["outcome"], second["caught_by_name"], second["acts_against_target"]) == (
        "caught",
        "Bandit 1",
        True,
    )
    assert len(second["rolls"]) == 2  # Bandit 2 does not roll after the catch
    assert table.fatigue(table.marta) == 4
    chase.refresh_from_db()
    assert (chase.outcome, chase.caught_by_id, chase.exchanges) == ("caught", table.bandits[0].pk, 2)
    assert list(table.refresh().events.order_by("-seq").values_list("kind", flat=True)[:2]) == [
        "d6_chase_ended",
        "d6_exchange",
    ]


def test_three_or_more_lower_the_target_pulls_away(table, dice):
    chase = start(table, [(table.bandits[0].pk, 2)])
    dice(5, 9, 4, 2)  # Marta 9, Bandit 1 4: -5
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert result["moves"][0]["mover_name"] == "Marta"
    assert runner(chase, table.bandits[0]).distance == 3


def test_a_chaser_failing_the_fatigue_check_lets_the_target_escape(table, dice):
    chase = start(table, [(table.bandits[0].pk, 2)])
    dice(5, 5, 1, 2)  # Bandit 1: die result 2 below fatigue 4: drops out
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (result["outcome"], result["dropped_out"]) == ("escaped", ["Bandit 1"])
    chase.refresh_from_db()
    assert chase.outcome == "escaped"
    assert runner(chase, table.bandits[0]).status == "dropped_out"
    with pytest.raises(WrongPhase, match="No chase is running"):
        services.exchange(table.storyguide, table.encounter.pk, table.v)


def test_a_target_failing_the_fatigue_check_is_caught(table, dice):
    start(table)
    dice(1, 2)  # Marta: die result 2 below fatigue 3
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (result["outcome"], result["caught_by_name"], result["acts_against_target"]) == (
        "caught",
        "Bandit 1",
        False,
    )


def test_only_the_targets_player_chooses_the_offered_terrain(table, dice):
    chase = start(table)
    offer = services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    assert offer["chooser"] == "alice"
    with pytest.raises(NotAllowed, match="Only Marta's player"):
        services.choose_terrain(table.bob, table.encounter.pk, table.v, "The river")
    with pytest.raises(NotAllowed):
        services.choose_terrain(table.storyguide, table.encounter.pk, table.v, "The river")
    with pytest.raises(InvalidCommand, match="was not offered"):
        services.choose_terrain(table.alice, table.encounter.pk, table.v, "Rooftops")
    chosen = services.choose_terrain(table.alice, table.encounter.pk, table.v, "The river")
    assert chosen["after"] == {"name": "The river", "rolled": "Swimming"}
    chase.refresh_from_db()
    assert [s["name"] for s in chase.stretches] == ["Market streets", "The river"]
    assert chase.offered == []
    dice(4, 5, 6)  # Swimming is C0: one d6 each
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert result["terrain"] == {"name": "The river", "rolled": "Swimming"}
    assert [r["faces"] for r in result["rolls"]] == [[4], [5], [6]]


def test_the_storyguide_chooses_for_an_npc_target(table):
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, [(table.marta.pk, 2)], STREETS
    )
    services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    with pytest.raises(NotAllowed):
        services.choose_terrain(table.alice, table.encounter.pk, table.v, "The river")
    services.choose_terrain(table.storyguide, table.encounter.pk, table.v, "The river")
    assert Chase.objects.get().stretches[-1]["name"] == "The river"


def test_a_terrain_a_runner_cannot_roll_is_refused(table):
    start(table)
    with pytest.raises(InvalidCommand, match="Marta's sheet has no 'Climbing' to roll on Rooftops"):
        services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("Rooftops", "Climbing")])
    assert Chase.objects.get().offered == []


def test_fatigue_cannot_be_lowered_during_a_chase(table, dice):
    dice(2, 3, 8, 4, 5, 1, 1, 6)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    start(table)
    with pytest.raises(WrongPhase, match="fatigue cannot be lowered during a chase"):
        services.take_breather(table.storyguide, table.encounter.pk, table.v)
    with pytest.raises(WrongPhase, match="Marta is still running"):
        services.runner_breather(table.storyguide, table.encounter.pk, table.v, table.marta.pk)
    with pytest.raises(WrongPhase, match="A chase is running"):
        services.end_turn(table.storyguide, table.encounter.pk, table.v)


def test_a_chaser_who_dropped_out_stands_still_and_gets_a_breather(table, dice):
    chase = start(table)
    # Marta 5,5 → 5; Bandit 1 1,2 → 2 below fatigue 4: out (its d6 1 raises fatigue to 5); Bandit 2 4,4 → 4.
    dice(5, 5, 1, 2, 4, 4)
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert runner(chase, table.bandits[0]).status == "dropped_out"
    assert table.fatigue(table.bandits[0]) == 5
    result = services.runner_breather(table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk)
    assert (result["fatigue_before"], result["fatigue_after"]) == (5, 4)
    assert table.fatigue(table.bandits[0]) == 4


def test_bad_chase_setups_are_refused_with_a_reason(table):
    with pytest.raises(InvalidCommand, match="at least one chaser"):
        services.start_chase(table.storyguide, table.encounter.pk, table.v, table.marta.pk, [], STREETS)
    with pytest.raises(InvalidCommand, match="cannot chase themself"):
        services.start_chase(
            table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.marta.pk, 2)], STREETS
        )
    with pytest.raises(InvalidCommand, match="1 to 30 squares"):
        services.start_chase(
            table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 0)], STREETS
        )
    with pytest.raises(InvalidCommand, match="Name the terrain"):
        services.start_chase(
            table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], []
        )
    with pytest.raises(InvalidCommand, match="Brother Anselm's sheet has no 'Running'"):
        services.start_chase(
            table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.anselm.pk, 2)], STREETS
        )
    assert not Chase.objects.exists()


def test_a_stale_exchange_is_refused_and_rolls_nothing(table, dice):
    start(table)
    version = table.v
    dice(4, 6, 4, 6, 4, 6)
    services.exchange(table.storyguide, table.encounter.pk, version)
    with pytest.raises(StaleCommand):
        services.exchange(table.storyguide, table.encounter.pk, version)
    assert Chase.objects.get().exchanges == 1


def test_only_the_storyguide_runs_the_chase(table):
    with pytest.raises(NotAllowed):
        services.start_chase(
            table.alice, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
        )
    start(table)
    with pytest.raises(NotAllowed):
        services.exchange(table.bob, table.encounter.pk, table.v)


def test_physical_dice_for_an_exchange_are_typed_per_runner(physical_table):
    table = physical_table
    start(table, [(table.bandits[0].pk, 2)])
    marta, bandit = str(table.marta.pk), str(table.bandits[0].pk)
    with pytest.raises(InvalidCommand, match="Type Bandit 1's dice"):
        services.exchange(table.storyguide, table.encounter.pk, table.v, {marta: "4 6"})
    result = services.exchange(table.storyguide, table.encounter.pk, table.v, {marta: "4 6", bandit: "5 10"})
    assert [r["faces"] for r in result["rolls"]] == [[4, 6], [5, 10]]
    assert result["distances_after"] == {bandit: 1}


def test_escape_distance_loses_sight(table, dice):
    chase = start(table, [(table.bandits[0].pk, 2)], escape_distance=3)
    dice(5, 9, 4, 2)  # -5: the target pulls away to 3, the escape distance
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (result["lost_sight"], result["outcome"]) == (["Bandit 1"], "escaped")
    assert runner(chase, table.bandits[0]).status == "lost_sight"
