"""The model of the table's shared rules, for every rule system's Hypothesis machine (tests/model/).

A machine (`TableModel`) is one saga with a storyguide, a player and a stranger, and one encounter of its
rule system. Each rule is one command, sent as one of them through `TableModel.command`, which checks that
it is applied exactly when its precondition (the system's `can_*`) and the sender allow it, that an ended
encounter takes nothing but the archive's commands, and that a refused command writes nothing. After every
step the invariants below hold: the log is gapless and the version only grows; the replay folded from the
log is the live table; the tallies of the charts are the fold of the log with every undone step left out;
and the players are sent a page for every download.
A rule of every machine has the players download the exports (history.json, archive.json, recap.md): each
answered; and at each example's end, under "results only", no number of an NPC's roll in any player's (its
dice, scores and totals each first set in the stored log to a number found nowhere else), but for the
number a player character's defence must meet against an NPC's attack, which its player's keep and no other
player's show (issue 35, item 10).

A system's machine subclasses `TableModel`: `build` makes its characters and encounter, `live_facts` reads
the table from the rows (None where the system has no replay), and `undone` says which events an undo took
back. Each example starts from a clean database: it runs in a savepoint rolled back at its end, so no
command's `on_commit` push is sent; after an accepted command whose events hold an NPC's roll, under
"results only", `combat.live.broadcast` is called here instead for those events, its rolls marked, and
each audience's frame taken from the channel layer (`frames_keep_npc_rolls_from_players`).
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from copy import copy as copy_of
from dataclasses import fields, replace
from unittest import mock

from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from campaign import services as campaign_services
from campaign.models import Character, Membership, NpcRolls
from combat import live, systems
from combat import services as core
from combat.archive.charts import Story, saga_stories, tell
from combat.archive.export import archive_chunks
from combat.archive.importer import duplicate_saga, import_saga
from combat.archive.reading import reader_for
from combat.archive.summaries import saga_stories_kept
from combat.audience import PLAYERS, STORYGUIDE, audience_for
from combat.errors import CombatError, InvalidCommand, NotAllowed, WrongPhase
from combat.models import Encounter, Event
from tests.archive.test_export_privacy import MARK, MARKED, TO_MEET, to_meet_by
from tests.fuzz.world import fingerprint

ENDED = Encounter.Status.ENDED
REFUSED = object()  # what `TableModel.command` returns for a refused command

# `make test` runs every machine on a fixed budget (its `examples`, about 60 s of CPU for all five);
# `make soak` (scripts/soak.sh) runs the "soak" profile, its seed printed so that a failure replays
# (docs/reliability.md).
settings.register_profile(
    "model",
    stateful_step_count=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
)
settings.register_profile(
    "soak",
    max_examples=int(os.environ.get("COVENANT_SOAK_EXAMPLES", "250")),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    database=None,
    print_blob=True,
)

# A quick look while working on the model: the first failure as found, not shrunk.
settings.register_profile(
    "dev",
    parent=settings.get_profile("model"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    derandomize=False,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
# Who sends a command: mostly whoever holds the encounter's seat (shrinking goes to them), else a player, a
# stranger, or one of the two who may be the saga's storyguides (troupe play: sg, its first lead, and dora).
people = st.sampled_from(("holder", "holder", "holder", "player", "stranger", "storyguide", "dora"))


def run(machine: type[TableModel]) -> None:
    """Run a machine under the profile `COVENANT_MODEL_PROFILE` names ("model" unless said), inside the
    test's database (pytest-django's `db`: each example is a savepoint of it, rolled back). The soak's seed
    is pytest's `--hypothesis-seed` (scripts/soak.sh passes it and prints it)."""
    profile = os.environ.get("COVENANT_MODEL_PROFILE", "model")
    chosen = settings.get_profile(profile)
    if profile == "soak":
        examples = max(1, round(chosen.max_examples * machine.budget))
    else:  # `make test`'s fixed budget, or as many as COVENANT_MODEL_EXAMPLES says
        examples = int(os.environ.get("COVENANT_MODEL_EXAMPLES", machine.examples))
    RAN.clear()
    try:
        run_state_machine_as_test(machine, settings=settings(chosen, max_examples=examples))
    finally:
        print(f"{machine.__name__}: {ran(RAN)}")
        TOTAL.update(RAN)


def checked(machine: TableModel) -> None:
    """A machine's invariants as Hypothesis checks them after each step, for a run driven by hand (a
    regression test replaying a fixed sequence of rules)."""
    machine.ran += 1
    for each in machine.invariants:
        each.function(machine)


RAN: Counter = Counter()  # what the last `run` ran: examples, steps (rules run) and commands sent
TOTAL: Counter = Counter()  # what every `run` of this process ran (tests/model/conftest.py prints it)


def ran(counted: Counter) -> str:
    """What was run, in words."""
    own = f", {counted['entries read as their own']} entries read as a player's own after a hand-over"
    return (
        f"{counted['examples']} examples, {counted['steps']} steps, {counted['commands']} commands"
        + (own if counted["entries read as their own"] else "")
    )


def tally_of(system, events: list, undone: set[int]) -> dict[str, Counter]:
    """The saga numbers a fold of the log gives, every event an undo took back (`undone`, by seq) left out."""
    tally: dict[str, Counter] = defaultdict(Counter)
    for event in events:
        if event.seq not in undone:
            for who, counter, amount in system.replay.chart_tally(event):
                tally[str(who)][counter] += amount
    return {who: counted for who, counted in tally.items() if +counted}


class TableModel(RuleBasedStateMachine):
    """One saga and one encounter of `system_key`, its commands as rules, the table's invariants."""

    system_key = ""
    examples = 30  # how many examples `make test` runs, of up to 20 steps (a coin duel: 0.3 s of CPU)
    budget = 1.0  # this machine's share of the soak's examples (a slow one runs fewer)
    pages = False  # True: the storyguide's round commands go through their pages (`send`)

    def __init__(self) -> None:
        super().__init__()
        self._example = transaction.atomic()
        self._example.__enter__()
        users = get_user_model().objects
        self.storyguide = users.create_user("sg")
        self.player = users.create_user("alice")
        self.other_player = users.create_user("bob")  # a player who reads: what another's defence must meet
        self.stranger = users.create_user("charlie")
        self.dora = users.create_user("dora")  # a player without a character, made a storyguide by a rule
        self.saga = campaign_services.create_saga(self.storyguide, name="Model", rule_system=self.system_key)
        for player in (self.player, self.other_player, self.dora):
            Membership.objects.create(saga=self.saga, user=player, role=Membership.Role.PLAYER)
        # The troupe by the model's own bookkeeping (issue 38): the saga's storyguides, its lead, and who
        # holds the encounter's seat, each by the model's name for the person.
        self.storyguides, self.lead, self.holder = {"storyguide"}, "storyguide", "storyguide"
        # Who held the seat from which step of the log on (the model's own bookkeeping of hand-overs).
        self.seats: list[tuple[int, str]] = [(0, "storyguide")]
        self.seats_checked: tuple | None = None
        self.system = systems.of(self.saga)
        self.versions: dict[int, int] = {}
        self.steps: list[str] = []
        self.ran = -1  # the steps run: `check_invariants` runs once before the first and after each
        self.checked: tuple | None = None  # the log (version, last seq) the invariants last read
        self.read: tuple[tuple, list] | None = None  # that log's events, read once per step
        self.marks_sent = Counter()  # NPC rolls marked for the frames, and by audience the frames showing one
        # Every character of the saga the machine knows, by id: a name need not stay unique (a renamed copy's
        # name is taken by the next copy stamped; two renamed the same), so nothing here is keyed by one.
        self.characters: dict[int, Character] = {}
        self.first_names: dict[str, int] = {}  # the id of each character `build` made, by the name it gave
        self.encounter = self.build()  # each system's machine defines build(): its characters and encounter
        # Who played each player character from which step of the log on (the model's own bookkeeping of
        # hand-overs, keyed as `characters` is): (from seq, id, person or None for nobody), oldest first.
        self.played: list[tuple[int, int, str | None]] = [
            (0, key, self.person_of(c.owner_id)) for key, c in self.characters.items() if not c.is_npc
        ]
        self.played_checked: tuple | None = None

    # --- what a system's machine provides ---------------------------------------------------------

    def live_facts(self, encounter: Encounter) -> dict | None:
        """The table as the live rows hold it, in the replay's `facts()` terms; None: no replay to match."""
        return None

    def undone(self, events: list) -> set[int]:
        """The seqs of the events an undo took back (the system's own undo), which count nowhere."""
        return set()

    def mark_rows(self, npcs: set[str]) -> int:
        """The live rows' numbers of an NPC's roll that the panels read (not the log's), set to marks as the
        log's are (`TO_MEET` for what a defence must meet); how many were set."""
        return 0

    # --- the characters the machine knows -------------------------------------------------------------

    def know(self, character: Character, first_name: str = "") -> Character:
        """The machine knows this character from now on, by its id; `first_name`: `build`'s name for it,
        which a rule may look it up by however it is renamed (`character`)."""
        self.characters[character.pk] = character
        if first_name:
            self.first_names[first_name] = character.pk
        return character

    def character(self, first_name: str) -> Character:
        """The character `build` made under this name, whatever it is called now."""
        return self.characters[self.first_names[first_name]]

    def chosen(self, index: int) -> Character:
        """One of the characters the machine knows, by a drawn index (in the order they were made)."""
        return self.characters[sorted(self.characters)[index % len(self.characters)]]

    def knows_every_character(self) -> None:
        """The characters the machine knows are exactly the saga's."""
        saga = set(self.saga.characters.values_list("pk", flat=True))
        assert saga == set(self.characters), (
            f"the saga's characters {sorted(saga)} are not the machine's {sorted(self.characters)}"
        )

    # --- commands ---------------------------------------------------------------------------------

    @property
    def v(self) -> int:
        return Encounter.objects.values_list("version", flat=True).get(pk=self.encounter.pk)

    def row(self) -> Encounter:
        return Encounter.objects.select_related("saga").get(pk=self.encounter.pk)

    def snapshot(self) -> dict:
        """Every row of the saga's game models: what a refused command must leave as it was."""
        return fingerprint([self.saga.pk])

    def command(self, name: str, call, *, refusal=None, allowed: bool = True, archive: bool = False):
        """Send one command. `refusal`: its precondition's answer (None: it may happen now); `allowed`: the
        sender may send it; `archive`: one of the archive's commands, which an ended encounter still takes.
        Accepted exactly when all allow it (a refusal for bad input aside); refused, nothing is written."""
        row = self.row()
        ended = row.status == ENDED
        expected = refusal is None and allowed and (archive or not ended)
        before = self.snapshot()
        try:
            result = call()
        except CombatError as error:
            after = self.snapshot()
            assert after == before, f"{name} was refused ({error}) but wrote: {diff(before, after)}"
            assert not expected or isinstance(error, InvalidCommand), (
                f"{name} was refused ({type(error).__name__}: {error}), its precondition and sender allowing"
            )
            self.steps.append(f"{name}: refused ({error})")
            return REFUSED
        assert allowed, f"{name} was accepted from someone who may not send it"
        assert refusal is None, f"{name} was accepted though its precondition refuses it: {refusal}"
        assert archive or not ended, f"{name} was accepted on an ended encounter"
        self.steps.append(name)
        self.frames_keep_npc_rolls_from_players(row.last_seq + 1)
        return result

    def send(self, person: str, url_name: str, service):
        """A command of (user, encounter id, version): through its service, or (a machine with `pages`) as
        its page posts it, with the version the page was drawn at, htmx's way. A page's refusal (409 or
        422, never a 5xx) is raised as the service's would be."""
        if not self.pages:
            return service(self.who(person), self.encounter.pk, self.v)
        client = Client()
        client.force_login(self.who(person))
        data = {"expected_version": self.v}
        response = client.post(reverse(url_name, args=[self.encounter.pk]), data, HTTP_HX_REQUEST="true")
        assert response.status_code < 500, (url_name, response.status_code)
        if response.status_code >= 400 or b"form-error" in response.content:
            raise (WrongPhase if response.status_code == 409 else InvalidCommand)(response.content[:300])
        return response

    def who(self, person: str):
        """The user the model calls `person`; "holder" is whoever holds the encounter's seat now, "lead" the
        saga's lead."""
        person = {"holder": self.holder, "lead": self.lead}.get(person, person)
        return getattr(self, person)

    def holds(self, person: str) -> bool:
        """Whether `person` holds the encounter's seat now, by the model's bookkeeping (its commands)."""
        return self.who(person) == self.who("holder")

    def leads(self, person: str) -> bool:
        """Whether `person` is the saga's lead now, by the model's bookkeeping."""
        return self.who(person) == self.who("lead")

    def guides(self, person: str) -> bool:
        """Whether `person` is one of the saga's storyguides now (the lead among them), by the model's
        bookkeeping: what every storyguide prepares at the saga's level (a character given to a player)."""
        return self.who(person) in {self.who(name) for name in self.storyguides}

    # --- set-up: every system's --------------------------------------------------------------------------

    starting_sides: tuple[tuple[tuple[str, ...], str], ...] = ()  # who faces whom when an example starts so
    template = ""  # the NPC the storyguide stamps copies of (a template from then on)

    def change_refusal(self):
        """Why combatants may not join or leave now (the system's precondition), or None."""
        return None

    def combatant_ids(self) -> list[int]:
        return list(self.row().combatants.order_by("order", "pk").values_list("pk", flat=True))

    @initialize(start=st.booleans())
    def sides(self, start):
        """Most examples start with two sides facing each other."""
        for names, side in self.starting_sides if start else ():
            ids = [self.character(name).pk for name in names]
            core.add_combatants(self.storyguide, self.encounter.pk, self.v, ids, side)

    @rule(person=people, index=st.integers(0, 6), side=st.sampled_from(["Companions", "Bandits"]))
    def add(self, person, index, side):
        character = self.chosen(index)
        self.command(
            "add",
            lambda: core.add_combatants(self.who(person), self.encounter.pk, self.v, [character.pk], side),
            refusal=self.change_refusal(),
            allowed=self.holds(person),
        )

    @rule(person=people, index=st.integers(0, 5))
    def remove(self, person, index):
        ids = self.combatant_ids() or [0]
        self.command(
            "remove",
            lambda: core.remove_combatant(self.who(person), self.encounter.pk, self.v, ids[index % len(ids)]),
            refusal=self.change_refusal(),
            allowed=self.holds(person),
        )

    @rule(count=st.integers(1, 2))
    def stamp(self, count):
        """The storyguide stamps copies of the template NPC, which is added no more itself; a copy may take
        the name a renamed one freed (issue 35, item 16), and the machine knows each by its id."""
        for copy in campaign_services.stamp_npc_copies(self.character(self.template), count):
            self.know(copy)
        self.knows_every_character()
        self.steps.append(f"stamp {count}")

    @rule(index=st.integers(0, 6), name=st.sampled_from(["Ragnar the Red", "Old Tom"]))
    def rename_character(self, index, name):
        """The storyguide renames a character (the machine knows it by its id, and `build`'s by their first
        name still); an open encounter it fights in logs the new name, and the record keeps the names the
        log gave."""
        character = self.chosen(index)
        campaign_services.rename_character(character, name, self.storyguide)
        self.steps.append("rename character")

    # --- the end, the archive, the saga's setting: every system's --------------------------------------

    @rule(person=people)
    def end(self, person):
        self.command(
            "end",
            lambda: self.send(person, "end_encounter", core.end_encounter),
            refusal="over" if self.row().status == ENDED else None,
            allowed=self.holds(person),
            archive=True,  # its own precondition refuses it on an ended encounter
        )

    @rule(person=people, name=st.sampled_from(["Ambush", "At dusk"]))
    def rename(self, person, name):
        self.command(
            "rename",
            lambda: core.rename_encounter(self.who(person), self.encounter.pk, name),
            allowed=self.holds(person) or self.leads(person),
            archive=True,
        )

    @rule(person=people, archived=st.booleans())
    def archive(self, person, archived):
        self.command(
            "archive" if archived else "restore",
            lambda: core.set_encounter_archived(self.who(person), self.encounter.pk, archived),
            allowed=self.holds(person) or self.leads(person),
            archive=True,
        )

    @rule()
    def delete_and_restore(self):
        """The storyguide who holds every seat (the one encounter's) downloads the saga's archive, the lead
        deletes the saga and imports the archive again, in this one process; the machine plays on in the
        restored saga (issue 29, bug 7), whose replay is the one it had, its troupe and seat kept."""
        data = json.loads("".join(archive_chunks(reader_for(self.who("holder"), self.saga.pk))))
        assert data["audience"] == STORYGUIDE, "the seat's holder's archive is not the storyguide's"
        before = self.replayed()
        assert campaign_services.delete_saga(self.saga, self.saga.name), "the saga was not deleted"
        self.restored(import_saga(data, storyguide=self.who("lead")))
        assert self.replayed() == before, "the restored saga does not replay as the deleted one did"
        self.steps.append("delete and restore")

    @rule()
    def duplicate(self):
        """The storyguide duplicates the saga: the copy replays as the saga does, step by step, and the
        machine plays on in the copy."""
        before = self.replayed()
        self.restored(duplicate_saga(self.saga, self.who("lead")))
        assert self.replayed() == before, "the copy does not replay as the saga does"
        self.steps.append("duplicate")

    def restored(self, saga) -> None:
        """Play on in this saga (a copy of the one played, with new ids): its encounter and characters."""
        self.saga = saga
        self.encounter = saga.encounters.get()
        old = sorted(self.characters)
        new = list(saga.characters.order_by("pk"))
        assert [c.name for c in new] == [self.characters[pk].name for pk in old], "the characters differ"
        now = {pk: character.pk for pk, character in zip(old, new, strict=True)}
        self.characters = {character.pk: character for character in new}
        self.first_names = {name: now[pk] for name, pk in self.first_names.items()}
        self.played = [(since, now[pk], who) for since, pk, who in self.played]
        # The troupe and the seat are kept (archive.json carries them; a copy is made from it).
        assert {m.user.get_username() for m in saga.memberships.filter(role="storyguide")} | {
            saga.storyguide.get_username()
        } == {self.who(person).get_username() for person in self.storyguides}, "the troupe is not kept"
        assert self.encounter.seat_holder == self.who("holder"), "the seat is not kept"
        self.checked = self.read = None

    def replayed(self) -> list:
        """Each step of the encounter's log folded, with the combatants' ids as the order they joined in
        (a copy gives them new ids): what a copy must replay the same."""
        events = self.events()
        joined = [e.payload["combatant"] for e in events if e.kind == "combatant_added"]
        order = {str(pk): f"#{index}" for index, pk in enumerate(joined)}
        states = (self.system.replay.state_at(events[:step]) for step in range(1, len(events) + 1))
        tally = sorted(
            (order.get(who, who), dict(counted)) for who, counted in tell(self.system, events).tally.items()
        )
        return [settled(renamed(state.facts(), order)) for state in states if state is not None] + [tally]

    @rule(setting=st.sampled_from([choice.value for choice in NpcRolls]))
    def npc_rolls(self, setting):
        """The storyguide changes how much of an NPC's rolls the players see."""
        campaign_services.set_npc_rolls(self.saga, setting)
        self.saga.refresh_from_db()

    # --- who plays whom -----------------------------------------------------------------------------

    def person_of(self, user_id) -> str | None:
        """The model's name for a saga member by id ("storyguide", "player", "other_player"); None: nobody."""
        return next((p for p in ("storyguide", "player", "other_player") if self.who(p).pk == user_id), None)

    def plays(self, key: int) -> str | None:
        """Who plays the character now, by the model's bookkeeping."""
        return next((person for _, k, person in reversed(self.played) if k == key), None)

    def key_of(self, character) -> int:
        """The model's key of a character row: its id, which the machine knows it by."""
        assert character.pk in self.characters, f"the machine does not know {character.name}"
        return character.pk

    def plays_it(self, person: str, character) -> bool:
        """Whether `person` plays the character now, by the model's bookkeeping (a storyguide without the seat
        plays their own characters as a player does)."""
        name = {"holder": self.holder, "lead": self.lead}.get(person, person)
        return name in ("player", "other_player", "storyguide") and self.plays(self.key_of(character)) == name

    def handed(self, index: int):
        """A character to hand over or take up: mostly a player character, now and then an NPC (refused)."""
        items = sorted(self.characters.items())
        players = [item for item in items if not item[1].is_npc]
        chosen = players * 3 + [item for item in items if item[1].is_npc][:1]
        return chosen[index % len(chosen)]

    @rule(
        person=people,
        index=st.integers(0, 6),
        to=st.sampled_from(["other_player", "player", "storyguide", None]),
    )
    def hand_over(self, person, index, to):
        """Any of the saga's storyguides gives a player character to a player, takes it back, or leaves it for
        a player who will join: refused for an NPC, for the one who plays it already, and from anyone else.
        Each open encounter it fights in logs it; its entries from then on are the new player's own."""
        key, character = self.handed(index)
        refusal = "an NPC" if character.is_npc else "plays it already" if self.plays(key) == to else None
        since = self.row().last_seq + 1

        def call():
            try:
                player = self.who(to) if to else None
                return campaign_services.hand_over(character, player, by=self.who(person))
            except campaign_services.Refused as refused:
                raise NotAllowed(str(refused)) from None

        done = self.command("hand over", call, refusal=refusal, allowed=self.guides(person), archive=True)
        if done is not REFUSED:
            self.played.append((since, key, to))

    @rule(
        person=st.sampled_from(["other_player", "player", "storyguide", "stranger"]), index=st.integers(0, 6)
    )
    def take_up(self, person, index):
        """A player takes up a character made for a player who will join: once, and only a player of the
        saga (the storyguide gives it to themselves instead)."""
        key, character = self.handed(index)
        refusal = "an NPC" if character.is_npc else "taken" if self.plays(key) is not None else None
        since = self.row().last_seq + 1

        def call():
            try:
                return campaign_services.claim_character(self.who(person), character.pk)
            except campaign_services.Refused as refused:
                raise NotAllowed(str(refused)) from None

        allowed = person in ("player", "other_player")
        done = self.command("take up", call, refusal=refusal, allowed=allowed, archive=True)
        if done is not REFUSED:
            self.played.append((since, key, person))

    # --- the troupe (issue 38): the saga's storyguides, its lead, each encounter's seat ------------------

    @rule(person=people, member=st.sampled_from(["dora", "dora", "storyguide"]))
    def make_storyguide(self, person, member):
        """The lead makes a member one of the saga's storyguides: refused for one already, and from anyone
        else. (Dora, who plays no character: a storyguide's own characters are item 4's.)"""
        refusal = "already" if member in self.storyguides else None

        def call():
            try:
                return campaign_services.make_storyguide(self.saga, self.who(member), by=self.who(person))
            except campaign_services.Refused as refused:
                raise NotAllowed(str(refused)) from None

        allowed = self.leads(person)
        done = self.command("make storyguide", call, refusal=refusal, allowed=allowed, archive=True)
        if done is not REFUSED:
            self.storyguides.add(member)

    @initialize(troupe=st.booleans())
    def a_troupe(self, troupe):
        """Half the examples start with a troupe of two: the lead makes dora one of the saga's storyguides."""
        if troupe:
            campaign_services.make_storyguide(self.saga, self.dora, by=self.storyguide)
            self.storyguides.add("dora")

    @rule(
        person=st.sampled_from(["holder", "holder", "lead", "storyguide", "dora", "player"]),
        to=st.sampled_from(["dora", "dora", "storyguide", "player"]),
    )
    def hand_over_seat(self, person, to):
        """The holder, or the lead, hands the encounter's seat to another of the saga's storyguides: refused
        for a player, for whoever holds it already, on an ended encounter, and from anyone else."""
        refusal = (
            "not a storyguide" if to not in self.storyguides else "holds it" if self.holds(to) else None
        )
        allowed = self.holds(person) or self.leads(person)
        done = self.command(
            "hand over the seat",
            lambda: core.hand_over_seat(
                self.who(person), self.encounter.pk, self.v, self.who(to).get_username(), "Next story"
            ),
            refusal=refusal,
            allowed=allowed,
        )
        if done is not REFUSED:
            self.holder = to
            self.seats.append((self.key()[1], to))

    @rule(person=people, to=st.sampled_from(["dora", "storyguide"]))
    def pass_lead(self, person, to):
        """The lead passes the lead to another of the saga's storyguides: refused to one who is not, to the
        lead, and from anyone else."""
        refusal = "not a storyguide" if to not in self.storyguides else "leads" if self.leads(to) else None

        def call():
            try:
                return campaign_services.pass_lead(self.saga, self.who(to), by=self.who(person))
            except campaign_services.Refused as refused:
                raise NotAllowed(str(refused)) from None

        done = self.command("pass the lead", call, refusal=refusal, allowed=self.leads(person), archive=True)
        if done is not REFUSED:
            self.lead = to
            self.saga.refresh_from_db()

    @rule(person=people, member=st.sampled_from(["dora", "dora", "storyguide"]))
    def remove_storyguide(self, person, member):
        """The lead makes a storyguide a player again: refused for the lead, for one who is not a storyguide,
        and from anyone else. The seat they hold passes to the lead, logged, the encounter over or not (a seat
        left with a player made the soak's restore fail: seed 2911202719)."""
        refusal = "the lead" if self.leads(member) else "not one" if member not in self.storyguides else None

        def call():
            try:
                return campaign_services.remove_storyguide(self.saga, self.who(member), by=self.who(person))
            except campaign_services.Refused as refused:
                raise NotAllowed(str(refused)) from None

        allowed = self.leads(person)
        done = self.command("make a player again", call, refusal=refusal, allowed=allowed, archive=True)
        if done is not REFUSED:
            self.storyguides.discard(member)
            if self.holds(member):
                self.holder = self.lead
                self.seats.append((self.key()[1], self.lead))

    @invariant()
    def each_sees_the_storyguides_version_of_exactly_the_seat_they_hold(self) -> None:
        """Every member's audience of the encounter is the storyguide's exactly when they hold its seat, by
        the model's bookkeeping, and the players' otherwise; a stranger has none (issue 38, item 6)."""
        encounter = self.row()
        for person in ("storyguide", "dora", "player", "other_player"):
            expected = STORYGUIDE if self.holds(person) else PLAYERS
            seen = audience_for(self.who(person), encounter)
            assert seen == expected, f"{person} sees the {seen} version; holds the seat: {self.holds(person)}"
        assert audience_for(self.stranger, encounter) is None, "a stranger has a version of the encounter"

    def reads_whole(self, person: str, seq: int) -> bool:
        """By the model's bookkeeping: whether `person` reads step `seq` of the log in the storyguide's
        version: they hold the seat now, or held it when that step was written."""
        then = [who for since, who in self.seats if since <= seq][-1]
        return self.holds(person) or self.who(then) == self.who(person)

    @invariant()
    def each_reads_whole_exactly_the_steps_whose_seat_they_held_or_hold(self) -> None:
        """At every step, the history each member reads (`Reader`: the history page, history.json,
        archive.json, the recaps and the saga's charts) holds the storyguide's version of exactly the steps of
        the log written while they held its seat, or all of it for whoever holds it now, and the players'
        version of every other: a storyguide-only step only where it is whole (issue 38, item 3)."""
        key = (self.key(), len(self.seats), self.saga.pk)
        if key == self.seats_checked or len(self.seats) == 1:  # the troupe of one: the players' invariants
            return
        self.seats_checked = key
        everything = self.events()
        for person in ("storyguide", "dora", "player"):
            reader = reader_for(self.who(person), self.saga.pk, sheets=False)
            expected = {e.seq for e in everything if not e.storyguide_only or self.reads_whole(person, e.seq)}
            read = list(reader.events().filter(encounter_id=self.encounter.pk))
            assert {e.seq for e in read} == expected, (
                f"{person} reads steps {sorted({e.seq for e in read} ^ expected)} wrongly"
            )
            for event in read:
                whole = self.reads_whole(person, event.seq)
                assert reader.whole(event) is whole, f"{person} reads #{event.seq} whole: {not whole}"
            if len(self.seats) > 1 and person != "player" and any(e.storyguide_only for e in read):
                RAN["secret steps read by a former holder"] += not self.holds(person)

    def own_at(self, person: str) -> dict[int, set[str]]:
        """By the model's bookkeeping: for each step of the log, the combatants whose characters `person`
        played when it was written."""
        character_of = {
            e.payload["combatant"]: e.payload.get("character")
            for e in self.events()
            if e.kind == "combatant_added"
        }
        own = {}
        for event in self.events():
            playing = {}
            for since, key, who in self.played:
                if since <= event.seq:
                    playing[key] = who
            own[event.seq] = {
                cid for cid, pk in character_of.items() if playing.get(pk) == person
            }
        return own

    @invariant()
    def each_player_reads_as_their_own_what_was_written_while_they_played(self) -> None:
        """At every step, each player's version of every entry of the log shows the private parts (an Ars
        Magica declaration in full, whatever a rule system gives a player of their own) of exactly the
        characters they played when it was written (combat.played), by the model's own bookkeeping."""
        key = (self.key(), len(self.played), self.saga.npc_rolls)
        if key == self.played_checked:
            return
        self.played_checked = key
        for person in ("player", "other_player"):
            reader = reader_for(self.who(person), self.saga.pk, sheets=False)
            own = self.own_at(person)
            setting = self.saga.npc_rolls
            for event in reader.events().filter(encounter_id=self.encounter.pk):
                expected = self.system.log.players_payload(event, own[event.seq], reader.players, setting)
                record = with_payload(event, expected)
                expected = self.system.log.players_record(record, reader.characters, setting)
                shown = reader.shown(with_payload(event, event.payload)).payload
                assert shown == expected, (
                    f"the {person}'s version of #{event.seq} {event.kind} is not what they may read of it: "
                    f"{shown} != {expected}"
                )
                handed = any(since for since, _, _ in self.played)
                if handed and event.kind == "declared" and event.payload.get("combatant") in own[event.seq]:
                    RAN["entries read as their own"] += 1

    # --- invariants -------------------------------------------------------------------------------

    def key(self) -> tuple:
        """What the encounter's log is at now: its version and last seq (a command changes both)."""
        return tuple(Encounter.objects.values_list("version", "last_seq").get(pk=self.encounter.pk))

    def events(self) -> list[Event]:
        """The encounter's log, read once while it stays as it is."""
        key = self.key()
        if self.read is None or self.read[0] != key:
            self.read = (key, list(Event.objects.filter(encounter=self.encounter.pk).order_by("seq")))
        return self.read[1]

    def check_invariants(self, *args, **kwargs) -> None:
        """Hypothesis checks the invariants before the first step and after each: count the steps run."""
        self.ran += 1
        super().check_invariants(*args, **kwargs)

    def changed(self) -> bool:
        """Whether the log changed since the invariants last read it (a refused command wrote nothing, and
        the invariants that fold the log need not fold it again)."""
        key = self.key()
        if key == self.checked:
            return False
        self.checked = key
        return True

    def pages_changed(self) -> bool:
        """Whether the pages may show something else since they were last drawn: the log, or the saga's
        NPC-rolls setting, changed (a page machine draws them only then)."""
        key = (self.key(), self.saga.npc_rolls)
        if key == getattr(self, "drawn", None):
            return False
        self.drawn = key
        return True

    def mark_the_log(self) -> tuple[set[str], set[str]]:
        """Under "results only" (set now), every NPC's dice, scores and totals in the saga's stored log set to
        numbers found nowhere else (tests/archive/test_export_privacy.py's marks): the parts marked, and the
        player characters (combatant ids, with the entry's seq) whose defence against an NPC's attack an entry
        gives the number to meet of (`TO_MEET`)."""
        campaign_services.set_npc_rolls(self.saga, NpcRolls.RESULTS)
        self.saga.refresh_from_db()
        npcs, parts, defenders = self.npc_ids(), set(), set()
        for event in Event.objects.filter(encounter__saga=self.saga):
            MARK[self.system_key](event.kind, event.payload, npcs)
            event.save(update_fields=["payload"])
            text = json.dumps(event.payload)
            parts |= {part for part, number in MARKED.items() if str(number) in text}
            if str(TO_MEET) in text:
                defenders.add((event.seq, to_meet_by(event.kind, event.payload, npcs)))
        self.mark_rows(npcs)
        return parts, defenders

    def plays_now(self, person: str, combatant) -> bool:
        """Whether the person plays the combatant's character now, by the model's bookkeeping: as of the log's
        last step (a hand-over is logged in every encounter its character fights in that has not ended)."""
        own = self.own_at(person)
        return bool(own) and str(combatant) in {str(cid) for cid in own[max(own)]}

    def meets(self, person: str, defenders: set[tuple[int, str]]) -> bool:
        """Whether the person played one of these defending characters (combatant ids) when the entry that
        gives the number to meet was written (by seq): as `Reader.own_at` reads it, by the model's own
        bookkeeping of who played whom."""
        own = self.own_at(person)
        return any(cid in own.get(seq, set()) for seq, cid in defenders)

    def pages_keep_npc_rolls_from_players(self) -> None:
        """Under "results only", no page a player reads (the encounter, its replay and charts, the saga's
        history and charts) shows an NPC's dice, scores or totals, each first set, in the stored log and the
        live rows, to a number found nowhere else; the number a defence must meet shows only on its player's
        history and replay, never on the encounter's page, which every player is sent alike."""
        _, defenders = self.mark_the_log()
        for person in ("player", "other_player"):
            client = Client()
            client.force_login(self.who(person))
            own = self.meets(person, defenders)
            for name, pk in (
                ("encounter_page", self.encounter.pk),
                ("encounter_replay", self.encounter.pk),
                ("encounter_charts", self.encounter.pk),
                ("saga_history", self.saga.pk),
                ("saga_charts", self.saga.pk),
            ):
                page = client.get(reverse(name, args=[pk]), follow=True)
                assert page.status_code == 200, (name, page.status_code)
                shown = [part for part, number in MARKED.items() if str(number).encode() in page.content]
                assert not shown, f"the {person}'s {name} shows an NPC's {shown}"
                may = own and name in ("encounter_replay", "saga_history")
                assert may or str(TO_MEET).encode() not in page.content, (
                    f"the {person}'s {name} shows the number another's defence must meet"
                )

    def frames_keep_npc_rolls_from_players(self, first_seq: int) -> None:
        """Under "results only", the frame `combat.live.broadcast` sends the players for a command's events
        shows none of an NPC's dice, scores or totals, nor the number a defence must meet (every player is
        sent the same frame), each first set, in the events handed to it and the live rows (the stored log
        and the rows left as they are), to a number found nowhere else; the storyguide's frame is counted
        when it shows one (`marks_sent`): the example's end sees that the check looked at something."""
        mark = MARK.get(self.system_key)
        if mark is None or self.saga.npc_rolls != NpcRolls.RESULTS:
            return
        encounter = self.row()
        events = list(Event.objects.filter(encounter=encounter, seq__gte=first_seq).order_by("seq"))
        npcs = self.npc_ids()
        marked = 0
        for event in events:
            unmarked = repr(event.payload)
            mark(event.kind, event.payload, npcs)
            marked += repr(event.payload) != unmarked
        rows = transaction.savepoint()  # the live rows marked for these frames alone
        try:
            if not self.mark_rows(npcs) and not marked:  # no NPC roll anywhere: nothing a frame could leak
                return
            sent = self.frames_sent(encounter, events, first_seq)
        finally:
            transaction.savepoint_rollback(rows)
        self.marks_sent["rolls"] += marked
        assert set(sent) == {PLAYERS, STORYGUIDE}, f"{self.steps[-1]}'s frames reached only {sorted(sent)}"
        for audience, html in sent.items():
            marks = {**MARKED, "number to meet": TO_MEET}
            shown = [part for part, number in marks.items() if str(number) in html]
            assert audience != PLAYERS or not shown, (
                f"the players' frame of {self.steps[-1]} shows an NPC's {shown}"
            )
            self.marks_sent[audience] += bool(shown)

    def frames_sent(self, encounter: Encounter, events: list[Event], first_seq: int) -> dict[str, str]:
        """Each audience's frame of these events, as `combat.live.broadcast` hands it to the channel layer
        (the saga page's push left out)."""
        groups = {Encounter.group_name(encounter.pk, who): who for who in (PLAYERS, STORYGUIDE)}
        sent = {}

        async def group_send(group, message):
            sent[groups[group]] = message["html"]

        with mock.patch.object(get_channel_layer(), "group_send", side_effect=group_send):
            live.broadcast(
                encounter.pk, first_seq, encounter.last_seq, saga=False, encounter=encounter, events=events
            )
        return sent

    def page(self, person: str) -> bytes:
        """The encounter's page as the person is sent it (answered 200)."""
        client = Client()
        client.force_login(self.who(person))
        page = client.get(reverse("encounter_page", args=[self.encounter.pk]), follow=True)
        assert page.status_code == 200, (person, page.status_code)
        return page.content

    @invariant()
    def the_log_is_gapless_and_the_version_only_grows(self) -> None:
        for pk, version, last_seq, count, top in (
            Encounter.objects.filter(saga=self.saga)
            .annotate(count=Count("events"), top=Max("events__seq"))
            .values_list("pk", "version", "last_seq", "count", "top")
        ):
            assert (top or 0) == count == last_seq, f"gaps in the log: {count} events, last {top}, {last_seq}"
            assert version >= self.versions.get(pk, 0), "the version went back"
            self.versions[pk] = version

    @invariant()
    def the_log_is_the_truth(self) -> None:
        if not self.changed():
            return
        encounter = self.row()
        live = self.live_facts(encounter)
        if live is not None:
            replayed = self.system.replay.state_at(self.events()).facts()
            assert replayed == live, f"the replay is not the live table:\n{replayed}\n!=\n{live}"
        self.tallies_equal_the_fold()

    def tallies_equal_the_fold(self) -> None:
        """The charts' numbers are the fold of the log with every undone step left out; the timeline marks
        every undo."""
        events = self.events()
        story = tell(self.system, events)
        counted = {who: counted for who, counted in story.tally.items() if +counted}
        expected = tally_of(self.system, events, self.undone(events))
        assert counted == expected, f"the charts count an undone step: {counted} != {expected}"
        undos = [e.seq for e in events if e.kind in self.system.replay.UNDO_KINDS]
        marked = [m["seq"] for m in story.marks if m["mark"] == "undo"]
        assert marked == undos, f"the timeline marks the undos {marked}, the log has {undos}"

    def npc_ids(self) -> set[str]:
        """Every NPC combatant the log ever added (a removed one's dice stay behind the screen too)."""
        added = Event.objects.filter(encounter__saga=self.saga, kind="combatant_added")
        return {e.payload["combatant"] for e in added if e.payload.get("npc")}

    # --- once per example -------------------------------------------------------------------------

    def teardown(self) -> None:
        """The example's last checks (the exports and pages, costly, read once at its end), then its
        rollback."""
        RAN.update(examples=1, steps=max(self.ran, 0), commands=len(self.steps))
        try:
            if self.ran >= 0:
                self.at_the_end()
        finally:
            transaction.set_rollback(True)
            self._example.__exit__(None, None, None)

    def at_the_end(self) -> None:
        """What is checked once the example has played: the storyguide's frames shown a marked NPC roll where
        one was marked for them, each undone step shown as undone, the kept summaries equal to the fold, and
        the players' downloads keeping every number of an NPC's roll."""
        bodies = {person: self.downloads(person) for person in ("holder", "player")}
        assert self.marks_sent[STORYGUIDE] or not self.marks_sent["rolls"], (
            f"{self.marks_sent['rolls']} NPC rolls marked for the frames, no storyguide's frame shows one"
        )
        self.undone_is_shown_as_undone(bodies)
        self.downloads_follow_the_seat()
        self.summaries_equal_the_fold()
        self.downloads_keep_npc_numbers_from_players()  # last: it marks the stored log

    def undone_is_shown_as_undone(self, bodies: dict[str, dict[str, bytes]]) -> None:
        """The storyguide's history.json marks undone exactly the steps an undo took back (by the model's
        own fold), and each recap strikes through as many lines as its reader's history.json marks."""
        undone = self.undone(self.events())
        for person in ("holder", "player"):
            history = json.loads(bodies[person]["saga_history_json"])
            entries = [e for encounter in history["encounters"] for e in encounter["events"]]
            marked = [entry for entry in entries if "undone" in entry]
            if person == "holder":
                seqs = {entry["seq"] for entry in marked}
                assert seqs == undone, f"history.json marks {sorted(seqs)} undone, the log {sorted(undone)}"
            recap = bodies[person]["saga_recap"].decode()
            struck = [line for line in recap.splitlines() if line.startswith("- ") and "~~" in line]
            assert len(struck) == len(marked), (
                f"the {person}'s recap strikes {len(struck)} lines, its history.json marks {len(marked)}"
            )

    def summaries_equal_the_fold(self) -> None:
        """The saga's charts read a finished encounter's kept summary: for the storyguide and the player it
        is the story a fold of the log tells now (its timeline marks aside, which the charts never read)."""
        for person in ("holder", "lead", "storyguide", "dora", "player"):
            reader = reader_for(self.who(person), self.saga.pk, sheets=False)
            saga_stories_kept(reader)  # writes the summaries the end did not
            unmarked = Story().marks
            kept = {pk: replace(story, marks=unmarked) for pk, story in saga_stories_kept(reader)}
            folded = {pk: replace(story, marks=unmarked) for pk, story in saga_stories(reader)}
            assert kept == folded, f"the {person}'s kept summaries are not the fold: " + str(
                [
                    (f.name, getattr(kept[pk], f.name), getattr(folded.get(pk), f.name, None))
                    for pk in kept
                    for f in fields(Story)
                    if getattr(kept[pk], f.name) != getattr(folded.get(pk), f.name, None)
                ]
            )

    def downloads_follow_the_seat(self) -> None:
        """Each member's history.json and archive.json number (`seq`, the storyguide's version's mark)
        exactly the steps they read whole by the model's bookkeeping: all of them for the holder, those
        written while they held the seat for one who handed it over, none for a player; each names the
        encounter's seat holder and every hand-over (issue 38, items 3 and 7)."""
        everything = self.events()
        handed = [e.payload["to"] for e in everything if e.kind == "seat_handed_over"]
        for person in ("storyguide", "dora", "player"):
            bodies = self.downloads(person)
            expected = {e.seq for e in everything if self.reads_whole(person, e.seq)}
            for name in ("saga_history_json", "saga_archive_json"):
                data = json.loads(bodies[name])
                (encounter,) = data["encounters"]
                numbered = {entry["seq"] for entry in encounter["events"] if "seq" in entry}
                wrong = sorted(numbered ^ expected)
                assert not wrong, f"{person}'s {name} numbers {wrong} wrongly"
                assert encounter["seat_holder"] == self.who("holder").get_username(), (person, name)
                assert [given["to"] for given in encounter["hand_overs"]] == handed, (person, name)
            recap = bodies["saga_recap"].decode()
            assert all(f"then {to} (" in recap for to in handed), f"{person}'s recap misses a hand-over"

    def downloads(self, person: str) -> dict[str, bytes]:
        """The person's exports of the saga (history.json, archive.json, recap.md), each answered 200."""
        client = Client()
        client.force_login(self.who(person))
        bodies = {}
        for name in ("saga_history_json", "saga_archive_json", "saga_recap"):
            response = client.get(reverse(name, args=[self.saga.pk]))
            assert response.status_code == 200, (person, name, response.status_code)
            bodies[name] = b"".join(response.streaming_content) if response.streaming else response.content
        return bodies

    def downloads_keep_npc_numbers_from_players(self) -> None:
        """Under "results only" (set now, whatever the example left), no player's history.json, archive.json
        or recap.md holds a number of an NPC's roll: each of its dice, scores and totals is first set, in the
        stored log, to a number found nowhere else, and the storyguide's history.json is seen to hold every
        one marked. The number a player character's defence must meet against an NPC's attack (d6) is kept
        in its player's history.json and shown in no other player's download (issue 35, item 10). The coin
        duel has nothing behind the screen: a coin's face is its result."""
        if self.system_key not in MARK:
            return
        parts, defenders = self.mark_the_log()
        storyguide = self.downloads("holder")["saga_history_json"].decode()
        missing = [part for part in parts if str(MARKED[part]) not in storyguide]
        assert not missing, f"the storyguide's history.json lacks an NPC's {missing}"
        assert not defenders or str(TO_MEET) in storyguide, "the storyguide's history.json lacks one to meet"
        for person in ("player", "other_player"):
            own = self.meets(person, defenders)
            for name, body in self.downloads(person).items():
                text = body.decode()
                shown = [part for part, number in MARKED.items() if str(number) in text]
                assert not shown, f"the {person}'s {name} gives an NPC's {shown}"
                assert own or str(TO_MEET) not in text, (
                    f"the {person}'s {name} gives the number another's defence must meet"
                )
                assert not own or name != "saga_history_json" or str(TO_MEET) in text, (
                    f"the {person}'s {name} lacks the number their character's defence had to meet"
                )

def with_payload(event, payload: dict):
    """A copy of the event carrying another payload (the event read left as it is)."""
    shown = copy_of(event)
    shown.payload = payload
    return shown


def renamed(value, order: dict[str, str]):
    """A replay's facts with each combatant's id (a string, as a key or a value) put as `order` names it."""
    if isinstance(value, dict):
        return {renamed(key, order): renamed(item, order) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [renamed(item, order) for item in value]
    return order.get(value, value) if isinstance(value, str | int) and not isinstance(value, bool) else value


def settled(facts: dict) -> dict:
    """A replay's facts with its engagements, a set the facts keep sorted by the combatants' ids, sorted again
    once the ids are renamed (a restored saga's new ids need not sort as the old ones did)."""
    if isinstance(facts, dict) and "engagements" in facts:
        return {**facts, "engagements": sorted(facts["engagements"])}
    return facts


def diff(before: dict, after: dict) -> list:
    """What changed between two fingerprints, briefly."""
    changed = []
    for saga, rows in after.items():
        old, new = {repr(row) for row in before.get(saga, [])}, {repr(row) for row in rows}
        changed += [("+", row) for row in sorted(new - old)][:3]
        changed += [("-", row) for row in sorted(old - new)][:3]
    return changed
