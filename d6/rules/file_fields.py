"""Reading an encounter file's fields: each reader names the place in the file when it refuses."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from combat.rules.errors import EncounterFileError


def place(where: str, key: str | int) -> str:
    """The path of a field inside `where`: `turns[2]`, `turns[2].challenges`."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def mapping(value: Any, where: str, allowed: Iterable[str]) -> dict:
    """A JSON object with no field outside `allowed`."""
    if not isinstance(value, dict):
        raise EncounterFileError(where, "expected an object")
    known = set(allowed)
    for key in value:
        if key not in known:
            raise EncounterFileError(place(where, key), "unknown field")
    return value


def listing(value: Any, where: str, *, empty: bool = True) -> list:
    """A JSON array (non-empty unless `empty`)."""
    if not isinstance(value, list):
        raise EncounterFileError(where, "expected a list")
    if not empty and not value:
        raise EncounterFileError(where, "expected at least one entry")
    return value


FILE_LIMIT = 1000  # no number of a d6 encounter file is larger: it would only make work


def integer(value: Any, where: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number within low..high; a bound left out is ±FILE_LIMIT."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EncounterFileError(where, "expected an integer")
    floor = -FILE_LIMIT if low is None else low
    ceiling = FILE_LIMIT if high is None else high
    if not floor <= value <= ceiling:
        below = high is None and low is not None and value < low
        raise EncounterFileError(
            where, f"expected {f'at least {low}' if below else f'{floor} to {ceiling}'}, got {value}"
        )
    return value


def boolean(value: Any, where: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise EncounterFileError(where, "expected true or false")
    return value


def text(value: Any, where: str) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value:
        raise EncounterFileError(where, "expected a non-empty string")
    return value


def required(data: dict, key: str, where: str) -> Any:
    """A field that must be present."""
    if key not in data:
        raise EncounterFileError(place(where, key), "missing")
    return data[key]
