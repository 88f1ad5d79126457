"""The demo table both demo sagas share: one storyguide and three players, with known logins."""

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password

from .models import Membership, Saga

STORYGUIDE = ("storyguide", "covenant-sg-1220")
PLAYERS = [("player1", "covenant-p1-1220"), ("player2", "covenant-p2-1220"), ("player3", "covenant-p3-1220")]


def demo_user(username: str, password: str):
    """The demo user of that name, made with that password the first time."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username)
        validate_password(password, user)
        user.set_password(password)
        user.save()
    return user


def demo_saga(name: str, rule_system: str, players: list[tuple[str, str]]):
    """(saga, created, storyguide, {username: player}): the saga with its storyguide and players."""
    storyguide = demo_user(*STORYGUIDE)
    members = {username: demo_user(username, password) for username, password in players}
    saga, created = Saga.objects.get_or_create(
        name=name, storyguide=storyguide, defaults={"rule_system": rule_system}
    )
    Membership.objects.get_or_create(
        saga=saga, user=storyguide, defaults={"role": Membership.Role.STORYGUIDE}
    )
    for player in members.values():
        Membership.objects.get_or_create(saga=saga, user=player, defaults={"role": Membership.Role.PLAYER})
    return saga, created, storyguide, members
