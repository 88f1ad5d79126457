"""The archive's downloads: thin, the reading and writing are the package's."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from .export import archive_bytes
from .reading import reader_for
from .streaming import streamed


def _file_name(saga, suffix: str) -> str:
    return f"{slugify(saga.name) or 'saga'}-{suffix}"


@login_required
@require_GET
def archive_json(request, saga_id):
    """The saga archive, format 2, streamed: everything for the storyguide, what they saw for a player."""
    reader = reader_for(request.user, saga_id)
    return streamed(
        request, archive_bytes(reader), "application/json", _file_name(reader.saga, "archive.json")
    )
