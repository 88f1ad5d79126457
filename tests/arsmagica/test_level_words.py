"""Issue 10, item 8: a level says what it does ("Light Wounds: −1 to rolls"), not "Light Wounds −1 · −1"."""

import pytest

from arsmagica.models import BodyLevel, FatigueLevel
from arsmagica.presenters import body_words, fatigue_words, penalty_words


@pytest.mark.parametrize(
    ("level", "words"),
    [
        (FatigueLevel.FRESH, "Fresh"),
        (FatigueLevel.WINDED, "Winded: no penalty yet"),
        (FatigueLevel.WEARY, "Weary: −1 to rolls"),
        (FatigueLevel.TIRED, "Tired: −3 to rolls"),
        (FatigueLevel.DAZED, "Dazed: −5 to rolls"),
        (FatigueLevel.UNCONSCIOUS, "Unconscious: no actions"),
    ],
)
def test_a_fatigue_level_says_its_penalty_arm3_p177(level, words):
    assert fatigue_words(level) == words


@pytest.mark.parametrize(
    ("level", "words"),
    [
        (BodyLevel.UNHURT, "Unhurt"),
        (BodyLevel.HURT, "Hurt: no penalty yet"),
        (BodyLevel.LIGHT_WOUNDS, "Light Wounds: −1 to rolls"),
        (BodyLevel.MEDIUM_WOUNDS, "Medium Wounds: −3 to rolls"),
        (BodyLevel.HEAVY_WOUNDS, "Heavy Wounds: −5 to rolls"),
        (BodyLevel.INCAPACITATED, "Incapacitated: no actions"),
        (BodyLevel.DEAD, "Dead"),
    ],
)
def test_a_body_level_says_its_penalty_arm3_p177(level, words):
    assert body_words(level) == words
    assert body_words(level.value) == words  # as the sheet stores it


def test_the_penalties_together_say_where_they_count():
    assert penalty_words(-4) == "−4 to every roll but Soak"
    assert penalty_words(0) == ""
