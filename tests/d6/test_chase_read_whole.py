"""A frame reads a chase with its runners, a fight with its fighters, whole: a delete committed between two
reads (a saga or encounter deleted, or a test's flush, while a page's websocket replays) cannot show it a
chase without its target. Such a read once ended in `next()` running out in the consumer's thread, which
asgiref reports as "StopIteration interacts badly with generators and cannot be raised into a Future"."""

from contextlib import contextmanager

import pytest
from django.db import connection

from combat import live
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Encounter
from d6 import services
from d6.models import Chase, Runner
from d6.panels import state_context, table_facts
from d6.state import target_row

from .test_chase import start

pytestmark = pytest.mark.django_db


@contextmanager
def deleted_after_the_chase_is_read(encounter_id: int, table: str = "d6table_chase"):
    """Delete the encounter (its chase and runners go with it) the moment a query that reads the chase
    (or `table`) has run: what a delete committing between two of a reader's statements looks like to it."""
    done = []

    def wrapper(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not done and f'"{table}"' in sql and sql.startswith("SELECT"):
            done.append(sql)
            Encounter.objects.filter(pk=encounter_id).delete()
        return result

    with connection.execute_wrapper(wrapper):
        yield done
    assert done, "no query read the chase"


def test_the_chase_and_its_runners_are_read_in_one_query(table):
    start(table, [(table.bandits[0].pk, 2)])  # one chaser
    encounter = table.refresh()
    with deleted_after_the_chase_is_read(encounter.pk):
        facts = table_facts(encounter)
    assert facts.chase is not None and facts.chase.number == 1
    assert {r.role for r in facts.runners} == {Runner.Role.TARGET, Runner.Role.CHASER}
    assert all(r.chase is facts.chase for r in facts.runners)


def test_a_replay_racing_the_encounters_deletion_draws_the_chase_it_read(table):
    """The consumer's replay (`live.replay_frame`, outside any transaction) of a chase whose encounter is
    deleted as it reads: the chase as it stood, not a StopIteration into the websocket's Future."""
    start(table, [(table.bandits[0].pk, 2)])  # one chaser
    encounter = table.refresh()
    with deleted_after_the_chase_is_read(encounter.pk):
        html, _ = live.replay_frame(encounter.pk, PLAYERS, 0)
    assert 'data-testid="chase-grid"' in html


def test_a_replay_racing_the_encounters_deletion_draws_the_fight_it_read(table, dice):
    """The same race in a fight: its fighters read apart from it were none, and the panels' turn fell off
    the end of them (an IndexError in the consumer's thread)."""
    dice(*([5, 5] * 10))
    services.start_fight(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    with deleted_after_the_chase_is_read(encounter.pk, "d6table_fight"):
        html, _ = live.replay_frame(encounter.pk, STORYGUIDE, 0)
    assert 'data-testid="turn-marker"' in html


def test_the_newest_chase_is_the_one_read(table, dice):
    """Two chases: the frame reads the second one's runners, with the second chase."""
    start(table, [(table.bandits[0].pk, 2)])  # one chaser
    dice(5, 5, 1, 2)  # Bandit 1: die result 2 below fatigue 4: drops out, Marta escapes (test_chase.py)
    services.exchange(table.storyguide, table.encounter.pk, table.v)
    assert Chase.objects.get().outcome != Chase.Outcome.ONGOING
    start(table, [(table.bandits[1].pk, 3)])
    facts = table_facts(table.refresh())
    assert facts.chase.number == 2
    assert [r.combatant_id for r in facts.runners] == [table.marta.pk, table.bandits[1].pk]
    assert {r.chase_id for r in facts.runners} == {facts.chase.pk}
    assert state_context(table.refresh(), STORYGUIDE, facts)["chase"]["chase"].number == 2


def test_a_chase_without_its_target_is_named_not_a_stop_iteration(table):
    """A broken invariant (a chase read without its target) raises a LookupError naming the chase, which
    a Future or a generator carries as it is, rather than a StopIteration they garble or swallow."""
    start(table, [(table.bandits[0].pk, 2)])  # one chaser
    runners = [r for r in Chase.objects.get().runners.all() if r.role == Runner.Role.CHASER]
    with pytest.raises(LookupError, match="chase 1 has no target"):
        target_row(runners)
