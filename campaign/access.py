"""Who may see and change what in a saga: each check written once, raising 404 or 403.

Outsiders get 404 (a saga's existence is not revealed); members without the right get 403.

A saga's troupe (issue 38, docs/architecture.md "Troupe play"): its storyguides are its members of role
"storyguide" (`is_a_storyguide`), its lead among them (`Saga.storyguide`, `is_lead`). Who holds one
encounter's seat is the encounter's question (`combat.access.holds_seat`).
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Character, Membership, Saga


def get_membership(user, saga_id) -> Membership:
    """The user's membership in the saga; 404 when the user is not a member (or not logged in)."""
    if not user.is_authenticated:
        raise Http404("No such saga.")
    try:
        return Membership.objects.select_related("saga").get(saga_id=saga_id, user=user)
    except (Membership.DoesNotExist, ValueError, TypeError):
        raise Http404("No such saga.") from None


def is_lead(user, saga: Saga) -> bool:
    """Whether the user is the saga's lead storyguide (no row read)."""
    return user.is_authenticated and saga.storyguide_id == user.pk


def is_a_storyguide(user, saga: Saga) -> bool:
    """Whether the user is one of the saga's storyguides: its lead, or a member of role "storyguide"."""
    if is_lead(user, saga):
        return True
    if not user.is_authenticated:
        return False
    mine = Membership.objects.filter(saga_id=saga.pk, user_id=user.pk, role=Membership.Role.STORYGUIDE)
    return mine.exists()


def require_lead(user, saga_id) -> Saga:
    """The saga, when the user is its lead storyguide; 403 for its other members, 404 for outsiders."""
    saga = get_membership(user, saga_id).saga
    if not is_lead(user, saga):
        raise PermissionDenied("Only the saga's lead storyguide can do that.")
    return saga


def require_a_storyguide(user, saga_id) -> Saga:
    """The saga, when the user is one of its storyguides, the lead among them (no row read but the
    membership); 403 for its players, 404 for outsiders."""
    membership = get_membership(user, saga_id)
    saga = membership.saga
    if not (membership.role == Membership.Role.STORYGUIDE or is_lead(user, saga)):
        raise PermissionDenied("Only the storyguide can do that.")
    return saga


def can_edit_character(user, character: Character) -> bool:
    """The character's owner or one of the saga's storyguides (`is_a_storyguide`)."""
    if not user.is_authenticated:
        return False
    return character.owner_id == user.pk or is_a_storyguide(user, character.saga)


def can_see_full_sheet(user, character: Character) -> bool:
    """The full sheet (scores, weapons, notes) is for the owner and the saga's storyguides only."""
    return can_edit_character(user, character)


def get_character(user, character_id) -> Character:
    """A character of a saga the user belongs to; 404 for outsiders."""
    try:
        character = Character.objects.select_related("saga", "owner").get(pk=character_id)
    except (Character.DoesNotExist, ValueError, TypeError):
        raise Http404("No such character.") from None
    get_membership(user, character.saga_id)
    return character


def get_editable_character(user, character_id) -> Character:
    """A character the user may edit; 404 for outsiders, 403 for other players' characters."""
    character = get_character(user, character_id)
    if not can_edit_character(user, character):
        raise PermissionDenied("Only the character's player and the storyguides can change this sheet.")
    return character
