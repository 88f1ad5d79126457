"""The ids an import gives a saga's rows anew, and the JSON that names them rewritten to match.

An archive's rows (characters, encounters, combatants, the rule system's rows) get new ids on import, so a
file goes into an instance that has been used, and the same file twice makes two sagas. `Renumbering`
holds each model's old id → new id; the importer gives foreign keys through it, and each rule system gives
the ids written inside its JSON (payloads, `pending`, `round_log`, a combatant's `state`, its rows' JSON
fields) through it, in `Archive.renumbered`, most of it with `walk` and the keys that name ids there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

CHARACTER = "campaign.character"
COMBATANT = "combat.combatant"
_NUMBER = re.compile(r"-?[0-9]{1,18}")


@dataclass
class Renumbering:
    """Each model's old id → new id ("app_label.modelname" → {old: new})."""

    made: dict[str, dict[int, int]] = field(default_factory=dict)

    def add(self, label: str, old: list[int], rows: list) -> None:
        """The new ids of rows just made, in the order of their old ones."""
        self.made.setdefault(label, {}).update(zip(old, (row.pk for row in rows), strict=True))

    def id(self, label: str, old: int) -> int:
        """A row's new id. An id no row of the file has (a combatant removed from its encounter, a deleted
        character or weapon that the log still names) has no row to follow: it becomes negative, apart
        from every id a row has or will have here, and the same everywhere it is named."""
        return self.made.get(label, {}).get(old, -abs(old))

    def combatant(self, old: str | int) -> str | int:
        """A combatant's new id, as the same type: the payloads' strings ("12"), the rows' numbers; a string
        that is no number names no row, and is kept."""
        if isinstance(old, str):
            return str(self.id(COMBATANT, int(old))) if _NUMBER.fullmatch(old) else old
        return self.id(COMBATANT, old)

    def character(self, old: int) -> int:
        """A character's new id."""
        return self.id(CHARACTER, old)

    def key(self, old: str) -> str:
        """A key that names combatants: one id ("12"), or a pair ("12:14", an attacker and a defender)."""
        return ":".join(str(self.combatant(part)) for part in old.split(":"))

    def walk(
        self,
        value: Any,
        *,
        combatant: frozenset[str] = frozenset(),
        by_combatant: frozenset[str] = frozenset(),
        character: frozenset[str] = frozenset(),
    ) -> Any:
        """JSON with its ids given anew, at any depth: under a key in `combatant` a combatant's id (or a
        list of them), under one in `by_combatant` an object keyed by combatants (`key`), under one in
        `character` a character's id. Anything else is kept as it is."""
        keys = {"combatant": combatant, "by_combatant": by_combatant, "character": character}
        return self._walk(value, keys)

    def _walk(self, value: Any, keys: dict) -> Any:
        if isinstance(value, list):
            return [self._walk(item, keys) for item in value]
        if not isinstance(value, dict):
            return value
        return {name: self._item(name, item, keys) for name, item in value.items()}

    def _item(self, name: str, item: Any, keys: dict) -> Any:
        """One member of an object, given anew by what its key names."""
        if name in keys["combatant"] and isinstance(item, str | int) and not isinstance(item, bool):
            return self.combatant(item)
        if name in keys["combatant"] and isinstance(item, list):
            return [self.combatant(each) for each in item]
        if name in keys["by_combatant"] and isinstance(item, dict):
            return {self.key(each): self._walk(inner, keys) for each, inner in item.items()}
        if name in keys["character"] and isinstance(item, int) and not isinstance(item, bool):
            return self.character(item)
        return self._walk(item, keys)
