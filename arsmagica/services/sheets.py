"""Translation between the app's rows and the Ars Magica engine's frozen dataclasses.

Characters, weapons and declarations become `Sheet`, `CombatantState` and `Declaration`;
JSON kept in the encounter (the round's start, confirmed phases' options) becomes them
again. No rule is computed here: penalties, totals and levels all come from the engine.
"""

from __future__ import annotations

from dataclasses import replace

from arsmagica.models import Declaration as DeclarationRow
from arsmagica.models import Weapon as WeaponRow
from arsmagica.rules import (
    Action,
    BodyLevel,
    CombatantState,
    Declaration,
    Exertion,
    FatigueLevel,
    FatigueState,
    Movement,
    OnSuccess,
    Phase,
    PhaseOptions,
    Range,
    Sheet,
    Spell,
    SpellKind,
    Weapon,
    can_engage,
    fatigue_penalty,
    wound_penalty,
)
from arsmagica.rules.levels import why_not_acting
from campaign.models import Character
from combat.models import Combatant

from ..sheet import SCORES, carried, sheet_of, write

# The engine's `Sheet` takes the declared scores by their names, Dodge Defense as `dodge`.
SHEET_FIELDS = tuple(score.name for score in SCORES if score.name != "dodge_defense")
WEAPON_FIELDS = ("initiative", "attack", "defense", "damage", "missile", "paces", "twice")


def level_penalties(character: Character) -> tuple[int, int]:
    """(fatigue penalty, wound penalty) of the character's current levels, from the engine."""
    sheet = sheet_of(character)
    return (
        fatigue_penalty(FatigueLevel(sheet.fatigue_level)),
        wound_penalty(BodyLevel(sheet.body_level)),
    )


def engage_refusal(combatant: Combatant, target: Combatant) -> str | None:
    """`can_engage` asked of two combatants in the fight, by the target's Body level now (ArM3 p163)."""
    body = BodyLevel(sheet_of(target.character).body_level)
    return can_engage(combatant.character.name, target.character.name, body, itself=target.pk == combatant.pk)


def unable_to_act(character: Character) -> str:
    """Why a character takes no action, by its sheet's levels (`why_not_acting`, ArM3 p177); "" if it can."""
    sheet = sheet_of(character)
    return why_not_acting(FatigueLevel(sheet.fatigue_level), BodyLevel(sheet.body_level))


def fatigue_state_of(character: Character) -> FatigueState:
    """The character's Fatigue levels lost, each with its exertion, as the engine's `FatigueState`.

    Kept in the sheet's `fatigue_state`; when `fatigue_level` was set another way (the sheet form),
    the stored levels are cut to it (the most recent go first) or topped up with short-term ones.
    """
    sheet = sheet_of(character)
    data = sheet.fatigue_state or {}
    lost = tuple(Exertion(kind) for kind in data.get("lost", ()) if kind in _EXERTIONS)
    progress = data.get("recovery_seconds", 0)
    state = FatigueState(lost, progress if isinstance(progress, int) and progress >= 0 else 0)
    level = FatigueLevel(sheet.fatigue_level)
    if state.level is level:
        return state
    wanted = FatigueState.at(level)
    if len(lost) > len(wanted.lost):
        return FatigueState(lost[: len(wanted.lost)], 0)
    return FatigueState(lost + wanted.lost[len(lost) :], 0)


def fatigue_state_json(state: FatigueState) -> dict:
    return {"lost": [exertion.value for exertion in state.lost], "recovery_seconds": state.recovery_seconds}


def set_fatigue(character: Character, state: FatigueState) -> None:
    """Keep the sheet's `fatigue_level` and `fatigue_state` in step (the caller saves `sheet`)."""
    write(character, fatigue_state=fatigue_state_json(state), fatigue_level=state.level.value)


_EXERTIONS = {exertion.value for exertion in Exertion}


def weapon_names(character: Character) -> dict[int, str]:
    """Each weapon's name on the engine's sheet; a repeated name gets " (2)", " (3)" ..."""
    names: dict[int, str] = {}
    seen: dict[str, int] = {}
    for weapon in WeaponRow.of(character):
        count = seen.get(weapon.name, 0) + 1
        seen[weapon.name] = count
        names[weapon.pk] = weapon.name if count == 1 else f"{weapon.name} ({count})"
    return names


def sheet_snapshot(combatant: Combatant) -> dict:
    """The combatant's sheet and levels as plain JSON, kept for the whole round."""
    character = combatant.character
    sheet = sheet_of(character)
    names = weapon_names(character)
    return {
        "name": character.name,
        "dodge": sheet.dodge_defense,
        **{field: getattr(sheet, field) for field in SHEET_FIELDS},
        "weapons": [
            {
                "id": weapon.pk,
                "name": names[weapon.pk],
                "range": weapon.optimum_range,
                **{field: getattr(weapon, field) for field in WEAPON_FIELDS},
            }
            for weapon in WeaponRow.of(character)
        ],
        "fatigue_level": sheet.fatigue_level,
        "fatigue_state": fatigue_state_json(fatigue_state_of(character)),
        "body_level": sheet.body_level,
        "advantage_attack": carried(combatant).advantage_attack,
        "advantage_defense": carried(combatant).advantage_defense,
    }


def sheet_from_snapshot(combatant_id: str, snapshot: dict) -> Sheet:
    weapons = tuple(
        Weapon(
            name=weapon["name"],
            initiative=weapon["initiative"],
            attack=weapon["attack"],
            defense=weapon["defense"],
            damage=weapon["damage"],
            range=Range(weapon["range"]),
            missile=weapon["missile"],
            paces=weapon["paces"],
            twice=weapon["twice"],
        )
        for weapon in snapshot["weapons"]
    )
    return Sheet(
        id=combatant_id,
        name=snapshot["name"],
        weapons=weapons,
        dodge=snapshot["dodge"],
        **{field: snapshot[field] for field in SHEET_FIELDS},
    )


def combatant_state(combatant_id: str, snapshot: dict) -> CombatantState:
    """A combatant entering the round at its snapshot's levels, with the advantage it carries."""
    state = CombatantState.start(
        sheet_from_snapshot(combatant_id, snapshot),
        FatigueLevel(snapshot["fatigue_level"]),
        BodyLevel(snapshot["body_level"]),
    )
    changes = {}
    if snapshot.get("fatigue_state"):  # each lost level's exertion (snapshots from before it: all short-term)
        fatigue = FatigueState(
            tuple(Exertion(kind) for kind in snapshot["fatigue_state"]["lost"]),
            snapshot["fatigue_state"]["recovery_seconds"],
        )
        if fatigue.level is state.fatigue_level:
            changes["fatigue"] = fatigue
    return replace(
        state,
        advantage_attack=snapshot["advantage_attack"],
        advantage_defense=snapshot["advantage_defense"],
        **changes,
    )


def with_levels(state: CombatantState, character: Character) -> CombatantState:
    """The combatant at the levels its row shows (after a correction, or time passing between rounds)."""
    sheet = sheet_of(character)
    fatigue_level, body_level = sheet.fatigue_level, sheet.body_level
    if state.fatigue_level.value != fatigue_level:
        state = replace(state, fatigue=fatigue_state_of(character))
    if state.body_level.value != body_level:
        state = replace(state, body_levels_lost=state.sheet.body_track.levels_lost_at(BodyLevel(body_level)))
    return state


def weapon_name_in(snapshot: dict, weapon_id: int | None) -> str | None:
    for weapon in snapshot["weapons"]:
        if weapon["id"] == weapon_id:
            return weapon["name"]
    return None


def declaration_of(row: DeclarationRow, snapshot: dict) -> Declaration:
    """A declaration row as the engine's Declaration; ids are combatant ids as strings."""
    spell = None
    if row.action == DeclarationRow.Action.CAST:
        spell = Spell(
            kind=SpellKind(row.spell_kind or SpellKind.FORMULAIC.value),
            casting_score=row.casting_score,
            name=row.spell_name,
            fast_cast_phase=Phase(row.fast_cast_phase) if row.fast_cast_phase else None,
        )
    return Declaration(
        combatant=str(row.combatant_id),
        action=Action(row.action),
        weapon=weapon_name_in(snapshot, row.weapon_id),
        engage=tuple(str(target) for target in row.engage),
        range=Range(row.range) if row.range else None,
        on_success=OnSuccess(row.on_success),
        movement=Movement(row.movement) if row.movement else None,
        mounted=row.mounted,
        charging=row.charging,
        high_ground=row.high_ground,
        routing=row.routing,
        modifier=row.modifier,
        missile_phase=Phase(row.missile_phase),
        distance=row.distance,
        spell=spell,
    )


def options_from_json(data: dict | None) -> PhaseOptions:
    """The storyguide's phase options, from the JSON kept in `pending` and the round log."""
    data = data or {}
    return PhaseOptions(
        botch_dice={key: int(value) for key, value in data.get("botch_dice", {}).items()},
        modifiers={key: int(value) for key, value in data.get("modifiers", {}).items()},
        ease_factors={key: int(value) for key, value in data.get("ease_factors", {}).items()},
        on_success={
            tuple(key.split(":", 1)): OnSuccess(value) for key, value in data.get("on_success", {}).items()
        },
        extra_fatigue_rollers=tuple(data.get("extra_fatigue_rollers", ())),
    )
