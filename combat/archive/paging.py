"""The history in pages: a fixed number of events a page, read in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator

from .filters import Filters

PER_PAGE = 100


@dataclass(frozen=True)
class PageLink:
    """A link of the pager: its words and where it goes ("" when it goes nowhere from here)."""

    label: str
    url: str
    testid: str


def page_of(events, number) -> Page:
    """Page `number` of the events (the last page when past the end, the first when not a number)."""
    return Paginator(events, PER_PAGE).get_page(number)


def pager(page: Page, filters: Filters) -> dict:
    """What the pager shows: where this page stands in words, and the links around it."""
    total = page.paginator.count
    if total == 0:
        return {"summary": "", "links": []}
    summary = (
        f"Page {page.number} of {page.paginator.num_pages}: "
        f"entries {page.start_index()} to {page.end_index()} of {total}"
    )
    links = [
        PageLink("First", f"?{filters.query(page=1)}" if page.number > 1 else "", "page-first"),
        PageLink(
            "Previous",
            f"?{filters.query(page=page.previous_page_number())}" if page.has_previous() else "",
            "page-previous",
        ),
        PageLink(
            "Next", f"?{filters.query(page=page.next_page_number())}" if page.has_next() else "", "page-next"
        ),
        PageLink(
            "Last",
            f"?{filters.query(page=page.paginator.num_pages)}"
            if page.number < page.paginator.num_pages
            else "",
            "page-last",
        ),
    ]
    return {"summary": summary, "links": links}
