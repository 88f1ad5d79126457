"""An event's line read as a sentence: what a phone's pop-up shows and a screen reader hears (issue 32).

The line is the one its audience sees (each system's presenters and templates already leave out what
the saga screens from players); this reads it word by word instead of running its parts together: the
where-label ("Round 2 · Melee") is left out, each die is a number of its own ("1, 8, 1"), and a list's
items, a paragraph or a cell are separated ("Bandit 1: initiative 14; Sir Boris: …").
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

BLOCKS = {"li", "p", "div", "br", "tr", "dd", "dt", "ol", "ul", "table", "section", "h2", "h3", "h4"}
CELLS = {"td", "th"}
VOID = {"br", "img", "input", "hr", "wbr", "meta", "link"}
LEAD_INS = {"roll": ": ", "initiative": ", "}  # an acting order's row: "Bandit 1: 1 → 9 = 18, Initiative 23"
LEFT_OUT = {"seq", "visually-hidden"}  # the where-label (beside the line, not part of it); hidden helpers
QUIET_TAGS = {"script", "style", "svg", "title"}


class _Reader(HTMLParser):
    """Collects a line's words, with the breaks its markup means."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, left out, a die)
        self.last_was_die = False

    def skipping(self) -> bool:
        """Inside a part that is not read out."""
        return any(left_out for _, left_out, _ in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        die = "die" in classes
        if not self.skipping():
            if tag in BLOCKS:
                self.brk("; ")
            elif tag in CELLS:
                self.brk(", ")
            elif die:
                self.parts.append(", " if self.last_was_die else " ")
            elif classes & LEAD_INS.keys() and self.parts:
                self.brk(LEAD_INS[min(classes & LEAD_INS.keys())])
        if tag not in VOID:
            self.stack.append((tag, bool(classes & LEFT_OUT) or tag in QUIET_TAGS, die))

    def handle_endtag(self, tag: str) -> None:
        die = False
        while self.stack:
            opened, _, die = self.stack.pop()
            if opened == tag:
                break
        if not self.skipping():
            if tag in BLOCKS:
                self.brk("; ")
            elif die:
                self.last_was_die = True

    def handle_data(self, data: str) -> None:
        if self.skipping() or not data:
            return
        if data.strip():
            self.last_was_die = False
        self.parts.append(data)

    def brk(self, mark: str) -> None:
        """A break between two parts of the line; none before the first."""
        self.last_was_die = False
        if self.parts:
            self.parts.append(mark)


def sentence(html: str) -> str:
    """`html` (an event's line in the log) as one sentence of plain words."""
    reader = _Reader()
    reader.feed(str(html))
    reader.close()
    text = re.sub(r"\s+", " ", "".join(reader.parts))
    text = re.sub(r"\s*([;,:])(\s*[;,:])+", r"\1", text)  # breaks in a row: the first stands
    text = re.sub(r"([.!?…])\s*[;,]", r"\1", text)  # a sentence's own end is break enough
    text = re.sub(r"\s+([;,.:)])", r"\1", text)
    text = re.sub(r"([(])\s+", r"\1", text)
    return text.strip(" ;,")
