"""What the table keeps of a saga and its characters, as campaign asks it (campaign.signals): a fight past
its set-up, a record of time passing, a character's new name logged in the open encounters, a character
handed over to another player recorded in the saga's history and logged in the open encounters, a password
link made recorded in the saga's history (never the link), and each change of the saga's troupe recorded
there (a storyguide made a player again: the seats they held pass to the lead, each logged)."""

from __future__ import annotations

from campaign import signals
from campaign.models import Character, Saga

from . import saga_live
from .events import CoreKind
from .models import Event, SagaRecord
from .services.log import record_for_saga
from .services.seat import pass_seats
from .services.setup import SETUP_KINDS, hand_over_combatants, handed_over, rename_combatants


def saga_history(sender, saga: Saga, **kwargs) -> bool:
    """Something happened in the saga: a fight went past its set-up, or time passed in its records."""
    return (
        SagaRecord.objects.filter(saga=saga).exclude(kind=CoreKind.HANDED_OVER).exists()
        or Event.objects.filter(encounter__saga=saga).exclude(kind__in=SETUP_KINDS).exists()
    )


def character_history(sender, character: Character, **kwargs) -> bool:
    """The character is in an encounter (its log names them) or in the saga's records of time passing."""
    if character.combatants.exists():
        return True
    return any(
        _names(record, character.pk)
        for record in SagaRecord.objects.filter(saga_id=character.saga_id)
        .exclude(kind=CoreKind.HANDED_OVER)  # who played them is no history of their deeds
        .values_list("payload", flat=True)
    )


def _names(payload, pk: int) -> bool:
    """Does a record's payload name the character by id (as "character" or a characters row's "id")?"""
    if isinstance(payload, dict):
        return any(
            (key in ("character", "id") and value == pk) or _names(value, pk)
            for key, value in payload.items()
        )
    if isinstance(payload, list):
        return any(_names(item, pk) for item in payload)
    return False


def character_renamed(sender, character: Character, was: str, user=None, **kwargs) -> None:
    """Each open encounter the character fights in logs the new name (`rename_combatants`)."""
    rename_combatants(user, character, was)


def character_handed_over(sender, character: Character, was, user=None, **kwargs) -> None:
    """The saga's records keep who plays the character from now on, and each open encounter it fights in
    logs it (`hand_over_combatants`)."""
    record_for_saga(character.saga, CoreKind.HANDED_OVER, handed_over(character, was), actor=user)
    hand_over_combatants(user, character, was)


def reset_link_made(sender, saga: Saga, storyguide, player, **kwargs) -> None:
    """The saga's history records for whom a password link was made (campaign.resets)."""
    record_for_saga(saga, CoreKind.RESET_LINK_MADE, {"player": player.get_username()}, actor=storyguide)


def troupe_changed(sender, saga: Saga, change: str, member, was, by, **kwargs) -> None:
    """The saga's records keep the change of its troupe; a storyguide made a player again hands the seats
    they held to the lead first. The saga's pages are pushed (the troupe and the seats they show)."""
    if change == signals.MADE:
        payload = {"by": by.get_username(), "storyguide": member.get_username()}
        record_for_saga(saga, CoreKind.STORYGUIDE_MADE, payload, actor=by)
    elif change == signals.REMOVED:
        name = member.get_username()
        seats = pass_seats(saga, member, by, by, f"{name} is a player again")
        payload = {"by": by.get_username(), "storyguide": name, "seats": seats}
        record_for_saga(saga, CoreKind.STORYGUIDE_REMOVED, payload, actor=by)
    else:
        payload = {"was": was.get_username(), "to": member.get_username()}
        record_for_saga(saga, CoreKind.LEAD_PASSED, payload, actor=by)
    saga_live.schedule(saga.pk)


def connect_signals() -> None:
    """Answer campaign's questions (once, when the app is ready)."""
    signals.saga_history.connect(saga_history, dispatch_uid="receivers.saga")
    signals.character_history.connect(character_history, dispatch_uid="receivers.character")
    signals.character_renamed.connect(character_renamed, dispatch_uid="receivers.renamed")
    signals.character_handed_over.connect(character_handed_over, dispatch_uid="receivers.handed_over")
    signals.reset_link_made.connect(reset_link_made, dispatch_uid="receivers.reset_link")
    signals.troupe_changed.connect(troupe_changed, dispatch_uid="receivers.troupe")
