"""What each process keeps of an encounter for a command's check of who may send it: its saga, that saga's
rule system and storyguide (`whose`), so that the check reads no encounter (docs/architecture.md).

An encounter's id can come to name another saga's encounter (a saga deleted, then restored from its
archive with the same ids), and every process keeps its own memory, so what is kept is never trusted
alone. A check it refused is made again from the database (`combat.views.checked_encounter`); a check it
let through is compared, under the command's lock, with the encounter row the service reads anyway
(`confirm`), and made again when they differ. Deleting and importing encounters forget them here too
(in this process only).
"""

from __future__ import annotations

import contextvars
from typing import NamedTuple

from django.db.models.signals import post_delete

from .models import Encounter

# At most this many encounters are kept; past it the oldest kept goes first.
KEPT_AT_MOST = 10_000


class Whose(NamedTuple):
    """An encounter's saga, that saga's rule system and its storyguide."""

    saga_id: int
    rule_system: str
    storyguide_id: int


class KeptWasStale(Exception):
    """The check of who may send this command let it through on what this process kept of the encounter,
    and the locked row says otherwise: the check is made again before anything is written."""


_kept: dict[int, Whose] = {}
# The encounter whose kept facts let this request's command through (one command, one encounter).
_relied_on: contextvars.ContextVar[int | None] = contextvars.ContextVar("relied_on", default=None)


def whose(encounter_id: int, *, fresh: bool = False) -> tuple[Whose, bool]:
    """The encounter's facts, and whether they came from memory; read (and kept) when not kept, or when
    `fresh`. An encounter not there raises `Encounter.DoesNotExist`, which is not kept."""
    if not fresh and (kept := _kept.get(encounter_id)) is not None:
        return kept, True
    rows = Encounter.objects.values_list("saga_id", "saga__rule_system", "saga__storyguide_id")
    facts = Whose(*rows.get(pk=encounter_id))
    keep(encounter_id, facts)
    return facts, False


def keep(encounter_id: int, facts: Whose) -> None:
    """Keep the facts, the oldest kept going when there are too many."""
    _kept.pop(encounter_id, None)
    if len(_kept) >= KEPT_AT_MOST:
        del _kept[next(iter(_kept))]
    _kept[encounter_id] = facts


def forget(*encounter_ids: int) -> None:
    """This process forgets the encounters (deleted, or made again by an import)."""
    for encounter_id in encounter_ids:
        _kept.pop(encounter_id, None)


def _deleted(sender, instance, **kwargs) -> None:
    forget(instance.pk)


def connect_signals() -> None:
    """An encounter deleted is forgotten (called once from CombatConfig.ready())."""
    post_delete.connect(_deleted, sender=Encounter, dispatch_uid="kept.Encounter.delete")


def forget_all() -> None:
    """This process forgets every encounter (a test's database starts again)."""
    _kept.clear()


def relying_on(encounter_id: int | None) -> contextvars.Token:
    """Mark the encounter whose kept facts let this request's command through (None: none did)."""
    return _relied_on.set(encounter_id)


def done_relying(token: contextvars.Token) -> None:
    """The request is answered: its mark goes."""
    _relied_on.reset(token)


def confirm(encounter: Encounter) -> None:
    """Under the command's lock: keep what the locked row (with its saga) says, and raise `KeptWasStale`
    when a check let this command through on other facts."""
    saga = encounter.saga
    facts = Whose(encounter.saga_id, saga.rule_system, saga.storyguide_id)
    if _kept.get(encounter.pk, facts) == facts:
        return
    keep(encounter.pk, facts)
    if _relied_on.get() == encounter.pk:
        raise KeptWasStale()
