"""Checking an archive file before anything is written: each refusal names the field's JSON path."""

from __future__ import annotations

from datetime import datetime
from typing import Any


class Refused(ValueError):
    """A file the import will not take, with where (`encounters[2].events[14].payload.attacker`) and why."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def at(path: str, key: str | int) -> str:
    """The path of a member: `saga` + "name" → `saga.name`; `characters` + 2 → `characters[2]`."""
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def obj(value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    """An object with these keys and no others."""
    if not isinstance(value, dict):
        raise Refused(path or "(file)", "should be an object")
    missing = [key for key in required if key not in value]
    if missing:
        raise Refused(at(path, missing[0]), "is missing")
    unknown = sorted(set(value) - set(required) - set(optional))
    if unknown:
        raise Refused(at(path, unknown[0]), "is not part of the archive format")
    return value


def array(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise Refused(path, "should be a list")
    return value


def text(value: Any, path: str, *, longest: int | None = None, empty: bool = True) -> str:
    if not isinstance(value, str):
        raise Refused(path, "should be a string")
    if not empty and not value.strip():
        raise Refused(path, "should not be empty")
    if longest is not None and len(value) > longest:
        raise Refused(path, f"is longer than {longest} characters")
    return value


def whole(value: Any, path: str, *, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(path, "should be a whole number")
    if value < least:
        raise Refused(path, f"should be at least {least}")
    return value


def flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise Refused(path, "should be true or false")
    return value


def mapping(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise Refused(path, "should be an object")
    return value


def moment(value: Any, path: str) -> datetime:
    """An ISO 8601 time with its offset."""
    try:
        parsed = datetime.fromisoformat(text(value, path))
    except ValueError:
        raise Refused(path, "should be an ISO 8601 time") from None
    if parsed.tzinfo is None:
        raise Refused(path, "should say its offset from UTC")
    return parsed


def choice(value: Any, path: str, allowed) -> str:
    if value not in allowed:
        raise Refused(path, f"should be one of {', '.join(map(str, allowed))}")
    return value
