"""Each finished encounter's story, kept for the saga's charts, so that a long saga's charts fold only
the encounters still running (docs/performance.md).

A summary is what `charts.saga_stories` folds of one encounter for one reader (the storyguide, or one
person: a player's fold reads the players' version of the log), encoded as JSON, with the inputs it was
folded from besides the log's rows: the log's `last_seq`, `FOLD`, and for anyone else the saga's NPC-rolls
setting, which of the encounter's combatants are player characters and the reader's own, and the steps
of its seat the reader held (read whole: `Reader.whole`). A summary
whose inputs are not what they would be now is folded again and replaced, so nothing that changes a
finished encounter's log (a correction, an import, a restore) has to remember it. The end command writes
the storyguide's; any other is written by the first charts page that needs it.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import fields, replace

from django.db import DatabaseError, transaction

from .. import systems
from ..audience import STORYGUIDE
from ..models import Encounter, EncounterSummary
from .charts import Story, saga_stories
from .reading import Reader
from .tagged import tagged

logger = logging.getLogger(__name__)

# The version of the fold (`charts.tell` and the systems' chart members): a change to what it makes
# raises it, and every summary folded before is folded again when next read.
FOLD = 1

# What of a story the saga's charts never read: the timeline's marks (an encounter's own charts).
UNREAD = ("marks",)


def stored(story: Story | None) -> dict | None:
    """A story as its summary keeps it (none for an encounter of which the reader read no event)."""
    if story is None:
        return None
    return {f.name: tagged(getattr(story, f.name)) for f in fields(story) if f.name not in UNREAD}


def restored(data: dict | None) -> Story | None:
    """The story a summary keeps (read with its tags taken off), each part in the type a fresh fold gives
    it (a tally's Counters)."""
    if data is None:
        return None
    story = Story()
    for name, value in data.items():
        fresh = getattr(story, name)
        if isinstance(fresh, defaultdict):  # a tally: a Counter for each combatant
            fresh.update((key, fresh.default_factory(item)) for key, item in value.items())
        elif isinstance(fresh, Counter):
            fresh.update(value)
        else:
            setattr(story, name, value)
    return story


def reader_key(reader: Reader) -> str:
    """Whose fold a summary is: the storyguide's (whoever holds every seat), or one person's (a player's own
    declarations show; a storyguide's steps of a seat they held are whole: `inputs_of`'s "seat")."""
    return STORYGUIDE if reader.is_storyguide else f"player {reader.user_id}"


def inputs_of(reader: Reader, last_seqs: dict[int, int]) -> dict[int, dict]:
    """What each encounter's story for this reader is folded from besides its log's rows, by encounter."""
    inputs = {pk: {"fold": FOLD, "seq": seq} for pk, seq in last_seqs.items()}
    if reader.is_storyguide:
        return inputs
    ids: dict[int, set[str]] = defaultdict(set)
    for combatant in reader.combatants:
        ids[combatant.encounter_id].add(str(combatant.pk))
    for pk, made in inputs.items():
        made["npc_rolls"] = reader.saga.npc_rolls
        made["players"] = sorted(ids[pk] & reader.players)
        made["own"] = reader.played.spans(pk, reader.viewer) if reader.viewer else []
        held = reader.seated.spans(pk, reader.viewer) if reader.viewer else []
        if held:  # a storyguide's who held its seat: those steps folded whole (combat.seated)
            made["seat"] = held
    return inputs


def keep(reader: Reader, inputs: dict[int, dict], stories: dict[int, Story | None]) -> None:
    """Write (or replace) the reader's summaries of these finished encounters."""
    who = reader_key(reader)
    rows = [
        EncounterSummary(encounter_id=pk, reader=who, inputs=inputs[pk], story=stored(stories.get(pk)))
        for pk in inputs
    ]
    EncounterSummary.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["encounter", "reader"], update_fields=["inputs", "story"]
    )


def saga_stories_kept(reader: Reader) -> list[tuple[int, Story]]:
    """Each encounter's story, oldest first, as `charts.saga_stories` folds it: a finished encounter's
    from its summary when that was folded from what it would be folded from now, any other folded now
    (a finished one's summary written for the next time)."""
    ended = Encounter.objects.filter(pk__in=reader.encounter_ids, status=Encounter.Status.ENDED)
    inputs = inputs_of(reader, dict(ended.values_list("pk", "last_seq")))
    summaries = EncounterSummary.objects.filter(encounter_id__in=inputs, reader=reader_key(reader))
    kept = {
        pk: restored(story)
        for pk, made, story in summaries.values_list("encounter_id", "inputs", "story")
        if made == inputs[pk]
    }
    folding = [pk for pk in reader.encounter_ids if pk not in kept]
    folded = dict(saga_stories(replace(reader, encounter_ids=folding))) if folding else {}
    stale = {pk: made for pk, made in inputs.items() if pk not in kept}
    if stale:
        try:
            with transaction.atomic():
                keep(reader, stale, folded)
        except DatabaseError:  # deleted meanwhile, or the database busy: the page is right without them
            logger.warning("summaries of saga %s not kept for %s", reader.saga.pk, reader_key(reader))
    stories = ((pk, kept[pk] if pk in kept else folded.get(pk)) for pk in reader.encounter_ids)
    return [(pk, story) for pk, story in stories if story is not None]


def summarize_ended(encounter: Encounter) -> None:
    """The storyguide's summary of an encounter that has just ended, in the end command's transaction."""
    reader = Reader(
        saga=encounter.saga,
        audience=STORYGUIDE,
        system=systems.of(encounter.saga),
        encounter_ids=[encounter.pk],
    )
    inputs = inputs_of(reader, {encounter.pk: encounter.last_seq})
    keep(reader, inputs, dict(saga_stories(reader)))
