"""A rule system's own rows (weapons, declarations, fights) as archive objects and back, field by field.

Every concrete field is kept under its name: a person as their username, another row as its id, a
time as ISO 8601, anything else as stored. The system says which rows are its (`Archive.archive_rows`).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models


def label_of(model) -> str:
    """The archive's name of a model: "app_label.modelname"."""
    return model._meta.label_lower


def is_person(field) -> bool:
    """A foreign key to the user model."""
    return field.is_relation and label_of(field.related_model) == settings.AUTH_USER_MODEL.lower()


def row_fields(model) -> list[models.Field]:
    """The fields an archive keeps of a row: every concrete one."""
    return list(model._meta.concrete_fields)


def dumped(row, usernames: dict[int, str]) -> dict:
    """One row as an archive object; `usernames` by user id."""
    data = {}
    for field in row_fields(type(row)):
        value = getattr(row, field.attname)
        if is_person(field):
            value = usernames.get(value) if value is not None else None
        elif isinstance(value, datetime):
            value = value.isoformat()
        data[field.name] = value
    return data
