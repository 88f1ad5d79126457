"""Charts of an encounter and of a saga, drawn on the server as SVG, each with a title, a description and
a table beside it for screen readers.

Everything is read from the event log as the reader saw it (a player: the players' version, as the
replay), folded by the rule system (`Replay.state_at`'s steps) and asked of it: the level tracks
(`chart_tracks`, `chart_levels`), what an event marks on the timeline (`chart_marks`) and adds to the
saga's numbers (`chart_tally`), and who survived (`survived`); an entry an undo took back marks and
counts nothing (`combat.undo`), and the undo itself is marked, with its reason, in whatever system. The
geometry is made here; the templates only draw it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.contrib.auth.decorators import login_required
from django.db.models import F, Func, JSONField
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import systems
from ..access import encounter_for
from ..events import CoreKind
from ..names import Roster
from ..systems import RuleSystem
from ..undo import reason, taken_back
from .replay import reader_events

MARKS = ("hit", "wound", "botch", "correction", "undo")
MARK_WORDS = {
    "hit": "Hits", "wound": "Wounds", "botch": "Botches", "correction": "Corrections", "undo": "Undos",
}  # fmt: skip
TALLIES = {
    "attacks": "Attacks made",
    "landed": "Attacks landed",
    "wounds_dealt": "Wounds dealt",
    "wounds_taken": "Wounds taken",
    "botches": "Botches",
    "fatigue_lost": "Fatigue levels lost",
}
SERIES = 8  # line styles in the CSS (series-0 .. series-7), repeated past eight characters

# The geometry of a chart, in SVG user units (the SVG scales to its box).
WIDTH, LEVELS_HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 220, 118, 12, 12, 28


@dataclass
class Story:
    """What the log of one encounter tells: levels at each round's end, the timeline's marks, the tallies."""

    names: dict[str, str] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    levels: dict[int, dict[str, dict[str, int]]] = field(default_factory=dict)  # round -> combatant -> track
    marks: list[dict] = field(default_factory=list)
    tally: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    steps: int = 0
    survivors: set[str] = field(default_factory=set)
    fought: set[str] = field(default_factory=set)
    ended: bool = False


def tell(system: RuleSystem, events: list) -> Story:
    """Fold the encounter's events once: each round's levels at its end, every mark, every tally; an
    event an undo took back marks and counts nothing (`combat.undo`)."""
    story = Story()
    roster = Roster.of(events)
    table = system.replay.start()
    undone = taken_back(system, events)
    undos = {undo.seq for undo in undone.values()}
    for index, event in enumerate(events):
        table = system.replay.apply(table, event)
        if event.seq in undos:
            story.marks.append(undo_mark(system, event, index + 1))
        if event.seq not in undone:
            for mark, who, words in system.replay.chart_marks(event):
                story.marks.append(
                    {"step": index + 1, "seq": event.seq, "round": event.round_number, "mark": mark,
                     "who": str(who), "words": words,
                     "name": roster.at(event.encounter_id, event.seq).get(str(who), "")}
                )  # fmt: skip
            for who, counter, amount in system.replay.chart_tally(event):
                story.tally[str(who)][counter] += amount
        following = events[index + 1] if index + 1 < len(events) else None
        if following is None or following.round_number != event.round_number:
            if event.round_number not in story.levels:
                story.rounds.append(event.round_number)
            story.levels[event.round_number] = system.replay.chart_levels(table)
        if event.kind == CoreKind.ENCOUNTER_ENDED:
            story.ended = True
    story.steps = len(events)
    story.names = roster.at(events[0].encounter_id) if events else {}
    story.fought = set(system.replay.chart_levels(table)) if events else set()  # at the table at the end
    story.fought.update(cid for number, levels in story.levels.items() if number for cid in levels)  # or left
    if story.ended:
        story.survivors = {cid for cid in story.fought if system.replay.survived(table, cid)}
    return story


def undo_mark(system: RuleSystem, undo, step: int) -> dict:
    """An undo that took something back, on the timeline as a correction is: the storyguide's, with what it
    undid in the system's words and its reason (the one the recap and the history give)."""
    said = reason(undo)
    words = f"undid {system.log.event_label(undo)}" + (f": {said}" if said else "")
    return {
        "step": step, "seq": undo.seq, "round": undo.round_number, "mark": "undo", "who": "", "words": words,
        "name": "The storyguide",
    }  # fmt: skip


# --- geometry ------------------------------------------------------------------------------------


def _y(place: int, count: int, height: int) -> float:
    inner = height - TOP - BOTTOM
    return round(TOP + (place / max(count - 1, 1)) * inner, 1)


def _x(position: int, count: int) -> float:
    inner = WIDTH - LEFT - RIGHT
    return round(LEFT + (position / max(count - 1, 1)) * inner, 1)


def level_chart(
    track: tuple[str, str, tuple], points: list[tuple[str, dict]], series: list[tuple[str, str]], where: str
) -> dict:
    """One track's chart: x the points in order (a round, or an encounter's round), y the level (best at
    the top), a line per combatant or character (a break where it was not in the fight)."""
    key, heading, labels = track
    lines = []
    xs = [_x(position, len(points)) for position in range(len(points))]  # once, not once per line
    ys = [_y(place, len(labels), LEVELS_HEIGHT) for place in range(len(labels))]
    for number, (who, name) in enumerate(series):
        path, pen_down = [], False
        for position, (_, levels) in enumerate(points):
            place = levels.get(who, {}).get(key)
            if place is None:
                pen_down = False
                continue
            path.append(f"{'L' if pen_down else 'M'}{xs[position]} {ys[place]}")
            pen_down = True
        if path:
            lines.append({"name": name, "d": " ".join(path), "css": f"series-{number % SERIES}"})
    step = max(1, len(labels) // 10)
    ticks = max(1, len(points) // 8)
    return {
        "id": f"chart-{key}-{where}",
        "title": f"{heading} by round",
        "desc": f"{heading} of each character at the end of each round{where_words(where)}; "
        "the best level at the top. The table beside it gives the values.",
        "width": WIDTH,
        "height": LEVELS_HEIGHT,
        "left": LEFT,
        "bottom_y": LEVELS_HEIGHT - BOTTOM,
        "right_x": WIDTH - RIGHT,
        "y_labels": [
            {"y": _y(place, len(labels), LEVELS_HEIGHT), "text": label}
            for place, label in enumerate(labels)
            if place % step == 0 or place == len(labels) - 1
        ],
        "x_labels": [
            {"x": _x(position, len(points)), "text": label}
            for position, (label, _) in enumerate(points)
            if position % ticks == 0
        ],
        "lines": lines,
        "table": round_table(key, labels, points, series) if where == "encounter" else None,  # saga: its own
    }


def round_table(key: str, labels: tuple, points: list[tuple[str, dict]], series: list) -> dict:
    """An encounter's chart as a table: a row per character, a column per round."""
    return {
        "columns": [label for label, _ in points],
        "rows": [
            {
                "name": name,
                "css": f"series-{number % SERIES}",
                "cells": [
                    labels[levels[who][key]] if key in levels.get(who, {}) else "" for _, levels in points
                ],
            }
            for number, (who, name) in enumerate(series)
        ],
    }


def encounter_table(key: str, labels: tuple, spans: list[tuple[str, list[dict]]], series: list) -> dict:
    """A saga's chart as a table: a row per character, a column per encounter, each cell the level the
    character ended it at and the worst it reached ("Weary (worst Dazed)")."""
    rows = []
    for number, (who, name) in enumerate(series):
        cells = []
        for _, rounds in spans:
            places = [levels[who][key] for levels in rounds if key in levels.get(who, {})]
            if not places:
                cells.append("")
                continue
            end, worst = labels[places[-1]], labels[max(places)]
            cells.append(end if worst == end else f"{end} (worst {worst})")
        rows.append({"name": name, "css": f"series-{number % SERIES}", "cells": cells})
    return {"columns": [label for label, _ in spans], "rows": rows}


def where_words(where: str) -> str:
    return " of this encounter" if where == "encounter" else " across the saga"


def timeline(story: Story, undoes: bool = True) -> dict:
    """The encounter's timeline: a lane for each mark (hits, wounds, botches, corrections, and undos where the
    system has an undo: `undoes`), a dot at the step where it happened, with its words as the dot's title."""
    marks = [mark for mark in MARKS if undoes or mark != "undo"]
    height = TOP + BOTTOM + 30 * len(marks)
    lanes = {mark: TOP + 15 + 30 * number for number, mark in enumerate(marks)}
    dots = [
        {
            "x": _x(mark["step"] - 1, story.steps),
            "y": lanes[mark["mark"]],
            "css": f"mark-{mark['mark']}",
            "title": f"Step {mark['step']}, round {mark['round']}: "
            f"{mark['name']} {mark['words']}",
        }
        for mark in story.marks
    ]
    kinds = [MARK_WORDS[mark].lower() for mark in marks]
    kinds = ", ".join(kinds[:-1]) + f" and {kinds[-1]}"
    return {
        "id": "chart-timeline",
        "title": f"Timeline of {kinds}",
        "desc": f"{len(story.marks)} marks over {story.steps} steps of the encounter's log, a lane for each "
        "kind; the table beside it lists every mark.",
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "right_x": WIDTH - RIGHT,
        "lanes": [{"y": y, "text": MARK_WORDS[mark]} for mark, y in lanes.items()],
        "dots": dots,
        "rows": [
            {**mark, "label": MARK_WORDS[mark["mark"]]}
            for mark in story.marks
        ],
    }


def bars(rows: list[dict]) -> dict:
    """The saga's numbers as bars: a group per character, a bar for each number."""
    measures = [*TALLIES, "survived"]
    words = {**TALLIES, "survived": "Encounters survived"}
    most = max([row["values"][m] for row in rows for m in measures] + [1])
    bar, gap = 9, 14
    group = bar * len(measures) + gap
    height = TOP + BOTTOM + group * max(len(rows), 1)
    drawn = []
    for number, row in enumerate(rows):
        top = TOP + number * group
        drawn.append({"y": top + bar * len(measures) / 2 + 4, "text": row["name"]})
        for index, measure in enumerate(measures):
            value = row["values"][measure]
            drawn[-1].setdefault("bars", []).append(
                {
                    "y": top + index * bar,
                    "width": round((WIDTH - LEFT - RIGHT) * value / most, 1),
                    "css": f"measure-{index}",
                    "title": f"{row['name']}: {words[measure]} {value}",
                }
            )
    return {
        "id": "chart-numbers",
        "title": "Each character's numbers across the saga",
        "desc": "For each character, bars for attacks made and landed, wounds dealt and taken, botches, "
        "fatigue levels lost and encounters survived; the table beside it gives every number.",
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "groups": drawn,
        "legend": [{"text": words[m], "css": f"measure-{i}"} for i, m in enumerate(measures)],
        "columns": [words[m] for m in measures],
    }


# --- pages -----------------------------------------------------------------------------------------


@login_required
@require_GET
def encounter_charts(request, encounter_id):
    """An encounter's charts: each track's levels round by round, the timeline of what happened."""
    encounter = encounter_for(request.user, encounter_id)
    system = systems.of(encounter.saga)
    _, events = reader_events(encounter, request.user)
    story = tell(system, events)
    series = sorted(story.names.items(), key=lambda item: item[1].casefold())
    points = [(f"R{r}" if r else "Start", story.levels[r]) for r in story.rounds]
    charts = [level_chart(track, points, series, "encounter") for track in system.replay.chart_tracks()]
    return render(
        request,
        "combat/charts.html",
        {
            "saga": encounter.saga,
            "encounter": encounter,
            "level_charts": charts,
            "timeline": timeline(story, undoes=bool(system.replay.UNDO_KINDS)),
        },
    )


class Without(Func):
    """A JSON column without some of its keys, removed in the database (SQLite's `json_remove`,
    PostgreSQL's `#-`) so they are neither sent nor decoded; any other database sends it whole."""

    output_field = JSONField()

    def __init__(self, column: str, paths: tuple[str, ...]) -> None:
        super().__init__(F(column))
        self.paths = tuple(paths)

    def as_sql(self, compiler, connection, **extra):
        return compiler.compile(self.source_expressions[0])

    def as_sqlite(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        paths = ["$." + ".".join(f'"{key}"' for key in path.split(".")) for path in self.paths]
        return f"JSON_REMOVE({sql}, {', '.join(['%s'] * len(paths))})", (*params, *paths)

    def as_postgresql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        for path in self.paths:
            sql = f"({sql} #- %s::text[])"
            params = (*params, path.split("."))
        return sql, params


def saga_events(reader):
    """The saga's events the charts read (`Replay.CHART_KINDS`) as the reader sees them, light (no model
    rows), encounter by encounter."""
    events = reader.events()
    replay = reader.system.replay
    if replay.CHART_KINDS is not None:
        # The kinds whose units fold, mark or tally, and an undo: its steps count nowhere.
        kinds = (*systems.charted_kinds(reader.system), *replay.CHART_KINDS, *replay.UNDO_KINDS)
        events = events.filter(kind__in=[str(kind) for kind in kinds])
    payload = Without("payload", replay.CHART_UNREAD) if replay.CHART_UNREAD else "payload"
    fields = ("encounter_id", "seq", "kind", "round_number", "phase", payload, "storyguide_only")
    rows = events.values_list(*fields)
    for encounter_id, seq, kind, round_number, phase, payload, hidden in rows.iterator(chunk_size=2000):
        event = SimpleNamespace(
            encounter_id=encounter_id, seq=seq, kind=kind, round_number=round_number, phase=phase,
            payload=payload, storyguide_only=hidden,
        )  # fmt: skip
        yield reader.shown(event)


def saga_stories(reader) -> list[tuple[int, Story]]:
    """Each encounter's story, oldest first."""
    stories, current, events = [], None, []
    for event in saga_events(reader):
        if event.encounter_id != current and events:
            stories.append((current, tell(reader.system, events)))
            events = []
        current = event.encounter_id
        events.append(event)
    if events:
        stories.append((current, tell(reader.system, events)))
    return stories
