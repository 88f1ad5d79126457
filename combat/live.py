"""Live push: render new events and the state panels once per audience, send the same bytes
to every member of that audience through the channel layer.

A frame is HTML for htmx out-of-band swaps. Its first element, `#live-seq`, carries the
range of sequence numbers it covers, so a client can drop what it has already seen. The
panels after the events are the rule system's (its table role's `FRAME_TEMPLATE` and `state_context`).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db.models import Q
from django.template.loader import render_to_string

from . import saga_live, systems
from .audience import PLAYERS, STORYGUIDE, as_players_see, player_ids, visible_to
from .events import CoreKind
from .layers import layer_message
from .models import Encounter, Event
from .names import NAMING, Roster
from .undo import taken_back

FRAME_TYPE = "encounter.frame"
NAME_TYPE = "encounter.named"


def render_frame(
    encounter: Encounter,
    events: list[Event],
    audience: str,
    first_seq: int,
    last_seq: int,
    *,
    replay=False,
    facts=None,
    combatants=None,
    log=None,
) -> str:
    """New events (those the audience may see) and every state panel, as one htmx message; `facts`: what
    the rule system read for this push (`Table.table_facts`), shared by both audiences; `combatants`:
    the encounter's, as the command left them, where it handed them over; `log`: the encounter's log
    up to `last_seq` as `log_lines` reads it (whole, or `undo_log`'s part), where the caller read it:
    without it, the events are named as the combatants' rows name them now, which is the log's newest
    name for everyone still in the fight."""
    system = systems.of(encounter.saga)
    context = system.page.state_context(encounter, audience, facts)
    context.setdefault("encounter", encounter)  # what every frame's panels may name, as the page's have it
    context.setdefault("is_storyguide", audience == STORYGUIDE)
    context["pushed"] = systems.frame_panels(system, events, replay=replay)  # the panels its events name
    context.update(system.page.frame_context(events, replay=replay, context=context))
    if log is None:
        for event in events:
            event.names = context.get("names", {})
    lines = events if log is None else log_lines(system, log, events)
    context.update(
        system=system,
        events=shown_to(encounter, lines, audience, combatants),
        first_seq=first_seq,
        frame_last_seq=last_seq,
        replay=replay,
        oob=True,
    )
    return render_to_string("combat/_frame.html", context)


def shown_to(encounter: Encounter, events: list[Event], audience: str, combatants=None) -> list[Event]:
    """The events as the audience reads them: all of them for the storyguide; for the players, those not
    kept behind the screen, in the players' version (the same for every player: no one's own)."""
    shown = visible_to(events, audience)
    if audience == STORYGUIDE or not shown:
        return shown
    players, characters = player_ids(encounter, combatants)
    return as_players_see(encounter.saga, shown, players, characters=characters)


def log_lines(system, log: list[Event], events: list[Event]) -> list[Event]:
    """The lines `events` add to an encounter's log panel, read against its `log` (oldest first, up to the
    last of them: whole, or `undo_log`'s part): each named as the log named them at that step
    (`combat.names`) and marked when an undo took it back (`combat.undo`); before them, every earlier line
    that an undo among them took back, marked, so that a page which already shows it strikes it through
    (`live.js`)."""
    roster, undone = Roster.of(log), taken_back(system, log)
    these = {event.seq for event in events}
    back = {seq for seq, undo in undone.items() if undo.seq in these and seq < min(these)}
    again = [event for event in log if event.seq in back]
    lines = again + events
    for line in lines:
        line.names, line.undone_by = roster.at(line.encounter_id, line.seq), undone.get(line.seq)
    return lines


def undo_log(system, encounter: Encounter, events: list[Event], last_seq: int) -> list[Event]:
    """What an undo's frame reads of the log up to `last_seq` (oldest first) for `log_lines`: where the
    system's undo takes back events of its own round only (`Replay.UNDO_IN_ROUND`), the lines that name
    combatants (`combat.names`) and the events of the frame's rounds, so that the frame of an undo at round
    20 reads what one at round 1 does; else the whole log."""
    rows = encounter.events.filter(seq__lte=last_seq)
    if system.replay.UNDO_IN_ROUND:
        rounds = {event.round_number for event in events}
        rows = rows.filter(Q(kind__in=NAMING) | Q(round_number__in=rounds))
    return list(rows.order_by("seq"))


def broadcast(
    encounter_id: int,
    first_seq: int,
    last_seq: int,
    *,
    saga: bool = True,
    encounter=None,
    events=None,
    read=None,
) -> None:
    """Send events first_seq..last_seq and the current panels to both audiences (after commit): the
    players' first (the phones), then the storyguide's; then, when the command changed what it shows
    (`saga`), the saga page. A command hands over the encounter and the events it has just written
    (`combat.services.log.EventLog`), and what it read of the encounter as it left it
    (`Table.table_facts`); otherwise they are read."""
    if encounter is None:
        encounter = Encounter.objects.select_related("saga").get(pk=encounter_id)
    if events is None:
        events = list(encounter.events.filter(seq__gte=first_seq, seq__lte=last_seq).order_by("seq"))
    system = systems.of(encounter.saga)
    facts = system.page.table_facts(encounter, read)
    combatants = read.combatants if read is not None else None
    # An undo's frame carries the lines it took back again, marked: what of the log that needs, read once
    # for both.
    undoing = any(event.kind in system.replay.UNDO_KINDS for event in events)
    log = undo_log(system, encounter, events, last_seq) if undoing else None
    # A hand-over of the seat changes who is in which audience: each socket asks again (combat.consumers).
    reseating = any(event.kind == CoreKind.SEAT_HANDED_OVER for event in events)
    frames = []
    for audience in (PLAYERS, STORYGUIDE):
        html = render_frame(
            encounter, events, audience, first_seq, last_seq, facts=facts, combatants=combatants, log=log
        )
        message = layer_message(FRAME_TYPE, html, first_seq=first_seq, last_seq=last_seq)
        if reseating:
            message["seat"] = True
        frames.append((Encounter.group_name(encounter_id, audience), message))
    async_to_sync(send_in_turn)(get_channel_layer(), frames)
    if saga:
        saga_live.push(encounter.saga_id)


async def send_in_turn(layer, frames: list[tuple[str, dict]]) -> None:
    """Each (group, message) to the channel layer in turn, from one crossing of the command's thread to the
    event loop: each `async_to_sync` is a round trip between the two threads (0.13 ms of CPU in slow
    minutes, docs/performance.md)."""
    for group, message in frames:
        await layer.group_send(group, message)


def push_name(encounter_id: int) -> None:
    """The encounter's new name to its open pages (the heading): no event, so no frame of the log."""
    encounter = Encounter.objects.get(pk=encounter_id)
    html = render_to_string("combat/_encounter_name.html", {"encounter": encounter, "oob": True})
    frames = [
        (Encounter.group_name(encounter_id, audience), layer_message(NAME_TYPE, html))
        for audience in (PLAYERS, STORYGUIDE)
    ]
    async_to_sync(send_in_turn)(get_channel_layer(), frames)


def replay_frame(encounter_id: int, audience: str, after_seq: int) -> tuple[str, int]:
    """What a reconnecting client missed: every event after `after_seq`, named and marked as the page's log
    is (`log_lines`, with the earlier lines an undo among them took back), then the panels.

    A client that claims more than the log holds (the database was reset) gets it all again.
    """
    encounter = Encounter.objects.select_related("saga").get(pk=encounter_id)
    newest = encounter.last_seq
    if after_seq > newest:
        after_seq = 0
    log = list(encounter.events.filter(seq__lte=newest).order_by("seq"))
    events = [event for event in log if event.seq > after_seq]
    return render_frame(encounter, events, audience, after_seq + 1, newest, replay=True, log=log), newest
