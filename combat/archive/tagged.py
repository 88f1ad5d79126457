"""JSON that gives back Python's sets, tuples and maps with keys other than strings (a round's number),
for what is kept of a fold (`combat.archive.summaries`): a JSON map with string keys stays one, anything
else is tagged, and the tags are taken off while the JSON is parsed (`TaggedDecoder`'s `object_hook`), not
by walking the parsed value again."""

from __future__ import annotations

import json

TAGS = ("__map__", "__set__", "__tuple__")


def tagged(value):
    """A value as JSON that `TaggedDecoder` reads back as it was (a Counter as a dict)."""
    if isinstance(value, dict):
        if all(isinstance(key, str) and key not in TAGS for key in value):
            return {key: tagged(item) for key, item in value.items()}
        return {"__map__": [[tagged(key), tagged(item)] for key, item in value.items()]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": [tagged(item) for item in value]}
    if isinstance(value, tuple):
        return {"__tuple__": [tagged(item) for item in value]}
    if isinstance(value, list):
        return [tagged(item) for item in value]
    return value


def untagged(obj: dict):
    """One parsed JSON object with its tag taken off (its insides are already untagged)."""
    if len(obj) == 1:
        if "__map__" in obj:
            return {key: item for key, item in obj["__map__"]}
        if "__set__" in obj:
            return set(obj["__set__"])
        if "__tuple__" in obj:
            return tuple(obj["__tuple__"])
    return obj


class TaggedDecoder(json.JSONDecoder):
    """Parses what `tagged` made, tags taken off as each object is read."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "object_hook": untagged})
