"""Fatigue over in-game time (ArM3 p177): levels remember their exertion; the storyguide lets time
pass, sends everyone to sleep, records a day's march; on an encounter or on the saga page."""

import re

import pytest
from django.urls import reverse

from arsmagica import services
from arsmagica.events import Kind
from arsmagica.models import Declaration
from arsmagica.rules import Exertion, FatigueState
from arsmagica.services import dice as dice_module
from arsmagica.services.sheets import fatigue_state_of, set_fatigue
from arsmagica.sheet import sheet_of as ars_sheet
from arsmagica.sheet import write
from campaign.sent_once import fresh_key
from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.events import CoreKind
from combat.live import render_frame
from combat.models import Event, SagaRecord
from combat.rules.dice import ScriptedDice
from combat.services.log import record_for_saga
from tests.personas import login

from .test_services import resolve, through_movement

pytestmark = pytest.mark.django_db

SHORT, LONG = Exertion.SHORT_TERM, Exertion.LONG_TERM


def tire(character, *lost, stamina=None):
    """Put a character at the levels given, oldest first."""
    set_fatigue(character, FatigueState(tuple(lost)))
    if stamina is not None:
        write(character, stamina=stamina)
    character.save()


def fresh(character):
    character.refresh_from_db()
    return character


def last_event(table):
    return table.refresh().events.order_by("-seq").first()


def entry_for(event, character):
    return next(row for row in event.payload["characters"] if row["character"] == character.pk)


# --- levels lost in combat are short-term ------------------------------------------------------


def test_a_level_lost_in_the_fatigue_phase_is_kept_as_short_term(table, scripted_dice):
    through_movement(table, scripted_dice)
    for phase in ("first_missile", "melee", "second_missile", "magic"):
        resolve(table, phase)
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "fatigue")
    services.confirm_phase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        "fatigue",
        {"ease_factors": {str(table.boris.pk): "30"}},
    )
    boris = fresh(table.boris_character)
    assert ars_sheet(boris).fatigue_level == "winded"
    assert ars_sheet(boris).fatigue_state == {"lost": ["short_term"], "recovery_seconds": 0}


def test_a_long_term_level_carried_into_a_fight_stays_long_term(table, scripted_dice):
    tire(table.boris_character, LONG)
    through_movement(table, scripted_dice)  # the round's snapshot keeps the exertion
    for phase in ("first_missile", "melee", "second_missile", "magic"):
        resolve(table, phase)
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "fatigue")
    services.confirm_phase(
        table.storyguide,
        table.encounter.pk,
        table.v,
        "fatigue",
        {"ease_factors": {str(table.boris.pk): "30"}},
    )
    assert ars_sheet(fresh(table.boris_character)).fatigue_state["lost"] == ["long_term", "short_term"]


def test_a_correction_of_the_fatigue_level_keeps_the_stored_levels_in_step(table):
    tire(table.boris_character, LONG, SHORT, SHORT)
    services.correct(
        table.storyguide, table.encounter.pk, table.v, table.boris.pk, {"fatigue_level": "winded"}, "misread"
    )
    boris = fresh(table.boris_character)
    assert (ars_sheet(boris).fatigue_level, ars_sheet(boris).fatigue_state["lost"]) == (
        "winded",
        ["long_term"],
    )


def test_a_level_set_on_the_sheet_alone_reads_as_short_term_levels(table):
    write(table.boris_character, fatigue_level="weary")
    table.boris_character.save()
    assert fatigue_state_of(fresh(table.boris_character)) == FatigueState((SHORT, SHORT))


# --- time passes on an encounter ----------------------------------------------------------------


def test_thirty_minutes_of_rest_bring_a_tired_character_to_weary_by_the_chart(table):
    tire(table.boris_character, SHORT, SHORT, SHORT)
    version = table.v
    event = services.pass_time(
        table.storyguide, 30, encounter_id=table.encounter.pk, expected_version=version
    )
    assert event.kind == Kind.TIME_PASSED and event.encounter_id == table.encounter.pk
    boris = fresh(table.boris_character)
    assert (ars_sheet(boris).fatigue_level, ars_sheet(boris).fatigue_state) == (
        "weary",
        {"lost": ["short_term"] * 2, "recovery_seconds": 0},
    )
    row = entry_for(event, boris)
    assert (row["from"], row["to"], row["steps"]) == (
        "tired",
        "weary",
        [{"from": "tired", "to": "weary", "after_minutes": 30}],
    )
    assert table.v == version + 1
    assert entry_for(event, table.anselm_character)["to"] == "fresh"  # everyone in the scene, fresh too


def test_staying_active_doubles_the_time_and_the_rest_carries_over(table):
    tire(table.boris_character, SHORT, SHORT, SHORT)
    services.pass_time(
        table.storyguide, 30, active=True, encounter_id=table.encounter.pk, expected_version=table.v
    )
    boris = fresh(table.boris_character)
    assert (ars_sheet(boris).fatigue_level, ars_sheet(boris).fatigue_state["recovery_seconds"]) == (
        "tired",
        15 * 60,
    )
    services.pass_time(table.storyguide, 15, encounter_id=table.encounter.pk, expected_version=table.v)
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "weary"


def test_a_stamina_roll_rolled_by_the_server_halves_the_time(table, monkeypatch):
    tire(table.boris_character, SHORT, SHORT, SHORT, stamina=2)
    monkeypatch.setattr(dice_module, "server_dice", lambda: ScriptedDice([0]))  # 10 + 2 - 3 (Tired) = 9
    event = services.pass_time(
        table.storyguide, 15, stamina="server", encounter_id=table.encounter.pk, expected_version=table.v
    )
    row = entry_for(event, table.boris_character)
    assert row["stamina"] == {
        "face": 0,
        "value": 10,
        "stamina": 2,
        "total": 9,
        "ease_factor": 9,
        "success": True,
    }
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "weary"
    assert entry_for(event, table.anselm_character)["stamina"] is None  # fresh: nothing to roll for


def test_a_failed_stamina_roll_changes_nothing(table, monkeypatch):
    tire(table.boris_character, SHORT, SHORT, SHORT, stamina=2)
    monkeypatch.setattr(dice_module, "server_dice", lambda: ScriptedDice([9]))  # 9 + 2 - 3 = 8
    event = services.pass_time(
        table.storyguide, 15, stamina="server", encounter_id=table.encounter.pk, expected_version=table.v
    )
    assert entry_for(event, table.boris_character)["stamina"]["success"] is False
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "tired"


def test_typed_stamina_rolls_are_read_and_a_missing_one_is_named(table):
    tire(table.boris_character, SHORT, stamina=0)
    with pytest.raises(InvalidCommand, match="Type Sir Boris's Stamina roll"):
        services.pass_time(
            table.storyguide, 1, stamina="typed", encounter_id=table.encounter.pk, expected_version=table.v
        )
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"
    event = services.pass_time(
        table.storyguide,
        1,
        stamina="typed",
        typed_faces={str(table.boris_character.pk): "9"},
        encounter_id=table.encounter.pk,
        expected_version=table.v,
    )
    assert entry_for(event, table.boris_character)["stamina"]["total"] == 9
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "fresh"  # Winded: 2 minutes, halved to 1


def test_long_term_levels_wait_for_food_and_sleep_and_allow_no_stamina_roll(table, monkeypatch):
    tire(table.boris_character, LONG, SHORT)
    event = services.pass_time(
        table.storyguide, 120, encounter_id=table.encounter.pk, expected_version=table.v
    )
    row = entry_for(event, table.boris_character)
    assert (row["from"], row["to"], row["blocked_by_long_term"]) == ("weary", "winded", True)
    monkeypatch.setattr(
        dice_module, "server_dice", lambda: pytest.fail("no Stamina roll for long-term levels")
    )
    event = services.pass_time(
        table.storyguide, 600, stamina="server", encounter_id=table.encounter.pk, expected_version=table.v
    )
    assert entry_for(event, table.boris_character)["stamina"] is None
    services.sleep_night(
        table.storyguide, good_meal=False, encounter_id=table.encounter.pk, expected_version=table.v
    )
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"
    event = services.sleep_night(table.storyguide, encounter_id=table.encounter.pk, expected_version=table.v)
    assert event.kind == Kind.NIGHT_OF_SLEEP and event.payload["good_meal"] is True
    boris = fresh(table.boris_character)
    assert (ars_sheet(boris).fatigue_level, ars_sheet(boris).fatigue_state["lost"]) == ("fresh", [])


def test_a_days_march_costs_long_term_levels(table):
    event = services.record_exertion(
        table.storyguide,
        table.boris_character.pk,
        2,
        "a day's march",
        encounter_id=table.encounter.pk,
        expected_version=table.v,
    )
    assert event.kind == Kind.EXERTION
    assert (event.payload["levels"], event.payload["from"], event.payload["to"]) == (2, "fresh", "weary")
    assert ars_sheet(fresh(table.boris_character)).fatigue_state["lost"] == ["long_term", "long_term"]


def declaring_with_boris(table):
    """Declarations open, Sir Boris has declared his attack."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, boris)


def start_of(table, combatant) -> dict:
    return next(e for e in table.refresh().round_log["start"] if e["id"] == str(combatant.pk))


def test_exertion_that_leaves_a_declared_combatant_unconscious_withdraws_the_declaration(table):
    """ArM3 p177: the unconscious cannot act. While declarations are open, exertion is where the round
    starts for him, as a correction is: his declaration goes, and declarations can close without him
    (before, closing was refused: "Sir Boris is unconscious and cannot act")."""
    declaring_with_boris(table)
    services.record_exertion(
        table.storyguide,
        table.boris_character.pk,
        5,
        "a forced march",
        encounter_id=table.encounter.pk,
        expected_version=table.v,
    )
    assert not Declaration.objects.filter(combatant=table.boris).exists()
    assert start_of(table, table.boris)["fatigue_level"] == "unconscious"
    encounter = table.refresh()
    last = encounter.events.order_by("-seq").first()
    frame = render_frame(encounter, [last], "storyguide", last.seq, last.seq)
    assert f'id="declared-{table.boris.pk}" data-testid="declared-{table.boris.pk}" class="done"' not in frame
    bandit = table.bandits[0]
    attack = {"action": "attack", "weapon_id": table.weapon(bandit), "engage": [table.anselm.pk]}
    services.declare(table.storyguide, table.encounter.pk, bandit.pk, attack)
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    assert table.refresh().phase != "declaring"


def test_time_passing_while_declarations_are_open_starts_the_round_at_the_rested_levels(table):
    tire(table.boris_character, SHORT, SHORT, SHORT)
    declaring_with_boris(table)
    assert start_of(table, table.boris)["fatigue_level"] == "tired"
    services.pass_time(table.storyguide, 30, encounter_id=table.encounter.pk, expected_version=table.v)
    assert start_of(table, table.boris)["fatigue_level"] == "weary"
    assert Declaration.objects.filter(combatant=table.boris).exists()  # weary, he still acts


@pytest.mark.parametrize(
    "levels, what, message",
    [(0, "a march", "From 1 to 5"), ("x", "a march", "whole number"), (1, "  ", "Say what tired them")],
)
def test_a_bad_exertion_is_refused_with_a_message(table, levels, what, message):
    with pytest.raises(InvalidCommand, match=message):
        services.record_exertion(
            table.storyguide,
            table.boris_character.pk,
            levels,
            what,
            encounter_id=table.encounter.pk,
            expected_version=table.v,
        )
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "fresh"


@pytest.mark.parametrize("minutes", [0, -5, "ten", 7 * 24 * 60 + 1])
def test_bad_minutes_are_refused(table, minutes):
    before = table.v
    with pytest.raises(InvalidCommand):
        services.pass_time(
            table.storyguide, minutes, encounter_id=table.encounter.pk, expected_version=before
        )
    assert table.v == before


def test_time_does_not_pass_in_the_middle_of_a_round(table, scripted_dice):
    tire(table.boris_character, SHORT)
    through_movement(table, scripted_dice)
    with pytest.raises(WrongPhase, match="Finish the round first"):
        services.pass_time(table.storyguide, 30, encounter_id=table.encounter.pk, expected_version=table.v)
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"


def test_between_rounds_rest_is_what_the_next_round_sees(table, scripted_dice):
    through_movement(table, scripted_dice)
    for phase in ("first_missile", "melee", "second_missile", "magic", "fatigue"):
        resolve(table, phase)
    tire(table.anselm_character, SHORT, SHORT)
    services.pass_time(table.storyguide, 10, encounter_id=table.encounter.pk, expected_version=table.v)
    assert ars_sheet(fresh(table.anselm_character)).fatigue_level == "winded"
    services.end_round(table.storyguide, table.encounter.pk, table.v)
    start = {row["id"]: row for row in table.refresh().round_log["start"]}
    assert start[str(table.anselm.pk)]["fatigue_state"]["lost"] == ["short_term"]


def test_a_stale_or_unauthorised_time_command_changes_nothing(table):
    tire(table.boris_character, SHORT)
    with pytest.raises(StaleCommand):
        services.pass_time(
            table.storyguide, 30, encounter_id=table.encounter.pk, expected_version=table.v - 1
        )
    with pytest.raises(NotAllowed):
        services.sleep_night(table.alice, encounter_id=table.encounter.pk, expected_version=table.v)
    with pytest.raises(NotAllowed):
        services.pass_time(table.alice, 30, saga_id=table.saga.pk, character_ids=[table.boris_character.pk])
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"
    assert not SagaRecord.objects.exists()


def test_the_push_shows_time_passing_to_players(table):
    tire(table.boris_character, SHORT)
    event = services.pass_time(table.storyguide, 2, encounter_id=table.encounter.pk, expected_version=table.v)
    html = render_frame(table.refresh(), [event], "players", event.seq, event.seq)
    assert 'data-testid="time-passed"' in html and "2 minutes pass" in html and "Winded → " in html


# --- time passes on the saga page -------------------------------------------------------------


def end(table):
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)


def test_on_the_saga_page_time_passes_for_the_characters_chosen_as_a_saga_record(table):
    end(table)
    tire(table.boris_character, SHORT, SHORT)
    tire(table.anselm_character, SHORT, SHORT)
    events = Event.objects.count()
    record = services.pass_time(
        table.storyguide, 10, saga_id=table.saga.pk, character_ids=[str(table.boris_character.pk)]
    )
    assert isinstance(record, SagaRecord) and record.kind == Kind.TIME_PASSED
    assert [row["name"] for row in record.payload["characters"]] == ["Sir Boris"]
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"
    assert ars_sheet(fresh(table.anselm_character)).fatigue_level == "weary"  # not in the scene
    assert Event.objects.count() == events


def test_characters_in_an_unfinished_encounter_rest_from_its_page(table):
    with pytest.raises(InvalidCommand, match="Sir Boris is in “Forest road”, which is not over"):
        services.sleep_night(
            table.storyguide, saga_id=table.saga.pk, character_ids=[table.boris_character.pk]
        )
    with pytest.raises(InvalidCommand, match="Choose who is in the scene"):
        services.sleep_night(table.storyguide, saga_id=table.saga.pk, character_ids=[])
    assert not SagaRecord.objects.exists()


# --- the pages ----------------------------------------------------------------------------------


def test_the_storyguide_lets_time_pass_from_the_control_panel(client, table):
    tire(table.boris_character, SHORT, SHORT, SHORT)
    login(client, table.storyguide)
    page = client.get(reverse("encounter_page", args=[table.encounter.pk])).content.decode()
    assert 'data-testid="time-panel"' in page and 'data-testid="pass-time-form"' in page
    response = client.post(
        reverse("arsmagica:pass_time", args=[table.encounter.pk]),
        {"expected_version": table.v, "minutes": "30", "stamina": "none"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and b"form-error" not in response.content
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "weary"
    response = client.post(
        reverse("arsmagica:exertion", args=[table.encounter.pk]),
        {"expected_version": table.v, "character": table.boris_character.pk, "levels": "1", "what": ""},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422 and "Say what tired them" in response.content.decode()
    response = client.post(
        reverse("arsmagica:sleep_night", args=[table.encounter.pk]),
        {"expected_version": table.v, "good_meal": "on"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and ars_sheet(fresh(table.boris_character)).fatigue_level == "fresh"


def test_players_and_outsiders_cannot_let_time_pass(client, table):
    tire(table.boris_character, SHORT)
    url = reverse("arsmagica:pass_time", args=[table.encounter.pk])
    data = {"expected_version": table.v, "minutes": "30"}
    assert login(client, table.alice).post(url, data).status_code == 403
    assert client.get(url).status_code == 405
    assert login(client, table.outsider).post(url, data).status_code == 404
    page = (
        login(client, table.alice).get(reverse("arsmagica:play", args=[table.encounter.pk])).content.decode()
    )
    assert 'data-testid="time-panel"' not in page
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "winded"


def test_the_saga_page_panel_lets_time_pass_and_the_history_shows_it(client, table):
    end(table)
    tire(table.boris_character, SHORT)
    login(client, table.storyguide)
    saga_page = client.get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert f'data-testid="scene-{table.boris_character.pk}"' in saga_page  # drawn with the page
    panel = client.get(reverse("arsmagica:saga_time", args=[table.saga.pk])).content.decode()
    assert f'data-testid="scene-{table.boris_character.pk}"' in panel
    response = client.post(
        reverse("arsmagica:saga_exertion", args=[table.saga.pk]),
        {
            "character": table.anselm_character.pk,
            "levels": "1",
            "what": "a day's march",
            "command_key": key(panel),
        },
    )
    assert response.status_code == 200 and 'data-testid="saga-time-done"' in response.content.decode()
    response = client.post(
        reverse("arsmagica:saga_pass_time", args=[table.saga.pk]),
        {
            "characters": [table.boris_character.pk, table.anselm_character.pk],
            "minutes": "5",
            "stamina": "none",
            "command_key": key(response.content.decode()),
        },
    )
    assert response.status_code == 200
    assert ars_sheet(fresh(table.boris_character)).fatigue_level == "fresh"
    assert ars_sheet(fresh(table.anselm_character)).fatigue_level == "winded"  # a day's march: not with rest
    assert SagaRecord.objects.filter(saga=table.saga).count() == 2
    history = client.get(reverse("saga_history", args=[table.saga.pk])).content.decode()
    assert 'data-testid="history-between"' in history and "a day&#x27;s march" in history
    exported = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    assert [row["kind"] for row in exported["between_encounters"]] == ["exertion", "time_passed"]


def test_the_saga_time_panel_says_what_went_wrong(client, table):
    login(client, table.storyguide)
    response = client.post(
        reverse("arsmagica:saga_sleep", args=[table.saga.pk]),
        {"characters": [table.boris_character.pk], "good_meal": "on", "command_key": fresh_key()},
    )
    assert response.status_code == 422 and "which is not over" in response.content.decode()
    assert not SagaRecord.objects.exists()


def key(panel: str) -> str:
    """The one-time command key a drawn saga time panel carries."""
    return re.search(r'name="command_key" value="(\w+)"', panel).group(1)


def test_a_saga_time_command_posted_twice_from_the_same_page_applies_once(client, table):
    end(table)
    tire(table.boris_character, SHORT, SHORT)
    login(client, table.storyguide)
    panel = client.get(reverse("arsmagica:saga_time", args=[table.saga.pk])).content.decode()
    post = {"characters": [table.boris_character.pk], "minutes": "5", "command_key": key(panel)}
    first = client.post(reverse("arsmagica:saga_pass_time", args=[table.saga.pk]), post)
    again = client.post(reverse("arsmagica:saga_pass_time", args=[table.saga.pk]), post)
    assert first.status_code == 200 and again.status_code == 409
    assert "nothing was done twice" in again.content.decode()
    assert SagaRecord.objects.filter(saga=table.saga).count() == 1


def test_a_saga_time_command_without_its_key_asks_for_a_reload(client, table):
    end(table)
    login(client, table.storyguide)
    response = client.post(
        reverse("arsmagica:saga_sleep", args=[table.saga.pk]), {"characters": [table.boris_character.pk]}
    )
    assert response.status_code == 422 and "reload" in response.content.decode()
    assert not SagaRecord.objects.exists()


def test_only_the_storyguide_sees_the_saga_time_panel(client, table):
    url = reverse("arsmagica:saga_time", args=[table.saga.pk])
    assert login(client, table.alice).get(url).status_code == 403
    assert (
        login(client, table.alice).post(reverse("arsmagica:saga_sleep", args=[table.saga.pk])).status_code
        == 403
    )
    assert login(client, table.outsider).get(url).status_code == 404
    assert login(client, table.storyguide).post(url).status_code == 405


def test_the_saga_page_draws_its_time_panel_with_itself_and_the_combat_stylesheet_once(client, table):
    """The time panel comes with the saga page (nothing loads after it and moves the page), for the
    storyguide alone; the page links the stylesheet once."""
    page = login(client, table.storyguide).get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert page.count('data-testid="saga-time"') == 1 and 'hx-trigger="load"' not in page
    assert page.count("css/combat") == 1
    seen = login(client, table.alice).get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    assert 'data-testid="saga-time"' not in seen


def test_the_time_panels_last_time_is_times_own_not_another_record(client, table):
    """A password link made since (the saga's record, not time's) is not the panel's "last time"."""
    end(table)
    boris = [str(table.boris_character.pk)]
    services.pass_time(table.storyguide, 10, saga_id=table.saga.pk, character_ids=boris)
    record_for_saga(table.saga, CoreKind.RESET_LINK_MADE, {"player": "alice"}, actor=table.storyguide)
    page = login(client, table.storyguide).get(reverse("saga_detail", args=[table.saga.pk])).content.decode()
    latest = page.split('data-testid="saga-time-latest"', 1)[1].split("</div>", 1)[0]
    assert "password" not in latest and "Sir Boris" in latest
