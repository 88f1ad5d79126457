"""The places a player reads an encounter's log, each read as one person of an audience: the pushed frame,
the resume replay, the encounter page, the history page and the history export."""

import re

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from combat.live import broadcast, replay_frame
from combat.models import Encounter


def pushed(encounter: Encounter, audience: str) -> str:
    """The frame `broadcast` sends the audience's group for the whole log, heard by a socket's channel in
    one event loop, as a Daphne's (the pub/sub layer keeps each loop's channels apart)."""
    last = Encounter.objects.get(pk=encounter.pk).last_seq

    async def listen() -> str:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(Encounter.group_name(encounter.pk, audience), channel)
        await sync_to_async(broadcast)(encounter.pk, 1, last)
        return (await layer.receive(channel))["html"]

    return async_to_sync(listen)()


def replayed(encounter: Encounter, audience: str) -> str:
    """What a client of the audience that saw nothing yet is sent when it resumes."""
    return replay_frame(encounter.pk, audience, 0)[0]


def encounter_page(user, encounter: Encounter) -> str:
    """The encounter's page as the user opens it (the rule system's page for the storyguide or a player)."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("encounter_page", args=[encounter.pk]), follow=True)
    assert response.status_code == 200
    return response.content.decode()


def history_page(user, encounter: Encounter) -> str:
    """The saga's history page as the user reads it."""
    client = Client()
    client.force_login(user)
    return client.get(reverse("saga_history", args=[encounter.saga_id])).content.decode()


def exported(user, encounter: Encounter) -> list[dict]:
    """The encounter's events in the user's history.json."""
    client = Client()
    client.force_login(user)
    data = client.get(reverse("saga_history_json", args=[encounter.saga_id])).json()
    return next(e for e in data["encounters"] if e["id"] == encounter.pk)["events"]


def line_of(html: str, seq: int) -> str:
    """One event's line in a page or a frame, by its sequence number: its `<li>` to the matching `</li>`."""
    start = html.find(f'<li id="event-{seq}" ')
    assert start >= 0, f"event {seq} is not in the page"
    depth = 0
    for tag in re.finditer(r"<li\b|</li>", html[start:]):
        depth += 1 if tag.group(0) == "<li" else -1
        if depth == 0:
            return html[start : start + tag.end()]
    raise AssertionError(f"event {seq}'s line is not closed")
