import pytest
from django.db import IntegrityError

from arsmagica.models import Weapon
from arsmagica.sheet import sheet_of as ars_sheet
from campaign import services
from campaign.forms import sheet_forms
from campaign.models import Character, Membership, Saga
from d6.sheet import DEFAULT_ATTRIBUTES, saga_attributes


def test_create_saga_makes_the_creator_its_storyguide(storyguide):
    saga = services.create_saga(storyguide, name="Tribunal", rule_system="d6fatigue", physical_dice=True)
    saga.refresh_from_db()
    assert (saga.storyguide, saga.rule_system, saga.physical_dice) == (storyguide, "d6fatigue", True)
    assert saga_attributes(saga) == list(DEFAULT_ATTRIBUTES)
    assert saga_attributes(saga)[:3] == ["strength", "dexterity", "stamina"]
    assert list(saga.memberships.values_list("user__username", "role")) == [("sg", "storyguide")]


def test_join_saga_adds_a_player_once(saga, stranger):
    membership, created = services.join_saga(stranger, saga)
    assert created and membership.role == Membership.Role.PLAYER
    again, created_again = services.join_saga(stranger, saga)
    assert not created_again and again.pk == membership.pk
    assert saga.memberships.filter(user=stranger).count() == 1


def test_join_saga_keeps_the_storyguide_a_storyguide(saga, storyguide):
    membership, created = services.join_saga(storyguide, saga)
    assert not created and membership.role == Membership.Role.STORYGUIDE


def test_regenerate_invite_replaces_the_token(saga):
    old = saga.invite_token
    new = services.regenerate_invite(saga)
    saga.refresh_from_db()
    assert saga.invite_token == new != old
    assert not Saga.objects.filter(invite_token=old).exists()


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


def test_stamping_continues_the_numbering(bandit):
    services.stamp_npc_copies(bandit, 2)
    copies = services.stamp_npc_copies(Character.objects.get(name="Bandit 2"), 3)
    assert [c.name for c in copies] == ["Bandit 3", "Bandit 4", "Bandit 5"]


def test_stamping_with_another_name_numbers_from_one(bandit):
    copies = services.stamp_npc_copies(bandit, 2, base_name="Cutthroat")
    assert [c.name for c in copies] == ["Cutthroat 1", "Cutthroat 2"]


@pytest.mark.parametrize("count", [0, 51])
def test_stamping_refuses_silly_counts(bandit, count):
    with pytest.raises(ValueError):
        services.stamp_npc_copies(bandit, count)
    assert Character.objects.count() == 1


def test_only_npcs_are_stamped(boris):
    with pytest.raises(ValueError):
        services.stamp_npc_copies(boris, 2)


def test_save_character_refuses_invalid_forms(saga, player):
    form, formset = sheet_forms(saga, Character(saga=saga, owner=player), {"name": ""})
    with pytest.raises(ValueError):
        services.save_character(form, formset)
    assert not Character.objects.exists()


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
