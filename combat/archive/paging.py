"""The history in pages: a fixed number of events a page, read in a fixed number of queries.

No page counts the whole log: counting a player's entries of a long saga reads every event row (which
ones are the storyguide's is not in an index), which cost more than the page itself. A page reads one
entry past its end to know whether another page follows.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..inputs import is_digits
from .filters import Filters

PER_PAGE = 100


@dataclass(frozen=True)
class Page:
    """One page of entries: its number (from 1), its entries, and whether another page follows."""

    number: int
    entries: list
    has_next: bool

    @property
    def first_index(self) -> int:
        return (self.number - 1) * PER_PAGE + 1


@dataclass(frozen=True)
class PageLink:
    """A link of the pager: its words and where it goes ("" when it goes nowhere from here)."""

    label: str
    url: str
    testid: str


def page_number(value) -> int:
    """The page asked for: a whole number from 1, or 1."""
    text = str(value or "")
    return int(text) if is_digits(text, 7) and 0 < int(text) < 10**7 else 1


def page_of(events, value) -> Page:
    """Page `value` of the events, in one query."""
    number = page_number(value)
    start = (number - 1) * PER_PAGE
    rows = list(events[start : start + PER_PAGE + 1])
    return Page(number, rows[:PER_PAGE], len(rows) > PER_PAGE)


def pager(page: Page, filters: Filters) -> dict:
    """What the pager shows: where this page stands in words, and the links around it."""
    if not page.entries:
        summary = f"Nothing on page {page.number}." if page.number > 1 else ""
    else:
        summary = (
            f"Page {page.number}: entries {page.first_index} to {page.first_index + len(page.entries) - 1}"
        )
    if not summary:
        return {"summary": "", "links": []}
    earlier = page.number > 1
    links = [
        PageLink("First", f"?{filters.query(page=1)}" if earlier else "", "page-first"),
        PageLink("Previous", f"?{filters.query(page=page.number - 1)}" if earlier else "", "page-previous"),
        PageLink("Next", f"?{filters.query(page=page.number + 1)}" if page.has_next else "", "page-next"),
    ]
    return {"summary": summary, "links": links}
