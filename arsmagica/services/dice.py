"""Where a command's dice come from: the server rolls, or the faces a table typed in.

Typed faces are checked here before the engine sees them, so a bad entry gets a message
that names the combatant and the roll.
"""

from __future__ import annotations

import re

from arsmagica.rules import PURPOSES, RandomDiceBox, RecordingDiceBox, ScriptedDiceBox
from combat.errors import InvalidCommand
from combat.inputs import is_digits
from combat.rules.dice import RandomDice
from combat.rules.errors import DiceExhausted, RulesError

PURPOSE_LABELS = {
    "initiative": "Initiative",
    "combat": "combat die (Attack and Defense)",
    "missile": "First Missile shot",
    "missile_second": "Second Missile shot",
    "magic": "casting",
    "fatigue": "Fatigue",
}
MAX_TYPED = 200  # a long run of 1s and 0s still fits
_SEPARATORS = re.compile(r"[\s,;→>+-]+")


def parse_faces(text: str, what: str = "the roll") -> list[int]:
    """'1 1 3' or '1, 1, 3' or '1 → 1 → 3' as d10 faces [1, 1, 3]; a ten is typed 0 (or 10)."""
    text = (text or "").strip()
    if not text:
        return []
    if len(text) > MAX_TYPED:
        raise InvalidCommand(f"{what}: at most {MAX_TYPED} characters of faces.")
    faces = []
    for token in _SEPARATORS.split(text):
        if not token:
            continue
        if not is_digits(token, 2) or int(token) > 10:
            raise InvalidCommand(f"{what}: {token!r} is not a d10 face; type faces 0 to 9 (a ten is 0).")
        faces.append(int(token) % 10)
    return faces


def faces_text(faces) -> str:
    return " ".join(str(face) for face in faces or ())


class _NamedStream:
    """A typed-in stream that says whose roll ran short, for a person."""

    def __init__(self, stream, who: str, purpose: str) -> None:
        self._stream = stream
        self._who = who
        self._purpose = purpose

    def face(self, sides: int) -> int:
        try:
            return self._stream.face(sides)
        except DiceExhausted:
            raise InvalidCommand(
                f"{self._who}'s {PURPOSE_LABELS.get(self._purpose, self._purpose)} roll needs another die: "
                "type every face (a 1 rolls again and doubles, a 0 first calls for botch dice)."
            ) from None
        except RulesError as error:
            raise InvalidCommand(f"{self._who}'s {PURPOSE_LABELS.get(self._purpose)} roll: {error}") from None


class TypedDiceBox:
    """Faces typed in per combatant and purpose; running short is an error naming whose roll."""

    def __init__(self, faces: dict[str, dict[str, list[int]]], names: dict[str, str]) -> None:
        self._box = ScriptedDiceBox(faces)
        self._names = names
        self._streams: dict = {}

    def dice_for(self, combatant_id: str, purpose: str):
        key = (combatant_id, purpose)
        if key not in self._streams:
            self._streams[key] = _NamedStream(
                self._box.dice_for(combatant_id, purpose),
                self._names.get(combatant_id, combatant_id),
                purpose,
            )
        return self._streams[key]


def server_box():
    """The server's dice: a fresh random source (tests replace this to script the dice)."""
    return RandomDiceBox()


def server_dice():
    """One random die source for a roll outside the round (a Stamina roll); tests replace it."""
    return RandomDice()


def recording_box(physical: bool, typed: dict, names: dict[str, str]) -> RecordingDiceBox:
    """A box that keeps every face: typed faces for a physical-dice saga, else the server rolls."""
    source = TypedDiceBox(typed, names) if physical else server_box()
    return RecordingDiceBox(source)


def replay_box(recorded: dict, names: dict[str, str], *, physical: bool) -> RecordingDiceBox:
    """The recorded faces again; anything more (say, an extra botch die) is rolled or must be typed."""
    if physical:
        return RecordingDiceBox(TypedDiceBox(recorded, names))
    return RecordingDiceBox(ScriptedDiceBox(recorded, RandomDice()))


def plain_faces(faces: dict) -> dict[str, dict[str, list[int]]]:
    return {who: {purpose: list(values) for purpose, values in by.items()} for who, by in faces.items()}


__all__ = ["PURPOSES", "parse_faces", "faces_text", "recording_box", "replay_box", "plain_faces"]
