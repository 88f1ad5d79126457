import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaign.access import (
    can_edit_character,
    can_see_full_sheet,
    get_character,
    get_editable_character,
    get_membership,
    require_a_storyguide,
    require_lead,
)
from campaign.models import Character, Membership


def test_get_membership_returns_each_members_role(saga, storyguide, player):
    assert get_membership(storyguide, saga.pk).role == Membership.Role.STORYGUIDE
    assert get_membership(player, saga.pk).role == Membership.Role.PLAYER


def test_get_membership_is_404_for_outsiders_anonymous_and_missing_sagas(saga, stranger):
    with pytest.raises(Http404):
        get_membership(stranger, saga.pk)
    with pytest.raises(Http404):
        get_membership(AnonymousUser(), saga.pk)
    with pytest.raises(Http404):
        get_membership(stranger, saga.pk + 1000)


@pytest.mark.parametrize("require", [require_lead, require_a_storyguide])
def test_require_lead_and_a_storyguide_give_the_saga_to_alice_403_to_players_404_to_outsiders(
    require, saga, storyguide, player, stranger
):
    assert require(storyguide, saga.pk) == saga
    with pytest.raises(PermissionDenied):
        require(player, saga.pk)
    with pytest.raises(Http404):
        require(stranger, saga.pk)


def test_owner_and_storyguide_edit_and_see_a_sheet_others_do_not(
    boris, bandit, storyguide, player, second_player, stranger
):
    assert can_edit_character(player, boris) and can_see_full_sheet(player, boris)
    assert can_edit_character(storyguide, boris) and can_see_full_sheet(storyguide, boris)
    assert not can_edit_character(second_player, boris) and not can_see_full_sheet(second_player, boris)
    assert not can_edit_character(stranger, boris)
    assert not can_edit_character(AnonymousUser(), boris)
    assert can_edit_character(storyguide, bandit)
    assert not can_see_full_sheet(player, bandit)


def test_get_character_is_404_for_outsiders_and_editable_is_403_for_other_players(
    boris, second_player, stranger
):
    assert get_character(second_player, boris.pk) == boris
    with pytest.raises(Http404):
        get_character(stranger, boris.pk)
    with pytest.raises(Http404):
        get_character(second_player, Character.objects.order_by("-pk").first().pk + 1)
    with pytest.raises(PermissionDenied):
        get_editable_character(second_player, boris.pk)
