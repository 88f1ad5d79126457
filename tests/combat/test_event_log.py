"""The event log checks each payload where it is written, on the coin duel: a missing key, an undeclared
key, a wrong type or a wrong nested type is refused, so is a kind neither the core nor the saga's system
declares, and a saga record is checked the same way; nothing refused is saved (every system's kinds:
tests/systems/test_event_kinds.py)."""

import pytest

from combat.events import PayloadMismatch
from combat.models import Event, SagaRecord
from combat.services.log import EventLog, record_for_saga

pytestmark = pytest.mark.django_db

FLIP = {"turn": 1, "faces": {"1": "heads", "2": "tails"}, "hits": {"1": 1, "2": 0}, "names": {"1": "Ada"}}


def test_the_event_log_refuses_a_payload_missing_a_declared_key(table):
    log = EventLog(table.encounter, table.storyguide)
    with pytest.raises(PayloadMismatch, match="coin_duel_won: payload lacks name"):
        log.append("coin_duel_won", {"winner": "1"})
    assert log.events == []


def test_the_event_log_refuses_an_undeclared_key_a_wrong_type_and_a_wrong_nested_type(table):
    log = EventLog(table.encounter, table.storyguide)
    bad = [{**FLIP, "winner": "Ada"}, {**FLIP, "turn": "1"}, {**FLIP, "hits": {"1": "1"}}]
    for payload in bad:
        with pytest.raises(PayloadMismatch):
            log.append("coin_flip", payload)
    assert log.append("coin_flip", FLIP).kind == "coin_flip" and len(log.events) == 1


def test_the_event_log_refuses_a_kind_nobody_declares_and_saves_nothing(table):
    events = Event.objects.count()
    log = EventLog(table.encounter, table.storyguide)
    with pytest.raises(PayloadMismatch, match="'coin_dance' is not an event kind of the core"):
        log.append("coin_dance", {"heads": True})
    log.save()
    assert Event.objects.count() == events


def test_a_saga_record_is_checked_like_an_event(table):
    handed = {"character": table.ada_character.pk, "name": "Ada", "player": "bob"}
    with pytest.raises(PayloadMismatch, match="handed_over: payload lacks was"):
        record_for_saga(table.saga, "handed_over", handed, table.storyguide)
    with pytest.raises(PayloadMismatch, match="not an event kind of the core or of this saga"):
        record_for_saga(table.saga, "coin_dance", {}, table.storyguide)
    assert not SagaRecord.objects.exists()
    record = record_for_saga(table.saga, "handed_over", {**handed, "was": "alice"}, table.storyguide)
    assert (record.kind, record.actor) == ("handed_over", table.storyguide)
