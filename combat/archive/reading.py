"""Who reads a saga's archive, and the event log as that reader sees it (the players' version for players)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.contrib.auth import get_user_model
from django.db.models import Q

from campaign.access import get_membership, is_lead
from campaign.models import Character, Membership, Saga

from .. import systems
from ..audience import PLAYERS, STORYGUIDE
from ..events import CoreKind
from ..models import Combatant, Event
from ..names import NAMING, Roster
from ..played import PLAYING, Played
from ..seated import Seated
from ..systems import RuleSystem


@dataclass
class Reader:
    """A member reading a saga's archive: the audience, the saga's combatants, whose are whose."""

    saga: Saga
    audience: str
    system: RuleSystem
    user_id: int | None = None
    encounter_ids: list[int] = field(default_factory=list)
    combatants: list[Combatant] = field(default_factory=list)
    own: set[str] = field(default_factory=set)  # the combatants whose characters the reader plays now
    players: set[str] = field(default_factory=set)
    viewer: str = ""  # a player's username: whose entries are their own (`own_at`); "" for nobody's
    holders: dict[int, str] = field(default_factory=dict)  # each encounter's seat holder now (a username)
    troupe: bool = False  # one of the saga's storyguides: the saga's records whole (no encounter's secrets)

    @property
    def is_storyguide(self) -> bool:
        """Whether the reader reads the storyguide's version of everything: they hold every seat."""
        return self.audience == STORYGUIDE

    @cached_property
    def _people_rows(self) -> list[Event]:
        """The events that name the combatants, say who played them and who held the seats, every one
        (combat.names, combat.played, combat.seated): one query, when first asked."""
        kinds = sorted({str(kind) for kind in (*NAMING, *PLAYING, CoreKind.SEAT_HANDED_OVER)})
        events = Event.objects.filter(encounter_id__in=self.encounter_ids, kind__in=kinds)
        return list(events.order_by("encounter_id", "seq"))

    @cached_property
    def seated(self) -> Seated:
        """Who held each encounter's seat at each step (combat.seated)."""
        return Seated.of(self._people_rows, {pk: self.holders.get(pk, "") for pk in self.encounter_ids})

    @cached_property
    def people_events(self) -> list[Event]:
        """The naming and playing events this reader may see (`_people_rows`, no other query)."""
        return [e for e in self._people_rows if not e.storyguide_only or self.whole(e)]

    def whole(self, event) -> bool:
        """Whether this reader reads the event in the storyguide's version: they hold every seat, or they
        held its encounter's seat when it was written or hold it now (combat.seated); a record outside any
        encounter is whole for the saga's storyguides."""
        if getattr(event, "encounter_id", None) is None:
            return self.is_storyguide or self.troupe
        return self.whole_at(event.encounter_id, event.seq)

    def holds(self, encounter_id: int) -> bool:
        """Whether this reader holds the encounter's seat now (its live rows whole: its state, its step in
        waiting)."""
        return self.is_storyguide or bool(self.viewer) and self.holders.get(encounter_id) == self.viewer

    def whole_at(self, encounter_id: int, seq: int) -> bool:
        """Whether this reader reads step `seq` of the encounter in the storyguide's version."""
        return self.is_storyguide or self.seated.whole(encounter_id, seq, self.viewer)

    @cached_property
    def roster(self) -> Roster:
        """The names the saga's logs gave its combatants (combat.names)."""
        return Roster.of(self.people_events)

    def named(self, event: Event) -> Event:
        """The event with `names`: every combatant's name as the log named them at that event."""
        event.names = self.roster.at(event.encounter_id, event.seq)
        return event

    @cached_property
    def who_fought(self) -> tuple[dict[str, str], dict[str, str]]:
        """Each combatant's character (by id, as strings; one of its own for a combatant who left the
        fight before the log kept characters), and each character's name as the newest log to name them
        did (combat.names): a combatant taken out of the fight keeps his character's row and name."""
        character_of = {str(c.pk): str(c.character_id) for c in self.combatants}
        names: dict[str, str] = {}
        for encounter_id in self.encounter_ids:
            for cid, joined in self.roster.joined.get(encounter_id, {}).items():
                gone = f"left-{cid}" if joined.character is None else str(joined.character)
                names[character_of.setdefault(cid, gone)] = self.roster.at(encounter_id)[cid]
        for combatant in self.combatants:
            names.setdefault(str(combatant.character_id), combatant.character.name)
        return character_of, names

    def name_of(self, combatant: Combatant) -> str:
        """A combatant's name as its encounter's log last named it (its character's, if the log has none)."""
        return self.roster.at(combatant.encounter_id).get(str(combatant.pk)) or combatant.character.name

    def events(self):
        """The saga's events this reader may see, in the archive's order: by encounter (oldest first: ids
        are handed out in order) and seq, which the log's unique index already holds, so a page of a long
        saga is read from the index instead of sorting every event (the saga's encounters as a list of
        ids, not a join, lets the database walk that index)."""
        events = Event.objects.filter(encounter_id__in=self.encounter_ids).order_by("encounter_id", "seq")
        if self.is_storyguide:
            return events
        held = self.seated.whole_steps(self.viewer) if self.viewer else None
        shown = Q(storyguide_only=False)
        return events.filter(shown | held if held is not None else shown)

    @cached_property
    def characters(self) -> set[str]:
        """The ids (as strings) of the saga's player characters, whose rolls are everyone's wherever a payload
        names characters (one query, when first asked)."""
        rows = Character.objects.filter(saga=self.saga, is_npc=False).values_list("pk", flat=True)
        return {str(pk) for pk in rows}

    @cached_property
    def played(self) -> Played:
        """Who played whom at each step of the saga's logs (combat.played)."""
        character_of = {str(c.pk): c.character_id for c in self.combatants}
        return Played.read(self.saga.pk, self.people_events, character_of)

    def own_at(self, event: Event) -> set[str]:
        """The combatants whose entries this reader reads as their own at the event: those whose characters
        the player played when it was written (combat.played); nobody's for `viewer` "" (a preview of what
        any player gets)."""
        if not self.viewer or self.whole(event):
            return set()
        return self.played.own(event.encounter_id, event.seq, self.viewer)

    def shown(self, event: Event) -> Event:
        """The event with the payload this reader sees (in memory only: the stored event is never edited),
        marked `whole` when that is the storyguide's version (the step's number is shown then)."""
        event.whole = self.whole(event)
        if not event.whole:
            own = self.own_at(event)
            event.payload = self.system.log.players_payload(event, own, self.players, self.saga.npc_rolls)
        return self.shown_record(event)

    def shown_record(self, record):
        """A saga record (or an event) with what this reader sees of the characters it names (in memory
        only): the rule system's `players_record` unless the reader reads it whole (`whole`)."""
        if not self.whole(record):
            record.payload = self.system.log.players_record(record, self.characters, self.saga.npc_rolls)
        return record


def reader_for(user, saga_id, *, sheets: bool = True) -> Reader:
    """The reader for a member of the saga (404 for anyone else), with the saga's encounters' ids and seat
    holders and its combatants (their characters' sheets and states too unless `sheets` is False): three
    queries. The storyguide's version of everything for one of the saga's storyguides who holds every
    encounter's seat (the troupe of one); the players' version for anyone else, each step whole for
    whoever held its encounter's seat then or holds it now (`Reader.whole`)."""
    membership = get_membership(user, saga_id)
    saga = membership.saga
    troupe = is_lead(user, saga) or membership.role == Membership.Role.STORYGUIDE
    name = f"seat_holder__{get_user_model().USERNAME_FIELD}"
    holders = dict(saga.encounters.order_by("id").values_list("pk", name))
    username = user.get_username()
    audience = STORYGUIDE if troupe and all(h == username for h in holders.values()) else PLAYERS
    combatants = Combatant.objects.filter(encounter__saga=saga).select_related("character")
    if not sheets:
        combatants = combatants.only(*LIGHT)
    combatants = list(combatants.order_by("encounter_id", "order", "id"))
    return Reader(
        saga=saga,
        audience=audience,
        system=systems.of(saga),
        user_id=user.pk,
        encounter_ids=list(holders),
        holders=holders,
        troupe=troupe,
        combatants=combatants,
        own={str(c.pk) for c in combatants if c.character.owner_id == user.pk},
        players={str(c.pk) for c in combatants if not c.character.is_npc},
        viewer="" if audience == STORYGUIDE else username,
    )


def whole_reader(saga: Saga) -> Reader:
    """A reader of everything in the saga, for what is copied within this Covenant and never shown (a
    duplicate keeps its seats, and so their secrets, as they were)."""
    combatants = Combatant.objects.filter(encounter__saga=saga).select_related("character")
    combatants = list(combatants.order_by("encounter_id", "order", "id"))
    name = f"seat_holder__{get_user_model().USERNAME_FIELD}"
    holders = dict(saga.encounters.order_by("id").values_list("pk", name))
    return Reader(
        saga=saga,
        audience=STORYGUIDE,
        system=systems.of(saga),
        encounter_ids=list(holders),
        combatants=combatants,
        players={str(c.pk) for c in combatants if not c.character.is_npc},
        holders=holders,
        troupe=True,
    )


# What the history page reads of a combatant: who, where, on which side; not the sheets.
LIGHT = ("id", "encounter_id", "character_id", "side", "order", "character__name", "character__owner_id")
LIGHT += ("character__is_npc",)
