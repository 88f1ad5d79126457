"""One error map: every refusal carries its status, and combat.answers alone turns it into an answer."""

import json
import re
from pathlib import Path

import pytest
from django.test import RequestFactory
from django_htmx.middleware import HtmxMiddleware

from combat import answers
from combat.errors import CombatError, InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.templatetags.combat_tags import htmx_config

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


def htmx_post():
    request = RequestFactory().post("/", HTTP_HX_REQUEST="true")
    HtmxMiddleware(lambda request: None)(request)
    return request


def test_htmx_gets_the_message_in_the_error_slot_with_its_status():
    request = htmx_post()
    response = answers.error_fragment(request, WrongPhase("The round is at Melee, not Magic."))
    assert response.status_code == 409
    assert 'role="alert"' in response.content.decode() and "not Magic" in response.content.decode()
    assert answers.error_fragment(request).content.strip() == b""


# django-htmx's debug handler (django-htmx.js, under DEBUG) replaces the whole page on these.
DEBUG_HANDLER_STATUSES = {400, 403, 404, 500}


@pytest.mark.parametrize("error", [InvalidCommand("x"), NotAllowed("x"), StaleCommand(), WrongPhase("x")])
def test_no_refusal_shown_beside_its_control_has_a_status_the_debug_handler_takes_over(error):
    status = answers.error_fragment(htmx_post(), error).status_code
    assert status in (409, 422) and status not in DEBUG_HANDLER_STATUSES
    assert answers.status_of(error, inline=True) == status


def test_refusals_shown_inline_are_409_when_out_of_step_else_422_and_elsewhere_their_own():
    assert answers.status_of(InvalidCommand("x"), inline=True) == 422
    assert answers.status_of(NotAllowed("x"), inline=True) == 422
    assert answers.status_of(StaleCommand(), inline=True) == 409
    assert answers.status_of(InvalidCommand("x")) == 400
    assert answers.error_fragment(RequestFactory().post("/"), NotAllowed("x")).status_code == 403


def test_every_page_swaps_the_inline_statuses_and_not_a_server_error():
    rules = json.loads(htmx_config())["responseHandling"]
    for status in answers.INLINE_STATUSES:
        rule = next(rule for rule in rules if re.fullmatch(rule["code"].replace(".", r"\d"), str(status)))
        assert rule["swap"] is True and rule["error"] is False
    base = (ROOT / "templates" / "base.html").read_text()
    assert '<meta name="htmx-config" content="{% htmx_config %}">' in base


def test_the_socket_gets_an_error_frame():
    assert json.loads(answers.error_frame("Messages must be JSON.")) == {"error": "Messages must be JSON."}


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_view_maps_a_refusal_itself(path):
    source = path.read_text()
    assert not re.search(r"error\.status\b|PermissionDenied\(str\(error\)\)|json\.dumps\(\{\"error\"", source)
