"""Fewer clicks and a way back: phases nobody acts in pass by themselves, the storyguide undoes the
round's last confirmed phase with a reason, and a declaration is repeated from last round in one tap."""

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration
from arsmagica.rules.quiet import quiet_phase
from arsmagica.rules.table import Table, can_undo
from arsmagica.services.round import rebuild
from arsmagica.services.table import table_of
from arsmagica.sheet import sheet_of
from combat.errors import InvalidCommand, StaleCommand, WrongPhase
from combat.models import Event

from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db


def kinds_since(table, seq):
    return list(table.refresh().events.filter(seq__gt=seq).order_by("seq").values_list("kind", flat=True))


def last_seq(table):
    return table.refresh().events.order_by("-seq").values_list("seq", flat=True).first()


def player_page(client, table) -> str:
    client.force_login(table.alice)
    return client.get(reverse("arsmagica:play", args=[table.encounter.pk])).content.decode()


def test_missile_and_magic_phases_nobody_acts_in_pass_as_one_quiet_event_each(client, table, scripted_dice):
    through_movement(table, scripted_dice)  # p168: everyone fights hand to hand
    encounter = table.refresh()
    assert encounter.phase == "melee"
    quiet = encounter.events.get(kind="phase_resolved", payload__phase="first_missile")
    assert quiet.payload == {
        "phase": "first_missile",
        "deaths": [],
        "levels": [],
        "options": {},
        "dice": {},
        "quiet": True,
    }
    assert quiet.phase == "first_missile" and not quiet.storyguide_only
    assert encounter.round_log["phases"][-1] == {
        "phase": "first_missile",
        "dice": {},
        "options": {},
        "quiet": True,
    }
    seq = last_seq(table)
    resolve(table, "melee")
    assert kinds_since(table, seq)[-3:] == ["phase_resolved"] * 3  # Melee, then Second Missile and Magic
    assert table.refresh().phase == "fatigue"  # Fatigue waits: the storyguide may call rolls (ArM3 p168)
    assert "Magic: nothing happened" in player_page(client, table)


def test_a_phase_with_blows_to_roll_does_not_pass(table, scripted_dice):
    through_movement(table, scripted_dice)
    encounter = table.refresh()
    combatants = list(encounter.combatants.select_related("character").prefetch_related("character__weapons"))
    state = rebuild(encounter, combatants, list(Declaration.objects.select_related("weapon")))
    assert state.phase.value == "melee" and quiet_phase(state) is None  # Melee has blows to roll


def test_the_rebuilt_round_runs_its_quiet_phases_again(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    encounter = table.refresh()
    combatants = list(encounter.combatants.select_related("character").prefetch_related("character__weapons"))
    state = rebuild(encounter, combatants, list(Declaration.objects.select_related("weapon")))
    assert state.phase.value == "fatigue"


def test_undo_is_refused_before_any_phase_is_confirmed_and_without_a_reason(table, scripted_dice):
    assert can_undo(Table(status="preparing")) is not None
    assert "nothing to undo" in can_undo(Table(status="running", phase="melee"))
    assert can_undo(Table(status="running", phase="melee", undoable="melee")) is None
    through_movement(
        table, scripted_dice
    )  # Movement, and First Missile passing by itself, are no phase to undo
    assert table_of(table.refresh()).undoable == ""
    with pytest.raises(WrongPhase, match="nothing to undo"):
        services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Oops")
    resolve(table, "melee")
    with pytest.raises(InvalidCommand, match="needs a reason"):
        services.undo_phase(table.storyguide, table.encounter.pk, table.v, "  ")


def test_undoing_melee_brings_back_its_preview_and_the_levels_before_it(client, table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    bandit1 = table.bandit_characters[0]
    bandit1.refresh_from_db()
    assert sheet_of(bandit1).body_level == "hurt"
    confirmed = table.refresh().round_log["phases"][-3]
    seq = last_seq(table)
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Wrong botch dice for Bandit 1")
    encounter = table.refresh()
    assert encounter.phase == "melee"
    assert [step["phase"] for step in encounter.round_log["phases"]] == ["movement", "first_missile"]
    assert encounter.pending["dice"] == confirmed["dice"] and encounter.pending["phase"] == "melee"
    bandit1.refresh_from_db()
    assert sheet_of(bandit1).body_level == "unhurt"
    undone, preview = encounter.events.filter(seq__gt=seq).order_by("seq")
    assert (undone.kind, undone.storyguide_only, undone.phase) == ("phase_undone", False, "melee")
    assert undone.payload["passed"] == ["magic", "second_missile"]
    assert undone.payload["reason"] == "Wrong botch dice for Bandit 1"
    assert {"combatant": str(table.bandits[0].pk), "fatigue_level": ["fresh", "fresh"],
            "body_level": ["hurt", "unhurt"]} in undone.payload["levels"]  # fmt: skip
    assert (preview.kind, preview.storyguide_only) == ("phase_previewed", True)
    page = player_page(client, table)
    assert "Undone</b> by the storyguide: Melee (and Second Missile, Magic, which passed empty)" in page
    assert "Wrong botch dice for Bandit 1" in page and 'data-testid="phase-undone"' in page
    history = client.get(reverse("saga_history", args=[table.saga.pk])).content.decode()
    assert "Wrong botch dice for Bandit 1" in history and "Undone" in history
    # Confirmed again on the same dice: the same wound, and the empty phases pass again.
    services.confirm_phase(table.storyguide, table.encounter.pk, table.v, "melee")
    bandit1.refresh_from_db()
    assert sheet_of(bandit1).body_level == "hurt" and table.refresh().phase == "fatigue"


def test_undoing_fatigue_puts_back_what_it_cost(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    resolve(table, "fatigue", {"ease_factors": {table.ids()["boris"]: "30"}})
    boris = table.boris_character
    boris.refresh_from_db()
    assert sheet_of(boris).fatigue_level == "winded"
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Ease factor was a typo")
    boris.refresh_from_db()
    assert sheet_of(boris).fatigue_level == "fresh" and sheet_of(boris).fatigue_state["lost"] == []
    assert table.refresh().phase == "fatigue" and table.refresh().pending["phase"] == "fatigue"


def test_a_correction_made_since_the_phase_stands_through_its_undo(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    resolve(table, "fatigue", {"ease_factors": {table.ids()["boris"]: "30"}})
    services.correct(
        table.storyguide, table.encounter.pk, table.v, table.boris.pk, {"fatigue_level": "weary"}, "x"
    )
    services.undo_phase(table.storyguide, table.encounter.pk, table.v, "Ease factor was a typo")
    boris = table.boris_character
    boris.refresh_from_db()
    assert sheet_of(boris).fatigue_level == "weary"
    undone = Event.objects.get(kind="phase_undone")
    assert str(table.boris.pk) not in [entry["combatant"] for entry in undone.payload["levels"]]


def test_a_second_click_on_undo_undoes_once(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    version = table.v
    services.undo_phase(table.storyguide, table.encounter.pk, version, "Oops")
    with pytest.raises(StaleCommand):
        services.undo_phase(table.storyguide, table.encounter.pk, version, "Oops")
    assert Event.objects.filter(kind="phase_undone").count() == 1


def test_same_as_last_round_repeats_a_declaration_once(table, scripted_dice):
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    resolve(table, "fatigue")
    with pytest.raises(InvalidCommand, match="no declaration from last round"):
        services.declare_as_before(table.alice, table.encounter.pk, table.anselm.pk, table.v)
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    version = table.v
    row = services.declare_as_before(table.alice, table.encounter.pk, table.boris.pk, version)
    before = Declaration.objects.get(combatant=table.boris, round_number=1)
    assert row.round_number == 2
    assert (row.action, row.weapon_id, row.engage, row.range) == (
        before.action, before.weapon_id, before.engage, before.range,
    )  # fmt: skip
    with pytest.raises(StaleCommand):
        services.declare_as_before(table.alice, table.encounter.pk, table.boris.pk, version)
    assert Event.objects.filter(kind="declared", round_number=2).count() == 1


def into_round_two(table, scripted_dice) -> int:
    """Round 1 played through (everyone declared, Melee and Fatigue resolved) and ended: round 2's
    declarations are open. The encounter's version then."""
    through_movement(table, scripted_dice)
    resolve(table, "melee")
    resolve(table, "fatigue")
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    return table.v


def test_every_npc_declares_as_last_round_in_one_tap_once(client, table, scripted_dice):
    version = into_round_two(table, scripted_dice)
    client.force_login(table.storyguide)
    url = reverse("arsmagica:declare_npcs_as_before", args=[table.encounter.pk])
    response = client.post(url, {"expected_version": version})
    assert response.status_code == 200
    assert Declaration.objects.filter(round_number=2).count() == 3  # the three bandits
    assert all(
        f'data-testid="declared-mark-{bandit.pk}"' in response.content.decode() for bandit in table.bandits
    )
    again = client.post(url, {"expected_version": version})  # a second tap of the same button
    assert again.status_code == 409 and 'data-testid="npcs-as-before-error"' in again.content.decode()
    assert Event.objects.filter(kind="declared", round_number=2).count() == 3
    client.force_login(table.alice)
    assert client.post(url, {"expected_version": table.v}).status_code == 403


def test_every_npc_as_last_round_passes_over_an_npc_that_cannot_act(client, table, scripted_dice):
    """An NPC struck down has nothing to declare (ArM3 p177): the tap declares the others, not refused."""
    into_round_two(table, scripted_dice)
    down, *standing = table.bandits
    hit = {"body_level": "incapacitated"}
    services.correct(table.storyguide, table.encounter.pk, table.v, down.pk, hit, "Struck down")
    client.force_login(table.storyguide)
    url = reverse("arsmagica:declare_npcs_as_before", args=[table.encounter.pk])
    response = client.post(url, {"expected_version": table.v})
    assert response.status_code == 200
    declared = set(Declaration.objects.filter(round_number=2).values_list("combatant_id", flat=True))
    assert declared == {bandit.pk for bandit in standing}
    assert f'data-testid="cannot-act-{down.pk}"' in response.content.decode()


def test_a_refused_same_as_last_round_tap_answers_beside_the_form_not_500(client, table, scripted_dice):
    """A second tap of a player's "Same as last round" (its version is stale) is refused in the entry's
    form, with the entry still showing the declaration made by the first tap."""
    version = into_round_two(table, scripted_dice)
    client.force_login(table.alice)
    url = reverse("arsmagica:declare_as_before", args=[table.encounter.pk, table.boris.pk])
    first = client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    again = client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    html = again.content.decode()
    assert f'data-testid="declare-error-{table.boris.pk}"' in html
    assert f'data-testid="declared-mark-{table.boris.pk}"' in html
    assert Event.objects.filter(kind="declared", round_number=2).count() == 1
