"""d6's commands, each declared once (`combat.commands.Command`): its service, who may give it and how its
form is read; their URLs (`d6:<name>`, at the paths they have always had under `encounters/<id>/d6/`) and
views follow. Who may roll, breathe or choose for which fighter is the service's to check (the rules'
`can_*` with the sender as the roller); the panels ask the same `can_*` for each button (d6/panels.py)."""

from __future__ import annotations

from combat.commands import Command, versioned
from combat.errors import InvalidCommand
from combat.inputs import MAX_ID, optional_whole_number, plain_text, whole_number

from . import services
from .models import Chase
from .panels import TERRAIN_ROWS

# What a d6 table's numbers can sensibly be: a challenge value, a potential, squares of a chase.
VALUE_LIMIT = 1000
DISTANCE_LIMIT = 100
MAX_NAME, MAX_TYPED = 120, 200


def number(value, what: str, *, blank_ok: bool = False, low: int = -VALUE_LIMIT, high: int = VALUE_LIMIT):
    """A posted whole number in ASCII digits, within its bounds; blank is None where allowed."""
    if blank_ok:
        return optional_whole_number(value, what, low, high)
    return whole_number(value, what, low, high)


def typed(post, prefix: str = "faces-") -> dict[str, str]:
    """Typed faces `faces-<combatant id>` as {id: "3 7 10"}, each at most a short line."""
    return {
        key[len(prefix) :]: plain_text(value, "Typed dice", MAX_TYPED)
        for key, value in post.items()
        if key.startswith(prefix)
    }


def physical(post) -> bool | None:
    """Whether the roll is physical: yes, no, or as the score says (None)."""
    return {"yes": True, "no": False}.get(post.get("physical", ""))


def challenge(post) -> dict:
    """A challenge's optional numbers: its value, physical or not, the roller's potential."""
    return {
        "value": number(post.get("value"), "The challenge value", blank_ok=True),
        "physical": physical(post),
        "potential": number(post.get("potential"), "Potential", blank_ok=True),
    }


def roll_form(request) -> dict:
    """The roller, the score, the challenge, the target and the typed dice."""
    post, combatant = request.POST, request.POST.get("combatant", "")
    return {
        **versioned(request),
        "combatant_id": combatant,
        "score_key": post.get("score", ""),
        "target_id": post.get("target") or None,
        "typed": plain_text(post.get(f"faces-{combatant}", ""), "Typed dice", MAX_TYPED),
        **challenge(post),
    }


def cluster_form(request) -> dict:
    """A ranged attack into a combat cluster: one challenge per fighter ticked."""
    post = request.POST
    return {
        **versioned(request),
        "combatant_id": post.get("combatant", ""),
        "score_key": post.get("score", ""),
        "target_ids": post.getlist("targets"),
        "typed": typed(post, "shot-faces-"),
        **challenge(post),
    }


def terrain(post, name_field: str, rolled_field: str) -> tuple[str, str]:
    """A terrain row: its name and the ability rolled there, as plain short text."""
    return (
        plain_text(post.get(name_field, ""), "A terrain's name", MAX_NAME),
        plain_text(post.get(rolled_field, ""), "The ability rolled", MAX_NAME),
    )


def chase_form(request) -> dict:
    """The target, each chaser's distance, the route's terrains and the escape distance."""
    post = request.POST
    chasers = [
        (key[len("distance-") :], number(value, "A chaser's distance", low=0, high=DISTANCE_LIMIT))
        for key, value in post.items()
        if key.startswith("distance-") and value.strip()
    ]
    escape = post.get("escape_distance")
    return {
        **versioned(request),
        "target_id": post.get("target", ""),
        "chasers": chasers,
        "terrains": [terrain(post, f"terrain_name-{i}", f"terrain_rolled-{i}") for i in range(TERRAIN_ROWS)],
        "escape_distance": number(escape, "The escape distance", blank_ok=True, low=0, high=DISTANCE_LIMIT),
    }


def offer_form(request) -> dict:
    """The terrains offered: those of the route ticked, and a new one if named."""
    post = request.POST
    encounter_id = request.resolver_match.kwargs["encounter_id"]
    chase = Chase.objects.filter(encounter_id=encounter_id, outcome=Chase.Outcome.ONGOING).first()
    route = {t["name"]: t for t in (chase.route if chase else [])}
    terrains = [route[name] for name in post.getlist("offer") if name in route]
    if post.get("new_name", "").strip() or post.get("new_rolled", "").strip():
        terrains.append(terrain(post, "new_name", "new_rolled"))
    return {**versioned(request), "terrains": terrains}


def exchange_number(request) -> int:
    """The chase's exchange the page was drawn at (a runner's dice and choices go by it, not the version)."""
    try:
        return whole_number(request.POST.get("exchange", ""), "The exchange", 0, MAX_ID)
    except InvalidCommand:
        raise InvalidCommand("The page sent no exchange number; reload it.") from None


def faces_form(request) -> dict:
    """A runner's player (or the storyguide) types the dice rolled for the next exchange."""
    combatant = request.POST.get("combatant", "")
    return {
        "expected_exchange": exchange_number(request),
        "combatant_id": combatant,
        "text": plain_text(request.POST.get(f"faces-{combatant}", ""), "Typed dice", MAX_TYPED),
    }


def at_target_form(request) -> dict:
    """A chaser's player (or the storyguide): at the target, act against it or move ahead."""
    choice = request.POST.get("at_target", "")
    if choice not in ("act", "move_ahead"):
        raise InvalidCommand("Choose: act against the target, or move ahead of it.")
    return {
        "expected_exchange": exchange_number(request),
        "combatant_id": request.POST.get("combatant", ""),
        "move_ahead": choice == "move_ahead",
    }


def typed_form(request) -> dict:
    """The dice typed for each fighter or runner."""
    return {**versioned(request), "typed": typed(request.POST)}


def value_form(request) -> dict:
    """The challenge value the storyguide sets (blank: none)."""
    return {
        **versioned(request),
        "value": number(request.POST.get("value"), "The challenge value", blank_ok=True),
    }


ANYONE = {"storyguide_only": False}  # a player for their own fighter; the service checks whose
COMMANDS = (
    Command(services.start_fight, name="start_fight", path="fight/", form=typed_form),
    Command(services.roll, name="roll", path="roll/", form=roll_form, **ANYONE),
    Command(services.cluster_attack, name="cluster", path="cluster/", form=cluster_form, **ANYONE),
    Command(services.set_challenge_value, name="set_value", path="value/", form=value_form),
    Command(services.take_breather, name="breather", path="breather/", **ANYONE),
    Command(services.end_turn, name="end_turn", path="end-turn/", **ANYONE),
    Command(services.start_chase, name="start_chase", path="chase/", form=chase_form),
    Command(services.exchange, path="chase/exchange/", form=typed_form),
    Command(services.offer_terrain, path="chase/offer/", form=offer_form),
    Command(
        services.choose_terrain,
        path="chase/choose/",
        form=lambda r: {**versioned(r), "name": r.POST.get("terrain", "")},
        **ANYONE,
    ),
    Command(services.enter_faces, name="chase_faces", path="chase/faces/", form=faces_form, **ANYONE),
    Command(
        services.choose_at_target, name="at_target", path="chase/at-target/", form=at_target_form, **ANYONE
    ),
    Command(
        services.runner_breather,
        path="chase/breather/",
        form=lambda r: {**versioned(r), "combatant_id": r.POST.get("combatant", "")},
    ),
)
