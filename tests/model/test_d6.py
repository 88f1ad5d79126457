"""The d6 model: set-up (add, remove, stamp), the fight (start, roll, breather, end turn), the chase (start,
exchange, offer and choose terrain, a runner's breather, a chaser's choice at the target), the end and the
archive's commands, the NPC-rolls setting; each sent as the storyguide, a player or a stranger, the
server's dice seeded (tests/model/harness.py for the invariants checked after every step)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from campaign.models import Character
from combat.models import Encounter
from combat.rules.dice import RandomDice
from d6 import services
from d6.rules import table as rules
from d6.services import dice as dice_module
from d6.sheet import new_sheet
from d6.state import actor, table_state
from tests.d6table.test_replay import live_facts

from .harness import TableModel, people, run, seeds

pytestmark = pytest.mark.django_db

RUNNING = {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}
SWIMMING = {"name": "Swimming", "attribute": "strength", "consistency": 0, "physical": True}
TERRAINS = [("Market streets", "Running"), ("The river", "Swimming")]
SCORES = ("attribute:dexterity", "attribute:strength", "ability:Running")


class D6Model(TableModel):
    system_key = "d6fatigue"
    examples = 18  # 0.7 s of CPU each
    budget = 0.6
    starting_sides = ((("Marta",), "Companions"), (("Bandit 1", "Bandit 2"), "Bandits"))
    template = "Thug"
    screened = frozenset({"faces", "d6", "d10s", "die_result"})

    def build(self) -> Encounter:
        for name, owner in (("Marta", self.player), ("Bandit 1", None), ("Bandit 2", None), ("Thug", None)):
            character = Character.objects.create(
                saga=self.saga,
                name=name,
                owner=owner,
                is_npc=owner is None,
                sheet=new_sheet(
                    attributes={"dexterity": 1, "stamina": 1, "strength": 1},
                    abilities=[RUNNING, SWIMMING],
                    fatigue=3,
                ),
            )
            self.know(character, name)
        return services.create_encounter(self.storyguide, self.saga.pk, "Ashford")

    def live_facts(self, encounter):
        return live_facts(encounter)

    # --- helpers ------------------------------------------------------------------------------------

    def change_refusal(self):
        return rules.can_change_combatants(self.state())

    def state(self) -> rules.TableState:
        return table_state(self.row())

    def actor(self, person: str) -> rules.Actor:
        return actor(self.who(person), self.row())

    def pick(self, index: int) -> str:
        ids = [str(pk) for pk in self.combatant_ids()]
        return ids[index % len(ids)] if ids else "0"

    def seeded(self, seed: int):
        return mock.patch.object(dice_module, "server_dice", lambda: RandomDice(seed))

    def exchanges(self) -> int:
        chase = self.state().chase
        return chase.exchanges + 1 if chase else 1

    # --- the fight ----------------------------------------------------------------------------------

    @rule(person=people, seed=seeds)
    def start_fight(self, person, seed):
        with self.seeded(seed):
            self.command(
                "start fight",
                lambda: services.start_fight(self.who(person), self.encounter.pk, self.v),
                refusal=rules.can_start_fight(self.state()),
                allowed=person == "storyguide",
            )

    def current(self) -> str | None:
        """Whose turn it is, or who must defend; None outside a fight."""
        state = self.state()
        if state.fight is None:
            return None
        return state.defence.defender if state.defence else state.fight.current.id

    @rule(
        person=people,
        seed=seeds,
        index=st.one_of(st.none(), st.integers(0, 5)),
        aim_at=st.one_of(st.none(), st.integers(0, 5)),
        score=st.sampled_from(SCORES),
        value=st.one_of(st.none(), st.integers(1, 12)),
    )
    def roll(self, person, seed, index, aim_at, score, value):
        """A challenge: mostly the one whose turn it is (or who defends), sometimes someone else."""
        who = self.current() if index is None else self.pick(index)
        if who is None:
            who = self.pick(0)
        aim = None if aim_at is None or self.state().defence is not None else self.pick(aim_at)
        if aim == who:
            aim = None
        with self.seeded(seed):
            self.command(
                "roll",
                lambda: services.roll(
                    self.who(person), self.encounter.pk, self.v, int(who), score, value=value, target_id=aim
                ),
                refusal=rules.can_roll(
                    self.state(), self.actor(person), who, value_given=value is not None, target=aim
                ),
                allowed=person != "stranger",
            )

    @rule(person=people)
    def breather(self, person):
        self.command(
            "breather",
            lambda: self.send(person, "d6_breather", services.take_breather),
            refusal=rules.can_take_breather(self.state(), self.actor(person)),
            allowed=person != "stranger",
        )

    @rule(person=people)
    def end_turn(self, person):
        self.command(
            "end turn",
            lambda: self.send(person, "d6_end_turn", services.end_turn),
            refusal=rules.can_end_turn(self.state(), self.actor(person)),
            allowed=person != "stranger",
        )

    # --- the chase ----------------------------------------------------------------------------------

    @rule(person=people, runner=st.integers(0, 5), chaser=st.integers(0, 5), distance=st.integers(1, 4))
    def start_chase(self, person, runner, chaser, distance):
        runner, after = self.pick(runner), self.pick(chaser)
        self.command(
            "start chase",
            lambda: services.start_chase(
                self.who(person), self.encounter.pk, self.v, int(runner), [(int(after), distance)], TERRAINS
            ),
            refusal=rules.can_start_chase(self.state()),
            allowed=person == "storyguide",
        )

    @rule(person=people, seed=seeds)
    def exchange(self, person, seed):
        with self.seeded(seed):
            self.command(
                "exchange",
                lambda: services.exchange(self.who(person), self.encounter.pk, self.v),
                refusal=rules.can_exchange(self.state()),
                allowed=person == "storyguide",
            )

    @rule(person=people)
    def offer_terrain(self, person):
        offered = [TERRAINS[1]]
        terrains = [rules.Terrain(name, rolled) for name, rolled in offered]
        self.command(
            "offer terrain",
            lambda: services.offer_terrain(self.who(person), self.encounter.pk, self.v, offered),
            refusal=rules.can_offer_terrain(self.state(), terrains),
            allowed=person == "storyguide",
        )

    @rule(person=people, name=st.sampled_from([name for name, _ in TERRAINS]))
    def choose_terrain(self, person, name):
        self.command(
            "choose terrain",
            lambda: services.choose_terrain(self.who(person), self.encounter.pk, self.v, name),
            refusal=rules.can_choose_terrain(self.state(), self.actor(person), name),
            allowed=person != "stranger",
        )

    @rule(person=people, index=st.integers(0, 5))
    def runner_breather(self, person, index):
        who = self.pick(index)
        self.command(
            "runner breather",
            lambda: services.runner_breather(self.who(person), self.encounter.pk, self.v, int(who)),
            refusal=rules.can_take_runner_breather(self.state(), who),
            allowed=person == "storyguide",
        )

    @rule(person=people, index=st.integers(0, 5), ahead=st.booleans())
    def at_target(self, person, index, ahead):
        who, exchange = self.pick(index), self.exchanges()
        self.command(
            "at target",
            lambda: services.choose_at_target(self.who(person), self.encounter.pk, exchange, int(who), ahead),
            refusal=rules.can_choose_at_target(self.state(), self.actor(person), who, exchange),
            allowed=person != "stranger",
        )



class D6Pages(D6Model):
    """The same model with the breather, the end of a turn and the end posted through their pages; after
    every step both people's pages answer, and the player is offered the chase's choice of terrain only
    while choosing would be accepted."""

    pages = True
    examples = 8  # 0.9 s of CPU each, and 0.3 s at the end for the player's pages
    budget = 0.35

    def at_the_end(self):
        """Every machine's last checks, then what the player's pages show of the NPCs' rolls."""
        super().at_the_end()
        self.pages_keep_npc_rolls_from_players()

    @invariant()
    def pages_offer_only_what_is_accepted(self):
        if not self.pages_changed():
            return
        page = {person: self.page(person) for person in ("storyguide", "player")}["player"]
        choosing = rules.can_choose_terrain(self.state(), self.actor("player")) is None
        if self.row().status == Encounter.Status.ENDED or not choosing:
            url = reverse("d6_choose_terrain", args=[self.encounter.pk]).encode()
            assert url not in page, "the player is offered a choice of terrain that would be refused"


def test_the_d6_model():
    run(D6Model)


def test_the_d6_pages():
    run(D6Pages)
