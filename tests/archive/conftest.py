"""A played Ars Magica saga and a played d6 saga (the migration test's games), and their archives."""

import copy
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_migrations import play_ars_magica_round, play_d6_fight_and_chase


@pytest.fixture
def ars(db, monkeypatch):
    return play_ars_magica_round(monkeypatch)


@pytest.fixture
def d6(db, monkeypatch):
    return play_d6_fight_and_chase(monkeypatch)


def archive_of(saga, user) -> bytes:
    """The archive (format 2) as `user` downloads it."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_archive_json", args=[saga.pk]))
    assert response.status_code == 200 and response.streaming
    return b"".join(response.streaming_content)


def archive_data(saga, user) -> dict:
    return json.loads(archive_of(saga, user))


def assert_same_but_ids(before: bytes, after: bytes) -> None:
    """Two archives of one saga, the second of its import: the same file but for the ids, each id where the
    first has one being the new id of the same row (rows line up by their place in the file, made in its
    order), and every combatant a payload or row names being a new one (or, removed, its negative). The
    saga itself was made here: its name says so ("… (imported 29 Nov)") and its date is the import's."""
    old, new = json.loads(before), json.loads(after)
    made = (old["saga"].pop("name"), old["saga"].pop("created_at"))
    name, created = new["saga"].pop("name"), new["saga"].pop("created_at")
    assert re.fullmatch(rf"{re.escape(made[0])} \((imported|copy) \d{{1,2}} [A-Z][a-z]{{2}}(, \d+)?\)", name)
    assert created > made[1], "the saga's date is the file's, not the import's"
    maps: list[dict] = [
        _by_place(old["characters"], new["characters"]),
        _by_place(old["encounters"], new["encounters"]),
        *(_by_place(old["system_rows"][label], new["system_rows"][label]) for label in old["system_rows"]),
    ]
    combatants = {}
    for a, b in zip(old["encounters"], new["encounters"], strict=True):
        combatants |= _by_place(a["combatants"], b["combatants"])
    maps.append(combatants)
    named = {str(number) for number in combatants.values()}
    _alike(old, new, maps, named, "")


def _by_place(old: list, new: list) -> dict:
    assert len(old) == len(new)
    return {a["id"]: b["id"] for a, b in zip(old, new, strict=True)}


def _follows(a, b, maps: list[dict]) -> bool:
    """`b` is `a`, or the new id of the row `a` names (a number, a number as a string, or a pair "a:b")."""
    if a == b:
        return True
    if isinstance(a, str) and isinstance(b, str) and ":" in a:
        return all(_follows(x, y, maps) for x, y in zip(a.split(":"), b.split(":"), strict=True))
    if isinstance(a, str) and a.lstrip("-").isdigit() and isinstance(b, str):
        return any(str(m.get(int(a))) == b for m in maps) or b == str(-abs(int(a)))
    if type(a) is int and type(b) is int:
        return any(m.get(a) == b for m in maps) or b == -abs(a)
    return False


def _alike(a, b, maps: list[dict], named: set[str], path: str) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and len(a) == len(b), path
        for (key, value), (other_key, other) in zip(a.items(), b.items(), strict=True):
            assert _follows(key, other_key, maps), f"{path}: key {key} → {other_key}"
            if other_key.lstrip("-").isdigit():
                assert other_key in named or other_key.startswith("-"), f"{path}: {other_key} is no new one"
            _alike(value, other, maps, named, f"{path}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for index, (value, other) in enumerate(zip(a, b, strict=True)):
            _alike(value, other, maps, named, f"{path}[{index}]")
    else:
        assert _follows(a, b, maps), f"{path}: {a!r} → {b!r}"
        if isinstance(b, str) and b.lstrip("-").isdigit() and not path.endswith(".name"):
            assert b in named or b.startswith("-"), f"{path}: {b} is no new combatant"


_ARCHIVES: dict[str, bytes] = {}


@pytest.fixture
def ars_archive(db, monkeypatch) -> dict:
    """The storyguide's archive of the played Ars Magica saga, on an instance without it (a fresh one):
    played once for the session, then handed out as a fresh copy to each test."""
    if "ars" not in _ARCHIVES:
        table = play_ars_magica_round(monkeypatch)
        _ARCHIVES["ars"] = archive_of(table.saga, table.storyguide)
        table.saga.delete()
        from django.contrib.auth import get_user_model

        get_user_model().objects.all().delete()
    return copy.deepcopy(json.loads(_ARCHIVES["ars"]))
