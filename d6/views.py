"""The d6 table's pages and commands: thin views over `d6.services`.

A command posts here and gets back an empty error slot (or the message); the change itself
reaches every screen, the sender's too, through the encounter's websocket push.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_safe
from typing_extensions import override

from campaign.access import is_storyguide, require_storyguide
from campaign.secure_context import secure_context
from campaign.sent_once import sent_once
from combat import systems
from combat.access import encounter_for
from combat.audience import PLAYERS, STORYGUIDE
from combat.errors import InvalidCommand
from combat.inputs import MAX_ID, optional_whole_number, plain_text, whole_number
from combat.views import encounter_command, posted_version, visible_log

from . import KEY, panels, services
from .panels import TERRAIN_ROWS, state_context
from .panels import to_meet as defence_to_meet
from .sheet import saga_attributes as attribute_names_of
from .sheet_forms import D6AttributesForm


def table_command(storyguide_only: bool = True):
    """POST only; members only (the storyguide only, unless said); refusals go through `combat.answers`."""
    return encounter_command(storyguide_only=storyguide_only, rule_system=KEY)


# What a d6 table's numbers can sensibly be: a challenge value, a potential, squares of a chase.
VALUE_LIMIT = 1000
DISTANCE_LIMIT = 100
MAX_NAME, MAX_TYPED = 120, 200


def _int(value, what: str, *, blank_ok: bool = False, low: int = -VALUE_LIMIT, high: int = VALUE_LIMIT):
    """A posted whole number in ASCII digits, within its bounds; blank is None where allowed."""
    if blank_ok:
        return optional_whole_number(value, what, low, high)
    return whole_number(value, what, low, high)


def _typed(post, prefix: str = "faces-") -> dict[str, str]:
    """Typed faces `faces-<combatant id>` as {id: "3 7 10"}, each at most a short line."""
    return {
        key[len(prefix) :]: plain_text(value, "Typed dice", MAX_TYPED)
        for key, value in post.items()
        if key.startswith(prefix)
    }


# --- pages -------------------------------------------------------------------------------------


def encounter_page(request, encounter, audience: str):
    """The encounter's page (the page role's): the d6 table, for either audience."""
    return redirect("d6_table", encounter_id=encounter.pk)


@login_required
@require_GET
def table(request, encounter_id):
    """The d6 table: the storyguide's controls, or a player's view of the same fight and chase."""
    encounter = encounter_for(request.user, encounter_id, KEY)
    audience = STORYGUIDE if is_storyguide(request.user, encounter.saga) else PLAYERS
    context = state_context(encounter, audience)
    context.update(
        events=visible_log(encounter, audience),
        ws_url=f"/ws/encounters/{encounter.pk}/",
        last_seq=encounter.last_seq,
        plain_http=audience == STORYGUIDE and not secure_context(request),
    )
    return render(request, "d6/table.html", context)


@login_required
@require_safe
def to_meet(request, encounter_id):
    """The line of the awaited defence with the number it must meet, for the player of the defending
    character (and the storyguide); any other member gets the line without it (issue 35, item 10). The
    players' panels, the same for every player, leave it out; the defender's page asks for it here."""
    encounter = encounter_for(request.user, encounter_id, KEY)
    meet = defence_to_meet(encounter, request.user)
    return render(request, "d6/_to_meet.html", {"meet": meet})


# --- the fight ---------------------------------------------------------------------------------


@table_command()
def start_fight(request, encounter):
    services.start_fight(request.user, encounter.pk, posted_version(request), _typed(request.POST))


def _physical(post) -> bool | None:
    return {"yes": True, "no": False}.get(post.get("physical", ""))


@table_command(storyguide_only=False)
def roll(request, encounter):
    """The storyguide's roll for anyone, or a player's for their own character (the service checks)."""
    post = request.POST
    combatant = post.get("combatant", "")
    services.roll(
        request.user,
        encounter.pk,
        posted_version(request),
        combatant,
        post.get("score", ""),
        value=_int(post.get("value"), "The challenge value", blank_ok=True),
        physical=_physical(post),
        target_id=post.get("target") or None,
        typed=plain_text(post.get(f"faces-{combatant}", ""), "Typed dice", MAX_TYPED),
        potential=_int(post.get("potential"), "Potential", blank_ok=True),
    )


@table_command(storyguide_only=False)
def cluster(request, encounter):
    """A ranged attack into a combat cluster: one challenge per fighter ticked."""
    post = request.POST
    services.cluster_attack(
        request.user,
        encounter.pk,
        posted_version(request),
        post.get("combatant", ""),
        post.get("score", ""),
        post.getlist("targets"),
        value=_int(post.get("value"), "The challenge value", blank_ok=True),
        physical=_physical(post),
        typed=_typed(post, "shot-faces-"),
        potential=_int(post.get("potential"), "Potential", blank_ok=True),
    )


@table_command()
def set_value(request, encounter):
    services.set_challenge_value(
        request.user,
        encounter.pk,
        posted_version(request),
        _int(request.POST.get("value"), "The challenge value", blank_ok=True),
    )


@table_command(storyguide_only=False)
def breather(request, encounter):
    services.take_breather(request.user, encounter.pk, posted_version(request))


@table_command(storyguide_only=False)
def end_turn(request, encounter):
    services.end_turn(request.user, encounter.pk, posted_version(request))


# --- the chase ---------------------------------------------------------------------------------


@table_command()
def start_chase(request, encounter):
    post = request.POST
    chasers = []
    for key, value in post.items():
        if key.startswith("distance-") and value.strip():
            distance = _int(value, "A chaser's distance", low=0, high=DISTANCE_LIMIT)
            chasers.append((key[len("distance-") :], distance))
    terrains = [_terrain(post, f"terrain_name-{i}", f"terrain_rolled-{i}") for i in range(TERRAIN_ROWS)]
    services.start_chase(
        request.user,
        encounter.pk,
        posted_version(request),
        post.get("target", ""),
        chasers,
        terrains,
        _int(post.get("escape_distance"), "The escape distance", blank_ok=True, low=0, high=DISTANCE_LIMIT),
    )


def _terrain(post, name_field: str, rolled_field: str) -> tuple[str, str]:
    """A terrain row: its name and the ability rolled there, as plain short text."""
    return (
        plain_text(post.get(name_field, ""), "A terrain's name", MAX_NAME),
        plain_text(post.get(rolled_field, ""), "The ability rolled", MAX_NAME),
    )


@table_command()
def exchange(request, encounter):
    services.exchange(request.user, encounter.pk, posted_version(request), _typed(request.POST))


@table_command()
def offer_terrain(request, encounter):
    post = request.POST
    chase = encounter.d6_chases.filter(outcome="ongoing").first()
    route = {t["name"]: t for t in (chase.route if chase else [])}
    terrains = [route[name] for name in post.getlist("offer") if name in route]
    if post.get("new_name", "").strip() or post.get("new_rolled", "").strip():
        terrains.append(_terrain(post, "new_name", "new_rolled"))
    services.offer_terrain(request.user, encounter.pk, posted_version(request), terrains)


@table_command(storyguide_only=False)
def choose_terrain(request, encounter):
    services.choose_terrain(
        request.user, encounter.pk, posted_version(request), request.POST.get("terrain", "")
    )


@table_command()
def runner_breather(request, encounter):
    services.runner_breather(
        request.user, encounter.pk, posted_version(request), request.POST.get("combatant", "")
    )


def _exchange_number(request) -> int:
    try:
        return whole_number(request.POST.get("exchange", ""), "The exchange", 0, MAX_ID)
    except InvalidCommand:
        raise InvalidCommand("The page sent no exchange number; reload it.") from None


@table_command(storyguide_only=False)
def chase_faces(request, encounter):
    """A runner's player (or the storyguide) types the dice rolled for the next exchange."""
    combatant = request.POST.get("combatant", "")
    services.enter_faces(
        request.user,
        encounter.pk,
        _exchange_number(request),
        combatant,
        plain_text(request.POST.get(f"faces-{combatant}", ""), "Typed dice", MAX_TYPED),
    )


@table_command(storyguide_only=False)
def at_target(request, encounter):
    """A chaser's player (or the storyguide): at the target, act against it or move ahead."""
    choice = request.POST.get("at_target", "")
    if choice not in ("act", "move_ahead"):
        raise InvalidCommand("Choose: act against the target, or move ahead of it.")
    services.choose_at_target(
        request.user,
        encounter.pk,
        _exchange_number(request),
        request.POST.get("combatant", ""),
        choice == "move_ahead",
    )


@login_required
@require_http_methods(["GET", "POST"])
@sent_once
def saga_attributes(request, saga_id):
    """The storyguide names the attributes of the saga's sheets."""
    saga = require_storyguide(request.user, saga_id)
    if saga.rule_system != KEY:
        raise Http404("Only d6 sagas have named attributes.")
    form = D6AttributesForm(request.POST or None, initial={"names": "\n".join(attribute_names_of(saga))})
    if request.method == "POST" and form.is_valid():
        services.set_attributes(saga, form.cleaned_data["names"])
        messages.success(request, "Attributes saved.")
        return redirect("saga_detail", saga_id=saga.pk)
    return render(request, "d6/attributes_form.html", {"saga": saga, "form": form})


class Page(systems.Page):
    """A d6 encounter at the table: its fight and chase page, panels and set-up."""

    FRAME_TEMPLATE = panels.FRAME_TEMPLATE
    CORE_KIND_PANELS = panels.CORE_KIND_PANELS

    @override
    def encounter_page(self, request, encounter, audience):
        return encounter_page(request, encounter, audience)

    @override
    def state_context(self, encounter, audience, facts=None):
        return state_context(encounter, audience, facts)

    @override
    def table_facts(self, encounter, read=None):
        return panels.table_facts(encounter, read)

    @override
    def setup_refusal(self, encounter):
        return services.setup_refusal(encounter)

    @override
    def rounds_played(self, encounter):
        return services.rounds_played(encounter)
