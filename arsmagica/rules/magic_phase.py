"""Phase 5, Magic: spells cast in order, casting totals recorded; fast-casting earlier."""

from __future__ import annotations

from dataclasses import replace

from .dicebox import DiceBox
from .fatigue import fatigue_test
from .fight import Fight
from .magic import SpellKind, casting_order_key, casting_speed, casting_total
from .phase import Phase
from .records import CastingRecord, PhaseResult, Skip
from .state import DEFAULT_OPTIONS, Action, PhaseOptions, RoundState

_NOTHING = PhaseResult(Phase.MAGIC)


def cast_spells(fight: Fight, phase: Phase) -> tuple[list[CastingRecord], list[Skip]]:
    """Cast the spells due in `phase`: fast-cast ones in earlier phases, the rest in Magic;
    spontaneous before formulaic, then higher Qik + Finesse + Encumbrance (ArM3 p168).
    A spontaneous spell calls for a fatigue test (ArM3 p177)."""
    if Action.CAST not in fight.actions:
        return [], []
    due = []
    for declaration in fight.state.declarations:
        spell = declaration.spell
        if declaration.action is not Action.CAST or spell is None:
            continue
        if (spell.fast_cast_phase or Phase.MAGIC) is not phase:
            continue
        sheet = fight.combatants[declaration.combatant].sheet
        speed = casting_speed(sheet.quickness, sheet.finesse, sheet.encumbrance)
        acting = fight.acting.get(sheet.id, len(fight.acting))
        due.append((casting_order_key(spell.kind, speed, acting), speed, declaration))
    due.sort(key=lambda item: item[0])
    records: list[CastingRecord] = []
    skipped: list[Skip] = []
    for _, speed, declaration in due:
        caster = fight.combatants[declaration.combatant]
        spell = declaration.spell
        if not caster.can_act:
            skipped.append(Skip(caster.id, None, f"{caster.sheet.name} is down and casts nothing"))
            continue
        parts = [("casting score", spell.casting_score)]
        if caster.penalty:
            parts.append(("fatigue and wound penalties", caster.penalty))
        modifier = fight.modifier_for(caster.id)
        if modifier:
            parts.append(("storyguide", modifier))
        roll = fight.roll(caster.id, "magic")
        total = casting_total(roll, spell.casting_score, sum(value for _, value in parts[1:]))
        parts.insert(1, ("stress die", roll.value))
        test = None
        if spell.kind is SpellKind.SPONTANEOUS:
            fatigue, test = fatigue_test(
                caster.id,
                fight.dice_box.dice_for(caster.id, "fatigue"),
                caster.fatigue,
                stamina=caster.sheet.stamina,
                encumbrance=caster.sheet.encumbrance,
                wound_penalty=caster.wound_penalty,
                botch_dice=fight.botch_dice_for(caster.id),
            )
            fight.set_combatant(caster.with_fatigue(fatigue))
        records.append(
            CastingRecord(phase, caster.id, spell.kind, spell.name, speed, total, tuple(parts), roll, test)
        )
    return records, skipped


def magic(fight: Fight) -> PhaseResult:
    """Magic: all spontaneous spells, then all formulaic ones (ArM3 p168)."""
    if Action.CAST not in fight.actions:
        return _NOTHING
    spells, skipped = cast_spells(fight, Phase.MAGIC)
    return PhaseResult(Phase.MAGIC, spells=tuple(spells), skipped=tuple(skipped))


def magic_phase(
    state: RoundState, dice_box: DiceBox, options: PhaseOptions = DEFAULT_OPTIONS
) -> tuple[RoundState, PhaseResult]:
    """Magic: all spontaneous spells, then all formulaic ones (ArM3 p168)."""
    state.expect(Phase.MAGIC)
    if not any(item.action is Action.CAST for item in state.declarations):
        return replace(state, phase=Phase.FATIGUE), _NOTHING
    fight = Fight(state, dice_box, options)
    result = magic(fight)
    return fight.state_after(Phase.FATIGUE), result
