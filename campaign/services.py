"""Campaign use cases: every change to sagas, memberships and characters, each in one transaction."""

import re

from django.db import transaction
from django.forms import BaseInlineFormSet
from django.utils import timezone

from . import signals, systems
from .access import is_a_storyguide, is_lead
from .models import Character, Membership, NpcRolls, Saga, new_invite_token

MAX_STAMPED_COPIES = 50


@transaction.atomic
def create_saga(
    user, *, name: str, rule_system: str, physical_dice: bool = False, npc_rolls: str = NpcRolls.RESULTS
) -> Saga:
    """A new saga; its creator is the storyguide, with a storyguide membership."""
    saga = Saga.objects.create(
        name=name, rule_system=rule_system, physical_dice=physical_dice, npc_rolls=npc_rolls, storyguide=user
    )
    Membership.objects.create(saga=saga, user=user, role=Membership.Role.STORYGUIDE)
    return saga


# "… (imported 29 Nov)", "… (copy 29 Nov, 2)": what a saga made here from another says it is.
MADE_FROM = re.compile(r"\s+\((?:imported|copy) \d{1,2} [A-Z][a-z]{2}(?:, \d+)?\)$")


def made_here_name(name: str, storyguide, what: str, today=None) -> str:
    """The name of a saga imported or duplicated today (`what`: "imported" or "copy"): the file's or the
    original's name, without the mark an earlier import or copy gave it, and "(imported 29 Nov)"; unique
    among the storyguide's sagas ("(copy 29 Nov, 2)" when the first is taken)."""
    today = today or timezone.localdate()
    base = MADE_FROM.sub("", name.strip()) or name.strip()
    taken = set(Saga.objects.filter(storyguide=storyguide).values_list("name", flat=True))
    longest = Saga._meta.get_field("name").max_length
    for number in range(1, len(taken) + 2):
        mark = f" ({what} {today.day} {today:%b}{'' if number == 1 else f', {number}'})"
        made = base[: longest - len(mark)].rstrip() + mark
        if made not in taken:
            return made
    raise AssertionError("unreachable: one of len(taken) + 1 names is free")


@transaction.atomic
def join_saga(user, saga: Saga) -> tuple[Membership, bool]:
    """Make the user a player of the saga; an existing membership is returned untouched."""
    return Membership.objects.get_or_create(saga=saga, user=user, defaults={"role": Membership.Role.PLAYER})


@transaction.atomic
def set_npc_rolls(saga: Saga, npc_rolls: str) -> None:
    """How much of an NPC's rolls the saga's players see from now on, in every log, history and export."""
    saga.npc_rolls = NpcRolls(npc_rolls)
    saga.save(update_fields=["npc_rolls"])


@transaction.atomic
def regenerate_invite(saga: Saga) -> str:
    """A fresh invite token; the old link stops working."""
    saga.invite_token = new_invite_token()
    saga.save(update_fields=["invite_token"])
    return saga.invite_token


def save_character(form, formset=None) -> Character:
    """Save a sheet form and its rows together, or nothing at all: rows of their own (weapons) or rows
    on the sheet (abilities, which the formset's `save_to_sheet` writes).

    The form's instance already carries its saga, owner and is_npc (set by the view).
    """
    if not form.is_valid() or (formset is not None and not formset.is_valid()):
        raise ValueError("save_character needs a valid form and formset")
    with transaction.atomic():
        character = form.save(commit=False)
        if formset is not None and hasattr(formset, "save_to_sheet"):
            formset.save_to_sheet(character)
        character.save()
        if isinstance(formset, BaseInlineFormSet):
            formset.instance = character
            formset.save()
    return character


# --- who plays a character: made for a player who will join, handed over, taken up, taken back ---------


class Refused(ValueError):
    """A hand-over or a claim that may not happen; the message, shown beside the form, says why."""


def hand_over(character: Character, player, *, by) -> Character:
    """Any of the saga's storyguides gives a player character to a member of the saga (a player, or a
    storyguide to take it back), or leaves it for a player who will join (`player` None). The saga's records
    keep it, and each open encounter the character fights in logs it (`signals.character_handed_over`): from
    then on its entries are the new player's own, and no longer the one's before (combat.played)."""
    with transaction.atomic():
        saga = Saga.objects.select_for_update().get(pk=character.saga_id)  # one hand-over or claim at a time
        if by is None or not is_a_storyguide(by, saga):
            raise Refused("Only the storyguide can give a character to a player.")
        character = Character.objects.select_related("owner").get(pk=character.pk)
        if character.is_npc:
            raise Refused(f"{character.name} is an NPC: the storyguide plays NPCs.")
        if player is not None and not saga.memberships.filter(user=player).exists():
            raise Refused(f"{player.get_username()} is not in this saga: invite them first.")
        if character.owner_id == (player.pk if player is not None else None):
            who = player.get_username() if player is not None else "nobody yet"
            raise Refused(f"{character.name} is played by {who} already.")
        return _played_by(character, player, by)


def claim_character(user, character_id) -> Character:
    """A player of the saga takes up a player character made for a player who will join. Once: of two who
    click at once, one gets it and the other is told who did."""
    with transaction.atomic():
        character = Character.objects.filter(pk=character_id).first()
        if character is None:
            raise Refused("That character is no longer in the saga.")
        saga = Saga.objects.select_for_update().get(pk=character.saga_id)  # one hand-over or claim at a time
        membership = saga.memberships.filter(user=user).first() if user.is_authenticated else None
        if membership is None:
            raise Refused("Join the saga first: only its players can take up its characters.")
        if membership.role != Membership.Role.PLAYER:
            raise Refused("You are the storyguide: give the character to yourself from its page instead.")
        character = Character.objects.select_related("owner").get(pk=character.pk)
        if character.is_npc:
            raise Refused(f"{character.name} is an NPC: the storyguide plays NPCs.")
        if character.owner_id == user.pk:
            raise Refused(f"You play {character.name} already.")
        if character.owner_id is not None:
            raise Refused(
                f"{character.owner.get_username()} has just taken {character.name}: "
                "choose another, or make your own."
            )
        return _played_by(character, user, user)


def _played_by(character: Character, player, by) -> Character:
    """Save the character's new player and tell the table (inside the caller's transaction)."""
    was, character.owner = character.owner, player
    character.save(update_fields=["owner"])
    signals.character_handed_over.send(Character, character=character, was=was, user=by)
    return character


# --- the saga's troupe: its storyguides and its lead (the lead's; docs/architecture.md "Troupe play") -------


def _troupe_locked(saga: Saga, by, refusal: str) -> Saga:
    """The saga's row, locked for one change of its troupe at a time, when `by` is its lead; else Refused
    with `refusal`. Inside the caller's transaction."""
    saga = Saga.objects.select_for_update().get(pk=saga.pk)
    if by is None or not is_lead(by, saga):
        raise Refused(refusal)
    return saga


def _given_role(saga: Saga, membership: Membership, member, role: str, change: str, by) -> Membership:
    """The member's new place in the troupe saved, and the change told (`campaign.signals.troupe_changed`:
    the saga's record, the seats, the pages), inside the caller's transaction."""
    membership.role = role
    membership.save(update_fields=["role"])
    signals.troupe_changed.send(Saga, saga=saga, change=change, member=member, was=None, by=by)
    return membership


def make_storyguide(saga: Saga, member, *, by) -> Membership:
    """A member of the saga made one of its storyguides, by its lead: they may make its encounters, and
    hold an encounter's seat when it is handed to them."""
    with transaction.atomic():
        saga = _troupe_locked(saga, by, "Only the saga's lead storyguide can choose its storyguides.")
        membership = saga.memberships.filter(user=member).first() if member is not None else None
        if membership is None:
            raise Refused("Only a member of the saga can be one of its storyguides: invite them first.")
        if membership.role == Membership.Role.STORYGUIDE:
            raise Refused(f"{member.get_username()} is one of the saga's storyguides already.")
        return _given_role(saga, membership, member, Membership.Role.STORYGUIDE, signals.MADE, by)


def remove_storyguide(saga: Saga, member, *, by) -> Membership:
    """One of the saga's storyguides made a player again, by its lead (not the lead themselves: pass the lead
    first). The seats they hold pass to the lead, ended encounters' too, each handed over in its log.
    Recorded in the saga's history."""
    with transaction.atomic():
        saga = _troupe_locked(saga, by, "Only the saga's lead storyguide can choose its storyguides.")
        if member is not None and is_lead(member, saga):
            raise Refused("The lead stays a storyguide: pass the lead to another storyguide first.")
        membership = saga.memberships.filter(user=member).first() if member is not None else None
        if membership is None or membership.role != Membership.Role.STORYGUIDE:
            who = member.get_username() if member is not None else "They"
            raise Refused(f"{who} is not one of the saga's storyguides.")
        return _given_role(saga, membership, member, Membership.Role.PLAYER, signals.REMOVED, by)


def pass_lead(saga: Saga, storyguide, *, by) -> Saga:
    """The saga's lead passed by its lead to another of its storyguides, who from then on chooses its
    storyguides, archives and deletes it; the one before stays one of its storyguides."""
    with transaction.atomic():
        saga = _troupe_locked(saga, by, "Only the saga's lead storyguide can pass the lead on.")
        if storyguide is None or is_lead(storyguide, saga):
            raise Refused("The lead is yours already: pass it to another of the saga's storyguides.")
        role = Membership.Role.STORYGUIDE
        if not saga.memberships.filter(user=storyguide, role=role).exists():
            raise Refused(
                f"{storyguide.get_username()} is not one of the saga's storyguides: make them one first."
            )
        was, saga.storyguide = saga.storyguide, storyguide
        saga.save(update_fields=["storyguide"])
        signals.troupe_changed.send(Saga, saga=saga, change=signals.LEAD, member=storyguide, was=was, by=by)
        return saga


def waiting_characters(saga: Saga) -> list[Character]:
    """The saga's player characters made for a player who will join, by name."""
    return list(saga.characters.filter(is_npc=False, owner__isnull=True).order_by("name"))


def stamp_base_name(name: str) -> str:
    """ "Bandit 3" stamps more "Bandit n"; "Bandit" too."""
    return re.sub(r"\s+\d+$", "", name.strip()) or name.strip()


def stamp_npc_copies(npc: Character, count: int, base_name: str = "") -> list[Character]:
    """Copies of an NPC's sheet and its rows, named "<base> n" and numbered on from any that exist."""
    if not npc.is_npc:
        raise ValueError("Only NPCs can be stamped.")
    if not 1 <= count <= MAX_STAMPED_COPIES:
        raise ValueError(f"Stamp between 1 and {MAX_STAMPED_COPIES} copies.")
    base = stamp_base_name(base_name or npc.name)
    with transaction.atomic():
        Saga.objects.select_for_update().get(pk=npc.saga_id)  # two stampings never share a number
        numbered = re.compile(rf"^{re.escape(base)} (\d+)$")
        taken = [
            int(match.group(1))
            for name in Character.objects.filter(saga_id=npc.saga_id, name__startswith=base).values_list(
                "name", flat=True
            )
            if (match := numbered.match(name))
        ]
        start = max(taken, default=0) + 1
        copies = []
        for number in range(start, start + count):
            copy = Character.objects.get(pk=npc.pk)
            copy.pk = None
            copy.id = None
            copy._state.adding = True
            copy.name = f"{base} {number}"
            copy.owner = None
            copy.is_npc = True
            copy.stamped_from = npc.stamped_from or npc
            copy.save()
            copies.append(copy)
        systems.of(npc.saga).sheet.copy_rows(npc, copies)
    return copies


# --- renaming, archiving, deleting (the storyguide's; the views check who asks) ---------------------


class Kept(ValueError):
    """A deletion refused: what is asked would lose history. The message says what to do instead."""


def saga_has_history(saga: Saga) -> bool:
    """Something happened in the saga: a fight went past its set-up, or time passed in its records (the
    table answers, `campaign.signals.saga_history`)."""
    return any(answer for _, answer in signals.saga_history.send(Saga, saga=saga))


def character_in_history(character: Character) -> bool:
    """The character is in an encounter (its log names them) or in the saga's records of time passing (the
    table answers, `campaign.signals.character_history`)."""
    return any(answer for _, answer in signals.character_history.send(Character, character=character))


@transaction.atomic
def rename_saga(saga: Saga, name: str) -> None:
    saga.name = name
    saga.save(update_fields=["name"])


@transaction.atomic
def rename_character(character: Character, name: str, user=None) -> None:
    """A new name for a character, NPC or template; each open encounter it fights in logs the new name
    (`campaign.signals.character_renamed`), and the log keeps the names its events were written with."""
    was, character.name = character.name, name
    character.save(update_fields=["name"])
    if was != name:
        signals.character_renamed.send(Character, character=character, was=was, user=user)


@transaction.atomic
def set_saga_archived(saga: Saga, archived: bool) -> None:
    """Archive a saga (listed apart, nothing lost, its exports still there) or restore it."""
    from django.utils import timezone

    saga.archived_at = timezone.now() if archived else None
    saga.save(update_fields=["archived_at"])


def delete_saga(saga: Saga, typed_name: str = "") -> bool:
    """Delete a saga: destroyed with everything in it when it has no history or its name is typed,
    else archived. True when it was destroyed."""
    with transaction.atomic():
        saga = Saga.objects.select_for_update().get(pk=saga.pk)
        if saga_has_history(saga) and typed_name.strip() != saga.name:
            set_saga_archived(saga, True)
            return False
        saga.delete()
    return True


def delete_character(character: Character) -> None:
    """Delete a character, NPC or template, when it is in no encounter and no record; its stamped
    copies stay, no longer linked to it."""
    with transaction.atomic():
        Saga.objects.select_for_update().get(pk=character.saga_id)
        if character_in_history(character):
            raise Kept(
                f"{character.name} is in the saga's history (an encounter or a record of time passing), "
                "which would lose them: rename them instead, or delete or archive those encounters first."
            )
        character.delete()
