"""The session recap in Markdown: for each encounter, round and phase, every entry in the table's words.

Each entry is its kind's line from the page (declarations, the rolls with their faces `1 → 1 → 3 = 12`,
the results, the corrections with their reasons) as Markdown; each encounter opens with who ran it (its
storyguide, and each hand-over of the seat) and ends with its characters' levels as they stood when it
ended, folded from that encounter's whole log by the rule system (the replay's `state_at`), whatever the
filters keep of its entries. Each reads their own version, as everywhere in the archive (`Reader.whole`):
a player's fold reads the players' log, as their replay does.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.template.loader import render_to_string

from ..templatetags.combat_tags import event_template
from ..undo import reason, undone_in
from .filters import Filters
from .markdown import escaped, line
from .reading import Reader
from .seats import ran_by


def _entry(event, reader: Reader, undo=None) -> str:
    """One entry as a Markdown list item; one an undo took back struck through, with the undo's reason."""
    html = render_to_string(
        event_template(event),
        {"p": event.payload, "event": event, "names": event.names, "system": reader.system},
    )
    text = line(html)
    if undo is not None:
        said = reason(undo)
        text = f"~~{text}~~ _(undone{': ' + escaped(said) if said else ''})_"
    where = reader.system.log.event_label(event, in_round=True)
    return f"- {escaped(where)}: {text}" if where else f"- {text}"


def end_levels(encounter_id: int, reader: Reader) -> dict[str, dict[str, int]]:
    """Each combatant's places on the system's level tracks as the encounter ended (or stands, if it is
    still running): its whole log as the reader sees it, folded by the rule system."""
    system = reader.system
    table = system.replay.start()
    events = reader.events().filter(encounter_id=encounter_id).select_related("actor")
    for event in events.iterator(chunk_size=2000):
        table = system.replay.apply(table, reader.shown(event))
    return system.replay.chart_levels(table)


def _standing(encounter, reader: Reader) -> Iterator[str]:
    """The encounter's characters and their levels as it ended, as a Markdown table."""
    fought = [c for c in reader.combatants if c.encounter_id == encounter.pk]
    if not fought:
        return
    tracks = reader.system.replay.chart_tracks()
    levels = end_levels(encounter.pk, reader)
    yield ""
    yield "**Where they stood at the end**"
    yield ""
    yield "| " + " | ".join(("Character", "Side", *(heading for _, heading, _ in tracks))) + " |"
    yield "|" + "---|" * (2 + len(tracks))
    for combatant in fought:
        places = levels.get(str(combatant.pk), {})
        cells = [
            reader.name_of(combatant),
            combatant.side,
            *(labels[places[key]] if key in places else "not in the log" for key, _, labels in tracks),
        ]
        yield "| " + " | ".join(escaped(str(cell)) for cell in cells) + " |"


def recap_lines(reader: Reader, filters: Filters) -> Iterator[str]:
    """The recap, line by line: the saga's encounters oldest first, or the ones the filters keep."""
    encounters = {e.pk: e for e in reader.saga.encounters.all()}
    undone = undone_in(reader.system, reader.encounter_ids)
    yield f"# {escaped(reader.saga.name)}: session recap"
    current = None
    round_number = None
    for event in filters.events(reader.events(), reader).iterator(chunk_size=2000):
        if event.encounter_id != current:
            if current is not None:
                yield from _standing(encounters[current], reader)
            current, round_number = event.encounter_id, None
            encounter = encounters[current]
            yield ""
            yield f"## {escaped(encounter.name)} ({encounter.get_status_display().lower()})"
            yield ""
            yield f"_Storyguide: {escaped(ran_by(reader, current))}_"
        if event.round_number != round_number:
            round_number = event.round_number
            yield ""
            yield f"### {escaped(reader.system.log.round_heading(round_number))}"
            yield ""
        yield _entry(reader.named(reader.shown(event)), reader, undone.get((event.encounter_id, event.seq)))
    if current is not None:
        yield from _standing(encounters[current], reader)


def recap_bytes(reader: Reader, filters: Filters) -> Iterator[bytes]:
    """The recap as UTF-8 in pieces of a few hundred lines."""
    lines: list[str] = []
    for text in recap_lines(reader, filters):
        lines.append(text)
        if len(lines) >= 500:
            yield ("\n".join(lines) + "\n").encode()
            lines = []
    yield ("\n".join(lines) + "\n").encode()
