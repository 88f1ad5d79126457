"""The storyguide's housekeeping: rename, delete (with a confirmation) or archive and restore a saga, a
character, an NPC or template, an encounter. Each form is sent once (campaign.once); players get 403,
outsiders 404 (campaign.access)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from combat import services as combat_services
from combat.errors import CombatError
from combat.models import Encounter
from combat.services.setup import encounter_has_history

from . import services
from .access import get_character, require_storyguide
from .forms import DeleteForm, RenameForm
from .models import Character, Saga
from .once import sent_once


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


def _encounter_thing(encounter: Encounter) -> Thing:
    return Thing(
        "encounter",
        encounter.name,
        120,
        encounter_has_history(encounter),
        encounter.archived_at is not None,
        reverse("saga_detail", args=[encounter.saga_id]),
        reverse("encounter_rename", args=[encounter.pk]),
        reverse("encounter_delete", args=[encounter.pk]),
        reverse("encounter_restore", args=[encounter.pk]),
    )


def _page(request, saga, thing: Thing, rename_form=None, delete_form=None, status=200):
    return render(
        request,
        "campaign/manage.html",
        {
            "saga": saga,
            "thing": thing,
            "rename_form": rename_form or _rename_form(thing),
            "delete_form": delete_form or DeleteForm(name=thing.name, history=thing.history),
        },
        status=status,
    )


def _rename_form(thing: Thing) -> RenameForm:
    return RenameForm(initial={"name": thing.name}, max_length=thing.max_length)


def _storyguides_character(user, character_id) -> Character:
    character = get_character(user, character_id)
    require_storyguide(user, character.saga_id)
    return character


def _storyguides_encounter(user, encounter_id) -> Encounter:
    encounter = get_object_or_404(Encounter.objects.select_related("saga"), pk=encounter_id)
    require_storyguide(user, encounter.saga_id)
    return encounter


# --- sagas ---------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def saga_manage(request, saga_id):
    saga = require_storyguide(request.user, saga_id)
    return _page(request, saga, _saga_thing(saga))


@login_required
@require_POST
@sent_once
def saga_rename(request, saga_id):
    saga = require_storyguide(request.user, saga_id)
    form = RenameForm(request.POST, max_length=120)
    if not form.is_valid():
        return _page(request, saga, _saga_thing(saga), rename_form=form, status=400)
    services.rename_saga(saga, form.cleaned_data["name"])
    messages.success(request, f"The saga is now “{saga.name}”.")
    return redirect("saga_detail", saga_id=saga.pk)


@login_required
@require_POST
@sent_once
def saga_delete(request, saga_id):
    saga = require_storyguide(request.user, saga_id)
    thing = _saga_thing(saga)
    form = DeleteForm(request.POST, name=saga.name, history=thing.history)
    if not form.is_valid():
        return _page(request, saga, thing, delete_form=form, status=400)
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
    saga = require_storyguide(request.user, saga_id)
    services.set_saga_archived(saga, False)
    messages.success(request, f"“{saga.name}” is restored.")
    return redirect("saga_detail", saga_id=saga.pk)


# --- characters, NPCs and templates -------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def character_manage(request, character_id):
    character = _storyguides_character(request.user, character_id)
    return _page(request, character.saga, _character_thing(character))


@login_required
@require_POST
@sent_once
def character_rename(request, character_id):
    character = _storyguides_character(request.user, character_id)
    form = RenameForm(request.POST, max_length=80)
    if not form.is_valid():
        return _page(request, character.saga, _character_thing(character), rename_form=form, status=400)
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
    return _page(request, character.saga, thing, delete_form=form, status=400)


# --- encounters ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def encounter_manage(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    return _page(request, encounter.saga, _encounter_thing(encounter))


@login_required
@require_POST
@sent_once
def encounter_rename(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    form = RenameForm(request.POST, max_length=120)
    if form.is_valid():
        try:
            combat_services.rename_encounter(request.user, encounter.pk, form.cleaned_data["name"])
        except CombatError as error:
            raise PermissionDenied(str(error)) from None
        messages.success(request, f"The encounter is now “{form.cleaned_data['name']}”.")
        return redirect("saga_detail", saga_id=encounter.saga_id)
    return _page(request, encounter.saga, _encounter_thing(encounter), rename_form=form, status=400)


@login_required
@require_POST
@sent_once
def encounter_delete(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    thing = _encounter_thing(encounter)
    form = DeleteForm(request.POST, name=encounter.name, history=thing.history)
    if not form.is_valid():
        return _page(request, encounter.saga, thing, delete_form=form, status=400)
    typed = form.cleaned_data.get("typed_name", "")
    if combat_services.delete_encounter(request.user, encounter.pk, typed):
        messages.success(request, f"“{thing.name}” is deleted, with its log.")
    else:
        messages.success(request, f"“{thing.name}” has history, so it is archived: listed apart below.")
    return redirect("saga_detail", saga_id=encounter.saga_id)


@login_required
@require_POST
@sent_once
def encounter_restore(request, encounter_id):
    encounter = _storyguides_encounter(request.user, encounter_id)
    combat_services.set_encounter_archived(request.user, encounter.pk, False)
    messages.success(request, f"“{encounter.name}” is restored.")
    return redirect("saga_detail", saga_id=encounter.saga_id)
