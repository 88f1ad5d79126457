"""The core's undo (`combat.undo`) and the charts' reading of it (`combat.archive.charts.tell`), on the coin
duel with an undo of its own made here: a system says which kinds undo (`Replay.UNDO_KINDS`) and what each
takes back (`takes_back`); the core does the rest. An undo takes back only what still stands, and what it
took back counts nowhere: no tally, no mark, but the undo's own mark with its reason (docs/replay.md, "Undo
and the record")."""

from types import SimpleNamespace

from typing_extensions import override

from combat import systems, undo
from combat.archive.charts import tell, timeline
from combat.models import Event
from tests.coinduel import KEY
from tests.coinduel.events import Flip

RECALLED = "coin_recalled"  # the storyguide takes back the last turn still standing


class Recalling(systems.Replay):
    """The coin duel's fold, with an undo and a tally of heads."""

    UNDO_KINDS = (RECALLED,)

    @override
    def takes_back(self, undo, standing):
        flips = [event.seq for event in standing if event.kind == Flip.name]
        return flips[-1:]

    @override
    def chart_tally(self, event):
        faces = event.payload.get("faces", {}) if event.kind == Flip.name else {}
        return [(who, "landed", 1) for who, face in faces.items() if face == "heads"]


def recalling_duel():
    return SimpleNamespace(replay=Recalling(), log=systems.get(KEY).log)


def recall(table, reason: str) -> Event:
    encounter = table.refresh()
    seq = encounter.events.order_by("-seq").values_list("seq", flat=True).first() + 1
    return Event.objects.create(
        encounter=encounter,
        seq=seq,
        kind=RECALLED,
        round_number=encounter.round_number,
        payload={"reason": reason},
    )


def test_an_undo_takes_back_what_still_stands_and_it_counts_nowhere(table):
    system = recalling_duel()
    table.flip()  # Ada heads, Bruno tails
    table.flip()
    first = recall(table, "the coin rolled under the table")
    second = recall(table, "and so did this one")
    events = list(table.refresh().events.order_by("seq"))
    flips = [event.seq for event in events if event.kind == Flip.name]

    back = undo.taken_back(system, events)
    assert {seq: u.seq for seq, u in back.items()} == {flips[1]: first.seq, flips[0]: second.seq}  # once each
    found = undo.undone_in(system, [table.encounter.pk])
    assert {key: u.seq for key, u in found.items()} == {
        (table.encounter.pk, flips[1]): first.seq,
        (table.encounter.pk, flips[0]): second.seq,
    }
    undo.mark(events, found)
    assert [undo.reason(event.undone_by) for event in events if event.kind == Flip.name] == [
        "and so did this one",
        "the coin rolled under the table",
    ]
    assert undo.reason(None) == ""

    story = tell(system, events)
    assert sum(story.tally[str(table.ada.pk)].values()) == 0  # both heads taken back
    marks = [(mark["mark"], mark["name"], mark["words"]) for mark in story.marks]
    assert marks == [
        ("undo", "The storyguide", "undid Round 2: the coin rolled under the table"),
        ("undo", "The storyguide", "undid Round 2: and so did this one"),
    ]
    drawn = timeline(story)
    assert [dot["css"] for dot in drawn["dots"]] == ["mark-undo", "mark-undo"]
    assert "Undos" in [lane["text"] for lane in drawn["lanes"]]


def test_a_system_with_no_undo_reads_no_log_for_it(table, django_assert_num_queries):
    table.flip()
    with django_assert_num_queries(0):
        assert undo.undone_in(systems.get(KEY), [table.encounter.pk]) == {}
    story = tell(systems.get(KEY), list(table.refresh().events.order_by("seq")))
    assert story.marks == [] and "Undos" not in [
        lane["text"] for lane in timeline(story, undoes=False)["lanes"]
    ]
