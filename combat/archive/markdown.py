"""An event's line, drawn by its kind's template for the page, as one line of Markdown.

Bold and strong stay bold, italic and emphasis stay italic; a line break or a block (a list item, a
paragraph, a row) becomes " · ", dice side by side are spaced (`2 3 8`), every other tag goes and its
text stays; Markdown's own characters in the text are escaped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")
_MARKS = {"b": "**", "strong": "**", "i": "_", "em": "_"}
_BLOCKS = {"br", "li", "p", "div", "tr", "ul", "ol", "table"}
_SEP = "\x00"


def escaped(text: str) -> str:
    """Text with Markdown's characters escaped: `*` → `\\*`."""
    return _SPECIAL.sub(r"\\\1", text)


def _is_die(attrs) -> bool:
    return "die" in (dict(attrs).get("class") or "").split()


class _Line(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.spans: list[bool] = []
        self.after_die = False

    def handle_starttag(self, tag, attrs) -> None:
        if tag in _MARKS:
            self.parts.append(_MARKS[tag])
        elif tag in _BLOCKS:
            self.parts.append(_SEP)
        elif tag == "span":
            die = _is_die(attrs)
            if die and self.after_die:
                self.parts.append(" ")
            self.spans.append(die)

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag) -> None:
        if tag in _MARKS:
            self.parts.append(_MARKS[tag])
        elif tag in _BLOCKS:
            self.parts.append(_SEP)
        elif tag == "span" and self.spans:
            self.after_die = self.spans.pop()

    def handle_data(self, data) -> None:
        if data.strip():
            self.after_die = False
        self.parts.append(escaped(data))


def line(html: str) -> str:
    """One line of Markdown from an event line's HTML."""
    parser = _Line()
    parser.feed(html)
    parser.close()
    text = " ".join("".join(parser.parts).split())
    text = re.sub(r"(?<!\\)(\*\*|_)(\s*)\1", r"\2", text)  # a mark closed and opened again at once
    pieces = [piece.strip() for piece in text.split(_SEP)]
    return " · ".join(piece for piece in pieces if piece and piece != "·")
