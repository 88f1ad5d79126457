"""Each Ars Magica event as one sentence built from its fields (ArM3 p163-p177): a phone's pop-up and a
screen reader's words (`combat.sentences`). The payload is the one its audience sees, so an NPC's roll a
player may not see is not there to be said: its total reads "behind the screen", its dice nothing."""

from __future__ import annotations

from typing_extensions import override

from combat import systems
from combat.templatetags.combat_tags import duration, words

from . import presenters as say


def name(names: dict, key) -> str:
    """A combatant's name as the log named it at that step."""
    return names.get(str(key), "") if names else ""


def stress(roll: dict | None) -> str:
    """A stress die in words, "stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18", a first 0's botch
    dice and what came of them (ArM3 p163); "" for a roll not shown."""
    return say.said(say.stress_parts(roll))


def total(value) -> str:
    """A total, or the screen's words for one not shown."""
    return "behind the screen" if value in ("", None) else str(value)


def rolled(roll: dict | None, value) -> str:
    """A stress die and its total, as the page says it: "stress die 7 +10 = 17"; the total alone, or the
    screen's words."""
    return say.said(say.rolled_parts(roll, value)) or total(value)


def chosen(p: dict, names: dict) -> str:
    """The storyguide's options that changed a roll: " (set by the storyguide: Sir Boris +3)"."""
    said = say.chosen_words(p.get("storyguide_options") or [], names)
    return f" (set by the storyguide: {said})" if said else ""


def declared(p: dict, names: dict, storyguide: bool) -> str:
    """Who declared; what, for the storyguide alone (ArM3 p163)."""
    what = f": {say.declaration_summary(p['summary'], names)}" if storyguide and p.get("summary") else ""
    return f"{p['name']} has declared{what}."


def movement(p: dict, names: dict, storyguide: bool) -> str:
    """Initiative in order, then who engaged whom and who got away (ArM3 p163-p164)."""
    them = p.get("names") or names
    order = "; ".join(
        f"{name(them, row['combatant'])}, Initiative: {rolled(row.get('roll'), row.get('total'))}"
        for row in p.get("initiative", [])
    )
    said = [f"Declarations closed, Initiative rolled: {order}." if order else "Declarations closed."]
    said += [f"{say.engagement_line(pair, them)}." for pair in p.get("engagements", [])]
    said += [
        f"{name(them, e['combatant'])} gets away from {name(them, e['pursuer'])}."
        for e in p.get("escapes", [])
    ]
    return " ".join(said)


def attack(p: dict, names: dict, storyguide: bool) -> str:
    """Who attacked whom with what, both totals, and what came of it (ArM3 p168)."""
    said = (
        f"{name(names, p['attacker'])} attacks {name(names, p['defender'])} ({say.weapon_at(p)}): "
        f"Attack: {rolled(p.get('attack_roll'), p.get('attack_total'))}, vs "
        f"Defense: {rolled(p.get('defense_roll'), p.get('defense_total'))}"
    )
    if p["result"] == "hit":
        harm = (
            f", {say.lost(p['body_levels_lost'], 'Body')}"
            if p.get("body_levels_lost")
            else ", no lasting harm"
        )
        down = " (went down first: no damage dealt)" if p.get("damage_prevented") else ""
        outcome = f"{say.hit_words(p)}{say.damage_words(p)}{harm}{down}"
    elif p["result"] == "advantage":
        outcome = f"{say.advantage_won(p)} to next round's {say.advantage_side(p.get('applied_as'))}"
    else:
        outcome = "Miss"
    return f"{said}. {outcome}.{chosen(p, names)}"


def fatigue_test(t: dict | None) -> str:
    """A spell's or a roll's Fatigue test: " Fatigue 7 (7 = 7) vs 9: 1 Fatigue level lost"."""
    if not t:
        return ""
    lost = f": {say.lost(t['levels_lost'], 'Fatigue')}" if t.get("levels_lost") else ": holds on"
    return f" Fatigue test: {rolled(t.get('roll'), t.get('total'))}{say.versus(t.get('ease_factor'))}{lost}."


def spell(p: dict, names: dict, storyguide: bool) -> str:
    """A spell cast: its casting total and a spontaneous spell's Fatigue test (ArM3 p168)."""
    spell_name = p.get("spell") or "a spell"
    cast = f"{name(names, p['caster'])} casts {spell_name} ({p['kind']}), casting total: "
    said = cast + rolled(p.get("roll"), p.get("casting_total")) + "."
    return said + fatigue_test(p.get("fatigue_test")) + chosen(p, names)


def fatigue_roll(p: dict, names: dict, storyguide: bool) -> str:
    """A Fatigue roll and what it cost (ArM3 p177)."""
    outcome = say.fatigue_lost(p) if p.get("levels_lost") else "holds on"
    botch = " (a botch)" if p.get("botch") and not p.get("roll") else ""
    versus = say.versus(p.get("ease_factor"))
    roll = rolled(p.get("roll"), p.get("total"))
    return f"{name(names, p['combatant'])}, Fatigue roll: {roll}{versus}: {outcome}{botch}.{chosen(p, names)}"


def skipped(p: dict, names: dict, storyguide: bool) -> str:
    """Something declared that did not happen, and why."""
    target = f" → {name(names, p['target'])}" if p.get("target") else ""
    return f"{name(names, p['combatant'])}{target}: {p['reason']}"


def level_changes(changes: list, names: dict) -> str:
    """The levels a phase changed, after its sentence."""
    return say.level_changes(changes or [], names)


def previewed(p: dict, names: dict, storyguide: bool) -> str:
    """A phase rolled for the storyguide's preview, not yet confirmed."""
    changed = " (options changed)" if p.get("options") else ""
    return f"The storyguide rolled {words(p['phase'])} for a preview{changed}."


def phase_resolved(p: dict, names: dict, storyguide: bool) -> str:
    """A phase confirmed: whose levels changed, who died (ArM3 p163-p177)."""
    phase = say.phase_name(p["phase"])
    if p.get("quiet"):
        return f"{phase}: nothing happened (nobody acted in it)."
    deaths = "".join(
        f" {name(names, who)} is dead (the storyguide may correct this)." for who in p.get("deaths", [])
    )
    return f"{phase} resolved.{level_changes(p.get('levels'), names)}{deaths}"


def phase_undone(p: dict, names: dict, storyguide: bool) -> str:
    """A confirmed phase taken back by the storyguide, with the reason."""
    back = say.undo_words(p["phase"], p.get("passed", []))
    changes = level_changes(p.get("levels"), names)
    return f"Undone by the storyguide: {back} is taken back, to be confirmed again.{changes} “{p['reason']}”"


def round_ended(p: dict, names: dict, storyguide: bool) -> str:
    """The round over, and the advantage carried into the next (ArM3 p168)."""
    carried = "".join(
        f" {name(names, adv['combatant'])} carries advantage{say.advantage_carried(adv)}."
        for adv in p.get("advantages", [])
    )
    return f"Round {p['round']} is over.{carried}"


def correction(p: dict, names: dict, storyguide: bool) -> str:
    """The storyguide's correction of a combatant, and why."""
    changes = ", ".join(
        f"{say.correction_field(key)} {words(old)} → {words(new)}" for key, (old, new) in p["changes"].items()
    )
    return f"Correction to {p['name']}: {changes}. “{p['reason']}”"


def recovered(c: dict) -> str:
    """Fatigue after a rest: "Marta: Winded → fresh (Stamina roll: simple die 6 + Stamina 2 = 8 vs ease factor
    9: no help)"."""
    level = (
        say.still(c["to"]) if c["from"] == c["to"] else f"{words(c['from']).capitalize()} → {words(c['to'])}"
    )
    stamina = c.get("stamina")
    if stamina:
        face = ""
        if "face" in stamina:
            face = f": simple die {stamina['face']}{say.simple_die_note(stamina['face'])}"
        level += f" (Stamina roll{face}{say.stamina_outcome(stamina)})"
    if c.get("blocked_by_long_term"):
        level += ", long-term fatigue waits for a good meal and a night's sleep"
    return f"{c['name']}: {level}"


def recoveries(p: dict) -> str:
    """Each character's Fatigue after a rest, after the rest's sentence."""
    said = "; ".join(recovered(c) for c in p.get("characters", []))
    return f" {said}." if said else ""


def time_passed(p: dict, names: dict, storyguide: bool) -> str:
    """Minutes of rest or activity, and what each character recovered (ArM3 p177)."""
    return f"{duration(p['minutes']).capitalize()} pass, {say.resting_how(p['active'])}.{recoveries(p)}"


def night_of_sleep(p: dict, names: dict, storyguide: bool) -> str:
    """A night's sleep, and what each character recovered (ArM3 p177)."""
    return f"A night's sleep{say.after_meal(p['good_meal'])}.{recoveries(p)}"


def exertion(p: dict, names: dict, storyguide: bool) -> str:
    """Fatigue lost to a long-term exertion, back only after sleep (ArM3 p177)."""
    lost = say.lost(p["levels"], "Fatigue")
    change = f"{words(p['from']).capitalize()} → {words(p['to'])}"
    return f"{p['name']}: {p['what']}, {lost} to long-term exertion, {change}."


class Log(systems.Log):
    """Ars Magica's log: the round's phases as where each event happened, and what players see of it."""

    NPC_ROLLS = say.NPC_ROLLS

    @override
    def event_label(self, event, *, in_round=False):
        return say.event_label(event, in_round=in_round)

