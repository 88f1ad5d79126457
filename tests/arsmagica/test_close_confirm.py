"""Closing declarations on someone who can act and has not declared asks once, naming them (issue 35,
item 8: Sir Boris silently did nothing for three rounds); with everyone declared it asks nothing."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services
from arsmagica.presenters import close_declarations_confirm
from tests.personas import login

pytestmark = pytest.mark.django_db


def close_form(table) -> str:
    """The storyguide's close-declarations form's opening tag, as the control panel draws it."""
    page = login(Client(), table.storyguide).get(reverse("encounter_page", args=[table.encounter.pk]))
    url = reverse("arsmagica:close_declarations", args=[table.encounter.pk])
    return re.search(rf"<form[^>]*{re.escape(url)}[^>]*>", page.content.decode()).group(0)


def test_the_confirmation_names_who_has_not_declared():
    assert close_declarations_confirm([]) == ""
    assert close_declarations_confirm(["Sir Boris"]) == (
        "Sir Boris has not declared and will do nothing this round. Close declarations anyway?"
    )
    assert close_declarations_confirm(["Sir Boris", "Bandit 1", "Bandit 2"]).startswith(
        "Sir Boris, Bandit 1 and Bandit 2 have not declared"
    )


def test_closing_with_someone_undeclared_asks_once_naming_them_and_not_when_all_have(table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, boris)  # Sir Boris alone
    asked = close_form(table)
    assert 'hx-confirm="Brother Anselm, Bandit 1, Bandit 2 and Bandit 3 have not declared' in asked
    hit = {"body_level": "incapacitated"}  # who cannot act has nothing to declare: not named
    services.correct(table.storyguide, table.encounter.pk, table.v, table.anselm.pk, hit, "Struck down")
    assert 'hx-confirm="Bandit 1, Bandit 2 and Bandit 3 have not declared' in close_form(table)
    for bandit in table.bandits:
        values = {"action": "attack", "weapon_id": table.weapon(bandit), "engage": [table.boris.pk]}
        services.declare(table.storyguide, table.encounter.pk, bandit.pk, values)
    assert "hx-confirm" not in close_form(table)
