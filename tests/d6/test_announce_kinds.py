"""Issue 32, item 4: the d6 kinds the played saga of tests/systems/test_announce.py leaves out (a value set, a
turn ended, a breather, typed chase dice, a choice at the target) have their sentence too, words apart."""

import pytest

from d6 import services
from tests.systems.test_announce import RUN_TOGETHER, announced

from .test_log_labels import STREETS, chase, fight  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def sentences(table) -> dict[str, list[str]]:
    """Each kind's sentences in the saga's history, the storyguide's and a player's under "results only"."""
    table.saga.npc_rolls = "results"
    table.saga.save(update_fields=["npc_rolls"])
    found: dict[str, list[str]] = {}
    for user in (table.storyguide, table.alice):
        for kind, said in announced(table.saga, user):
            found.setdefault(kind, []).append(said)
    return found


def apart(found: dict[str, list[str]], kind: str) -> list[str]:
    """The sentences of `kind`, each checked: there, and no two words run together."""
    said = found[kind]
    assert said and all(text and not RUN_TOGETHER.search(text) for text in said), said
    return said


def test_a_fights_value_turns_and_breather_read_as_sentences(fight):  # noqa: F811
    found = sentences(fight)
    assert any("8" in text for text in apart(found, "d6_value_set"))
    apart(found, "d6_turn_ended")
    assert any("Marta" in text for text in apart(found, "d6_breather"))


def test_typed_dice_and_a_choice_at_the_target_read_as_sentences(physical_table):
    table = physical_table
    services.start_chase(
        table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, [(table.marta.pk, 1)], STREETS
    )
    services.enter_faces(table.alice, table.encounter.pk, 1, table.marta.pk, "4 6")
    services.choose_at_target(table.alice, table.encounter.pk, 1, table.marta.pk, True)
    found = sentences(table)
    assert any("4, 6" in text or "Marta" in text for text in apart(found, "d6_faces_in"))
    assert any("Marta" in text for text in apart(found, "d6_pass_choice"))
