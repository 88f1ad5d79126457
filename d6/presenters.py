"""How d6 log entries read: where each happened, in d6 words (d6 seed)."""

from __future__ import annotations

from . import kinds

TURN_KINDS = (kinds.ROLL, kinds.TURN_ENDED, kinds.VALUE_SET)


def event_label(event, *, in_round: bool = False) -> str:
    """Where a log entry happened, for everyone: "Round 3 · Wren" in a fight (whose turn it was: a
    defence belongs to the attacker's turn), "Exchange 2" in a chase ("Chase 2 · Exchange 1" from an
    encounter's second chase on), "Setting up" before anything starts. Inside a history round heading
    the round is left out."""
    kind, payload = event.kind, event.payload or {}
    if kind == kinds.FIGHT_STARTED:
        return "Initiative" if in_round else f"Round {event.round_number or 1} · Initiative"
    if kind in TURN_KINDS or (kind == kinds.BREATHER and not payload.get("in_chase")):
        return _turn_label(event, payload, in_round)
    if kind in kinds.KINDS:
        return _chase_label(kind, payload)
    if event.round_number:
        return "" if in_round else f"Round {event.round_number}"
    return "Setting up"


def _turn_label(event, payload: dict, in_round: bool) -> str:
    where = "" if in_round else f"Round {payload.get('round') or event.round_number}"
    who = _turn_of(event.kind, payload)
    if not who:
        return where
    return who if in_round else f"{where} · {who}"


def _turn_of(kind: str, payload: dict) -> str:
    """Whose turn an entry belongs to: a defence is the attacker's turn."""
    if kind == kinds.ROLL:
        return payload.get("attacker_name", "") if payload.get("defending") else payload.get("name", "")
    if kind == kinds.TURN_ENDED:
        return payload.get("ended_name", "")
    if kind == kinds.BREATHER or not payload.get("defence"):
        return payload.get("name", "")
    return ""


def _chase_label(kind: str, payload: dict) -> str:
    number = str(payload.get("chase") or payload.get("in_chase") or "")
    if kind == kinds.CHASE_STARTED:
        return f"Chase {number} starts" if number and number != "1" else "Chase starts"
    prefix = f"Chase {number} · " if number and number != "1" else ""
    return prefix + _exchange_of(kind, payload)


def _exchange_of(kind: str, payload: dict) -> str:
    if kind == kinds.EXCHANGE:
        return f"Exchange {payload.get('number', '')}"
    if kind == kinds.FACES_IN:
        return f"Exchange {payload.get('exchange', '')}"
    if kind == kinds.CHASE_ENDED and payload.get("exchanges"):
        return f"Exchange {payload['exchanges']}"
    if kind == kinds.TERRAIN_OFFERED and payload.get("after_exchange"):
        return f"After exchange {payload['after_exchange']}"
    if kind == kinds.TERRAIN_CHOSEN and payload.get("from_exchange"):
        return f"Before exchange {payload['from_exchange']}"
    return "Chase"
