"""The words of the Ars Magica pages, made in Python: log entries, previews, cards and buttons, and what
players see of them (ArM3 p163-p177)."""

from __future__ import annotations

from combat.audience import behind_the_screen, without
from combat.templatetags.combat_tags import signed

from .kinds import Kind
from .rules.missile_phase import MISSILE_PHASES, fires_in
from .rules.table import STEPS
from .sheet import sheet_of


def phase_name(value) -> str:
    """melee → Melee; first_missile → First Missile; "" → ""."""
    value = str(value or "")
    return (STEPS.get(value) if value else "") or value.replace("_", " ").capitalize()


def level_labels(character) -> list[tuple[str, str]]:
    """The character's current levels as the table reads them: ("Fatigue level", "Winded"), ...; ArM3 p177."""
    from .models import BodyLevel, FatigueLevel

    sheet = sheet_of(character)
    return [
        ("Fatigue level", FatigueLevel(sheet.fatigue_level).label),
        ("Body level", BodyLevel(sheet.body_level).label),
    ]


def fatigue_words(level: str) -> str:
    """A Fatigue level and what it does: "Weary: −1 to rolls", "Unconscious: no actions" (ArM3 p177)."""
    from .models import FatigueLevel
    from .rules import levels

    penalty = levels.fatigue_penalty(levels.FatigueLevel(level))
    return _level_words(FatigueLevel(level), penalty, first=FatigueLevel.FRESH, out=FatigueLevel.UNCONSCIOUS)


def body_words(level: str) -> str:
    """A Body level and what it does: "Light Wounds: −1 to rolls", "Incapacitated: no actions" (ArM3 p177)."""
    from .models import BodyLevel
    from .rules import levels

    if level == BodyLevel.DEAD:
        return BodyLevel.DEAD.label
    penalty = levels.wound_penalty(levels.BodyLevel(level))
    return _level_words(BodyLevel(level), penalty, first=BodyLevel.UNHURT, out=BodyLevel.INCAPACITATED)


def penalty_words(penalty: int) -> str:
    """Fatigue and wound penalties together: "−4 to every roll but Soak" (ArM3 p177)."""
    return f"−{abs(penalty)} to every roll but Soak" if penalty < 0 else ""


def _level_words(level, penalty: int, *, first, out) -> str:
    if level == first:
        return level.label
    if level == out:
        return f"{level.label}: no actions"
    return f"{level.label}: −{abs(penalty)} to rolls" if penalty else f"{level.label}: no penalty yet"


def close_declarations_label(declared: int, able: int, unable: int = 0) -> str:
    """The storyguide's button once everyone may have declared (ArM3 p163): of those who can act; those who
    cannot (p177) have nothing to declare and are not waited for."""
    out = f"; {unable} cannot act" if unable else ""
    return f"Close declarations, roll Initiative ({declared}/{able} declared{out})"


def close_declarations_confirm(waiting: list[str]) -> str:
    """The storyguide's one confirmation before declarations close on someone who can act and has not
    declared (ArM3 p163: they do nothing this round), naming them; "" when nobody is left out."""
    if not waiting:
        return ""
    who = waiting[0] if len(waiting) == 1 else f"{', '.join(waiting[:-1])} and {waiting[-1]}"
    verb = "has" if len(waiting) == 1 else "have"
    return f"{who} {verb} not declared and will do nothing this round. Close declarations anyway?"


def end_round_label(round_number: int) -> str:
    """The storyguide's button after the Fatigue phase: this round ends, the next opens (ArM3 p163)."""
    return f"End round {round_number}, open round {round_number + 1}"


def event_label(event, *, in_round: bool = False) -> str:
    """Where an event happened, for everyone: "R1 · Melee", "Setting up"; just "Melee" inside a round's
    heading. No sequence number: players do not see the storyguide's entries, so theirs would skip."""
    phase = phase_name(event.phase) if event.round_number else ""
    if in_round:
        return phase
    where = f"R{event.round_number}" if event.round_number else "Setting up"
    return f"{where} · {phase}" if phase else where


# The saga's setting for NPC rolls, in Ars Magica's words (`combat.systems.Log.NPC_ROLLS`).
NPC_ROLLS = {
    "results": "Results only: hit or miss, the wound, the Fatigue level lost",
    "totals": "Attack, Defense and other totals, and the results; no dice",
    "everything": "Everything: scores, dice and totals",
}


def players_record(record, characters: set[str], npc_rolls: str) -> dict:
    """Time passing, on an encounter or between encounters, as the players see it: an NPC's Stamina roll at
    the saga's setting, its outcome kept (`characters` holds the player characters' ids, as strings; the
    ease factor is the rule's 9 for everyone, ArM3 p177)."""
    payload = record.payload
    hidden = behind_the_screen(npc_rolls, dice=("face", "value"), scores=("stamina",), totals=("total",))
    if record.kind != Kind.TIME_PASSED or not hidden:
        return payload
    rows = [
        {**row, "stamina": without(row["stamina"], hidden)}
        if row.get("stamina") and str(row.get("character")) not in characters
        else row
        for row in payload.get("characters", [])
    ]
    return {**payload, "characters": rows}


def screened_advantage(npc_rolls: str) -> bool:
    """Whether an NPC's advantage stays behind the screen: it is the margin of its success (ArM3 p168), the
    attack's `difference`, which the saga's setting keeps from players with the NPC's totals."""
    return bool(behind_the_screen(npc_rolls, totals=("difference",)))


def advantage_sides(attack: int, defense: int) -> str:
    """An NPC's advantage with its size behind the screen: "Attack (behind the screen)"; "" when none."""
    sides = [side for side, value in (("Attack", attack), ("Defense", defense)) if value]
    return f"{' and '.join(sides)} (behind the screen)" if sides else ""


def players_round_ended(payload: dict, players: set[str], npc_rolls: str) -> dict:
    """The round over: an NPC's advantage carried into the next as the rolls it helps, its size behind the
    screen where the setting keeps NPC totals there (issue 35, item 10); a player character's whole."""
    if not screened_advantage(npc_rolls) or "advantages" not in payload:
        return payload
    rows = [
        row
        if row.get("combatant") in players
        else {"combatant": row.get("combatant"), "screened": [s for s in ("attack", "defense") if row.get(s)]}
        for row in payload["advantages"]
    ]
    return {**payload, "advantages": rows}


def players_opened(payload: dict, players: set[str], npc_rolls: str) -> dict:
    """A round begins: each NPC's levels as the round starts, its advantage's size behind the screen as in
    the line that carried it over (`players_round_ended`)."""
    if not screened_advantage(npc_rolls) or "start" not in payload:
        return payload
    rows = []
    for row in payload["start"]:
        if row.get("combatant") in players:
            rows.append(row)
            continue
        screened = [side for side in ("attack", "defense") if row.get(f"advantage_{side}")]
        shown = without(row, {"advantage_attack", "advantage_defense"})
        rows.append({**shown, "advantage_screened": screened})
    return {**payload, "start": rows}


def players_chosen(chosen: list[dict], players: set[str], npc_rolls: str) -> list[dict]:
    """The storyguide's options that changed a roll: an NPC's modifier or ease factor (part of its total)
    without its value where the saga keeps its scores behind the screen; the rest as they are."""
    if not behind_the_screen(npc_rolls, scores=("value",)):
        return chosen
    return [
        without(entry, {"value"})
        if entry["combatant"] not in players and entry["option"] in SCORES
        else entry
        for entry in chosen
    ]


def players_faces(faces: dict, players: set[str], npc_rolls: str) -> dict:
    """The faces a step rolled, by combatant: an NPC's only where the saga lets players see its dice."""
    if not behind_the_screen(npc_rolls, dice=("faces",)):
        return faces
    return {who: rolled for who, rolled in faces.items() if who in players}


def players_options(options: dict, players: set[str], npc_rolls: str) -> dict:
    """The storyguide's options for a phase: an NPC's modifiers and ease factors (parts of its totals) only
    where the saga lets players see its scores; botch dice and who rolls for Fatigue stay."""
    hidden = behind_the_screen(npc_rolls, scores=("modifiers", "ease_factors"))
    return {
        key: {who: value for who, value in chosen.items() if who in players} if key in hidden else chosen
        for key, chosen in options.items()
    }


def players_initiative(row: dict, players: set[str], npc_rolls: str) -> dict:
    """One Initiative row: an NPC's keeps its place and its paces (ArM3 p163)."""
    if row.get("combatant") in players:
        return row
    scores = ("parts", "initiative_score")
    return without(row, behind_the_screen(npc_rolls, dice=("roll",), scores=scores, totals=("total",)))


def players_movement(payload: dict, own: set[str], players: set[str], npc_rolls: str) -> dict:
    """A Movement event: the player characters' declarations (the viewer's own in full), every Initiative
    row and the faces rolled at the saga's setting, engagements and escapes as they are (ArM3 p163-p164)."""
    shown = dict(payload)
    if "dice" in payload:
        shown["dice"] = players_faces(payload["dice"], players, npc_rolls)
    if "initiative" in payload:
        shown["initiative"] = [players_initiative(row, players, npc_rolls) for row in payload["initiative"]]
    if "declarations" in payload:
        rows = [row for row in payload["declarations"] if row.get("combatant") in players]
        shown["declarations"] = [
            row if row["combatant"] in own else {"combatant": row["combatant"]} for row in rows
        ]
    return shown


def players_attack(attack: dict, players: set[str], npc_rolls: str) -> dict:
    """An attack: an NPC side's roll, parts and total at the saga's setting; the margin and the Damage Total
    go with either side's total (they would give it away); the result and the wound stay (ArM3 p168)."""
    hidden = set()
    if attack.get("attacker") not in players:
        hidden |= behind_the_screen(
            npc_rolls,
            dice=("attack_roll",),
            scores=("attack_parts",),
            totals=("attack_total", "difference", "damage_total"),
        )
    if attack.get("defender") not in players:
        hidden |= behind_the_screen(
            npc_rolls,
            dice=("defense_roll",),
            scores=("defense_parts", "soak"),
            totals=("defense_total", "difference", "damage_total"),
        )
    return without(attack, hidden)


def screened_fatigue(roll: dict, npc_rolls: str) -> dict:
    """An NPC's Fatigue roll: the levels lost, the new level and a botch stay (ArM3 p177)."""
    return without(
        roll, behind_the_screen(npc_rolls, dice=("roll",), scores=("parts", "ease_factor"), totals=("total",))
    )


def players_fatigue_roll(roll: dict, players: set[str], npc_rolls: str) -> dict:
    """A Fatigue roll, an NPC's at the saga's setting (ArM3 p177)."""
    return roll if roll.get("combatant") in players else screened_fatigue(roll, npc_rolls)


def players_spell(spell: dict, players: set[str], npc_rolls: str) -> dict:
    """A spell, an NPC caster's casting total and Fatigue test at the saga's setting (ArM3 p168)."""
    if spell.get("caster") in players:
        return spell
    hidden = behind_the_screen(
        npc_rolls, dice=("roll",), scores=("parts", "casting_speed"), totals=("casting_total",)
    )
    shown = without(spell, hidden)
    if spell.get("fatigue_test"):
        shown = {**shown, "fatigue_test": screened_fatigue(spell["fatigue_test"], npc_rolls)}
    return shown


# The entries that are rolls, each with what players see of it; the storyguide's options that are scores.
SCORES = ("modifier", "ease_factor")


# --- the words of log lines and previews ------------------------------------------------------


def levels(count: int, track: str) -> str:
    """3, "Body" → "3 Body levels"; 1, "Fatigue" → "1 Fatigue level" (ArM3 p177)."""
    return f"{count} {track} level{'' if count == 1 else 's'}"


def lost(count: int, track: str) -> str:
    """2, "Body" → "2 Body levels lost"."""
    return f"{levels(count, track)} lost"


def fatigue_lost(roll: dict) -> str:
    """A Fatigue roll that failed: "1 Fatigue level lost, now winded" (ArM3 p177)."""
    return f"{lost(roll['levels_lost'], 'Fatigue')}, now {roll['fatigue_level']}"


def hit_outcome(attack: dict) -> str:
    """A hit in the preview: "Hit by 4: Damage 12 vs Soak 5 → 2 Body levels" (ArM3 p168)."""
    harm = levels(attack["body_levels_lost"], "Body") if attack["body_levels_lost"] else "no lasting harm"
    return f"Hit by {attack['difference']}: {damage_vs_soak(attack)} → {harm}"


def fatigue_loses(roll: dict) -> str:
    """A failed Fatigue roll in the preview: "loses 1 Fatigue level, now winded" (ArM3 p177)."""
    return f"loses {levels(roll['levels_lost'], 'Fatigue')}, now {roll['fatigue_level']}"


def nothing_happens(phase: str) -> str:
    """A preview with no roll; in the Fatigue phase the storyguide may still call for one (ArM3 p168)."""
    unless = " unless you call for a roll below" if phase == "fatigue" else ""
    return f"Nothing happens in this phase{unless}."


def options_summary(phase: str) -> str:
    """The heading of a preview's options per combatant; the Fatigue phase also asks who else rolls."""
    if phase == "fatigue":
        return "Options per combatant: botch dice, modifiers, who else rolls"
    return "Options per combatant: botch dice and modifiers"


def weapon_at(attack: dict) -> str:
    """The weapon and the range it was used at: "Sword at reach"; a missile's "Bow" alone."""
    return f"{attack['weapon']} at {attack['range']}" if attack.get("range") else attack["weapon"]


SCREENED_WORDS = "(behind the screen)"


def hit_words(attack: dict) -> str:
    """A hit in the log: "Hit by 4", or "Hit" when the margin would give an NPC's total away (ArM3 p168)."""
    return f"Hit by {attack['difference']}" if "difference" in attack else "Hit"


def damage_words(attack: dict) -> str:
    """After a hit: ": Damage 12 vs Soak 5", ": Damage 12" without an NPC's Soak, nothing without the Damage
    Total (ArM3 p168)."""
    if attack.get("damage_total") is None:
        return ""
    if "soak" not in attack:
        return f": Damage {attack['damage_total']}"
    return f": {damage_vs_soak(attack)}"


def advantage_won(attack: dict) -> str:
    """A success taken as advantage: "Advantage +3", or "Advantage" when the margin is behind the screen."""
    return f"Advantage +{attack['difference']}" if "difference" in attack else "Advantage"


def versus(ease_factor) -> str:
    """ " vs ease factor 9" after a roll's total; nothing when an NPC's Ease Factor is behind the screen
    (ArM3 p177)."""
    return "" if ease_factor in ("", None) else f" vs ease factor {ease_factor}"


def damage_vs_soak(attack: dict) -> str:
    """A hit's Damage Total against the defender's Soak: "Damage 12 vs Soak 5" (ArM3 p168)."""
    return f"Damage {attack['damage_total']} vs Soak {attack['soak']}"


def advantage_side(applied_as: str | None) -> str:
    """Where a success taken as advantage counts next round: Attack, or Defense (ArM3 p168)."""
    return "Defense" if applied_as == "advantage_defense" else "Attack"


def advantage_carried(advantage: dict) -> str:
    """What a combatant carries into the next round: " Attack +3 Defense +2" (ArM3 p168); an NPC's " on Attack
    (behind the screen)" where its size is kept from players (`players_round_ended`)."""
    if "screened" in advantage:
        sides = " and ".join(side.title() for side in advantage["screened"])
        return f" on {sides} (behind the screen)" if sides else ""
    attack = f" Attack +{advantage['attack']}" if advantage.get("attack") else ""
    defense = f" Defense +{advantage['defense']}" if advantage.get("defense") else ""
    return attack + defense


def level_change(change: dict) -> str:
    """A combatant's levels after a phase: the new Body level, then the new Fatigue level if either moved."""
    body_from, body_to = change["body_level"]
    fatigue_from, fatigue_to = change["fatigue_level"]
    body = body_to.replace("_", " ") if body_from != body_to else ""
    fatigue = f" {fatigue_to}" if fatigue_from != fatigue_to else ""
    return body + fatigue


def level_changes(changes: list[dict], names: dict) -> str:
    """Every level a phase changed: " Sir Boris: light wounds. Bandit 1: incapacitated winded."."""
    return "".join(f" {names.get(str(c['combatant']), '')}: {level_change(c)}." for c in changes)


def declaration_summary(summary: dict, names: dict) -> str:
    """A declaration for the storyguide's log: "Fight hand to hand with Sword, engaging Bandit 1"."""
    words = summary.get("action_label", "")
    if summary.get("weapon"):
        words += f" with {summary['weapon']}"
    if summary.get("engage"):
        words += ", engaging " + ", ".join(names.get(str(target), "") for target in summary["engage"])
    return words


def engagement_line(pair: dict, names: dict) -> str:
    """Who engaged whom, and who won the contest: "Sir Boris ⚔ Bandit 1 at reach (Bandit 1 prevailed)"."""
    line = f"{names.get(str(pair['a']), '')} ⚔ {names.get(str(pair['b']), '')} at {pair['range']}"
    if pair.get("contested"):
        line += f" ({names.get(str(pair['prevailed']), '')} prevailed)"
    return line


def option_words(entry: dict) -> str:
    """One storyguide's option on a roll: "+3", "2 botch dice", "ease factor 9", "success taken as a hit",
    "roll called"; a modifier or ease factor players do not see, as behind the screen."""
    option, value = entry["option"], entry.get("value")
    if option == "modifier":
        return "a modifier behind the screen" if value is None else signed(value)
    if option == "ease_factor":
        return "an ease factor behind the screen" if value is None else f"ease factor {value}"
    if option == "botch_dice":
        return f"{value} botch {'die' if value == 1 else 'dice'}" if value else "no botch dice"
    if option == "on_success":
        return (
            "success taken as a hit"
            if value == "hit"
            else f"success taken as {advantage_side(value)} advantage"
        )
    return "roll called" if option == "called" else option.replace("_", " ")


def chosen_words(chosen: list[dict], names: dict) -> str:
    """The storyguide's options that changed a roll, by whose roll: "Sir Boris +3, 2 botch dice; Bandit 1 a
    modifier behind the screen"; "" when none."""
    by_whom: dict[str, list[str]] = {}
    for entry in chosen or ():
        by_whom.setdefault(str(entry["combatant"]), []).append(option_words(entry))
    return "; ".join(f"{names.get(who, '')} {', '.join(said)}" for who, said in by_whom.items())


def correction_field(key: str) -> str:
    """What a correction changed: fatigue_level → "fatigue", advantage_attack → "advantage attack"."""
    return key.replace("_level", "").replace("_", " ")


def after_meal(good_meal: bool) -> str:
    """How a night's sleep went (ArM3 p177): with a good meal, or eight hours of rest [ours]."""
    return ", after a good meal" if good_meal else ", without a good meal (eight hours of rest)"


def resting_how(active: bool) -> str:
    """How time passed for the resting chart (ArM3 p177)."""
    return "staying active" if active else "resting quietly"


def still(fatigue_level: str) -> str:
    """A Fatigue level that rest did not change: "Winded, still"; "Fresh" (ArM3 p177)."""
    level = fatigue_level.replace("_", " ")
    level = level[:1].upper() + level[1:]
    return level if fatigue_level == "fresh" else f"{level}, still"


def simple_die_note(face) -> str:
    """After a simple die's face: " (as 10)" for a 0, which counts as 10 (ArM3 p177); nothing otherwise."""
    return " (as 10)" if face == 0 else ""


def stamina_outcome(stamina: dict) -> str:
    """The rest of a Stamina roll after its simple die: " + Stamina 2 with penalties = 7 vs ease factor 9:
    rest takes half the time"; an NPC's as far as players see it, " = 7 vs ease factor 9: …" or
    " (behind the screen): no help" (ArM3 p177)."""
    outcome = "rest takes half the time" if stamina["success"] else "no help"
    if "total" not in stamina:
        return f" {SCREENED_WORDS}: {outcome}"
    versus = f" = {stamina['total']} vs ease factor {stamina['ease_factor']}: {outcome}"
    if "stamina" not in stamina:
        return versus
    penalties = " with penalties" if stamina["total"] != stamina["value"] + stamina["stamina"] else ""
    return f" + Stamina {stamina['stamina']}{penalties}{versus}"


# --- a stress roll in words (ArM3 p163, RULES.md Part 1 "Dice") -----------------------------------
# A roll is said as parts, (text, what it is): "" for words, "die", "die-again" (a 1 that doubles),
# "die-botch" (a botch die's 0), "die-value" (what the die counts for), "botch" (what botched), "added" (what
# is added to the die), "total".
# The page wraps each part in its mark-up (`arsmagica_tags.roll`), a sentence joins their text: one wording.

COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
BOTCH_WORDS = {1: "a botch", 2: "a double botch", 3: "a triple botch"}


def botch_label(botches: int) -> str:
    """A botch said: "a botch", "a double botch", "a triple botch", "4 botches" (each botch die's 0 is one:
    ArM3 p163)."""
    return BOTCH_WORDS.get(botches, f"{botches} botches")


def botch_outcome(dice: int, zeros: int) -> str:
    """What botch dice came to: "none came up 0, no botch", "one 0, a botch", "two 0s, a double botch"."""
    if not zeros:
        return "not a 0, no botch" if dice == 1 else "none came up 0, no botch"
    came = "a 0" if dice == 1 else f"{COUNT_WORDS.get(zeros, zeros)} 0{'' if zeros == 1 else 's'}"
    return f"{came}, {botch_label(zeros)}"


def botch_dice_parts(botch_faces) -> list[tuple[str, str]]:
    """After a first 0, the botch dice: "4 botch dice (3 5 7 2): none came up 0, no botch"; with none, the
    roll cannot botch (RULES.md: the storyguide may set 0 botch dice)."""
    if not botch_faces:
        return [("no botch dice, so it cannot botch", "")]
    count, zeros = len(botch_faces), list(botch_faces).count(0)
    parts = [(f"{count} botch {'die' if count == 1 else 'dice'} (", "")]
    for index, face in enumerate(botch_faces):
        parts += [(" ", "")] if index else []
        parts.append((str(face), "die-botch" if face == 0 else "die"))
    parts.append(("): ", ""))
    outcome = botch_outcome(count, zeros)
    if zeros:
        came, _, botch = outcome.partition(", ")
        return parts + [(f"{came}, ", ""), (botch, "botch")]
    return parts + [(outcome, "")]


def stress_parts(roll: dict | None) -> list[tuple[str, str]]:
    """A stress die in words: "stress die 7"; "stress die 1 (a 1 doubles and rolls again): 9 ×2 = 18";
    "stress die 0, 2 botch dice (0 4): one 0, a botch" (ArM3 p163); nothing for a roll not shown."""
    faces = list((roll or {}).get("faces") or ())
    if not faces:
        return []
    parts = [("stress die ", "")]
    if faces[0] == 1 and len(faces) > 1:
        ones, last = faces[:-1], faces[-1]
        for index in range(len(ones)):
            parts += [(", ", "")] if index else []
            parts.append(("1", "die-again"))
        rule = "a 1 doubles and rolls again" if len(ones) == 1 else "each 1 doubles and rolls again"
        parts += [(f" ({rule}): ", ""), (str(last), "die")]
        parts += [(" (as 10)", "")] if last == 0 else []
        return parts + [(f" ×{2 ** len(ones)} = ", ""), (str(roll.get("value", "")), "die-value")]
    parts.append((str(faces[0]), "die"))
    if faces[0] == 0:
        return parts + [(", ", "")] + botch_dice_parts((roll or {}).get("botch_faces") or ())
    return parts


def rolled_parts(roll: dict | None, total, *, with_total: bool = True) -> list[tuple[str, str]]:
    """A stress die and the total it made: "stress die 7 +10 = 17", "stress die 1 (…): 9 ×2 = 18, +1 = 19";
    a botched roll's total is 0, or its modifiers if negative: "…, a botch; total -2" (RULES.md Part 1).
    Without the total, what is added to the die ("stress die 7 +10"), for a row that shows the total apart.
    Only the total when the roll is not shown; nothing when neither is."""
    dice = stress_parts(roll) if total not in ("", None) else []
    if not dice:
        return [(str(total), "total")] if with_total and total not in ("", None) else []
    if roll.get("botches"):
        return dice + [("; total ", ""), (str(total), "total")] if with_total else dice
    added = f"{total - roll.get('value', 0):+d}"
    joined = " " if len(dice) == 2 else ", "
    after = [(" = ", ""), (str(total), "total")] if with_total else []
    return [*dice, (f"{joined}{added}", "added"), *after]


def said(parts: list[tuple[str, str]]) -> str:
    """A roll's parts as plain words."""
    return "".join(text for text, _ in parts)


# --- a combatant's card ---------------------------------------------------------------------------


def card_classes(character) -> str:
    """A card's classes: NPC or not, and its levels, for the page's colours."""
    sheet = sheet_of(character)
    npc = " npc" if character.is_npc else ""
    return f"card{npc} body-{sheet.body_level} fatigue-{sheet.fatigue_level}"


def advantage_words(attack: int, defense: int) -> str:
    """Advantage carried into this round (ArM3 p168): "Attack +3 Defense +2"; "" when none."""
    return (f"Attack {signed(attack)} " if attack else "") + (f"Defense {signed(defense)}" if defense else "")


def sheet_line(character) -> str:
    """The scores the storyguide keeps at hand in a fight (ArM3 p168)."""
    sheet = sheet_of(character)
    return (
        f"Soak {sheet.soak} · Dodge {sheet.dodge_defense} · Combat Fatigue {sheet.combat_fatigue}"
        f" · Qik {sheet.quickness} · Enc {sheet.encumbrance}"
    )


def repeated_words(declared: list[str], left_out: list[str]) -> str:
    """What "every NPC not declared yet: same as last round" did, in one line: for whom of how many, and each
    NPC left out with why (`left_out`: a sentence each)."""
    said = f"Same as last round for {len(declared)} of {len(declared) + len(left_out)} NPCs not declared yet"
    said += f": {', '.join(declared)}." if declared else "."
    if left_out:
        said += f" Left out: {'; '.join(left_out)}."
    return said


def my_declarations_words(encounter, storyguide: bool, waiting: tuple[str, ...] = ()) -> dict:
    """The words of the declarations panel: its heading (a player's names the characters still to declare
    for, `waiting`), and what it says when there is nothing to fill in."""
    if encounter.status == "ended":
        closed = "The encounter is over."
    elif encounter.status == "preparing":
        closed = "Waiting for the storyguide to open declarations."
    else:
        closed = f"Declarations are closed for round {encounter.round_number}; watch the round below."
    return {
        "heading": "Declare for NPCs"
        if storyguide
        else (f"Declare for {', '.join(waiting)}" if waiting else "Your declarations"),
        "nobody": "No NPCs in this fight." if storyguide else "None of your characters is in this fight.",
        "closed": closed,
    }


# --- rest and sheets ----------------------------------------------------------------------------------


def time_applies_to(encounter) -> str:
    """Whom the "time passes" forms of an encounter's page rest: everyone in it, between rounds if running."""
    when = ", between rounds" if encounter.status == "running" else ""
    return f"Applies to everyone in this fight{when}."


def stamina_default(physical: bool) -> str:
    """How Stamina rolls are made by default: typed in where the table rolls physical dice."""
    return "typed" if physical else "none"


def missile_words(weapon) -> str:
    """A missile weapon's reach on the sheet: "60 paces, twice"; "—" for any other weapon (ArM3 p168)."""
    if not weapon.missile:
        return "—"
    return f"{weapon.paces} paces" + (", twice" if weapon.twice else "")


def fires_in_words(weapons) -> str:
    """What "Shoot in" does with each missile weapon, by the engine's own rule (`fires_in`, ArM3 p163):
    "Short bow fires in First Missile and Second Missile, whichever is chosen. Sling fires in the phase
    chosen here."; "" without a missile weapon."""
    said = []
    for weapon in weapons:
        if not weapon.missile:
            continue
        fired = {fires_in(choice, weapon.twice) for choice in MISSILE_PHASES}
        if len(fired) == 1:
            (phases,) = fired
            both = " and ".join(phase_name(phase.value) for phase in phases)
            said.append(f"{weapon.name} fires in {both}, whichever is chosen.")
        else:
            said.append(f"{weapon.name} fires in the phase chosen here.")
    return " ".join(said)


def undo_words(phase: str, passed: list[str]) -> str:
    """What an undo takes back: "Melee", or "Melee (and Second Missile, Magic, which passed empty)"."""
    words = phase_name(phase)
    if passed:
        words += f" (and {', '.join(phase_name(step) for step in reversed(passed))}, which passed empty)"
    return words
