"""Players act for their own characters in a d6 fight, by persona: the owner, another player,
the storyguide, an outsider. Order (see test_fight.INITIATIVE): Marta (Alice's), Bandit 2,
Bandit 1, Brother Anselm (Bob's)."""

import pytest
from django.urls import reverse

from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from d6 import services
from d6.models import Fight
from d6.sheet import write

from .test_fight import INITIATIVE

pytestmark = pytest.mark.django_db


def start(table, dice):
    dice(*INITIATIVE)
    services.start_fight(table.storyguide, table.encounter.pk, table.v)


def fight(table):
    return Fight.objects.get(encounter=table.encounter)


def events(table):
    return list(table.refresh().events.order_by("seq").values_list("kind", flat=True))


def url(name, table):
    return reverse(name, args=[table.encounter.pk])


def test_the_owner_rolls_their_action_against_the_value_the_storyguide_set(table, dice):
    start(table, dice)
    services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, 6)
    assert fight(table).value == 6
    dice(4, 5, 3)  # Marta, Dexterity C2: die result 5, Potential 1 → 6 meets 6; the d6 4 is not below 3
    payload = services.roll(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.bandits[1].pk,
        potential=1,
    )
    assert (payload["value"], payload["potential"], payload["result"], payload["success"]) == (6, 1, 6, True)
    assert fight(table).defence == {
        "attacker": str(table.marta.pk),
        "defender": str(table.bandits[1].pk),
        "value": 6,
    }
    assert events(table)[-2:] == ["d6_value_set", "d6_roll"]
    assert table.refresh().events.order_by("-seq").first().actor == table.alice


def test_without_a_value_set_the_players_roll_has_none_and_the_defence_meets_its_result(table, dice):
    start(table, dice)
    dice(4, 5, 3)
    payload = services.roll(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.bandits[1].pk,
    )
    assert (payload["value"], payload["success"], payload["defence_needed"]) == (None, None, True)
    assert fight(table).defence["value"] == 5


def test_a_player_cannot_name_the_challenge_value_nor_roll_for_another(table, dice):
    start(table, dice)
    version = table.v
    with pytest.raises(NotAllowed, match="storyguide sets the challenge value"):
        services.roll(
            table.alice, table.encounter.pk, version, table.marta.pk, "attribute:dexterity", value=2
        )
    with pytest.raises(NotAllowed, match="Marta's player"):
        services.roll(table.bob, table.encounter.pk, version, table.marta.pk, "attribute:dexterity")
    with pytest.raises(NotAllowed, match="own turn"):
        services.roll(table.bob, table.encounter.pk, version, table.anselm.pk, "attribute:dexterity")
    with pytest.raises(NotAllowed):
        services.roll(table.alice, table.encounter.pk, version, table.bandits[0].pk, "attribute:dexterity")
    with pytest.raises(NotAllowed):
        services.set_challenge_value(table.alice, table.encounter.pk, version, 3)
    assert table.v == version
    assert events(table)[-1] == "d6_fight_started"
    assert fight(table).acted is False


def test_a_stale_players_roll_is_refused_and_changes_nothing(table, dice):
    start(table, dice)
    version = table.v
    services.set_challenge_value(table.storyguide, table.encounter.pk, version, 7)
    with pytest.raises(StaleCommand):
        services.roll(table.alice, table.encounter.pk, version, table.marta.pk, "attribute:dexterity")
    assert table.fatigue(table.marta) == 3
    assert events(table)[-1] == "d6_value_set"


def test_the_defenders_player_rolls_the_defence_and_only_they(table, dice):
    start(table, dice)
    services.end_turn(table.storyguide, table.encounter.pk, table.v)  # Bandit 2's turn
    dice(5, 6)  # Bandit 2, Dexterity C1: die result 6
    services.roll(
        table.storyguide,
        table.encounter.pk,
        table.v,
        table.bandits[1].pk,
        "attribute:dexterity",
        target_id=table.anselm.pk,
    )
    with pytest.raises(NotAllowed):
        services.roll(table.alice, table.encounter.pk, table.v, table.anselm.pk, "attribute:dexterity")
    with pytest.raises(NotAllowed):
        services.end_turn(table.alice, table.encounter.pk, table.v)
    services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, 5)
    assert fight(table).defence["value"] == 5 and fight(table).defence["set"] is True
    with pytest.raises(InvalidCommand, match="needs a challenge value"):
        services.set_challenge_value(table.storyguide, table.encounter.pk, table.v, None)
    dice(1)  # Anselm, Dexterity C0: d6 1, below his fatigue 2: fails outright, fatigue 3
    payload = services.roll(table.bob, table.encounter.pk, table.v, table.anselm.pk, "attribute:dexterity")
    assert (payload["defending"], payload["value"], payload["auto_failed"]) == (True, 5, True)
    assert table.fatigue(table.anselm) == 3
    assert fight(table).defence == {}


def test_the_owner_takes_a_breather_and_ends_their_own_turn(table, dice):
    start(table, dice)
    write(table.marta_character, fatigue=6)
    table.marta_character.save()
    with pytest.raises(NotAllowed):
        services.take_breather(table.bob, table.encounter.pk, table.v)
    payload = services.take_breather(table.alice, table.encounter.pk, table.v)
    assert (payload["fatigue_before"], payload["fatigue_after"]) == (6, 3)
    assert table.fatigue(table.marta) == 3
    with pytest.raises(NotAllowed):
        services.end_turn(table.bob, table.encounter.pk, table.v)
    ended = services.end_turn(table.alice, table.encounter.pk, table.v)
    assert ended["next_name"] == "Bandit 2"
    assert fight(table).turn == 1
    with pytest.raises(NotAllowed):  # Bandit 2 is an NPC: the storyguide's
        services.end_turn(table.alice, table.encounter.pk, table.v)


def test_a_player_cannot_end_their_turn_while_a_defence_is_awaited(table, dice):
    start(table, dice)
    dice(4, 5, 3)
    services.roll(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        target_id=table.bandits[0].pk,
    )
    with pytest.raises(WrongPhase, match="defence is awaited"):
        services.end_turn(table.alice, table.encounter.pk, table.v)
    assert fight(table).turn == 0


def test_potential_is_asked_per_challenge_and_checked(table, dice):
    start(table, dice)
    with pytest.raises(InvalidCommand, match="Potential runs"):
        services.roll(
            table.alice, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", potential=99
        )
    dice(4, 5, 3)
    payload = services.roll(table.alice, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity")
    assert (payload["potential"], payload["result"]) == (0, 5)


def test_a_ranged_attack_into_a_cluster_raises_fatigue_on_its_first_challenge_only(table, dice):
    """'If you use a ranged attack against a target in a combat cluster, and have to make multiple
    dice challenge, only the first dice challenge can effect fatigue.'"""
    start(table, dice)
    dice(2, 7, 3, 1, 8, 9)  # shot 1: d6 2 < fatigue 3 → 4; shot 2: d6 1 < 4, but held back
    payloads = services.cluster_attack(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        [table.bandits[0].pk, table.bandits[1].pk],
    )
    assert [(p["target_name"], p["fatigue_rose"], p["rise_held_back"]) for p in payloads] == [
        ("Bandit 1", True, False),
        ("Bandit 2", False, True),
    ]
    assert [p["cluster"] for p in payloads] == [{"index": 1, "of": 2}, {"index": 2, "of": 2}]
    assert table.fatigue(table.marta) == 4
    state = fight(table)
    assert state.defence["defender"] == str(table.bandits[0].pk)
    assert [d["defender"] for d in state.queue] == [str(table.bandits[1].pk)]
    dice(6, 9)  # Bandit 1 defends (Dexterity C1: 9 meets 7); then Bandit 2's defence is awaited
    services.roll(table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, "attribute:dexterity")
    state = fight(table)
    assert (state.defence["defender"], state.defence["value"], state.queue) == (
        str(table.bandits[1].pk),
        9,
        [],
    )
    ended = services.end_turn(table.storyguide, table.encounter.pk, table.v)
    assert ended["defence_lapsed"] == "Bandit 2"


def test_a_cluster_attack_is_refused_for_others_and_off_turn(table, dice):
    start(table, dice)
    targets = [table.bandits[0].pk]
    with pytest.raises(NotAllowed):
        services.cluster_attack(
            table.bob, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", targets
        )
    with pytest.raises(NotAllowed, match="own turn"):
        services.cluster_attack(
            table.storyguide, table.encounter.pk, table.v, table.anselm.pk, "attribute:dexterity", targets
        )
    with pytest.raises(InvalidCommand, match="Pick the fighters"):
        services.cluster_attack(
            table.alice, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", []
        )
    with pytest.raises(InvalidCommand, match="twice"):
        services.cluster_attack(
            table.alice, table.encounter.pk, table.v, table.marta.pk, "attribute:dexterity", targets * 2
        )
    assert fight(table).acted is False


def test_typed_dice_for_each_shot_into_the_cluster(physical_table):
    table = physical_table
    initiative = {
        str(table.marta.pk): "3 8 4",
        str(table.anselm.pk): "2",
        str(table.bandits[0].pk): "5 1",
        str(table.bandits[1].pk): "1 6",
    }
    services.start_fight(table.storyguide, table.encounter.pk, table.v, initiative)
    bandits = [str(b.pk) for b in table.bandits]
    with pytest.raises(InvalidCommand, match="shot at Bandit 2"):
        services.cluster_attack(
            table.alice,
            table.encounter.pk,
            table.v,
            table.marta.pk,
            "attribute:dexterity",
            bandits,
            typed={bandits[0]: "5 5 5"},
        )
    payloads = services.cluster_attack(
        table.alice,
        table.encounter.pk,
        table.v,
        table.marta.pk,
        "attribute:dexterity",
        bandits,
        typed={bandits[0]: "5 5 5", bandits[1]: "6 0 1"},
    )
    assert [p["faces"] for p in payloads] == [[5, 5, 5], [6, 10, 1]]


def test_views_by_persona(client, table, dice):
    start(table, dice)
    form = {"expected_version": table.v, "combatant": table.marta.pk, "score": "attribute:dexterity"}
    client.force_login(table.bob)
    assert client.post(url("d6:roll", table), form).status_code == 403
    assert client.post(url("d6:breather", table), {"expected_version": table.v}).status_code == 403
    assert (
        client.post(url("d6:set_value", table), {"expected_version": table.v, "value": "3"}).status_code
        == 403
    )
    client.force_login(table.outsider)
    assert client.post(url("d6:roll", table), form).status_code == 404
    client.force_login(table.alice)
    assert client.get(url("d6:roll", table)).status_code == 405
    dice(4, 5, 3)
    response = client.post(url("d6:roll", table), {**form, "potential": "2"})
    assert response.status_code == 200
    roll = table.refresh().events.order_by("-seq").first()
    assert (roll.kind, roll.payload["potential"], roll.payload["result"]) == ("d6_roll", 2, 7)
    response = client.post(url("d6:roll", table), {**form, "expected_version": table.v, "potential": "x"})
    assert "Potential must be a whole number" in response.content.decode()
    dice(4, 5, 3, 4, 6, 2)  # Marta's second challenge this turn: two shots into the cluster
    response = client.post(
        url("d6:cluster", table),
        {**form, "expected_version": table.v, "targets": [table.bandits[0].pk, table.bandits[1].pk]},
    )
    assert response.status_code == 200
    assert [e.payload["target_name"] for e in table.refresh().events.order_by("-seq")[:2]] == [
        "Bandit 2",
        "Bandit 1",
    ]
    assert fight(table).defence["defender"] == str(table.bandits[0].pk)
    client.force_login(table.storyguide)
    response = client.post(url("d6:set_value", table), {"expected_version": table.v, "value": "4"})
    assert response.status_code == 200
    assert fight(table).defence["value"] == 4  # a defence is awaited: the value is the defence's


def test_the_players_page_carries_their_turn_for_them_only(client, table, dice):
    start(table, dice)
    client.force_login(table.alice)
    html = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert f'data-for-user="{table.alice.pk}" hidden data-testid="your-turn-{table.marta.pk}"' in html
    assert 'data-testid="player-roll-form"' in html
    assert 'data-testid="player-cluster-form"' in html
    client.force_login(table.storyguide)
    html = client.get(reverse("d6:table", args=[table.encounter.pk])).content.decode()
    assert 'data-testid="d6-yours"' not in html
    assert 'data-testid="set-value-form"' in html
    assert 'data-testid="cluster-form"' in html
