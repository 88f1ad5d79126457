import pytest

from campaign import services
from campaign.forms import sheet_forms
from campaign.models import Character, Membership, Saga
from tests.coinduel import KEY


def test_create_saga_makes_the_creator_its_storyguide(storyguide):
    saga = services.create_saga(storyguide, name="Tribunal", rule_system=KEY, physical_dice=True)
    saga.refresh_from_db()
    assert (saga.storyguide, saga.rule_system, saga.physical_dice) == (storyguide, KEY, True)
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
