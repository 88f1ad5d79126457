"""Result records turn into plain JSON-ready dictionaries."""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from typing import Any


def plain(value: Any) -> Any:
    """A record, enum or tuple as plain JSON values (enums by `.value`, fractions as "1/10")."""
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


class Record:
    """Mixin for frozen result records: `to_dict()` gives plain JSON values."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return plain(self)
