"""The history's filters: by encounter, by character and by kind, for every rule system.

A value the saga does not have is dropped (the page then shows everything), never an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.http import urlencode

from .. import systems
from ..inputs import is_digits
from .reading import Reader


@dataclass(frozen=True)
class Filters:
    """What the reader asked for; each value is the query string's, or "" for all."""

    encounter: str = ""
    character: str = ""
    kind: str = ""

    @classmethod
    def parse(cls, query, reader: Reader, encounter_ids: set[int]) -> Filters:
        """The filters in `query` (a QueryDict or a dict) that name something of this saga."""
        encounter = str(query.get("encounter", ""))
        character = str(query.get("character", ""))
        kind = str(query.get("kind", ""))
        return cls(
            encounter=encounter if is_digits(encounter, 18) and int(encounter) in encounter_ids else "",
            character=character if character in reader.who_fought[1] else "",
            kind=kind if kind in dict(systems.kind_choices(reader.system)) else "",
        )

    @property
    def any(self) -> bool:
        return bool(self.encounter or self.character or self.kind)

    def events(self, events: QuerySet, reader: Reader) -> QuerySet:
        """The events that match: in the encounter, of the kind, naming one of the character's combatants.

        An event names a combatant by its id as a JSON string (a value or a key: `"12"`), which is
        what the text match looks for, in the encounters the character fought in.
        """
        if self.encounter:
            events = events.filter(encounter_id=int(self.encounter))
        if self.kind:
            events = events.filter(kind=self.kind)
        if self.character:
            character_of, _ = reader.who_fought
            fought = [
                (encounter_id, cid)
                for encounter_id, joined in reader.roster.joined.items()
                for cid in joined
                if character_of.get(cid) == self.character
            ]
            named = Q()
            for encounter_id, cid in fought:
                named |= Q(encounter_id=encounter_id, payload__icontains=f'"{cid}"')
            events = events.filter(named) if fought else events.none()
        return events

    def records(self, records: QuerySet) -> QuerySet:
        """Saga records (outside any encounter) that match: none for an encounter, the character's own."""
        if self.encounter:
            return records.none()
        if self.kind:
            records = records.filter(kind=self.kind)
        if self.character.isdigit():
            records = records.filter(payload__character=int(self.character))
        elif self.character:
            records = records.none()
        return records

    def query(self, **more) -> str:
        """The filters (and `more`) as a query string, without the empty ones."""
        values = {"encounter": self.encounter, "character": self.character, "kind": self.kind, **more}
        return urlencode({key: value for key, value in values.items() if value not in ("", None)})
