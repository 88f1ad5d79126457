"""The people every test package plays with, one pytest plugin (`pytest_plugins` in tests/conftest.py): a
storyguide (`sg`), a player (`alice`), a second player (`bob`) and a stranger to the saga (`charlie`), each
also as a test client logged in (`as_storyguide`, ...). A package's table (a saga with its fight) is made
for these same people (`make_people`, the `people` fixture). Every test user's password is PASSWORD."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "covenant-test-1220"


def make_user(username: str):
    """A user who signs in with PASSWORD."""
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def client_for(user) -> Client:
    """A new test client, signed in as `user` without a login form."""
    client = Client()
    client.force_login(user)
    return client


def login(client, user):
    """The test client given, signed in as `user` through the login (its password is PASSWORD)."""
    assert client.login(username=user.username, password=PASSWORD)
    return client


@dataclass(frozen=True)
class People:
    """The four personas at once: what a package's table is made for."""

    storyguide: object
    player: object
    second_player: object
    stranger: object


def make_people() -> People:
    """The storyguide `sg`, the players `alice` and `bob`, and `charlie`, who is in no saga."""
    return People(*(make_user(name) for name in ("sg", "alice", "bob", "charlie")))


@pytest.fixture
def people(db) -> People:
    return make_people()


@pytest.fixture
def storyguide(people):
    return people.storyguide


@pytest.fixture
def player(people):
    return people.player


@pytest.fixture
def second_player(people):
    return people.second_player


@pytest.fixture
def stranger(people):
    """Signed up, in no saga of the tests."""
    return people.stranger


@pytest.fixture
def as_storyguide(storyguide) -> Client:
    return client_for(storyguide)


@pytest.fixture
def as_player(player) -> Client:
    return client_for(player)


@pytest.fixture
def as_second_player(second_player) -> Client:
    return client_for(second_player)


@pytest.fixture
def as_stranger(stranger) -> Client:
    return client_for(stranger)
