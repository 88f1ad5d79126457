"""A refusal is the reason in plain words and the kind of no it is; the command frame answers each kind."""

import pytest

from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.rules.refusals import BAD_INPUT, NOT_YOURS, STALE, WRONG_TIME, Refusal
from combat.services.log import obey


def test_a_refusal_reads_as_its_reason_and_is_not_now_by_default():
    refusal = Refusal("Declarations are closed.")
    assert refusal == "Declarations are closed." and refusal.kind == WRONG_TIME


def test_a_refusal_of_an_unknown_kind_is_a_mistake_in_the_rules():
    with pytest.raises(ValueError, match="not 'maybe'"):
        Refusal("Perhaps later.", "maybe")


@pytest.mark.parametrize(
    ("kind", "error"),
    [(WRONG_TIME, WrongPhase), (BAD_INPUT, InvalidCommand), (NOT_YOURS, NotAllowed), (STALE, StaleCommand)],
)
def test_each_kind_of_refusal_is_answered_with_its_error(kind, error):
    with pytest.raises(error, match="^Not now.$"):
        obey(Refusal("Not now.", kind))
    assert obey(None) is None
