"""Typed events: every kind is declared with its payload type, a payload that does not match is
refused where it is written, and the history's kind filter knows every system's kinds."""

import re
import typing
from collections import Counter

import pytest
from django.template.loader import get_template
from django.urls import reverse

from arsmagica import services
from combat import systems
from combat.events import CORE_KINDS, PayloadMismatch, check_payload
from combat.models import Event, SagaRecord
from combat.rules.dice import ScriptedDice
from combat.services.log import EventLog, record_for_saga
from d6 import services as d6_services
from d6.services import dice as d6_dice_module
from tests.d6.conftest import D6Table

BREATHER = {"combatant": "3", "name": "Bandit 1", "fatigue_before": 4, "fatigue_after": 2}
TERRAIN_CHOSEN = {
    "chase": 1,
    "target_name": "Marta",
    "before": {"name": "Market streets", "rolled": "Running"},
    "after": {"name": "The river", "rolled": "Swimming"},
    "from_exchange": 3,
    "dice_cleared": [],
}


def every_kind():
    return [*CORE_KINDS, *(kind for system in systems.all_systems() for kind in system.event_kinds)]


def declared(name):
    kind = systems.event_kind(name)
    assert kind is not None
    return kind


def open_types(hint):
    """Every `Any` reachable from a payload type (through TypedDicts, lists, dicts and unions)."""
    if hint is typing.Any:
        return [hint]
    if typing.is_typeddict(hint):
        hints = typing.get_type_hints(hint).values()
        return [found for item in hints for found in open_types(item)]
    return [found for arg in typing.get_args(hint) for found in open_types(arg)]


# --- the declarations ------------------------------------------------------------------------------


def test_every_kind_name_fits_the_event_column():
    assert all(len(kind.name) <= 24 for kind in every_kind())


def test_every_kind_name_is_declared_once_across_core_and_systems():
    names = Counter(kind.name for kind in every_kind())
    assert [name for name, count in names.items() if count > 1] == []
    assert {"encounter_created", "attack", "time_passed", "d6_exchange"} <= set(names)


def test_every_kind_has_its_log_line_template():
    assert all(get_template(kind.template) for kind in every_kind())


def test_every_kind_has_a_typed_payload_with_no_open_value():
    assert all(typing.is_typeddict(kind.payload) for kind in every_kind())
    assert [kind.name for kind in every_kind() if open_types(kind.payload)] == []


# --- check_payload --------------------------------------------------------------------------------


def test_a_payload_that_matches_its_type_passes():
    check_payload(declared("d6_breather"), {**BREATHER, "round": 2})
    check_payload(declared("d6_terrain_chosen"), TERRAIN_CHOSEN)
    check_payload(declared("d6_value_set"), {"value": None, "name": "Marta", "defence": False})


def test_a_payload_missing_a_declared_key_is_refused():
    payload = {key: value for key, value in BREATHER.items() if key != "fatigue_after"}
    with pytest.raises(PayloadMismatch, match="lacks fatigue_after"):
        check_payload(declared("d6_breather"), payload)


def test_a_payload_with_an_undeclared_key_is_refused():
    with pytest.raises(PayloadMismatch, match="undeclared stamina"):
        check_payload(declared("d6_breather"), {**BREATHER, "stamina": 2})


def test_a_payload_value_of_the_wrong_type_is_refused():
    with pytest.raises(PayloadMismatch, match=r"payload\.fatigue_after should be int, not str"):
        check_payload(declared("d6_breather"), {**BREATHER, "fatigue_after": "2"})


def test_a_nested_value_of_the_wrong_type_is_refused():
    payload = {**TERRAIN_CHOSEN, "after": {"name": "The river", "rolled": 7}}
    with pytest.raises(PayloadMismatch, match=r"payload\.after\.rolled should be str, not int"):
        check_payload(declared("d6_terrain_chosen"), payload)


def test_a_wrong_value_deep_in_an_engine_record_is_refused():
    payload = {"round": 2, "advantages": [{"combatant": "2", "attack": 3, "defense": None}]}
    with pytest.raises(PayloadMismatch, match=r"payload\.advantages\[0\]\.defense should be int"):
        check_payload(declared("round_ended"), payload)


def test_a_sometimes_absent_key_is_optional_but_still_typed():
    check_payload(declared("d6_breather"), BREATHER)
    with pytest.raises(PayloadMismatch, match=r"payload\.in_chase should be int"):
        check_payload(declared("d6_breather"), {**BREATHER, "in_chase": "1"})


# --- where events are written ---------------------------------------------------------------------


@pytest.mark.django_db
def test_the_event_log_refuses_a_payload_missing_a_declared_key(table):
    log = EventLog(table.encounter, table.storyguide)
    with pytest.raises(PayloadMismatch, match="declarations_opened: payload lacks round"):
        log.append("declarations_opened", {})
    assert log.events == []


@pytest.mark.django_db
def test_the_event_log_refuses_an_undeclared_key_a_wrong_type_and_a_wrong_nested_type(table):
    log = EventLog(table.encounter, table.storyguide)
    advantage = {"combatant": str(table.boris.pk), "attack": 3, "defense": 0}
    bad = [
        {"round": 1, "advantages": [], "winner": "Sir Boris"},
        {"round": "1", "advantages": []},
        {"round": 1, "advantages": [{**advantage, "attack": "3"}]},
    ]
    for payload in bad:
        with pytest.raises(PayloadMismatch):
            log.append("round_ended", payload)
    assert log.append("round_ended", {"round": 1, "advantages": [advantage]}).kind == "round_ended"


@pytest.mark.django_db
def test_the_event_log_refuses_an_undeclared_kind(table):
    events = Event.objects.count()
    log = EventLog(table.encounter, table.storyguide)
    with pytest.raises(PayloadMismatch, match="'coin_flipped' is not an event kind of the core"):
        log.append("coin_flipped", {"heads": True})
    with pytest.raises(PayloadMismatch, match="'d6_breather' is not an event kind of the core"):
        log.append("d6_breather", {"combatant": "1", "name": "Sir Boris"})
    log.save()
    assert Event.objects.count() == events


@pytest.mark.django_db
def test_a_saga_record_is_checked_like_an_event(table):
    exertion = {"character": 1, "name": "Sir Boris", "what": "a day's march", "levels": 1, "from": "fresh"}
    with pytest.raises(PayloadMismatch, match="exertion: payload lacks to"):
        record_for_saga(table.saga, "exertion", exertion, table.storyguide)
    with pytest.raises(PayloadMismatch, match="not an event kind of the core or of this saga"):
        record_for_saga(table.saga, "long_nap", {}, table.storyguide)
    assert not SagaRecord.objects.exists()
    record = record_for_saga(table.saga, "exertion", {**exertion, "to": "weary"}, table.storyguide)
    assert (record.kind, record.actor) == ("exertion", table.storyguide)


# --- the history's kind filter, per system --------------------------------------------------------


def history(client, user, saga, **query):
    client.force_login(user)
    response = client.get(reverse("saga_history", args=[saga.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def shown_kinds(html):
    return re.findall(r'<li id="event-\d+" class="[^"]*" data-seq="\d+" data-kind="([^"]+)"', html)


def kind_options(html):
    select = re.search(r'<select name="kind">(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"', select)


def system_kinds(key):
    return [kind.name for kind in systems.get(key).event_kinds]


@pytest.fixture
def d6_table(db):
    return D6Table()


@pytest.fixture
def d6_dice(monkeypatch):
    """Script the d6 server's dice, one stream for the whole command (as tests/d6's `dice`)."""

    def script(*faces):
        scripted = ScriptedDice(faces)
        monkeypatch.setattr(d6_dice_module, "server_dice", lambda: scripted)

    return script


@pytest.mark.django_db
def test_the_history_filters_an_ars_magica_saga_by_its_kinds(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    services.declare(
        table.storyguide,
        table.encounter.pk,
        table.bandits[0].pk,
        {"action": "attack", "weapon_id": table.weapon(table.bandits[0]), "engage": [table.boris.pk]},
    )
    assert "declared" in shown_kinds(history(client, table.storyguide, table.saga))
    html = history(client, table.storyguide, table.saga, kind="declared")
    assert shown_kinds(html) == ["declared"]
    options = kind_options(html)
    assert options == ["", *(kind.name for kind in CORE_KINDS), *system_kinds("arsmagica")]
    assert not set(options) & set(system_kinds("d6fatigue"))


def test_the_history_filters_a_d6_saga_by_its_kinds(client, d6_table, d6_dice):
    d6_dice(2, 3, 8, 4, 5, 1, 1, 6)  # initiative: Marta, Bandit 2, Bandit 1, Brother Anselm
    d6_services.start_fight(d6_table.storyguide, d6_table.encounter.pk, d6_table.v)
    d6_services.end_turn(d6_table.storyguide, d6_table.encounter.pk, d6_table.v)
    everything = shown_kinds(history(client, d6_table.storyguide, d6_table.saga))
    assert {"combatant_added", "d6_fight_started", "d6_turn_ended"} <= set(everything)
    html = history(client, d6_table.storyguide, d6_table.saga, kind="d6_turn_ended")
    assert shown_kinds(html) == ["d6_turn_ended"]
    assert "Marta" in html and "Bandit 2" in html
    options = kind_options(html)
    assert options == ["", *(kind.name for kind in CORE_KINDS), *system_kinds("d6fatigue")]
    assert not set(options) & set(system_kinds("arsmagica"))


def test_a_player_filters_a_d6_saga_by_its_kinds_too(client, d6_table, d6_dice):
    d6_dice(2, 3, 8, 4, 5, 1, 1, 6)
    d6_services.start_fight(d6_table.storyguide, d6_table.encounter.pk, d6_table.v)
    html = history(client, d6_table.alice, d6_table.saga, kind="d6_fight_started")
    assert shown_kinds(html) == ["d6_fight_started"]
    assert 'value="d6_fight_started" selected' in html
