"""The soak's failure on 2026-11-29 (seed 2911202637, `COVENANT_SOAK_EXAMPLES=120`, the Ars Magica pages
machine), replayed step by step: combatants removed, the encounter renamed, the saga deleted and restored
twice. The second restore gave the combatants ids that sort otherwise than before, so the replay's
engagements, a set its facts keep sorted by id, came in another order: the model's own comparison, which
now sorts them again once it has named each id by the order it joined in (`harness.settled`)."""

import pytest

from .harness import checked
from .test_arsmagica import ArsMagicaPages

pytestmark = pytest.mark.django_db


def test_a_saga_restored_twice_replays_its_engagements_as_it_did():
    machine = ArsMagicaPages()
    try:
        checked(machine)
        for step in (
            lambda: machine.sides(start=True),
            lambda: machine.delete_and_restore(),
            lambda: machine.preview(person="storyguide", seed=79685452, which="second_missile"),
            lambda: machine.correct(index=4, key="advantage_attack", level=1, person="storyguide"),
            lambda: machine.play_on(seed=1, steps=8),
            lambda: machine.remove(index=4, person="player"),
            lambda: machine.take_up(index=1, person="stranger"),
            lambda: machine.play_on(seed=221, steps=5),
            lambda: machine.preview(person="storyguide", seed=286, which="melee"),
            lambda: machine.preview(person="stranger", seed=141716684, which="first_missile"),
            lambda: machine.correct(index=4, key="body_level", level=0, person="storyguide"),
            lambda: machine.remove(index=3, person="storyguide"),
            lambda: machine.correct(index=5, key="body_level", level=1, person="storyguide"),
            lambda: machine.remove(index=3, person="stranger"),
            lambda: machine.play_on(seed=12023, steps=5),
            lambda: machine.rename(name="At dusk", person="storyguide"),
            lambda: machine.delete_and_restore(),
            lambda: machine.delete_and_restore(),
        ):
            step()
            checked(machine)
        assert machine.steps[-2:] == ["delete and restore", "delete and restore"], machine.steps
    finally:
        machine.teardown()
