"""`manage.py load_demo`: the demo saga ready for round one, made once however often it runs."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaign.models import Character, Saga
from combat.models import Encounter, Event

pytestmark = pytest.mark.django_db


def test_load_demo_twice_makes_one_saga_and_prints_the_logins():
    out = StringIO()
    call_command("load_demo", stdout=out)
    counts = (
        Saga.objects.count(),
        Character.objects.count(),
        Encounter.objects.count(),
        Event.objects.count(),
    )
    call_command("load_demo", stdout=StringIO())
    assert (
        counts
        == (Saga.objects.count(), Character.objects.count(), Encounter.objects.count(), Event.objects.count())
        == (1, 6, 1, 7)
    )
    text = out.getvalue()
    assert "storyguide / covenant-sg-1220" in text and "player3 / covenant-p3-1220" in text
    assert authenticate(username="player1", password="covenant-p1-1220") is not None
    encounter = Encounter.objects.get()
    assert encounter.saga.name == "Sir Boris and the bandits" and encounter.status == "preparing"
    assert sorted(encounter.combatants.values_list("side", flat=True)) == ["Opponents"] * 3 + ["Players"] * 3
    boris = Character.objects.get(name="Sir Boris")
    assert boris.owner.username == "player1" and boris.weapons.get().attack == 10
