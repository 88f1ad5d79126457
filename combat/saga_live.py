"""The saga page's live push: its members, characters, NPCs and encounters (with their state), rendered
once per audience and sent to every open saga page of that audience after the change commits.

What pushes: a save or delete of a membership, a character or an encounter (model signals, so every
path is covered: sheets, stamping, joining, commands). An encounter command's own push
(`combat.live.broadcast`) pushes the saga after the encounter's frames, so the phones hear first.
A frame is the whole of each region, so frames are idempotent; `data-stamp` orders them.
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.template.loader import render_to_string

from campaign.access import is_lead
from campaign.models import Character, Membership, Saga
from campaign.regions import saga_regions, shown, troupe_key

from .audience import PLAYERS, STORYGUIDE
from .layers import LAYER_ERRORS, layer_message
from .models import Encounter

FRAME_TYPE = "saga.frame"
SENT_FOR = 24 * 3600  # seconds the last frame's digest is kept (a channel group lives a day)
logger = logging.getLogger(__name__)


def group_name(saga_id: int, audience: str) -> str:
    """The channel group of one audience of a saga's page."""
    return f"saga-{saga_id}-{audience}"


def audience_for(user, saga_id: int) -> str | None:
    """STORYGUIDE for each of the saga's storyguides (the lead among them), PLAYERS for every other member,
    None for anyone else."""
    place = place_of(user, saga_id)
    return place[0] if place else None


def place_of(user, saga_id: int) -> tuple[str, str, str] | None:
    """This person's place on the saga page: their audience, their role ("lead", "storyguide" or "player":
    each page offers more than the next), and the saga's troupe now (`troupe_key`); None for anyone not in the
    saga. Two queries."""
    if not user.is_authenticated:
        return None
    membership = Membership.objects.filter(saga_id=saga_id, user=user).select_related("saga").first()
    if membership is None:
        return None
    saga = membership.saga
    lead = is_lead(user, saga)
    audience = STORYGUIDE if lead or membership.role == Membership.Role.STORYGUIDE else PLAYERS
    troupe = troupe_key(saga, list(saga.memberships.only("user_id", "role")))
    return audience, "lead" if lead else membership.role, troupe


def render_frame(regions: dict, audience: str, digest: str | None = None) -> str:
    """The regions as one htmx message of out-of-band swaps; NPCs only for the saga's storyguides (its
    STORYGUIDE audience, every one of them). It carries the regions' digest (`shown`): saga_live.js swaps in
    nothing that the page shows already."""
    a_storyguide = audience == STORYGUIDE
    context = {
        **regions,
        "shown": digest or shown(regions),
        "npcs": regions["all_npcs"] if a_storyguide else [],
        "npc_templates": regions["all_npc_templates"] if a_storyguide else [],
        "a_storyguide": a_storyguide,
        "stamp": time.time_ns(),
        "oob": True,
    }
    return render_to_string("combat/_saga_frame.html", context)


def current_frame(saga_id: int, audience: str) -> str:
    """The frame a newly connected (or resuming) page gets."""
    return render_frame(saga_regions(Saga.objects.get(pk=saga_id)), audience)


def broadcast(saga_id: int) -> None:
    """Render the regions once per audience and send them to the saga's open pages, unless they show
    what was sent last (a correction of carried advantage, say): most encounter commands change nothing
    here. The last digest sent is in Django's cache, shared by every process (Redis when REDIS_URL is
    set); a page that connects gets the current regions whatever the cache says."""
    saga = Saga.objects.filter(pk=saga_id).first()
    if saga is None:  # deleted meanwhile
        return
    regions = saga_regions(saga)
    digest = shown(regions)
    key = f"covenant:saga-frame:{saga_id}"
    if cache.get(key) == digest:
        return
    layer = get_channel_layer()
    troupe = troupe_key(saga, regions["members"])  # a socket whose person's place it changes loads again
    for audience in (PLAYERS, STORYGUIDE):
        html = render_frame(regions, audience, digest)
        message = layer_message(FRAME_TYPE, html, troupe=troupe)
        async_to_sync(layer.group_send)(group_name(saga_id, audience), message)
    cache.set(key, digest, SENT_FOR)


def push(saga_id: int) -> None:
    """`broadcast`, after commit: a failure is logged, never raised into the committed command."""
    try:
        broadcast(saga_id)
    except LAYER_ERRORS as error:
        logger.warning("push of saga %s not sent (channel layer down: %s); pages catch up on reconnect",
                       saga_id, error)
    except Exception:
        logger.exception("push of saga %s", saga_id)


# --- when to push -------------------------------------------------------------------------------------

NOW = "now"  # push after commit
WITH_ENCOUNTER = "encounter"  # an encounter command's push will do it, after its frames
# The encounter's fields the saga page shows (its list: name, state from status and round, who runs it).
SHOWN_FIELDS = {"name", "status", "round_number", "archived_at", "saga", "seat_holder"}


class _Flush:
    """The one on-commit callback of a transaction: pushes each saga changed in it, once."""

    def __init__(self) -> None:
        self.pending: dict[int, str] = {}

    def __call__(self) -> None:
        for saga_id, how in self.pending.items():
            if how == NOW:
                push(saga_id)


def _flush(create: bool) -> _Flush | None:
    """The current transaction's pushes (made when `create`); None outside a transaction."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    flush = next((func for _, func, _ in connection.run_on_commit if isinstance(func, _Flush)), None)
    if flush is None and create:
        flush = _Flush()
        transaction.on_commit(flush)
    return flush


def schedule(saga_id: int, how: str = NOW) -> None:
    """Push the saga's page after the current transaction commits (at once outside one)."""
    flush = _flush(create=True)
    if flush is None:
        if how == NOW:
            push(saga_id)
        return
    if how == WITH_ENCOUNTER or saga_id not in flush.pending:
        flush.pending[saga_id] = how


def carried_by_encounter(saga_id: int):
    """For an encounter command's push: whether it must push the saga's page too, asked after commit
    (something the page shows changed in the command's transaction, before or after its events)."""
    flush = _flush(create=False)
    if flush is not None and saga_id in flush.pending:
        flush.pending[saga_id] = WITH_ENCOUNTER  # after the encounter's frames, so the phones hear first

    def carried() -> bool:
        return flush is not None and flush.pending.get(saga_id) == WITH_ENCOUNTER

    return carried


def _character_changed(sender, instance, **kwargs) -> None:
    schedule(instance.saga_id)


def _membership_changed(sender, instance, created=False, **kwargs) -> None:
    if created or kwargs.get("signal") is post_delete:
        schedule(instance.saga_id)


def _encounter_changed(sender, instance, update_fields=None, **kwargs) -> None:
    # A save of fields the saga page does not show (the version, the round's log) pushes nothing.
    if update_fields is not None and not SHOWN_FIELDS & set(update_fields):
        return
    # A command bumps the version: its push (combat.live.broadcast) sends the saga after the encounter.
    schedule(instance.saga_id, WITH_ENCOUNTER if update_fields and "version" in update_fields else NOW)


def connect_signals() -> None:
    """Called once from CombatConfig.ready()."""
    for model, receiver in (
        (Character, _character_changed),
        (Membership, _membership_changed),
        (Encounter, _encounter_changed),
    ):
        post_save.connect(receiver, sender=model, dispatch_uid=f"saga_live.{model.__name__}.save")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"saga_live.{model.__name__}.delete")
