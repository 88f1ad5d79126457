"""The campaign's services on an Ars Magica saga: a template's stamped copies copy its weapons, and a
character whose weapons fail to save is not saved (the services themselves:
tests/campaign/test_services.py)."""

import pytest
from django.db import IntegrityError

from arsmagica.models import Weapon
from arsmagica.sheet import sheet_of as ars_sheet
from campaign import services
from campaign.forms import sheet_forms
from campaign.models import Character


def test_stamp_four_bandits_numbers_them_and_copies_weapons(bandit):
    copies = services.stamp_npc_copies(bandit, 4)
    assert [c.name for c in copies] == ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]
    for copy in copies:
        copy.refresh_from_db()
        assert (
            copy.is_npc
            and copy.owner is None
            and ars_sheet(copy).soak == 4
            and copy.saga_id == bandit.saga_id
        )
        assert list(copy.weapons.values_list("name", "missile", "paces")) == [
            ("Club", False, None),
            ("Short bow", True, 30),
        ]
    assert bandit.weapons.count() == 2  # the template keeps its own weapons
    assert Weapon.objects.count() == 2 * 5


def test_save_character_saves_nothing_when_the_weapons_fail(saga, player, monkeypatch):
    data = {
        "name": "Brother Anselm",
        **{
            f: "0"
            for f in [
                "quickness",
                "stamina",
                "finesse",
                "athletics",
                "ride",
                "brawling",
                "soak",
                "dodge_defense",
                "combat_fatigue",
                "encumbrance",
            ]
        },
        "fatigue_level": "fresh",
        "body_level": "unhurt",
        "notes": "",
        "weapons-TOTAL_FORMS": "1",
        "weapons-INITIAL_FORMS": "0",
        "weapons-0-name": "Staff",
        "weapons-0-initiative": "1",
        "weapons-0-attack": "2",
        "weapons-0-defense": "3",
        "weapons-0-damage": "4",
        "weapons-0-optimum_range": "reach",
    }
    form, formset = sheet_forms(saga, Character(saga=saga, owner=player), data)

    def fail(*args, **kwargs):
        raise IntegrityError("the database went away")

    monkeypatch.setattr(formset, "save", fail)
    with pytest.raises(IntegrityError):
        services.save_character(form, formset)
    assert not Character.objects.exists()
