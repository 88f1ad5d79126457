"""The core's pages and commands: the encounter's page (its rule system draws it), a new encounter,
combatants in and out, the end of an encounter. Thin: every change is a service's.

A command posts here and gets back an empty error slot (or the refusal); the change itself reaches
every screen, the sender's too, through the websocket push. A command form posted without htmx (clicked
while its page was still loading) gets the encounter's page back, a refusal as a message at its top.
"""

from __future__ import annotations

import contextlib
import functools

from django.contrib.auth.decorators import login_required
from django.db import DEFAULT_DB_ALIAS
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import get_membership
from campaign.models import Saga
from campaign.sent_once import sent_once
from config.prepared import Prepared

from . import answers, services, systems
from .access import encounter_for, holds_seat, may_see, require_seat
from .audience import PLAYERS, STORYGUIDE
from .errors import NOT_OPEN, CombatError, InvalidCommand, NotAllowed
from .inputs import MAX_ID, plain_text, record_ids, whole_number
from .live import log_lines, shown_to
from .models import Encounter
from .sides import chosen_side

MAX_NAME = 120  # an encounter's name, as long as its column


@contextlib.contextmanager
def refused_beside_the_button(request):
    """For a command: from htmx, an encounter gone (or never theirs) is a refusal beside the button, not a
    404 page; from anything else, a 404."""
    try:
        yield
    except Http404:
        if not request.htmx:
            raise
        raise NotAllowed(NOT_OPEN) from None


def command_encounter(request, encounter_id, rule_system: str | None = None) -> Encounter:
    """`encounter_for` for a command (`refused_beside_the_button`)."""
    with refused_beside_the_button(request):
        return encounter_for(request.user, encounter_id, rule_system)


def known(model, **values):
    """An instance with only these fields' values; any other field is read when first used (Django's
    deferred fields)."""
    names = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    return model.from_db(DEFAULT_DB_ALIAS, names, [values[name] for name in names])


# What a command's check reads (`checked_encounter`), compiled once a process (`config.prepared`).
CHECKED = Prepared(
    lambda pk: Encounter.objects.filter(pk=pk).values_list(
        "saga_id", "seat_holder_id", "saga__rule_system", "saga__storyguide_id"
    ),
    "pk",
)


def checked_encounter(request, encounter_id, rule_system: str | None, storyguide_only: bool) -> Encounter:
    """`command_encounter`'s check from one indexed read of what it needs: the encounter's saga and seat
    holder, that saga's rule system and lead (not the encounter's round state, which the command's service
    reads under its lock); for anyone but the lead their membership. The encounter comes with those fields
    alone (the rest deferred); an encounter not there is refused as `command_encounter` refuses it. A
    storyguide's command is for whoever holds the encounter's seat (`combat.access.require_seat`)."""
    with refused_beside_the_button(request):
        rows = list(CHECKED(pk=encounter_id))
        if not rows:
            raise Http404("No such encounter.")
        ((saga_id, holder_id, system, storyguide_id),) = rows
        encounter = known(Encounter, id=encounter_id, saga_id=saga_id, seat_holder_id=holder_id)
        encounter.saga = known(Saga, id=saga_id, rule_system=system, storyguide_id=storyguide_id)
        may_see(request.user, encounter.saga, rule_system)
    if storyguide_only:
        require_seat(request.user, encounter)
    return encounter


def encounter_command(*, storyguide_only: bool = True, rule_system: str | None = None):
    """POST only, members only (the storyguide only, unless said); a refusal goes to `combat.answers`. The
    view gets the encounter as that check read it (`checked_encounter`); the command's service reads the
    rest under its lock."""

    def decorate(view):
        @functools.wraps(view)
        @login_required
        @require_POST
        def wrapper(request, encounter_id, *args, **kwargs):
            try:
                encounter = checked_encounter(request, encounter_id, rule_system, storyguide_only)
                response = view(request, encounter, *args, **kwargs)
            except CombatError as error:
                if wants_a_page(request):  # the message on the encounter's page
                    page = reverse("encounter_page", args=[encounter_id])
                    return answers.refused_on_page(request, error, page)
                return answers.error_fragment(request, error)
            if wants_a_page(request):
                return sent_plainly(response, encounter_id)
            return response or answers.error_fragment(request)

        return wrapper

    return decorate


def wants_a_page(request) -> bool:
    """A command form the browser posted itself, not htmx (clicked before the page's scripts had loaded): its
    answer is the browser's next page, which a browser asks for as HTML."""
    return not request.htmx and "text/html" in request.headers.get("Accept", "")


def sent_plainly(response, encounter_id):
    """A command's answer to a form sent without htmx (a click before the page's scripts had loaded): the
    page the view sends htmx to, else the encounter's page, where the change shows; never a bare fragment."""
    if response is not None and "HX-Redirect" in response:
        return redirect(response["HX-Redirect"])
    return redirect("encounter_page", encounter_id=encounter_id)


def posted_version(request) -> int:
    """The encounter version the page was drawn at, posted with every command."""
    try:
        return whole_number(request.POST.get("expected_version", ""), "The version", 0, MAX_ID)
    except InvalidCommand:
        raise InvalidCommand("The page sent no version; reload it.") from None


def visible_log(encounter: Encounter, audience: str) -> list:
    """The encounter's log as the audience sees it on its page: up to the encounter row's `last_seq`, from
    which the page's socket resumes (an event written meanwhile comes by the socket, not twice); each line
    named and marked as the log says (`combat.live.log_lines`), read from that one list."""
    log = list(encounter.events.filter(seq__lte=encounter.last_seq).order_by("seq"))
    return shown_to(encounter, log_lines(systems.of(encounter.saga), log, log), audience)


@login_required
@require_GET
def encounter_page(request, encounter_id):
    """The encounter's page: its rule system draws it for the storyguide or the player."""
    encounter = encounter_for(request.user, encounter_id)
    audience = STORYGUIDE if holds_seat(request.user, encounter) else PLAYERS
    return drawn_page(request, encounter, audience)


def drawn_page(request, encounter: Encounter, audience: str):
    """The encounter's page as its system draws it (`Page.encounter_page`), else the core's: the system's
    panels (`FRAME_TEMPLATE`, from `state_context`) above the live log."""
    page = systems.of(encounter.saga).page
    drawn = page.encounter_page(request, encounter, audience)
    if drawn is not None:
        return drawn
    context = page.state_context(encounter, audience)
    context.update(
        encounter=encounter,
        audience=audience,
        is_storyguide=audience == STORYGUIDE,
        events=visible_log(encounter, audience),
        ws_url=f"/ws/encounters/{encounter.pk}/",
        last_seq=encounter.last_seq,
        panels=page.FRAME_TEMPLATE,
    )
    return render(request, "combat/encounter.html", context)


@login_required
@require_POST
@sent_once
def encounter_create(request, saga_id):
    """A new encounter from the saga page, in any rule system; its page (the system's, through the registry)
    opens next."""
    membership = get_membership(request.user, saga_id)
    saga_url = reverse("saga_detail", args=[saga_id])
    try:
        name = plain_text(request.POST.get("name", ""), "The encounter's name", MAX_NAME)
        encounter = services.create_encounter(request.user, saga_id, name, membership.saga.rule_system)
    except CombatError as error:
        return answers.refused_on_page(request, error, saga_url)
    url = reverse("encounter_page", args=[encounter.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@encounter_command()
def add_combatants(request, encounter):
    services.add_combatants(
        request.user,
        encounter.pk,
        posted_version(request),
        record_ids(request.POST.getlist("characters")),
        chosen_side(request.POST.get("side", ""), request.POST.get("third_side", "")),
    )
    return HttpResponseClientRedirect(reverse("encounter_page", args=[encounter.pk]))


@encounter_command()
def remove_combatant(request, encounter, combatant_id):
    services.remove_combatant(request.user, encounter.pk, posted_version(request), combatant_id)
    return HttpResponseClientRedirect(reverse("encounter_page", args=[encounter.pk]))


@encounter_command(storyguide_only=False)
def hand_over_seat(request, encounter):
    """Whoever holds the encounter's seat, or the saga's lead, hands it to another of the saga's storyguides
    with a reason (the service says who may): everyone's log shows it, and the pages of the two whose place
    changes load again (their sockets closed with 4409)."""
    to, reason = request.POST.get("to", ""), request.POST.get("reason", "")
    services.hand_over_seat(request.user, encounter.pk, posted_version(request), to, reason)


@encounter_command()
def end_encounter(request, encounter):
    services.end_encounter(request.user, encounter.pk, posted_version(request))
