"""The storyguides' housekeeping: rename, delete (with a confirmation) or archive and restore a saga (its
lead's), a character, an NPC or template (any of its storyguides'); an encounter's is the table's,
combat/manage.py, on the same page. Each form is sent once (campaign.sent_once); players get 403, outsiders
404 (campaign.access)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from . import services
from .access import get_character, require_a_storyguide, require_lead
from .forms import DeleteForm, RenameForm
from .models import Character, Saga
from .sent_once import sent_once


@dataclass
class Thing:
    """What the housekeeping page is about, in words and links."""

    kind: str  # "saga", "character", "NPC", "NPC template", "encounter"
    name: str
    max_length: int
    history: bool
    archived: bool
    back: str  # the page it is shown on
    rename_url: str
    delete_url: str
    restore_url: str = ""


def _saga_thing(saga: Saga) -> Thing:
    return Thing(
        "saga",
        saga.name,
        120,
        services.saga_has_history(saga),
        saga.archived_at is not None,
        reverse("saga_detail", args=[saga.pk]),
        reverse("saga_rename", args=[saga.pk]),
        reverse("saga_delete", args=[saga.pk]),
        reverse("saga_restore", args=[saga.pk]),
    )


def _character_thing(character: Character) -> Thing:
    if not character.is_npc:
        kind = "character"
    elif character.stamped_copies.exists():
        kind = "NPC template"
    else:
        kind = "NPC"
    return Thing(
        kind,
        character.name,
        80,
        False,
        False,
        reverse("character_detail", args=[character.pk]),
        reverse("character_rename", args=[character.pk]),
        reverse("character_delete", args=[character.pk]),
    )


def manage_page(request, saga, thing: Thing, rename_form=None, delete_form=None, status=200, refused=""):
    """The housekeeping page of one thing: its rename form and its delete form (with their errors, if any);
    `refused`: why this person may not tidy it (no forms, only the reason and the way back)."""
    return render(
        request,
        "campaign/manage.html",
        {
            "saga": saga,
            "thing": thing,
            "rename_form": rename_form or _rename_form(thing),
            "delete_form": delete_form or DeleteForm(name=thing.name, history=thing.history),
            "refused": refused,
        },
        status=status,
    )


def _rename_form(thing: Thing) -> RenameForm:
    return RenameForm(initial={"name": thing.name}, max_length=thing.max_length)


def _storyguides_character(user, character_id) -> Character:
    """The character, for any of its saga's storyguides; 403 for its players, 404 for outsiders."""
    character = get_character(user, character_id)
    require_a_storyguide(user, character.saga_id)
    return character


# --- sagas ---------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def saga_manage(request, saga_id):
    saga = require_lead(request.user, saga_id)
    return manage_page(request, saga, _saga_thing(saga))


@login_required
@require_POST
@sent_once
def saga_rename(request, saga_id):
    saga = require_lead(request.user, saga_id)
    form = RenameForm(request.POST, max_length=120)
    if not form.is_valid():
        return manage_page(request, saga, _saga_thing(saga), rename_form=form, status=400)
    services.rename_saga(saga, form.cleaned_data["name"])
    messages.success(request, f"The saga is now “{saga.name}”.")
    return redirect("saga_detail", saga_id=saga.pk)


@login_required
@require_POST
@sent_once
def saga_delete(request, saga_id):
    saga = require_lead(request.user, saga_id)
    thing = _saga_thing(saga)
    form = DeleteForm(request.POST, name=saga.name, history=thing.history)
    if not form.is_valid():
        return manage_page(request, saga, thing, delete_form=form, status=400)
    name = saga.name
    if services.delete_saga(saga, form.cleaned_data.get("typed_name", "")):
        messages.success(request, f"“{name}” is deleted, with everything in it.")
    else:
        messages.success(request, f"“{name}” has history, so it is archived: restore it from My sagas.")
    return redirect("saga_list")


@login_required
@require_POST
@sent_once
def saga_restore(request, saga_id):
    saga = require_lead(request.user, saga_id)
    services.set_saga_archived(saga, False)
    messages.success(request, f"“{saga.name}” is restored.")
    return redirect("saga_detail", saga_id=saga.pk)


# --- characters, NPCs and templates -------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def character_manage(request, character_id):
    character = _storyguides_character(request.user, character_id)
    return manage_page(request, character.saga, _character_thing(character))


@login_required
@require_POST
@sent_once
def character_rename(request, character_id):
    character = _storyguides_character(request.user, character_id)
    form = RenameForm(request.POST, max_length=80)
    if not form.is_valid():
        return manage_page(request, character.saga, _character_thing(character), rename_form=form, status=400)
    services.rename_character(character, form.cleaned_data["name"], request.user)
    messages.success(request, f"Renamed: {character.name}.")
    return redirect("character_detail", character_id=character.pk)


@login_required
@require_POST
@sent_once
def character_delete(request, character_id):
    character = _storyguides_character(request.user, character_id)
    thing = _character_thing(character)
    form = DeleteForm(request.POST, name=character.name, history=False)
    if form.is_valid():
        try:
            services.delete_character(character)
        except services.Kept as kept:
            form.add_error(None, str(kept))
        else:
            messages.success(request, f"{thing.name} is deleted.")
            return redirect("saga_detail", saga_id=character.saga_id)
    return manage_page(request, character.saga, thing, delete_form=form, status=400)
