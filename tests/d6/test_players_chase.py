"""Players in a chase, by persona: typing their own dice (physical dice) and, for a chaser one
square behind, choosing to act against the target or move ahead of it."""

import pytest
from django.urls import reverse

from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from d6 import services
from d6.models import Chase, Runner

pytestmark = pytest.mark.django_db

STREETS = [("Market streets", "Running"), ("The river", "Swimming")]
FIELD = [("Open field", "dexterity")]


def runner(combatant):
    return Runner.objects.get(combatant=combatant, chase__outcome="ongoing")


def url(name, table):
    return reverse(name, args=[table.encounter.pk])


def chase_with_bandit(table):
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.bandits[0].pk, 2)], STREETS
    )


def test_the_targets_player_types_their_dice_and_the_exchange_uses_them(physical_table):
    table = physical_table
    chase_with_bandit(table)
    marta, bandit = str(table.marta.pk), str(table.bandits[0].pk)
    with pytest.raises(InvalidCommand, match="Waiting for Marta's dice: alice types them"):
        services.exchange(table.storyguide, table.encounter.pk, table.v, {bandit: "5 10"})
    with pytest.raises(InvalidCommand, match="type 2 faces, not 3"):
        services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6 1")
    assert runner(table.marta).faces == []
    payload = services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")
    assert (payload["faces"], payload["exchange"], payload["rolled"]) == ([4, 6], 1, "Running")
    assert runner(table.marta).faces == [4, 6]
    assert table.refresh().events.order_by("-seq").first().kind == "d6_faces_in"
    result = services.exchange(table.storyguide, table.encounter.pk, table.v, {marta: "", bandit: "5 10"})
    assert [r["faces"] for r in result["rolls"]] == [[4, 6], [5, 10]]
    assert runner(table.marta).faces == []  # used up


def test_only_the_runners_player_or_the_storyguide_types_their_dice(physical_table):
    table = physical_table
    chase_with_bandit(table)
    with pytest.raises(NotAllowed):
        services.enter_faces(table.bob, table.encounter.pk, 1, table.marta.pk, "4 6")
    with pytest.raises(NotAllowed):
        services.enter_faces(table.alice, table.encounter.pk, 1, table.bandits[0].pk, "4 6")
    services.enter_faces(table.storyguide, table.encounter.pk, 1, table.bandits[0].pk, "3 2")
    assert runner(table.bandits[0]).faces == [3, 2]
    assert runner(table.marta).faces == []


def test_dice_typed_for_an_exchange_already_rolled_are_refused(physical_table):
    table = physical_table
    chase_with_bandit(table)
    services.exchange(
        table.storyguide,
        table.encounter.pk,
        table.v,
        {str(table.marta.pk): "4 6", str(table.bandits[0].pk): "4 6"},
    )
    with pytest.raises(StaleCommand, match="exchange 2"):
        services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")
    assert runner(table.marta).faces == []


def test_a_terrain_change_clears_dice_typed_for_the_old_ground(physical_table):
    table = physical_table
    chase_with_bandit(table)
    services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")
    services.offer_terrain(table.storyguide, table.encounter.pk, table.v, [("The river", "Swimming")])
    payload = services.choose_terrain(table.alice, table.encounter.pk, table.v, "The river")
    assert payload["dice_cleared"] == ["Marta"]
    assert runner(table.marta).faces == []


def test_with_server_dice_the_storyguide_rolls_for_everyone(table):
    chase_with_bandit(table)
    with pytest.raises(WrongPhase, match="rolled by the server"):
        services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")


def start_field(table, distance=1):
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.marta.pk, [(table.anselm.pk, distance)], FIELD
    )


def test_the_chasers_player_moves_ahead_instead_of_acting(table, dice):
    """'During the roll in which the chaser would surpass the chase target, he or she can take an
    action against the target instead of moving ahead of the target.'"""
    start_field(table)
    with pytest.raises(NotAllowed):
        services.choose_at_target(table.alice, table.encounter.pk, 1, table.anselm.pk, True)
    with pytest.raises(InvalidCommand, match="Only a chaser"):
        services.choose_at_target(table.alice, table.encounter.pk, 1, table.marta.pk, True)
    payload = services.choose_at_target(table.bob, table.encounter.pk, 1, table.anselm.pk, True)
    assert payload["move_ahead"] is True
    assert runner(table.anselm).moves_ahead is True
    dice(3, 1, 2, 6)  # Marta, Dexterity C2: 3; Anselm, Dexterity C0: 6: 3 higher, would pass her
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (result["outcome"], result["moved_ahead"], result["acts_against_target"]) == (
        "overtaken",
        ["Brother Anselm"],
        False,
    )
    chase = Chase.objects.get(encounter=table.encounter)
    assert chase.outcome == "overtaken" and chase.caught_by is None
    row = Runner.objects.get(chase=chase, combatant=table.anselm)
    assert (row.status, row.distance) == ("ahead", -1)
    ended = table.refresh().events.order_by("-seq").first()
    assert (ended.kind, ended.payload["outcome"], ended.payload["moved_ahead"]) == (
        "d6_chase_ended",
        "overtaken",
        ["Brother Anselm"],
    )


def test_by_default_the_chaser_acts_against_the_target(table, dice):
    start_field(table)
    services.choose_at_target(table.bob, table.encounter.pk, 1, table.anselm.pk, True)
    services.choose_at_target(table.storyguide, table.encounter.pk, 1, table.anselm.pk, False)
    dice(3, 1, 2, 6)
    result = services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert (result["outcome"], result["acts_against_target"], result["moved_ahead"]) == ("caught", True, [])


def test_the_choice_at_the_target_is_refused_when_stale_or_out(table, dice):
    start_field(table, distance=3)
    dice(6, 9, 9, 1)  # Marta 9, Anselm 1 (below fatigue 2): Anselm drops out; the target escapes
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    with pytest.raises(WrongPhase, match="No chase"):
        services.choose_at_target(table.bob, table.encounter.pk, 2, table.anselm.pk, True)
    start_field(table, distance=2)
    with pytest.raises(StaleCommand):
        services.choose_at_target(table.bob, table.encounter.pk, 5, table.anselm.pk, True)


def test_chase_views_by_persona(client, physical_table):
    table = physical_table
    start_field(table)
    choice = {"exchange": "1", "combatant": table.anselm.pk, "at_target": "move_ahead"}
    client.force_login(table.alice)
    assert client.post(url("d6:at_target", table), choice).status_code == 403
    assert client.get(url("d6:at_target", table)).status_code == 405
    faces = {"exchange": "1", "combatant": table.marta.pk, f"faces-{table.marta.pk}": "3 1 2"}
    assert client.post(url("d6:chase_faces", table), faces).status_code == 200
    assert runner(table.marta).faces == [3, 1, 2]
    page = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert f'data-for-user="{table.alice.pk}" hidden data-testid="your-run-{table.marta.pk}"' in page
    assert f'data-testid="player-chase-typed-{table.marta.pk}"' in page
    client.force_login(table.outsider)
    assert client.post(url("d6:chase_faces", table), faces).status_code == 404
    client.force_login(table.bob)
    response = client.post(url("d6:at_target", table), {**choice, "at_target": "dance"})
    assert "Choose: act against the target" in response.content.decode()
    assert client.post(url("d6:at_target", table), choice).status_code == 200
    assert runner(table.anselm).moves_ahead is True
    page = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert f'data-testid="at-target-{table.anselm.pk}" data-choice="move_ahead"' in page
    assert f'data-testid="player-at-target-ahead-{table.anselm.pk}"' in page
