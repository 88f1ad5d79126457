"""Ars Magica's commands, each declared once (`combat.commands.Command`): its service, its `can_*` as the
control panel asks it, who may give it and how its form is read. Their URLs (`arsmagica:<name>`), views,
refusals and buttons' reasons follow. A declaration answers with its own fragments (arsmagica/views.py)."""

from __future__ import annotations

from combat.commands import Command, fields, versioned
from combat.errors import InvalidCommand
from combat.inputs import optional_whole_number, plain_text, whole_number

from . import services
from .forms import CorrectionForm
from .rules.table import (
    can_close_declarations,
    can_confirm_phase,
    can_correct,
    can_end_round,
    can_open_declarations,
    can_pass_time,
    can_preview_phase,
    can_undo,
)
from .services.dice import PURPOSE_LABELS, parse_faces
from .services.recovery import MAX_MINUTES, STAMINA_MODES

NUMBER_OPTIONS = ("botch_dice", "modifiers", "ease_factors")
OPTION_LIMIT = 100  # the service holds each option to its own, narrower range


def options_of(post) -> dict:
    """Preview form fields `botch_dice-<id>`, `modifiers-<id>`, `ease_factors-<id>`,
    `on_success-<attacker>:<defender>` as the services' options, numbers read as ASCII digits."""
    options: dict = {"botch_dice": {}, "modifiers": {}, "ease_factors": {}, "on_success": {}}
    for key, value in post.items():
        name, _, who = key.partition("-")
        if name in NUMBER_OPTIONS and who:
            label = name.replace("_", " ").capitalize()
            options[name][who] = optional_whole_number(value, label, -OPTION_LIMIT, OPTION_LIMIT)
        elif name in options and who:
            options[name][who] = value
    options["extra_fatigue_rollers"] = post.getlist("extra_fatigue_rollers")
    return options


def faces_of(post) -> dict:
    """Typed faces `faces-<id>-<purpose>` as {id: {purpose: [faces]}}; blank entries are left out."""
    faces: dict = {}
    for key, value in post.items():
        if key.startswith("faces-") and value.strip():
            _, who, purpose = (key.split("-", 2) + ["", ""])[:3]
            if purpose not in PURPOSE_LABELS:
                raise InvalidCommand("Typed faces must say whose roll and which: reload the page.")
            faces.setdefault(who, {})[purpose] = parse_faces(value, f"{PURPOSE_LABELS[purpose]} faces")
    return faces


def errors_in_words(form) -> str:
    """A form's errors as one line: each field's label and its errors, the form's own last."""
    return "; ".join(
        f"{form[f].label}: {' '.join(e)}" if f != "__all__" else " ".join(e) for f, e in form.errors.items()
    )


def preview_form(request) -> dict:
    """The phase to roll, its options and any typed faces."""
    post = request.POST
    phase = post.get("phase", "")
    return {**versioned(request), "phase": phase, "options": options_of(post), "faces": faces_of(post)}


def confirm_form(request) -> dict:
    """The phase to confirm and its options."""
    return {**versioned(request), "phase": request.POST.get("phase", ""), "options": options_of(request.POST)}


def correction_form(request) -> dict:
    """The combatant, the levels and advantages to set (blank: unchanged), and the reason."""
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        raise InvalidCommand(errors_in_words(form))
    data = form.cleaned_data
    changes = ("fatigue_level", "body_level", "advantage_attack", "advantage_defense")
    return {
        **versioned(request),
        "combatant_id": data["combatant"],
        "changes": {key: data.get(key) for key in changes},
        "reason": data["reason"],
    }


def exertion_args(post) -> dict:
    """The exertion form: who (an id from the list), how many levels (1 to 5), what tired them."""
    return {
        "character_id": post.get("character", ""),
        "levels": whole_number(post.get("levels", ""), "Fatigue levels", 1, 5),
        "what": plain_text(post.get("what", ""), "What tired them", 200),
    }


def sleep_args(post) -> dict:
    """The night's sleep form: whether they had a good meal."""
    return {"good_meal": post.get("good_meal") == "on"}


def pass_time_args(post) -> dict:
    """The pass-time form: minutes (1 to a week, ASCII digits), the Stamina mode, typed faces."""
    stamina = post.get("stamina", "none")
    return {
        "minutes": whole_number(post.get("minutes", ""), "Minutes", 1, MAX_MINUTES),
        "active": post.get("active") == "on",
        "stamina": stamina if stamina in STAMINA_MODES else "",
        "typed_faces": {k.removeprefix("stamina-"): v for k, v in post.items() if k.startswith("stamina-")},
    }


COMMANDS = (
    Command(services.open_declarations, can_open_declarations),
    Command(services.close_declarations, can_close_declarations),
    Command(services.preview_phase, lambda table: can_preview_phase(table, table.phase), form=preview_form),
    Command(
        services.confirm_phase,
        lambda table: can_confirm_phase(table, table.pending_phase or table.phase),
        form=confirm_form,
    ),
    Command(services.end_round, can_end_round),
    Command(services.undo_phase, can_undo, form=fields("reason")),
    Command(services.correct, can_correct, form=correction_form),
    Command(
        services.pass_time,
        can_pass_time,
        form=lambda request: {**versioned(request), **pass_time_args(request.POST)},
    ),
    Command(services.sleep_night, form=lambda request: {**versioned(request), **sleep_args(request.POST)}),
    Command(
        services.record_exertion,
        name="exertion",
        form=lambda request: {**versioned(request), **exertion_args(request.POST)},
    ),
)
