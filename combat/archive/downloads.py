"""Every export is a download: an attachment named for its saga (and encounter, when filtered to one)
and the day it was made, `sir-boris-and-the-bandits-2026-11-24-recap.md`."""

from __future__ import annotations

from datetime import date

from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify

LONGEST_SLUG = 60


def _slug(name: str, fallback: str) -> str:
    return slugify(name)[:LONGEST_SLUG].strip("-") or fallback


def file_name(saga, what: str, encounter=None, day: date | None = None) -> str:
    """`<saga>[-<encounter>]-<YYYY-MM-DD>-<what>`, ASCII only: the name a browser saves the file as."""
    parts = [_slug(saga.name, "saga")]
    if encounter is not None:
        parts.append(_slug(encounter.name, "encounter"))
    parts.append((day or timezone.localdate()).isoformat())
    return "-".join(parts) + f"-{what}"


def chosen_encounter(encounters, filters):
    """The one of `encounters` an export is filtered to, for its file name; None for the whole saga."""
    if not filters.encounter:
        return None
    return next((encounter for encounter in encounters if str(encounter.pk) == filters.encounter), None)


def as_download(response, name: str):
    """The response, marked as an attachment to save under `name` rather than a page to open."""
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response
