"""What every rule system's sheet is made of: declared scores, read through the declaration.

A system declares each field of its sheet once (`Score`, or a field of its own kind with a name and
a default); the character's `sheet` JSON holds the values. `SheetView` reads them with the declared
defaults, so a sheet saved before a field existed reads as that field's default.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SCORE_MIN, SCORE_MAX = -10, 40


@dataclass(frozen=True)
class Score:
    """A whole-number score: its name on the sheet, its label and help on the form, its bounds."""

    name: str
    label: str
    help: str = ""
    minimum: int = SCORE_MIN
    maximum: int = SCORE_MAX
    default: int = 0


@dataclass(frozen=True)
class Value:
    """Any other field of a sheet (a level, a list of rows): its name and its default."""

    name: str
    default: Any = None
    label: str = ""
    factory: Any = field(default=None, compare=False)

    def fresh(self) -> Any:
        return self.factory() if self.factory else self.default


class SheetView:
    """A sheet's values by attribute (`view.soak`), declared names only, missing ones at their default."""

    def __init__(self, values: dict | None, fields: Iterable[Score | Value]) -> None:
        self._values = values or {}
        self._fields = {each.name: each for each in fields}

    def __getattr__(self, name: str) -> Any:
        try:
            declared = self._fields[name]
        except KeyError:
            raise AttributeError(name) from None
        if name in self._values:
            return self._values[name]
        return declared.fresh() if isinstance(declared, Value) else declared.default


def full_sheet(values: dict | None, fields: Iterable[Score | Value]) -> dict:
    """Every declared field with its value or its default, and nothing undeclared."""
    view = SheetView(values, fields)
    return {each.name: getattr(view, each.name) for each in fields}
