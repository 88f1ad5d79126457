"""The table: alice is the storyguide, bob and carol play, dave is an outsider."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from arsmagica.models import Weapon
from arsmagica.sheet import new_sheet
from campaign import services
from campaign.models import Character, Membership

PASSWORD = "a-long-saga-password"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username):
    return get_user_model().objects.create_user(username, password=PASSWORD)


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")


@pytest.fixture
def dave(db):
    return make_user("dave")


@pytest.fixture
def saga(alice, bob, carol):
    """An Ars Magica saga run by alice, with bob and carol as players."""
    saga = services.create_saga(alice, name="Sir Boris and the bandits", rule_system="arsmagica")
    Membership.objects.create(saga=saga, user=bob, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=carol, role=Membership.Role.PLAYER)
    return saga


@pytest.fixture
def d6_saga(alice, bob, carol):
    saga = services.create_saga(alice, name="The long chase", rule_system="d6fatigue")
    Membership.objects.create(saga=saga, user=bob, role=Membership.Role.PLAYER)
    Membership.objects.create(saga=saga, user=carol, role=Membership.Role.PLAYER)
    return saga


@pytest.fixture
def boris(saga, bob):
    """Bob's knight, with a sword."""
    boris = Character.objects.create(
        saga=saga,
        owner=bob,
        name="Sir Boris",
        sheet=new_sheet(quickness=1, stamina=2, soak=8, encumbrance=-2),
    )
    Weapon.objects.create(character=boris, name="Long sword", initiative=6, attack=8, defense=5, damage=9)
    return boris


@pytest.fixture
def bandit(saga):
    """Alice's NPC template, with a bow and a club."""
    bandit = Character.objects.create(
        saga=saga, name="Bandit", is_npc=True, sheet=new_sheet(soak=4, quickness=1)
    )
    Weapon.objects.create(character=bandit, name="Club", initiative=2, attack=4, defense=2, damage=5)
    Weapon.objects.create(
        character=bandit, name="Short bow", initiative=1, attack=5, damage=6, missile=True, paces=30
    )
    return bandit


@pytest.fixture
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def as_bob(bob):
    return client_for(bob)


@pytest.fixture
def as_carol(carol):
    return client_for(carol)


@pytest.fixture
def as_dave(dave):
    return client_for(dave)
