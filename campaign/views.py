"""Campaign pages: thin views over the campaign services and access helpers."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import systems

from . import services
from .access import (
    can_see_full_sheet,
    get_character,
    get_editable_character,
    get_membership,
    is_a_storyguide,
    is_lead,
    require_a_storyguide,
    require_lead,
)
from .forms import (
    OWN,
    WAITING,
    ArchiveImportForm,
    NpcRollsForm,
    PlayedByForm,
    SagaForm,
    SignUpForm,
    TakeForm,
    TroupeForm,
    sheet_forms,
    stamp_form,
)
from .invites import invited_saga, joined_message, landing
from .models import Character, Membership, Saga, fighter_label, storyguide_ids
from .regions import saga_regions, shown
from .sent_once import sent_once


@require_safe
def home(request):
    """The front page: what Covenant is, and where to go next."""
    return render(request, "campaign/home.html", {"played": systems.played()})


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and log in; then go on to `next` (an invite link) or "My sagas"."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "saga_list")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="campaign.backends.PreparedModelBackend")
        messages.success(request, f"Welcome, {user.username}.")
        return redirect(landing(request, next_url) if next_url else "saga_list")
    context = {"form": form, "next": next_url, "invited": invited_saga(next_url)}
    return render(request, "registration/signup.html", context)


@login_required
@require_safe
def saga_list(request):
    """My sagas: those I am one of the storyguides of (the lead or not) and those I play in."""
    return saga_list_page(request)


def saga_list_page(request, import_form=None):
    """The sagas page, with the archive upload's form (its errors when a file was refused: status 400)."""
    memberships = (
        Membership.objects.filter(user=request.user).select_related("saga", "saga__storyguide").order_by(
            "-saga__created_at"
        )
    )
    current = [m for m in memberships if m.saga.archived_at is None]
    guides = [m for m in current if m.role == Membership.Role.STORYGUIDE or is_lead(request.user, m.saga)]
    for m in guides:  # the card says which: "you lead it" or "one of its storyguides"
        m.saga.place = "you lead it" if is_lead(request.user, m.saga) else "you are one of its storyguides"
    return render(
        request,
        "campaign/saga_list.html",
        {
            "guided": [m.saga for m in guides],
            "played": [m.saga for m in current if m not in guides],
            "archived": [m.saga for m in memberships if m.saga.archived_at is not None],
            "import_form": import_form or ArchiveImportForm(),
        },
        status=400 if import_form is not None else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def saga_create(request):
    form = SagaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        saga = services.create_saga(request.user, **form.cleaned_data)
        messages.success(request, f"“{saga.name}” is ready. Share the invite link with your players.")
        return redirect("saga_detail", saga_id=saga.pk)
    return render(request, "campaign/saga_form.html", {"form": form})


@login_required
@require_safe
def saga_detail(request, saga_id):
    return saga_page(request, saga_id)


def saga_page(request, saga_id, *, take_form=None, troupe_forms=None):
    """The saga page; `take_form`: a player's choice of a waiting character, `troupe_forms`: the lead's
    changes of the troupe, sent back with an error beside its choice (answered 200, as a sheet's form is:
    the page is the answer, not a failed load)."""
    membership = get_membership(request.user, saga_id)
    saga = membership.saga
    lead = is_lead(request.user, saga)  # the saga's housekeeping, its settings and invites, its troupe
    guide = lead or membership.role == Membership.Role.STORYGUIDE  # what every storyguide prepares
    regions = saga_regions(saga)
    system = regions["system"]
    context = {
        **regions,
        "shown": shown(regions),  # the live regions' digest: the socket's first frame swaps in nothing new
        "system_links": system.sheet.saga_links(saga) if guide else [],
        "system_panels": system.page.saga_panels(request, saga),
        "membership": membership,
        "is_lead": lead,
        "a_storyguide": guide,
        "npc_templates": regions["all_npc_templates"] if guide else [],
        "npcs": regions["all_npcs"] if guide else [],
        "archived_encounters": archived_encounters(request.user, saga, lead) if guide else [],
        "you_are": you_are(lead, membership, regions["storyguides"]),
        "troupe_forms": troupe_forms or (troupe_change_forms(saga, regions["members"]) if lead else None),
    }
    if not guide:
        context["first_step"] = not any(c.owner_id == request.user.pk for c in context["player_characters"])
        waiting = [c for c in context["player_characters"] if c.owner_id is None]
        if context["first_step"] and (waiting or take_form is not None):
            context["take_form"] = take_form or TakeForm(waiting)
    if lead:
        context["npc_rolls_form"] = NpcRollsForm(instance=saga)
        context["invite_url"] = request.build_absolute_uri(reverse("join", args=[saga.invite_token]))
    return render(request, "campaign/saga_detail.html", context)


def archived_encounters(user, saga: Saga, lead: bool) -> list:
    """The saga's archived encounters, each marked `tidy` when this person may restore, rename or delete it:
    its seat's holder (`combat.access.holds_seat`'s question, asked by the row: campaign is below combat) or
    the lead."""
    encounters = list(saga.encounters.filter(archived_at__isnull=False).select_related("seat_holder"))
    for encounter in encounters:
        encounter.tidy = lead or encounter.seat_holder_id == user.pk
    return encounters


def you_are(lead: bool, membership: Membership, storyguides: list) -> str:
    """The person's place in the saga, in the page's words: its (lead) storyguide, one of them, a player."""
    if lead:
        return "the lead storyguide" if len(storyguides) > 1 else "the storyguide"
    return "one of its storyguides" if membership.role == Membership.Role.STORYGUIDE else "a player"


# The lead's changes of the troupe, by the URL's word: the service, the label of the member's choice, which
# members the page offers, and what is said once done.
TROUPE_CHANGES = {
    "make": (
        services.make_storyguide,
        "Make a storyguide of",
        lambda m, lead: m.role == Membership.Role.PLAYER,
        "{name} is one of the saga's storyguides now: they can start encounters and take their seats.",
    ),
    "lead": (
        services.pass_lead,
        "Pass the lead to",
        lambda m, lead: m.role == Membership.Role.STORYGUIDE and m.user_id != lead,
        "{name} leads the saga now; you stay one of its storyguides.",
    ),
    "player": (
        services.remove_storyguide,
        "Make a player again",
        lambda m, lead: m.role == Membership.Role.STORYGUIDE and m.user_id != lead,
        "{name} is a player again; the seats they held are yours now.",
    ),
}


def troupe_change_forms(saga: Saga, members: list[Membership], data=None, change: str = "") -> dict:
    """The lead's three forms, by their word; `data` binds the one of `change` (a post)."""
    return {
        word: TroupeForm(
            label,
            [m for m in members if offered(m, saga.storyguide_id)],
            members,
            data if word == change else None,
            prefix=word,
        )
        for word, (_, label, offered, _) in TROUPE_CHANGES.items()
    }


@login_required
@require_POST
@sent_once
def saga_troupe(request, saga_id, change):
    """The lead makes a member a storyguide, passes the lead, or makes a storyguide a player again; a refusal
    (not the lead, a member who does not fit) is shown beside the choice, nothing changed."""
    if change not in TROUPE_CHANGES:
        raise Http404("No such change of the troupe.")
    saga = get_membership(request.user, saga_id).saga
    service, _, _, said = TROUPE_CHANGES[change]
    members = list(saga.memberships.select_related("user").order_by("role", "user__username"))
    forms = troupe_change_forms(saga, members, request.POST, change)
    form = forms[change]
    if form.is_valid():
        try:
            service(saga, form.chosen(), by=request.user)
        except services.Refused as refusal:
            form.add_error("member", str(refusal))
        else:
            messages.success(request, said.format(name=form.chosen().get_username()))
            return redirect("saga_detail", saga_id=saga.pk)
    return saga_page(request, saga_id, troupe_forms=forms)


@login_required
@require_POST
@sent_once
def saga_take(request, saga_id):
    """A player takes up a character made for a player who will join, or goes on to make their own."""
    membership = get_membership(request.user, saga_id)
    form = TakeForm(services.waiting_characters(membership.saga), request.POST)
    if form.is_valid():
        if form.cleaned_data["character"] == OWN:
            return redirect("character_create", saga_id=saga_id)
        try:
            character = services.claim_character(request.user, form.cleaned_data["character"])
        except services.Refused as refusal:
            form.add_error("character", str(refusal))
        else:
            messages.success(request, f"You play {character.name} now.")
            return redirect("character_detail", character_id=character.pk)
    return saga_page(request, saga_id, take_form=form)


@login_required
@require_POST
@sent_once
def invite_regenerate(request, saga_id):
    """The lead makes a new invite link; the old one stops working."""
    saga = require_lead(request.user, saga_id)
    services.regenerate_invite(saga)
    messages.success(request, "A new invite link is ready; the old one no longer works.")
    return redirect("saga_detail", saga_id=saga.pk)


@login_required
@require_POST
@sent_once
def saga_npc_rolls(request, saga_id):
    """The lead sets how much of an NPC's rolls the players see (the saga's setting)."""
    saga = require_lead(request.user, saga_id)
    form = NpcRollsForm(request.POST, instance=saga)
    if form.is_valid():
        services.set_npc_rolls(saga, form.cleaned_data["npc_rolls"])
        messages.success(request, f"Players now see: {saga.npc_rolls_words}.")
    else:
        messages.error(request, "Choose one of the settings for NPC rolls.")
    return redirect("saga_detail", saga_id=saga_id)


@require_http_methods(["GET", "POST"])
def join(request, token):
    """An invite link: the saga and its storyguide, then "Join as a new player" (sign up) or "I have an
    account" (log in), either of which joins on the way in; someone logged in joins with one button, taking
    up a character made for a player who will join, or going on to make their own."""
    saga = get_object_or_404(Saga.objects.select_related("storyguide"), invite_token=token)
    waiting = services.waiting_characters(saga)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        context = {"saga": saga, "next": request.get_full_path(), "waiting": waiting}
        return render(request, "campaign/join.html", context)
    if Membership.objects.filter(saga=saga, user=request.user).exists():
        return redirect("saga_detail", saga_id=saga.pk)
    chose = "character" in request.POST  # a page drawn while characters were waiting
    data = request.POST if request.method == "POST" else None
    form = TakeForm(waiting, data) if waiting or chose else None
    if request.method == "POST" and (form is None or form.is_valid()):
        chosen = form.cleaned_data["character"] if form is not None else OWN
        try:
            with transaction.atomic():  # joined and holding the character, or neither
                services.join_saga(request.user, saga)
                character = None if chosen == OWN else services.claim_character(request.user, chosen)
        except services.Refused as refusal:
            form.add_error("character", str(refusal))
        else:
            if character is None:
                messages.success(request, joined_message(saga))
                return redirect("saga_detail", saga_id=saga.pk)
            messages.success(request, f"You joined “{saga.name}” as a player, and you play {character.name}.")
            return redirect("character_detail", character_id=character.pk)
    return render(request, "campaign/join.html", {"saga": saga, "take_form": form})


def _edit_sheet(request, saga, character, *, title, played_by=None):
    """Show and save a sheet (new or existing) for the saga's rule system; `played_by`: the storyguide's
    choice of who plays a new player character."""
    data = request.POST if request.method == "POST" else None
    form, formset = sheet_forms(saga, character, data)
    chosen = played_by is None or played_by.is_valid()
    if data is not None and form.is_valid() and formset.is_valid() and chosen:
        if played_by is not None:
            form.instance.owner = played_by.chosen()
        character = services.save_character(form, formset)
        messages.success(request, f"{character.name} saved.")
        return redirect("character_detail", character_id=character.pk)
    return render(
        request,
        "campaign/character_form.html",
        {
            "saga": saga,
            "system": systems.of(saga),
            "character": character,
            "form": form,
            "formset": formset,
            "played_by": played_by,
            "title": title,
            "cancel_url": reverse("character_detail", args=[character.pk])
            if character.pk
            else reverse("saga_detail", args=[saga.pk]),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def character_create(request, saga_id):
    """A member makes a player character of their own; any of the saga's storyguides makes one for a player:
    one who will join and take it up from the invite, a player of the saga's, or a storyguide."""
    saga = get_membership(request.user, saga_id).saga
    character = Character(saga=saga, owner=request.user, is_npc=False)
    played_by = None
    if is_a_storyguide(request.user, saga):
        data = request.POST if request.method == "POST" else None
        played_by = PlayedByForm(saga, data, prefix="played", initial={"player": WAITING})
    return _edit_sheet(request, saga, character, title="New character", played_by=played_by)


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def npc_create(request, saga_id):
    """Any of the saga's storyguides makes an NPC."""
    saga = require_a_storyguide(request.user, saga_id)
    character = Character(saga=saga, owner=None, is_npc=True)
    return _edit_sheet(request, saga, character, title="New NPC")


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def character_edit(request, character_id):
    character = get_editable_character(request.user, character_id)
    return _edit_sheet(request, character.saga, character, title=f"Edit {character.name}")


@login_required
@require_safe
def character_detail(request, character_id):
    """The full sheet for its player and the saga's storyguides; what the table sees for everyone else."""
    character = get_character(request.user, character_id)
    guide = is_a_storyguide(request.user, character.saga)
    full = guide or can_see_full_sheet(request.user, character)
    context = {
        "character": character,
        "saga": character.saga,
        "system": systems.of(character.saga),
        "full": full,
        "a_storyguide": guide,
    }
    if full:
        context.update(systems.of(character.saga).sheet.sheet_context(character))
        if character.is_npc:
            context["stamp_form"] = stamp_form(services.stamp_base_name(character.name))
    if guide and not character.is_npc:
        context["hand_over_form"] = hand_over_form(character)
    return render(request, "campaign/character_detail.html", context)


def hand_over_form(character: Character, data=None) -> PlayedByForm:
    """The storyguide's form giving a player character to someone else, its player now chosen."""
    now = str(character.owner_id) if character.owner_id is not None else WAITING
    return PlayedByForm(character.saga, data, prefix="played", initial={"player": now})


@login_required
@require_POST
@sent_once
def character_hand_over(request, character_id):
    """One of the saga's storyguides gives a player character to a member, takes it back, or leaves it for a
    player who will join; a refusal is shown beside the choice (the page answered 200, as a sheet's form
    is)."""
    character = get_character(request.user, character_id)
    require_a_storyguide(request.user, character.saga_id)
    if character.is_npc:
        raise Http404("NPCs are the storyguide's.")
    form = hand_over_form(character, request.POST)
    if form.is_valid():
        try:
            character = services.hand_over(character, form.chosen(), by=request.user)
        except services.Refused as refusal:
            form.add_error("player", str(refusal))
        else:
            messages.success(request, f"{fighter_label(character, storyguide_ids(character.saga))}.")
            return redirect("character_detail", character_id=character.pk)
    return storyguides_sheet(request, character, hand_over_form=form)


@login_required
@require_POST
@sent_once
def npc_stamp(request, character_id):
    """One of the saga's storyguides stamps numbered copies of an NPC ("4 bandits")."""
    character = get_character(request.user, character_id)
    require_a_storyguide(request.user, character.saga_id)
    if not character.is_npc:
        raise Http404("Only NPCs can be stamped.")
    form = stamp_form(services.stamp_base_name(character.name), request.POST)
    if form.is_valid():
        copies = services.stamp_npc_copies(
            character, form.cleaned_data["count"], form.cleaned_data["base_name"]
        )
        messages.success(request, f"Stamped {len(copies)}: {copies[0].name} to {copies[-1].name}.")
        return redirect("saga_detail", saga_id=character.saga_id)
    return storyguides_sheet(request, character, status=400, stamp_form=form)


def storyguides_sheet(request, character: Character, status: int = 200, **forms):
    """The character's page as its saga's storyguides see it, with a form that was refused and its errors."""
    system = systems.of(character.saga)
    context = {"character": character, "saga": character.saga, "system": system, "full": True}
    context.update(a_storyguide=True, **forms, **system.sheet.sheet_context(character))
    return render(request, "campaign/character_detail.html", context, status=status)
