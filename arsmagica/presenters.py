"""How Ars Magica log entries read, and what players see of them (ArM3 p163)."""

from __future__ import annotations

from .events import Kind

# The steps of a round by their stored value; other values read as words.
PHASE_NAMES = {
    "declaring": "Declarations",
    "movement": "Movement",
    "first_missile": "First Missile",
    "melee": "Melee",
    "second_missile": "Second Missile",
    "magic": "Magic",
    "fatigue": "Fatigue",
    "round_over": "Round over",
}


def phase_name(value) -> str:
    """melee → Melee; first_missile → First Missile; "" → ""."""
    value = str(value or "")
    return PHASE_NAMES.get(value) or value.replace("_", " ").capitalize()


def close_declarations_label(declared: int, total: int) -> str:
    """The storyguide's button once everyone may have declared (ArM3 p163)."""
    return f"Close declarations, roll Initiative ({declared}/{total} declared)"


def end_round_label(round_number: int) -> str:
    """The storyguide's button after the Fatigue phase: this round ends, the next opens (ArM3 p163)."""
    return f"End round {round_number}, open round {round_number + 1}"


def event_label(event, *, in_round: bool = False) -> str:
    """Where an event happened, for everyone: "R1 · Melee", "Setting up"; just "Melee" inside a round's
    heading. No sequence number: players do not see the storyguide's entries, so theirs would skip."""
    phase = phase_name(event.phase) if event.round_number else ""
    if in_round:
        return phase
    where = f"R{event.round_number}" if event.round_number else "Setting up"
    return f"{where} · {phase}" if phase else where


def players_payload(event, own: set[str], players: set[str]) -> dict:
    """An event's payload as the players see it on the live page.

    `own` holds the viewer's combatant ids, `players` every player character's (as strings). Another
    character's `declared` event says only who declared; a Movement event's declarations keep the viewer's
    own in full, another player character's as who declared, and no NPC's (or a removed combatant's).
    """
    payload = event.payload
    if event.kind == Kind.DECLARED and payload.get("combatant") not in own:
        return {"combatant": payload.get("combatant"), "name": payload.get("name", "")}
    if event.kind == Kind.MOVEMENT and "declarations" in payload:
        rows = [row for row in payload["declarations"] if row.get("combatant") in players]
        return {
            **payload,
            "declarations": [
                row if row["combatant"] in own else {"combatant": row["combatant"]} for row in rows
            ],
        }
    return payload
