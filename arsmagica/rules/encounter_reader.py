"""Reading an Ars Magica encounter file: hand-written checks, each naming its place in the file."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from combat.rules.errors import EncounterFileError
from combat.rules.limits import MAX_FACES

from .dicebox import PURPOSES
from .exchange import OnSuccess
from .levels import BodyLevel, BodyTrack, FatigueLevel
from .magic import Spell, SpellKind
from .movement import Movement
from .phase import Phase
from .sheet import Range, Sheet, Weapon
from .state import Action, CombatantState, Declaration, PhaseOptions

E = TypeVar("E", bound=Enum)
_MISSING: Any = object()
_DEFAULTED: Any = object()
_FREE_KEYS = ("notes", "description", "title")
_SCORES = (
    "quickness",
    "stamina",
    "finesse",
    "athletics",
    "ride",
    "brawling",
    "soak",
    "dodge",
    "combat_fatigue",
    "encumbrance",
)
_MISSILE_PHASES = {"first_missile": Phase.FIRST_MISSILE, "second_missile": Phase.SECOND_MISSILE}
_FAST_CAST = {phase.value: phase for phase in (Phase.FIRST_MISSILE, Phase.MELEE, Phase.SECOND_MISSILE)}


@dataclass(frozen=True)
class RoundPlan:
    """One round of the file: declarations, the faces given, and the storyguide's options."""

    declarations: tuple[Declaration, ...]
    faces: dict[str, dict[str, list[int]]]
    options: PhaseOptions


@dataclass(frozen=True)
class Encounter:
    combatants: tuple[CombatantState, ...]
    rounds: tuple[RoundPlan, ...]
    seed: int | str | None


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return repr(value)


def _object(value: Any, where: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EncounterFileError(where, f"expected an object, got {_describe(value)}")
    for key in value:
        if key not in allowed and key not in _FREE_KEYS and not str(key).startswith("_"):
            raise EncounterFileError(_at(where, key), f"unknown field (known: {', '.join(allowed)})")
    return value


def _get(obj: dict[str, Any], key: str, where: str, default: Any) -> Any:
    """The value at `key`; an absent (or null) optional field gives `default`."""
    value = obj.get(key)
    if value is None:
        if default is _MISSING:
            raise EncounterFileError(_at(where, key), "missing")
        return _DEFAULTED
    return value


def _int(
    obj: dict[str, Any], key: str, where: str, default: Any = _MISSING, low: int = -1000, high: int = 1000
) -> int:
    value = _get(obj, key, where, default)
    if value is _DEFAULTED:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise EncounterFileError(_at(where, key), "expected an integer")
    if not low <= value <= high:
        raise EncounterFileError(_at(where, key), f"expected {low} to {high}, got {value}")
    return value


def _str(obj: dict[str, Any], key: str, where: str, default: Any = _MISSING) -> str:
    value = _get(obj, key, where, default)
    if value is _DEFAULTED:
        return default
    if not isinstance(value, str) or not value.strip():
        raise EncounterFileError(_at(where, key), "expected a non-empty text")
    return value


def _bool(obj: dict[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise EncounterFileError(_at(where, key), "expected true or false")
    return value


def _choice(obj: dict[str, Any], key: str, where: str, choices: dict[str, E], default: Any = _MISSING) -> E:
    value = _get(obj, key, where, default)
    if value is _DEFAULTED:
        return default
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(f'"{name}"' for name in choices)
        raise EncounterFileError(_at(where, key), f"expected one of {names}, got {_describe(value)}")
    return choices[value]


def _enum_choices(enum: type[E]) -> dict[str, E]:
    return {member.value: member for member in enum}


def _list(obj: dict[str, Any], key: str, where: str, default: Any = _MISSING) -> list[Any]:
    value = _get(obj, key, where, default)
    if value is _DEFAULTED:
        return default
    if not isinstance(value, list):
        raise EncounterFileError(_at(where, key), "expected a list")
    return value


def _ids(obj: dict[str, Any], key: str, where: str, known: set[str]) -> tuple[str, ...]:
    values = _list(obj, key, where, [])
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise EncounterFileError(_at(_at(where, key), index), "expected a combatant id")
        if value not in known:
            raise EncounterFileError(_at(_at(where, key), index), f"no combatant with id {value!r}")
    return tuple(values)


def _weapon(value: Any, where: str) -> Weapon:
    obj = _object(
        value,
        where,
        ("name", "initiative", "attack", "defense", "damage", "range", "missile", "paces", "twice"),
    )
    paces = obj.get("paces")
    if paces is not None:
        paces = _int(obj, "paces", where, low=0, high=10000)
    return Weapon(
        _str(obj, "name", where),
        _int(obj, "initiative", where),
        _int(obj, "attack", where),
        _int(obj, "defense", where),
        _int(obj, "damage", where),
        _choice(obj, "range", where, _enum_choices(Range)),
        _bool(obj, "missile", where),
        paces,
        _bool(obj, "twice", where),
    )


def _combatant(value: Any, where: str) -> CombatantState:
    obj = _object(
        value, where, ("id", "name", *_SCORES, "fatigue_level", "body_level", "body_levels", "weapons")
    )
    weapons = []
    names: set[str] = set()
    for index, item in enumerate(_list(obj, "weapons", where, [])):
        weapon = _weapon(item, _at(_at(where, "weapons"), index))
        if weapon.name in names:
            raise EncounterFileError(
                _at(_at(_at(where, "weapons"), index), "name"), f"a second weapon named {weapon.name!r}"
            )
        names.add(weapon.name)
        weapons.append(weapon)
    track = BodyTrack()
    if "body_levels" in obj:
        counts_where = _at(where, "body_levels")
        counts = _object(
            obj["body_levels"], counts_where, ("hurt", "light_wounds", "medium_wounds", "heavy_wounds")
        )
        track = BodyTrack(
            **{
                key: _int(counts, key, counts_where, 1, 0, 20)
                for key in ("hurt", "light_wounds", "medium_wounds", "heavy_wounds")
            }
        )
    scores = {key: _int(obj, key, where, 0) for key in _SCORES}
    sheet = Sheet(
        _str(obj, "id", where), _str(obj, "name", where), tuple(weapons), body_track=track, **scores
    )
    fatigue = _choice(obj, "fatigue_level", where, _enum_choices(FatigueLevel), FatigueLevel.FRESH)
    body = _choice(obj, "body_level", where, _enum_choices(BodyLevel), BodyLevel.UNHURT)
    if body not in track.levels:
        raise EncounterFileError(_at(where, "body_level"), f"this creature has no {body.value} level")
    return CombatantState.start(sheet, fatigue, body)


def _spell(value: Any, where: str) -> Spell:
    obj = _object(value, where, ("kind", "casting_score", "name", "fast_cast_phase"))
    return Spell(
        _choice(obj, "kind", where, _enum_choices(SpellKind)),
        _int(obj, "casting_score", where),
        _str(obj, "name", where, ""),
        _choice(obj, "fast_cast_phase", where, _FAST_CAST, None),
    )


def _declaration(value: Any, where: str, known: set[str]) -> Declaration:
    obj = _object(
        value,
        where,
        (
            "combatant",
            "action",
            "weapon",
            "engage",
            "range",
            "on_success",
            "movement",
            "mounted",
            "charging",
            "high_ground",
            "routing",
            "modifier",
            "missile_phase",
            "distance",
            "spell",
        ),
    )
    combatant = _str(obj, "combatant", where)
    if combatant not in known:
        raise EncounterFileError(_at(where, "combatant"), f"no combatant with id {combatant!r}")
    distance = obj.get("distance")
    if distance is not None:
        distance = _int(obj, "distance", where, low=0, high=100000)
    spell = None if obj.get("spell") is None else _spell(obj["spell"], _at(where, "spell"))
    return Declaration(
        combatant,
        _choice(obj, "action", where, _enum_choices(Action), Action.OTHER),
        None if obj.get("weapon") is None else _str(obj, "weapon", where),
        _ids(obj, "engage", where, known),
        _choice(obj, "range", where, _enum_choices(Range), None),
        _choice(obj, "on_success", where, _enum_choices(OnSuccess), OnSuccess.HIT),
        _choice(obj, "movement", where, _enum_choices(Movement), None),
        _bool(obj, "mounted", where),
        _bool(obj, "charging", where),
        _bool(obj, "high_ground", where),
        _bool(obj, "routing", where),
        _int(obj, "modifier", where, 0),
        _choice(obj, "missile_phase", where, _MISSILE_PHASES, Phase.FIRST_MISSILE),
        distance,
        spell,
    )


def _faces(value: Any, where: str, known: set[str]) -> dict[str, dict[str, list[int]]]:
    if not isinstance(value, dict):
        raise EncounterFileError(where, f"expected an object, got {_describe(value)}")
    faces: dict[str, dict[str, list[int]]] = {}
    for combatant, per_purpose in value.items():
        if combatant not in known:
            raise EncounterFileError(_at(where, combatant), "no combatant with this id")
        place = _at(where, combatant)
        per_purpose = _object(per_purpose, place, PURPOSES)
        faces[combatant] = {}
        for purpose, rolled in per_purpose.items():
            if purpose not in PURPOSES:
                continue
            if not isinstance(rolled, list):
                raise EncounterFileError(_at(place, purpose), "expected a list of faces")
            if len(rolled) > MAX_FACES:
                raise EncounterFileError(_at(place, purpose), f"expected at most {MAX_FACES} faces")
            for index, face in enumerate(rolled):
                if isinstance(face, bool) or not isinstance(face, int) or not 0 <= face <= 9:
                    raise EncounterFileError(_at(_at(place, purpose), index), "expected a d10 face, 0 to 9")
            faces[combatant][purpose] = rolled
    return faces


def _per_combatant(
    round_obj: dict[str, Any], key: str, where: str, known: set[str], low: int, high: int
) -> tuple[int | None, dict[str, int]]:
    """An option given once for everyone (`2`) or per combatant (`{"boris": 2}`)."""
    value = round_obj.get(key)
    if value is None:
        return None, {}
    if isinstance(value, dict):
        place = _at(where, key)
        for combatant in value:
            if combatant not in known:
                raise EncounterFileError(_at(place, combatant), "no combatant with this id")
        return None, {combatant: _int(value, combatant, place, low=low, high=high) for combatant in value}
    return _int(round_obj, key, where, low=low, high=high), {}


def _round(value: Any, where: str, known: set[str]) -> RoundPlan:
    obj = _object(
        value,
        where,
        (
            "declarations",
            "dice",
            "botch_dice",
            "fatigue_ease_factor",
            "modifiers",
            "overrides",
            "extra_fatigue_rollers",
        ),
    )
    declarations = []
    declared: set[str] = set()
    for index, item in enumerate(_list(obj, "declarations", where, [])):
        place = _at(_at(where, "declarations"), index)
        declaration = _declaration(item, place, known)
        if declaration.combatant in declared:
            raise EncounterFileError(_at(place, "combatant"), "a second declaration for this combatant")
        declared.add(declaration.combatant)
        declarations.append(declaration)
    botch_default, botch_dice = _per_combatant(obj, "botch_dice", where, known, 0, 10)
    ease_default, ease_factors = _per_combatant(obj, "fatigue_ease_factor", where, known, -100, 100)
    if "modifiers" in obj and not isinstance(obj["modifiers"], dict):
        raise EncounterFileError(_at(where, "modifiers"), "expected an object of combatant ids")
    _, modifiers = _per_combatant(obj, "modifiers", where, known, -100, 100)
    on_success = {}
    for index, item in enumerate(_list(obj, "overrides", where, [])):
        place = _at(_at(where, "overrides"), index)
        override = _object(item, place, ("attacker", "defender", "on_success"))
        pair = {}
        for key in ("attacker", "defender"):
            pair[key] = _str(override, key, place)
            if pair[key] not in known:
                raise EncounterFileError(_at(place, key), f"no combatant with id {pair[key]!r}")
        on_success[(pair["attacker"], pair["defender"])] = _choice(
            override, "on_success", place, _enum_choices(OnSuccess)
        )
    options = PhaseOptions(
        botch_dice=botch_dice,
        default_botch_dice=1 if botch_default is None else botch_default,
        modifiers=modifiers,
        ease_factors=ease_factors,
        default_ease_factor=6 if ease_default is None else ease_default,
        on_success=on_success,
        extra_fatigue_rollers=_ids(obj, "extra_fatigue_rollers", where, known),
    )
    return RoundPlan(tuple(declarations), _faces(obj.get("dice", {}), _at(where, "dice"), known), options)


def read_encounter(data: dict[str, Any]) -> Encounter:
    """Check a whole encounter file; the first problem raises `EncounterFileError`."""
    _object(data, "", ("rules", "combatants", "rounds", "seed"))
    combatants = []
    known: set[str] = set()
    items = _list(data, "combatants", "")
    if not items:
        raise EncounterFileError("combatants", "expected at least one combatant")
    for index, item in enumerate(items):
        combatant = _combatant(item, _at("combatants", index))
        if combatant.id in known:
            raise EncounterFileError(
                _at(_at("combatants", index), "id"), f"a second combatant with id {combatant.id!r}"
            )
        known.add(combatant.id)
        combatants.append(combatant)
    rounds = tuple(
        _round(item, _at("rounds", index), known) for index, item in enumerate(_list(data, "rounds", ""))
    )
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise EncounterFileError("seed", "expected an integer or a text")
    return Encounter(tuple(combatants), rounds, seed)
