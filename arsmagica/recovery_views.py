"""Time passing for Fatigue recovery (ArM3 p177) on the saga page, a panel of its own: parse the form,
call `services.pass_time` / `sleep_night` / `record_exertion`, answer with the panel again. On the encounter
page the same three are commands (arsmagica/commands.py), their answer the error slot."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from campaign.access import get_membership, is_a_storyguide
from campaign.models import Character
from campaign.sent_once import fresh_key
from combat import answers
from combat.errors import CombatError
from combat.inputs import record_ids
from combat.models import Encounter, SagaRecord

from . import KEY, services
from .commands import exertion_args, pass_time_args, sleep_args
from .kinds import RECORD_KINDS
from .presenters import fatigue_words
from .services.sheets import fatigue_state_of
from .sheet import sheet_of

STAMINA_CHOICES = (
    ("none", "No Stamina roll"),
    ("server", "Stamina rolls, the server rolls"),
    ("typed", "Stamina rolls, typed in"),
)


# --- the saga page -----------------------------------------------------------------------------


def _saga_for_storyguide(user, saga_id):
    """The saga, for any of its storyguides (`is_a_storyguide`), when it plays Ars Magica; 403 for its
    players, 404 for outsiders and another system's saga."""
    membership = get_membership(user, saga_id)
    if not is_a_storyguide(user, membership.saga):
        raise PermissionDenied("Only the saga's storyguides can let time pass.")
    if membership.saga.rule_system != KEY:
        raise Http404("Fatigue recovery over time is an Ars Magica rule.")
    return membership.saga


def fatigue_rows(characters) -> list[dict]:
    """Each character with its lost Fatigue levels counted by exertion."""
    rows = []
    for character in characters:
        lost = fatigue_state_of(character).lost
        long_term = sum(1 for exertion in lost if exertion.value == "long_term")
        rows.append(
            {
                "character": character,
                "fatigue_label": fatigue_words(sheet_of(character).fatigue_level),
                "short_term": len(lost) - long_term,
                "long_term": long_term,
            }
        )
    return rows


def _saga_panel(request, saga, *, error: str = "", done=None, status: int = 200):
    """The time panel as an answer of its own (a command's, or its URL's)."""
    return HttpResponse(saga_time_panel(request, saga, error=error, done=done), status=status)


def saga_time_panel(request, saga, *, error: str = "", done=None) -> str:
    """The saga page's "time passes" panel, drawn: who is in the scene (ticked as the storyguide last ticked
    them, else every player character), the last time that passed, and what this answer did or refused."""
    characters = list(Character.objects.filter(saga=saga).fighters().order_by("is_npc", "name"))
    busy = set(
        Encounter.objects.filter(saga=saga)
        .exclude(status=Encounter.Status.ENDED)
        .values_list("combatants__character_id", flat=True)
    )
    chosen = {str(pk) for pk in request.POST.getlist("characters")} if request.method == "POST" else None
    rows = fatigue_rows(characters)
    for row in rows:
        character = row["character"]
        row["busy"] = character.pk in busy
        # Ticked: what the storyguide ticked last time, else every player character.
        row["chosen"] = str(character.pk) in chosen if chosen is not None else not character.is_npc
    return render_to_string(
        "arsmagica/_saga_time.html",
        {
            "saga": saga,
            "rows": rows,
            "people": characters,
            "stamina_choices": STAMINA_CHOICES,
            "error": error,
            "done": done,
            "command_key": fresh_key(),
            "latest": SagaRecord.objects.filter(saga=saga, kind__in=RECORD_KINDS)
            .order_by("-created_at", "-id")
            .first(),
        },
        request,
    )


@login_required
@require_GET
def saga_time(request, saga_id):
    """The saga page's "time passes" panel alone (the page draws it with itself: `Page.saga_panels`)."""
    return _saga_panel(request, _saga_for_storyguide(request.user, saga_id))


def _saga_command(request, saga_id, command):
    saga = _saga_for_storyguide(request.user, saga_id)
    try:
        record = command(saga)
    except CombatError as error:
        return _saga_panel(request, saga, error=str(error), status=answers.status_of(error, inline=True))
    return _saga_panel(request, saga, done=record)


@login_required
@require_POST
def saga_pass_time(request, saga_id):
    return _saga_command(
        request,
        saga_id,
        lambda saga: services.pass_time(
            request.user,
            saga_id=saga.pk,
            character_ids=record_ids(request.POST.getlist("characters"), "Choose characters"),
            command_key=request.POST.get("command_key", ""),
            **pass_time_args(request.POST),
        ),
    )


@login_required
@require_POST
def saga_sleep(request, saga_id):
    return _saga_command(
        request,
        saga_id,
        lambda saga: services.sleep_night(
            request.user,
            saga_id=saga.pk,
            character_ids=record_ids(request.POST.getlist("characters"), "Choose characters"),
            command_key=request.POST.get("command_key", ""),
            **sleep_args(request.POST),
        ),
    )


@login_required
@require_POST
def saga_exertion(request, saga_id):
    return _saga_command(
        request,
        saga_id,
        lambda saga: services.record_exertion(
            request.user,
            **exertion_args(request.POST),
            saga_id=saga.pk,
            command_key=request.POST.get("command_key", ""),
        ),
    )
