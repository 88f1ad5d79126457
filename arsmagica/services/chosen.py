"""The storyguide's options that changed a confirmed phase's rolls, written on each roll's log entry (the
attack, the spell, the Fatigue roll), so the record says which option changed which roll [ours].

Only what differs from what the round would have done alone counts: a modifier but 0, botch dice but the
default one, an ease factor but the default 6 (ArM3 p177), hit or advantage other than declared (ArM3
p168), a Fatigue roll the storyguide called for. Who set them is the entry's actor, the storyguide.
"""

from __future__ import annotations

from arsmagica.events import Kind
from arsmagica.rules.state import DEFAULT_OPTIONS

# What each option is when the storyguide leaves it alone.
UNCHANGED = {
    "modifier": 0,
    "botch_dice": DEFAULT_OPTIONS.default_botch_dice,
    "ease_factor": DEFAULT_OPTIONS.default_ease_factor,
}
# The phase options' maps by combatant, by the name one entry of them has on a roll.
MAPS = {"modifier": "modifiers", "botch_dice": "botch_dice", "ease_factor": "ease_factors"}


def _set_for(combatant: str, options: dict, names: tuple[str, ...]) -> list[dict]:
    """The combatant's options among `names` that differ from the unchanged ones."""
    chosen = []
    for name in names:
        value = options.get(MAPS[name], {}).get(combatant, UNCHANGED[name])
        if value != UNCHANGED[name]:
            chosen.append({"combatant": combatant, "option": name, "value": value})
    return chosen


def chosen_on(kind: str, record: dict, options: dict, declared: dict[str, str]) -> list[dict]:
    """The storyguide's options that changed this roll (an entry of the kind, as the engine wrote it), each as
    {"combatant", "option", "value"}; `declared` is each attacker's declared hit or advantage."""
    if kind == Kind.ATTACK:
        attacker = record["attacker"]
        chosen = _set_for(attacker, options, ("modifier", "botch_dice"))
        if record.get("defense_roll") is not None:  # one who cannot defend rolls nothing
            chosen += _set_for(record["defender"], options, ("modifier", "botch_dice"))
        switched = options.get("on_success", {}).get(f"{attacker}:{record['defender']}")
        if record.get("applied_as") and switched and switched != declared.get(attacker):
            chosen.append({"combatant": attacker, "option": "on_success", "value": switched})
        return chosen
    if kind == Kind.SPELL:
        return _set_for(record["caster"], options, ("modifier", "botch_dice"))
    if kind == Kind.FATIGUE_ROLL:
        combatant = record["combatant"]
        chosen = _set_for(combatant, options, ("modifier", "botch_dice", "ease_factor"))
        if combatant in options.get("extra_fatigue_rollers", ()):
            chosen.append({"combatant": combatant, "option": "called", "value": True})
        return chosen
    return []


def with_chosen(kind: str, record: dict, options: dict, declared: dict[str, str]) -> dict:
    """The entry's payload: the record, with `storyguide_options` when any option changed it."""
    chosen = chosen_on(kind, record, options, declared)
    return {**record, "storyguide_options": chosen} if chosen else record
