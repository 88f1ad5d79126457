"""The evening's recap: what happened tonight, a few sentences per encounter and the levels each character
ended on, as the reader's version of the log tells it.

Each encounter's log (the players' version for players: no storyguide-only line, and an NPC's numbers only
as far as the saga's NPC-rolls setting shows them) is folded once by `charts.tell`, which honours undo; the
sentences are made from its story: who fought whom (the sides the log brought them in on), attacks landed
and harm taken (`chart_tally`), who fell (`survived`), the best and the worst roll (`recap_rolls`), the
botches and corrections (`chart_marks`) and each undo, once, with its reason. Names are the log's
(`combat.names`). The page and the Markdown download are both drawn from what is built here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from django.utils import formats, timezone

from ..audience import PLAYERS
from ..undo import reason, taken_back
from .charts import TALLIES, tell
from .evenings import Evening
from .markdown import escaped
from .reading import Reader
from .seats import ran_by

STORYGUIDES, PLAYERS_VERSION = "storyguide", "players"


@dataclass
class Told:
    """One encounter of the evening: its sentences, and each character's levels as it ended."""

    name: str
    sentences: list[str] = field(default_factory=list)
    standing: list[list[str]] = field(default_factory=list)  # name, side, a label per track
    headings: tuple[str, ...] = ()  # the tracks'

    @property
    def levels(self) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """Each character as (name, side, [(track's heading, label)]): the page's list."""
        rows = self.standing
        return [(name, side, list(zip(self.headings, labels, strict=True))) for name, side, *labels in rows]


def players_reader(reader: Reader) -> Reader:
    """The reader of the players' version (what any player sees, none of whose characters is theirs):
    the storyguide's preview of what the group gets."""
    return replace(reader, audience=PLAYERS, own=set(), viewer="", troupe=False)


def listed(words: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]])) if words else ""


def _quoted(text: str) -> str:
    return f" (“{text}”)" if text else ""


def _rounds(count: int) -> str:
    return f"{count} round" if count == 1 else f"{count} rounds"


def _who_fought(events: list, story, names: dict[str, str], joined: dict) -> str:
    """"Sir Boris and Anselm (Companions) fought Bandit 1 and Bandit 2 (Bandits), over 2 rounds."."""
    sides: dict[str, list[str]] = {}
    for cid, came in joined.items():
        if cid in story.fought:
            sides.setdefault(came.side or "no side", []).append(names.get(cid, "someone"))
    groups = [f"{listed(people)} ({side})" for side, people in sides.items()]
    ended = next((e for e in events if e.kind == "encounter_ended"), None)
    played = max((e.round_number for e in events), default=0)
    if ended is not None:
        played = ended.payload.get("rounds", played)
        when = f", over {_rounds(played)}" if played else ", before the first round"
    else:
        when = f"; the fight goes on (round {played})" if played else "; the fight has not begun"
    if not groups:
        return "Nobody came to blows" + when + "."
    if len(groups) == 1:
        return f"{groups[0]} took part{when}."
    if len(groups) == 2:
        return f"{groups[0]} fought {groups[1]}{when}."
    return f"{listed(groups)} fought one another{when}."


def _numbers(story, names: dict[str, str], order: list[str]) -> list[str]:
    """Attacks landed, then each other tally with whose it is: "Wounds taken: Bandit 1 (1), Bandit 2 (1).\""""
    said = []
    attacks = [
        f"{names.get(cid, 'someone')} {story.tally[cid]['landed']} of {story.tally[cid]['attacks']}"
        for cid in order
        if story.tally.get(cid, {}).get("attacks")
    ]
    if attacks:
        said.append(f"Attacks landed: {listed(attacks)}.")
    for counter in ("wounds_taken", "fatigue_lost"):
        hit = [
            f"{names.get(cid, 'someone')} ({story.tally[cid][counter]})"
            for cid in order
            if story.tally.get(cid, {}).get(counter)
        ]
        if hit:
            said.append(f"{TALLIES[counter]}: {listed(hit)}.")
    return said


def _rolls(system, events: list, undone: dict, names: dict[str, str]) -> list[str]:
    """The best and the worst roll the reader can see, with where each was rolled."""
    rolls = [
        (total, names.get(who, "someone"), what, system.log.event_label(event))
        for event in events
        if event.seq not in undone
        for who, total, what in system.replay.recap_rolls(event)
    ]
    if not rolls:
        return []
    best = max(rolls, key=lambda roll: roll[0])
    worst = min(rolls, key=lambda roll: roll[0])
    said = [f"Best roll: {best[1]}’s {best[2]}, {best[0]} ({best[3]})."]
    if worst is not best and len(rolls) > 1:
        said.append(f"Worst roll: {worst[1]}’s {worst[2]}, {worst[0]} ({worst[3]}).")
    return said


def _marks(story, names: dict[str, str]) -> list[str]:
    """The botches, and the storyguide's corrections with their reasons."""
    said = []
    botches = [
        f"{names.get(m['who'], 'someone')} {m['words']} in round {m['round']}"
        for m in story.marks
        if m["mark"] == "botch"
    ]
    if botches:
        said.append(f"{'Botches' if len(botches) > 1 else 'A botch'}: {listed(botches)}.")
    for m in story.marks:
        if m["mark"] == "correction":
            said.append(
                f"The storyguide corrected {names.get(m['who'], 'someone')} in round {m['round']}"
                f"{_quoted(m['words'])}."
            )
    return said


def _undos(system, events: list, undone: dict) -> list[str]:
    """Each undo that took something back, once, with its reason."""
    undos = {id(undo): undo for undo in undone.values()}.values()
    return [f"The storyguide undid {system.log.event_label(undo)}{_quoted(reason(undo))}." for undo in undos]


def told(reader: Reader, encounter) -> Told:
    """One encounter's sentences and its characters' levels at its end, as the reader's log tells them."""
    system = reader.system
    events = [reader.shown(event) for event in reader.events().filter(encounter_id=encounter.pk)]
    story = tell(system, events)
    undone = taken_back(system, events)
    names = story.names
    joined = reader.roster.joined.get(encounter.pk, {})
    order = [cid for cid in joined if cid in story.fought]
    fell = [names.get(cid, "someone") for cid in order if story.ended and cid not in story.survivors]
    sentences = [f"Storyguide: {ran_by(reader, encounter.pk)}.", _who_fought(events, story, names, joined)]
    if fell:
        sentences.append(f"{listed(fell)} fell.")
    sentences += _numbers(story, names, order)
    sentences += _rolls(system, events, undone, names)
    sentences += _marks(story, names)
    sentences += _undos(system, events, undone)
    end = story.levels[story.rounds[-1]] if story.rounds else {}
    standing, tracks = [], system.replay.chart_tracks()
    for combatant in (c for c in reader.combatants if c.encounter_id == encounter.pk):
        places = end.get(str(combatant.pk), {})
        labels = [labels[places[key]] if key in places else "not in the log" for key, _, labels in tracks]
        standing.append([reader.name_of(combatant), combatant.side, *labels])
    return Told(encounter.name, sentences, standing, tuple(heading for _, heading, _ in tracks))


def evening_title(saga, evening: Evening) -> str:
    """"Forest saga: the evening of 28 November 2026"."""
    day = formats.date_format(timezone.localtime(evening.start), "j F Y") if evening.start else ""
    return f"{saga.name}: the evening of {day}" if day else f"{saga.name}: evening {evening.number}"


def version_words(reader: Reader) -> str:
    """Whose version it is, said at its top."""
    if reader.is_storyguide:
        return "The storyguide’s version: everything the log holds."
    if reader.troupe:
        return "Your version: the storyguide’s of what you ran or run now, the players’ of the rest."
    return "The players’ version: what the table saw."


def evening_lines(reader: Reader, evening: Evening) -> Iterator[str]:
    """The evening's recap as Markdown, line by line."""
    yield f"# {escaped(evening_title(reader.saga, evening))}"
    yield ""
    yield f"_{escaped(version_words(reader))}_"
    headings = ["Character", "Side", *(heading for _, heading, _ in reader.system.replay.chart_tracks())]
    for encounter in evening.encounters:
        story = told(reader, encounter)
        yield ""
        yield f"## {escaped(story.name)}"
        yield ""
        yield " ".join(escaped(sentence) for sentence in story.sentences)
        if story.standing:
            yield ""
            yield "| " + " | ".join(headings) + " |"
            yield "|" + "---|" * len(headings)
            for row in story.standing:
                yield "| " + " | ".join(escaped(cell) for cell in row) + " |"
    if not evening.encounters:
        yield ""
        yield "Nothing was played."
