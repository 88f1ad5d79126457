"""Time passing for Fatigue recovery (ArM3 p177): the storyguide's forms on the encounter page
(pushed live with the panels) and on the saga page (a panel of its own).

Thin: parse the form, call `services.pass_time` / `sleep_night` / `record_exertion`, answer with
the error slot (encounter page; the change itself arrives through the websocket) or the panel
again (saga page).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from campaign.access import get_membership, is_storyguide
from campaign.models import Character
from campaign.sent_once import fresh_key
from combat import answers
from combat.errors import CombatError
from combat.inputs import plain_text, record_ids, whole_number
from combat.models import Encounter, SagaRecord
from combat.views import encounter_command, posted_version

from . import KEY, services
from .presenters import fatigue_words
from .services.recovery import MAX_MINUTES, STAMINA_MODES
from .services.sheets import fatigue_state_of
from .sheet import sheet_of

storyguide_command = encounter_command()

STAMINA_CHOICES = (
    ("none", "No Stamina roll"),
    ("server", "Stamina rolls, the server rolls"),
    ("typed", "Stamina rolls, typed in"),
)


def _exertion_args(post) -> tuple:
    """The exertion form: who (an id from the list), how many levels (1 to 5), what tired them."""
    return (
        post.get("character", ""),
        whole_number(post.get("levels", ""), "Fatigue levels", 1, 5),
        plain_text(post.get("what", ""), "What tired them", 200),
    )


def _typed_stamina(post) -> dict:
    return {key.removeprefix("stamina-"): value for key, value in post.items() if key.startswith("stamina-")}


def _pass_time_args(post) -> dict:
    """The pass-time form: minutes (1 to a week, ASCII digits), the Stamina mode, typed faces."""
    stamina = post.get("stamina", "none")
    return {
        "minutes": whole_number(post.get("minutes", ""), "Minutes", 1, MAX_MINUTES),
        "active": post.get("active") == "on",
        "stamina": stamina if stamina in STAMINA_MODES else "",
        "typed_faces": _typed_stamina(post),
    }


# --- the encounter page ------------------------------------------------------------------------


@storyguide_command
def encounter_pass_time(request, encounter):
    services.pass_time(
        request.user,
        encounter_id=encounter.pk,
        expected_version=posted_version(request),
        **_pass_time_args(request.POST),
    )


@storyguide_command
def encounter_sleep(request, encounter):
    services.sleep_night(
        request.user,
        encounter_id=encounter.pk,
        expected_version=posted_version(request),
        good_meal=request.POST.get("good_meal") == "on",
    )


@storyguide_command
def encounter_exertion(request, encounter):
    services.record_exertion(
        request.user,
        *_exertion_args(request.POST),
        encounter_id=encounter.pk,
        expected_version=posted_version(request),
    )


# --- the saga page -----------------------------------------------------------------------------


def _saga_for_storyguide(user, saga_id):
    membership = get_membership(user, saga_id)
    if not is_storyguide(user, membership.saga):
        raise PermissionDenied("Only the storyguide can let time pass.")
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
    return render(
        request,
        "arsmagica/_saga_time.html",
        {
            "saga": saga,
            "rows": rows,
            "people": characters,
            "stamina_choices": STAMINA_CHOICES,
            "error": error,
            "done": done,
            "command_key": fresh_key(),
            "latest": SagaRecord.objects.filter(saga=saga).order_by("-created_at", "-id").first(),
        },
        status=status,
    )


@login_required
@require_GET
def saga_time(request, saga_id):
    """The saga page's "time passes" panel (loaded into the page by htmx)."""
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
            **_pass_time_args(request.POST),
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
            good_meal=request.POST.get("good_meal") == "on",
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
            *_exertion_args(request.POST),
            saga_id=saga.pk,
            command_key=request.POST.get("command_key", ""),
        ),
    )
