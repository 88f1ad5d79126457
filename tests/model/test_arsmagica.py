"""The Ars Magica model: set-up (add, remove, stamp), the round (open, declare, repeat, close, preview,
confirm, undo, end round), corrections, time passing, sleep and exertion, the end and the archive's
commands, the NPC-rolls setting; each sent as the storyguide, a player or a stranger, every die from a
seeded box (tests/model/harness.py for the invariants checked after every step)."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from arsmagica import services
from arsmagica.events import Kind
from arsmagica.models import BodyLevel, Declaration, FatigueLevel, Weapon
from arsmagica.rules import RandomDiceBox
from arsmagica.rules import table as rules
from arsmagica.rules.levels import BodyLevel as BodyTrack
from arsmagica.rules.levels import FatigueLevel as FatigueTrack
from arsmagica.rules.levels import why_not_acting
from arsmagica.services import dice as dice_module
from arsmagica.services.sheets import unable_to_act
from arsmagica.services.table import table_of
from arsmagica.sheet import carried, carry, new_sheet
from campaign.models import Character
from combat.errors import InvalidCommand
from combat.models import Encounter
from combat.rules.dice import RandomDice
from tests.archive.test_export_privacy import TOTAL
from tests.arsmagica.test_replay import live_facts

from .harness import ENDED, RAN, TableModel, people, run, seeds

pytestmark = pytest.mark.django_db

SWORD = dict(name="Sword", initiative=5, attack=7, defense=6, damage=6, optimum_range="reach")
DAGGER = dict(name="Dagger", initiative=3, attack=6, defense=4, damage=3, optimum_range="touch")
PHASES = (*rules.RESOLVABLE, "movement")
COUNT = re.compile(r'data-testid="declared-count">(\d+) / (\d+)<')  # the Declarations panel's "N / M"
UNDONE_KINDS = {Kind.ATTACK, Kind.SPELL, Kind.FATIGUE_ROLL, Kind.SKIPPED, Kind.PHASE_RESOLVED}


def undone_by_undo(events: list) -> set[int]:
    """The events each `phase_undone` took back: its phase's last confirmation in the round, and the
    quiet phases that passed after it, as the undo's payload names them."""
    confirmed: dict[tuple[int, str], list[int]] = {}
    undone: set[int] = set()
    for event in events:
        if event.kind in UNDONE_KINDS:
            confirmed.setdefault((event.round_number, event.phase), []).append(event.seq)
        elif event.kind == Kind.PHASE_UNDONE:
            for phase in (event.payload["phase"], *event.payload.get("passed", ())):
                undone.update(confirmed.pop((event.round_number, phase), []))
    return undone


class ArsMagicaModel(TableModel):
    system_key = "arsmagica"
    examples = 22  # 0.5 s of CPU each
    budget = 0.6
    starting_sides = ((("Sir Boris",), "Companions"), (("Bandit 1", "Bandit 2"), "Bandits"))
    template = "Wolf"

    def build(self) -> Encounter:
        for name, owner, weapon in (
            ("Sir Boris", self.player, SWORD),
            ("Bandit 1", None, SWORD),
            ("Bandit 2", None, DAGGER),
            ("Wolf", None, DAGGER),
        ):
            character = Character.objects.create(
                saga=self.saga,
                name=name,
                owner=owner,
                is_npc=owner is None,
                sheet=new_sheet(soak=3, combat_fatigue=1, dodge_defense=3),
            )
            Weapon.objects.create(character=character, **weapon)
            self.know(character, name)
        return services.create_encounter(self.storyguide, self.saga.pk, "Forest road")

    def live_facts(self, encounter):
        return live_facts(encounter)

    def mark_rows(self, npcs):
        """Each NPC's advantage carried into the round (the margin of its success, a total's; ArM3 p168)
        marked as the log's totals are."""
        marked = 0
        for combatant in self.row().combatants.filter(pk__in=[int(pk) for pk in npcs]):
            carries = carried(combatant)
            keys = ("advantage_attack", "advantage_defense")
            changes = {key: TOTAL for key in keys if getattr(carries, key)}
            if changes:
                carry(combatant, **changes)
                combatant.save(update_fields=["state"])
                marked += 1
        return marked

    def undone(self, events):
        return undone_by_undo(events)

    # --- helpers ------------------------------------------------------------------------------------

    def change_refusal(self):
        return rules.can_change_combatants(self.table())

    def table(self) -> rules.Table:
        return table_of(self.row())

    def combatants(self) -> list:
        return list(self.row().combatants.select_related("character").order_by("order", "pk"))

    def pick(self, index: int):
        combatants = self.combatants()
        return combatants[index % len(combatants)] if combatants else None

    def seeded(self, seed: int):
        """The server's dice for one command: a box (and a die) from the drawn seed."""
        return mock.patch.multiple(
            dice_module, server_box=lambda: RandomDiceBox(seed), server_dice=lambda: RandomDice(seed)
        )

    # --- the round ----------------------------------------------------------------------------------

    @rule(person=people)
    def open(self, person):
        self.command(
            "open",
            lambda: self.send(person, "arsmagica:open_declarations", services.open_declarations),
            refusal=rules.can_open_declarations(self.table()),
            allowed=self.holds(person),
        )

    @rule(person=people, index=st.integers(0, 5), action=st.sampled_from(["attack", "attack", "other"]))
    def declare(self, person, index, action):
        combatant = self.pick(index)
        if combatant is None:
            return
        foes = [c.pk for c in self.combatants() if c.side != combatant.side]
        values = {"action": action, "engage": foes[:1] if action == "attack" else []}
        if action == "attack":
            values.update(weapon_id=combatant.character.weapons.first().pk, range="reach")
        character = combatant.character
        self.command(
            "declare",
            lambda: services.declare(self.who(person), self.encounter.pk, combatant.pk, values),
            refusal=rules.can_declare(self.table()),
            allowed=self.holds(person) or self.plays_it(person, character),
        )

    @rule(person=people, index=st.integers(0, 5))
    def repeat(self, person, index):
        combatant = self.pick(index)
        if combatant is None:
            return
        character = combatant.character
        self.command(
            "repeat",
            lambda: services.declare_as_before(self.who(person), self.encounter.pk, combatant.pk, self.v),
            refusal=rules.can_declare(self.table()),
            allowed=self.holds(person) or self.plays_it(person, character),
        )

    @rule(person=people)
    def repeat_npcs(self, person):
        self.command(
            "repeat NPCs",
            lambda: services.declare_npcs_as_before(self.who(person), self.encounter.pk, self.v),
            refusal=rules.can_declare(self.table()),
            allowed=self.holds(person),
        )

    @rule(person=people, seed=seeds)
    def close(self, person, seed):
        with self.seeded(seed):
            self.command(
                "close",
                lambda: self.send(person, "arsmagica:close_declarations", services.close_declarations),
                refusal=rules.can_close_declarations(self.table()),
                allowed=self.holds(person),
            )

    def phase_now(self, other: str) -> str:
        """The round's phase mostly, another sometimes."""
        phase = self.row().phase
        return phase if phase in rules.RESOLVABLE and other == "now" else other

    @rule(person=people, seed=seeds, which=st.sampled_from(["now", "now", "now", *PHASES]))
    def preview(self, person, seed, which):
        phase = self.phase_now(which)
        with self.seeded(seed):
            self.command(
                f"preview {phase}",
                lambda: services.preview_phase(self.who(person), self.encounter.pk, self.v, phase),
                refusal=rules.can_preview_phase(self.table(), phase),
                allowed=self.holds(person),
            )

    @rule(person=people, seed=seeds, which=st.sampled_from(["now", "now", "now", *PHASES]))
    def confirm(self, person, seed, which):
        phase = self.phase_now(which)
        with self.seeded(seed):
            self.command(
                f"confirm {phase}",
                lambda: services.confirm_phase(self.who(person), self.encounter.pk, self.v, phase),
                refusal=rules.can_confirm_phase(self.table(), phase),
                allowed=self.holds(person),
            )

    @rule(person=people)
    def undo(self, person):
        self.command(
            "undo",
            lambda: services.undo_phase(self.who(person), self.encounter.pk, self.v, "Wrong target"),
            refusal=rules.can_undo(self.table()),
            allowed=self.holds(person),
        )

    @rule(person=people)
    def end_round(self, person):
        self.command(
            "end round",
            lambda: self.send(person, "arsmagica:end_round", services.end_round),
            refusal=rules.can_end_round(self.table()),
            allowed=self.holds(person),
        )

    @rule(steps=st.integers(1, 8), seed=seeds)
    def play_on(self, steps, seed):
        """The table plays on for a few commands, each the one it offers next: open, declare for whoever has
        not (the player for Sir Boris), close, preview and confirm each phase, end the round."""
        for step in range(steps):
            table = self.table()
            if table.status == rules.PREPARING:
                self.open("holder")
            elif table.phase == "declaring":
                waiting = self.undeclared()
                if waiting is None:
                    self.close("holder", seed + step)
                else:
                    owner = "player" if waiting.character.owner_id == self.player.pk else "holder"
                    self.declare(owner, self.combatants().index(waiting), "attack")
            elif table.phase in rules.RESOLVABLE:
                act = self.confirm if table.pending_phase == table.phase else self.preview
                act("holder", seed + step, "now")
            elif table.phase == "round_over":
                self.end_round("holder")

    def undeclared(self):
        """The first combatant who can act and has not declared this round, if any."""
        encounter = self.row()
        declared = set(
            Declaration.objects.filter(encounter=encounter, round_number=encounter.round_number).values_list(
                "combatant_id", flat=True
            )
        )
        return next(
            (c for c in self.combatants() if c.pk not in declared and not unable_to_act(c.character)), None
        )

    # --- corrections and time -------------------------------------------------------------------------

    @rule(
        person=people,
        index=st.integers(0, 5),
        key=st.sampled_from(["fatigue_level", "body_level", "advantage_attack"]),
        level=st.integers(0, 6),
    )
    def correct(self, person, index, key, level):
        combatant = self.pick(index)
        if combatant is None:
            return
        values = {"fatigue_level": FatigueLevel.values, "body_level": BodyLevel.values}.get(key, range(7))
        change = {key: list(values)[level % len(values)]}
        self.command(
            "correct",
            lambda: services.correct(
                self.who(person), self.encounter.pk, self.v, combatant.pk, change, "The storyguide misread"
            ),
            refusal=rules.can_correct(self.table()),
            allowed=self.holds(person),
        )

    @rule(person=people, minutes=st.integers(1, 120), active=st.booleans(), seed=seeds)
    def time_passes(self, person, minutes, active, seed):
        with self.seeded(seed):
            self.command(
                "time passes",
                lambda: services.pass_time(
                    self.who(person),
                    minutes,
                    active=active,
                    stamina="server",
                    encounter_id=self.encounter.pk,
                    expected_version=self.v,
                ),
                refusal=rules.can_pass_time(self.table()),
                allowed=self.holds(person),
            )

    @rule(person=people, meal=st.booleans())
    def sleep(self, person, meal):
        self.command(
            "sleep",
            lambda: services.sleep_night(
                self.who(person), good_meal=meal, encounter_id=self.encounter.pk, expected_version=self.v
            ),
            refusal=rules.can_pass_time(self.table()),
            allowed=self.holds(person),
        )

    @rule(person=people, index=st.integers(0, 5), levels=st.integers(1, 3))
    def exertion(self, person, index, levels):
        combatant = self.pick(index)
        if combatant is None:
            return
        self.command(
            "exertion",
            lambda: services.record_exertion(
                self.who(person),
                combatant.character_id,
                levels,
                "a day's march",
                encounter_id=self.encounter.pk,
                expected_version=self.v,
            ),
            refusal=rules.can_pass_time(self.table()),
            allowed=self.holds(person),
        )



class TakenBack(Exception):
    """Rolls back a command a check only tries."""


class ArsMagicaPages(ArsMagicaModel):
    """The same model with the storyguide's round commands and the end posted through their pages; after
    every step both people's pages answer, and a player is offered a declaration form only while a
    declaration would be accepted."""

    pages = True
    examples = 10  # 0.8 s of CPU each, and 0.3 s at the end for the player's pages
    budget = 0.35

    def at_the_end(self):
        """Every machine's last checks, then what the player's pages show of the NPCs' rolls."""
        super().at_the_end()
        self.pages_keep_npc_rolls_from_players()

    @invariant()
    def pages_offer_only_what_is_accepted(self):
        if not self.pages_changed():
            return
        pages = {person: self.page(person) for person in ("holder", "player")}
        client = Client()
        client.force_login(self.player)
        forms = client.get(reverse("arsmagica:my_declarations", args=[self.encounter.pk]))
        assert forms.status_code == 200, forms.status_code
        table = self.table()
        open_now = rules.can_declare(table) is None and self.row().status != ENDED
        boris = self.row().combatants.filter(character=self.character("Sir Boris")).first()
        if boris is not None and not open_now:
            url = reverse("arsmagica:declare", args=[self.encounter.pk, boris.pk]).encode()
            assert url not in forms.content, "the player is offered a declaration that would be refused"
        if open_now and boris is not None:
            self.as_before_offered_exactly_when_accepted(forms.content, boris)
        if open_now:
            shown = COUNT.search(pages["holder"].decode())
            assert shown is not None, "declarations are open and the page counts nobody"
            assert tuple(map(int, shown.groups())) == self.declared_of_able(), (
                f"the page says {shown.group(0)!r}, the log {self.declared_of_able()}"
            )

    def as_before_offered_exactly_when_accepted(self, html: bytes, boris) -> None:
        """Sir Boris's "same as last round" on his player's panel is offered (its button enabled) exactly
        when the command takes it, tried and taken back (issue 35, item 7: it was offered with its only
        target dead, then refused)."""
        button = re.search(rb'<button[^>]*data-testid="as-before-%d"[^>]*>' % boris.pk, html)
        if button is None:
            return  # nothing declared last round, or he cannot act: nothing offered
        offered = b" disabled" not in button.group(0)
        before = self.snapshot()
        try:
            with transaction.atomic():
                services.declare_as_before(self.player, self.encounter.pk, boris.pk, self.v)
                raise TakenBack
        except TakenBack:
            accepted, refused = True, None
        except InvalidCommand as error:
            accepted, refused = False, error
        assert self.snapshot() == before, "trying same as last round left a trace"
        said = f"offered but refused: {refused}" if offered else "accepted but not offered"
        assert offered == accepted, f"same as last round {said}"

    def declared_of_able(self) -> tuple[int, int]:
        """Who has declared this round of those who can act (by the levels the replay of the log gives),
        and how many can act: the "N / M" the Declarations panel should show (issue 29, bug 4)."""
        fighters = self.system.replay.state_at(self.events()).facts()["fighters"]
        able = {
            int(pk) for pk, (fatigue, body, *_) in fighters.items()
            if not why_not_acting(FatigueTrack(fatigue), BodyTrack(body))
        }
        encounter = self.row()
        declared = Declaration.objects.filter(encounter=encounter, round_number=encounter.round_number)
        return len(able & set(declared.values_list("combatant_id", flat=True))), len(able)


def test_the_ars_magica_model():
    run(ArsMagicaModel)


def test_the_ars_magica_pages():
    run(ArsMagicaPages)


def test_the_model_reads_a_handed_over_characters_declarations_as_its_players_then():
    """One path through the model, step by step: Sir Boris's player declares for him, the storyguide hands
    him to the other player mid-round, the round goes on and the next opens; after each step every
    invariant holds, and each player read their own declarations as their own (issue 35, item 4)."""
    RAN.clear()
    model = ArsMagicaModel()
    try:
        model.sides(True)
        steps = [
            lambda: model.play_on(2, 7),  # open, and Sir Boris's player declares
            lambda: model.hand_over("storyguide", 0, "other_player"),
            lambda: model.play_on(8, 7),  # the rest declare; Initiative, the phases, a new round
            lambda: model.play_on(4, 8),
            lambda: model.hand_over("player", 0, "player"),  # a player hands over nothing
            lambda: model.hand_over("storyguide", 0, None),  # for a player who will join
            lambda: model.take_up("player", 0),  # Sir Boris's first player takes him up again
            lambda: model.play_on(6, 9),
        ]
        for step in steps:
            step()
            model.the_log_is_gapless_and_the_version_only_grows()
            model.the_log_is_the_truth()
            model.each_player_reads_as_their_own_what_was_written_while_they_played()
        assert [step for step in model.steps if step.startswith(("hand over", "take up"))] == [
            "hand over",
            "hand over: refused (Only the storyguide can give a character to a player.)",
            "hand over",
            "take up",
        ]
        assert RAN["entries read as their own"] >= 2, RAN
    finally:
        model.teardown()
