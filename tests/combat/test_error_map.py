"""One error map: every refusal carries its status, and combat.answers alone turns it into an answer."""

import json
import re
from pathlib import Path

import pytest
from django.test import RequestFactory

from combat import answers
from combat.errors import CombatError, InvalidCommand, NotAllowed, StaleCommand, WrongPhase

ROOT = Path(__file__).resolve().parents[2]
VIEWS = sorted(
    path
    for folder in ("combat", "arsmagica", "d6", "campaign")
    for path in (ROOT / folder).rglob("*views.py")
)


@pytest.mark.parametrize(
    ("error", "status"),
    [(InvalidCommand("x"), 400), (NotAllowed("x"), 403), (StaleCommand(), 409), (WrongPhase("x"), 409)],
)
def test_each_refusal_carries_its_status(error, status):
    assert isinstance(error, CombatError) and error.status == status


def test_htmx_gets_the_message_in_the_error_slot_with_its_status():
    request = RequestFactory().post("/")
    response = answers.error_fragment(request, WrongPhase("The round is at Melee, not Magic."))
    assert response.status_code == 409
    assert 'role="alert"' in response.content.decode() and "not Magic" in response.content.decode()
    assert answers.error_fragment(request).content.strip() == b""


def test_a_form_shows_bad_input_as_422_and_other_refusals_with_their_own_status():
    assert answers.status_of(InvalidCommand("x"), form=True) == 422
    assert answers.status_of(StaleCommand(), form=True) == 409
    assert answers.status_of(InvalidCommand("x")) == 400


def test_the_socket_gets_an_error_frame():
    assert json.loads(answers.error_frame("Messages must be JSON.")) == {"error": "Messages must be JSON."}


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_view_maps_a_refusal_itself(path):
    source = path.read_text()
    assert not re.search(r"error\.status\b|PermissionDenied\(str\(error\)\)|json\.dumps\(\{\"error\"", source)
