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
    require_storyguide,
)
from campaign.models import Character, Membership


def test_get_membership_returns_each_members_role(saga, alice, bob):
    assert get_membership(alice, saga.pk).role == Membership.Role.STORYGUIDE
    assert get_membership(bob, saga.pk).role == Membership.Role.PLAYER


def test_get_membership_is_404_for_outsiders_anonymous_and_missing_sagas(saga, dave):
    with pytest.raises(Http404):
        get_membership(dave, saga.pk)
    with pytest.raises(Http404):
        get_membership(AnonymousUser(), saga.pk)
    with pytest.raises(Http404):
        get_membership(dave, saga.pk + 1000)


def test_require_storyguide_gives_the_saga_to_alice_403_to_players_404_to_outsiders(saga, alice, bob, dave):
    assert require_storyguide(alice, saga.pk) == saga
    with pytest.raises(PermissionDenied):
        require_storyguide(bob, saga.pk)
    with pytest.raises(Http404):
        require_storyguide(dave, saga.pk)


def test_owner_and_storyguide_edit_and_see_a_sheet_others_do_not(boris, bandit, alice, bob, carol, dave):
    assert can_edit_character(bob, boris) and can_see_full_sheet(bob, boris)
    assert can_edit_character(alice, boris) and can_see_full_sheet(alice, boris)
    assert not can_edit_character(carol, boris) and not can_see_full_sheet(carol, boris)
    assert not can_edit_character(dave, boris)
    assert not can_edit_character(AnonymousUser(), boris)
    assert can_edit_character(alice, bandit)
    assert not can_see_full_sheet(bob, bandit)


def test_get_character_is_404_for_outsiders_and_editable_is_403_for_other_players(boris, carol, dave):
    assert get_character(carol, boris.pk) == boris
    with pytest.raises(Http404):
        get_character(dave, boris.pk)
    with pytest.raises(Http404):
        get_character(carol, Character.objects.order_by("-pk").first().pk + 1)
    with pytest.raises(PermissionDenied):
        get_editable_character(carol, boris.pk)
