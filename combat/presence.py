"""Who has the table open: each open page's socket beats every PRESENCE_HEARTBEAT seconds with whether
its tab is shown; a person is "here" (a shown tab), "away" (only hidden tabs) or "gone" (no beat for
PRESENCE_EXPIRY seconds, or every tab closed) per place: an encounter's page or a saga's.

Presence is not game state: no event, no version. What each person's tabs last said is kept in Django's
cache (Redis when REDIS_URL is set, so every Daphne reads the same; in memory for one process), and the
region is worked out again at every beat of anyone at the place, so a person whose Daphne was killed
goes "gone" at the next beat of someone else, within PRESENCE_EXPIRY + PRESENCE_HEARTBEAT seconds of
their last. A push is sent only when what the region shows has changed (a digest in the cache).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string

from campaign.models import Membership, Saga

from . import saga_live
from .audience import PLAYERS, STORYGUIDE
from .models import Encounter

FRAME_TYPE = "presence.frame"
KEPT_FOR = 24 * 3600  # seconds a person's last beat is kept, for "gone since"
HERE, AWAY, GONE = "here", "away", "gone"


@dataclass(frozen=True)
class Place:
    """An encounter's page (kind "encounter") or a saga's ("saga"), by id."""

    kind: str
    pk: int

    @property
    def key(self) -> str:
        """The prefix of this place's cache keys."""
        return f"covenant:presence:{self.kind}-{self.pk}"

    def members(self) -> list[tuple[int, str]]:
        """The saga's members (user id, name), the storyguide first: one query."""
        where = {"saga__encounters": self.pk} if self.kind == "encounter" else {"saga_id": self.pk}
        rows = Membership.objects.filter(**where).order_by("-role", "user__username")
        return list(rows.values_list("user_id", "user__username"))

    def runner(self) -> int | None:
        """Who runs the table here now: the encounter's seat holder, or the saga's lead storyguide."""
        if self.kind == "encounter":
            return Encounter.objects.filter(pk=self.pk).values_list("seat_holder_id", flat=True).first()
        return Saga.objects.filter(pk=self.pk).values_list("storyguide_id", flat=True).first()

    @property
    def runs(self) -> str:
        """What the region says of the one who runs the table here (`runner`)."""
        return "runs the table" if self.kind == "encounter" else "lead storyguide"


@dataclass(frozen=True)
class Person:
    """One member as the region shows them; `since` (epoch seconds) is the last beat of a gone person; `runs`
    what they do here when they run the table (the encounter's seat holder, the saga's lead), else empty."""

    user_id: int
    name: str
    state: str
    since: float | None
    runs: str = ""

    @property
    def since_at(self) -> datetime | None:
        """`since` as an aware datetime, for the template."""
        return datetime.fromtimestamp(self.since, UTC) if self.since else None

    @property
    def unseen(self) -> bool:
        """Gone, but never seen here: not yet come, which is no alarm (drawn muted, not as one who left)."""
        return self.state == GONE and not self.since


def _person_key(place: Place, user_id: int) -> str:
    return f"{place.key}:{user_id}"


def beat(place: Place, user_id: int, tab: str, visible: bool, now: float | None = None) -> None:
    """Record a beat of one tab (`tab`: its socket's channel name), forgetting this person's tabs that
    have not beaten within the expiry (a killed Daphne's)."""
    now = time.time() if now is None else now
    record = _tabs_alive(cache.get(_person_key(place, user_id)), now)
    record["tabs"][tab] = (now, visible)
    record["last"] = now
    cache.set(_person_key(place, user_id), record, KEPT_FOR)


def leave(place: Place, user_id: int, tab: str, now: float | None = None) -> None:
    """A tab closed its socket: it counts no more (its person's last beat stays, for "gone since")."""
    now = time.time() if now is None else now
    record = _tabs_alive(cache.get(_person_key(place, user_id)), now)
    if record["tabs"].pop(tab, None) is not None:
        record["last"] = now
        cache.set(_person_key(place, user_id), record, KEPT_FOR)


def _tabs_alive(record: dict | None, now: float) -> dict:
    """The record with only the tabs that beat within the expiry."""
    record = record or {"tabs": {}, "last": None}
    expiry = settings.PRESENCE_EXPIRY
    record["tabs"] = {tab: seen for tab, seen in record["tabs"].items() if now - seen[0] < expiry}
    return record


def people(
    place: Place, members: list[tuple[int, str]], now: float | None = None, runner: int | None = None
) -> list[Person]:
    """Every member's state now: here, away, or gone (since their last beat, None if never seen); `runner`,
    who runs the table (`Place.runner`), is marked."""
    now = time.time() if now is None else now
    records = cache.get_many([_person_key(place, user_id) for user_id, _ in members])
    shown = []
    for user_id, name in members:
        record = _tabs_alive(records.get(_person_key(place, user_id)), now)
        tabs = record["tabs"].values()
        state = HERE if any(visible for _, visible in tabs) else AWAY if tabs else GONE
        runs = place.runs if user_id == runner else ""
        shown.append(Person(user_id, name, state, record["last"] if state == GONE else None, runs))
    return shown


def render(place: Place, shown: list[Person]) -> str:
    """The presence region, swapped out of band into every page of the place."""
    return render_to_string("combat/_presence.html", {
        "people": shown,
        "heartbeat": settings.PRESENCE_HEARTBEAT,
        "stamp": time.time_ns(),
        "oob": True,
    })


def changed(place: Place, shown: list[Person]) -> bool:
    """Whether the region shows something else than the last one pushed (and remember this one)."""
    seen = [(p.user_id, p.name, p.state, int(p.since or 0), p.runs) for p in shown]
    digest = hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()
    key = f"{place.key}:shown"
    if cache.get(key) == digest:
        return False
    cache.set(key, digest, KEPT_FOR)
    return True


def heartbeat(place: Place, user_id: int, tab: str, visible: bool | None) -> tuple[str | None, bool]:
    """A tab's beat (`visible` None: it closed): the region now, and whether to push it to the place.
    The region is None for someone not (or no longer) in the saga, whose beat is not recorded."""
    members = place.members()
    if user_id not in {member for member, _ in members}:
        return None, False
    if visible is None:
        leave(place, user_id, tab)
    else:
        beat(place, user_id, tab, visible)
    shown = people(place, members, runner=place.runner())
    return render(place, shown), changed(place, shown)


def groups(place: Place) -> list[str]:
    """The channel groups of every page of the place, both audiences."""
    name = Encounter.group_name if place.kind == "encounter" else saga_live.group_name
    return [name(place.pk, audience) for audience in (PLAYERS, STORYGUIDE)]
