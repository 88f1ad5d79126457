"""The Ars Magica round's event kinds, each with its payload type (ArM3 p163-p177).

A payload type says what the log keeps as JSON: the engine's records as their `to_dict()` gives
them (enums by value, tuples as lists), and what the services add around them.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.db import models

from combat.events import EventKind


class Kind(models.TextChoices):
    DECLARATIONS_OPENED = "declarations_opened", "Declarations opened"
    DECLARED = "declared", "Declared"
    MOVEMENT = "movement", "Movement: initiative and engagements"
    ATTACK = "attack", "Attack"
    SPELL = "spell", "Spell"
    FATIGUE_ROLL = "fatigue_roll", "Fatigue roll"
    SKIPPED = "skipped", "Did not happen"
    PHASE_PREVIEWED = "phase_previewed", "Phase previewed"
    PHASE_RESOLVED = "phase_resolved", "Phase resolved"
    PHASE_UNDONE = "phase_undone", "Phase undone"
    ROUND_ENDED = "round_ended", "Round ended"
    CORRECTION = "correction", "Correction"
    TIME_PASSED = "time_passed", "Time passed (rest)"
    NIGHT_OF_SLEEP = "night_of_sleep", "A night's sleep"
    EXERTION = "exertion", "Long-term exertion"


# Kinds that saga records (outside any encounter) use too.
RECORD_KINDS = (Kind.TIME_PASSED, Kind.NIGHT_OF_SLEEP, Kind.EXERTION)

# One part of a total, as [label, value]: ["Quickness", 2].
Part = list[str | int]
# The faces a phase rolled, by combatant id, then by purpose ("initiative", "combat", "fatigue"...).
Faces = dict[str, dict[str, list[int]]]


# --- the engine's records (arsmagica.rules), as `to_dict()` writes them ---------------------------


class StressRoll(TypedDict):
    """A stress die with its doubling chain and the botch dice after a first 0 (ArM3 p163)."""

    faces: list[int]
    botch_faces: list[int]
    value: int
    botches: int


class InitiativeRecord(TypedDict):
    """One combatant's Initiative Total with its parts (ArM3 p163)."""

    combatant: str
    total: int
    initiative_score: int
    roll: StressRoll
    parts: list[Part]
    paces: int | None


class Engagement(TypedDict):
    """Two combatants engaged at a range; `prevailed` names the winner of a contest (ArM3 p164)."""

    a: str
    b: str
    range: str
    contested: bool
    prevailed: str | None


class Escape(TypedDict):
    """An unwilling opponent who won the engagement contest and got away (ArM3 p164)."""

    combatant: str
    pursuer: str


class AttackRecord(TypedDict):
    """One attack: both totals with their parts and dice, the result and the harm done (ArM3 p168)."""

    phase: str
    attacker: str
    defender: str
    weapon: str
    range: str | None
    attack_total: int
    attack_parts: list[Part]
    attack_roll: StressRoll
    defense_total: int
    defense_parts: list[Part]
    defense_roll: StressRoll | None
    defense_with: str
    result: str
    difference: int
    applied_as: str | None
    damage_total: int | None
    soak: int
    body_levels_lost: int
    damage_prevented: bool


class FatigueRoll(TypedDict):
    """One fatigue roll with every part of its total and what it cost (ArM3 p177)."""

    combatant: str
    kind: str
    total: int
    ease_factor: int
    roll: StressRoll
    parts: list[Part]
    botch: bool
    levels_lost: int
    fatigue_level: str


class CastingRecord(TypedDict):
    """A spell cast: its order, the casting total, a spontaneous spell's fatigue test (ArM3 p168)."""

    phase: str
    caster: str
    kind: str
    spell: str
    casting_speed: int
    casting_total: int
    parts: list[Part]
    roll: StressRoll
    fatigue_test: FatigueRoll | None


class Skip(TypedDict):
    """Something declared that did not happen, and why."""

    combatant: str
    target: str | None
    reason: str


class PhaseResult(TypedDict):
    """Everything one phase did; what a phase does not use stays empty."""

    phase: str
    initiative: list[InitiativeRecord]
    engagements: list[Engagement]
    escapes: list[Escape]
    attacks: list[AttackRecord]
    spells: list[CastingRecord]
    fatigue: list[FatigueRoll]
    skipped: list[Skip]
    deaths: list[str]


# --- what the services write ----------------------------------------------------------------------


class Chosen(TypedDict):
    """A storyguide's option that changed a roll [ours]: whose roll, which option ("modifier", "botch_dice",
    "ease_factor", "on_success", "called" for a Fatigue roll called for) and its value. Who set it is the
    entry's actor, the storyguide; players get an NPC's modifier or ease factor without its value where
    the saga keeps the NPC's scores behind the screen."""

    combatant: str
    option: str
    value: NotRequired[int | str | bool]


class Attack(AttackRecord):
    """An attack as the log keeps it: the engine's record, and the options that changed its rolls (logs
    from before they were kept lack them)."""

    storyguide_options: NotRequired[list[Chosen]]


class Casting(CastingRecord):
    """A spell as the log keeps it, with the options that changed its rolls."""

    storyguide_options: NotRequired[list[Chosen]]


class Fatigue(FatigueRoll):
    """A Fatigue roll as the log keeps it, with the options that changed it."""

    storyguide_options: NotRequired[list[Chosen]]


class PhaseOptions(TypedDict):
    """The storyguide's options for a phase, by combatant id; each map only when used."""

    botch_dice: NotRequired[dict[str, int]]
    modifiers: NotRequired[dict[str, int]]
    ease_factors: NotRequired[dict[str, int]]
    on_success: NotRequired[dict[str, str]]  # by "attacker:defender": "hit" or an advantage
    extra_fatigue_rollers: NotRequired[list[str]]


class DeclarationSummary(TypedDict):
    """What a declaration says, in words for the log (targets as combatant ids)."""

    action: str
    action_label: str
    weapon: str
    engage: list[str]
    range: str
    on_success: str
    movement: str
    flags: list[str]
    spell: str


class DeclaredAction(DeclarationSummary):
    """A player character's declaration, as the Movement phase shows it to everyone."""

    combatant: str


class LevelsChanged(TypedDict):
    """A combatant whose levels the phase changed, each as [before, after]."""

    combatant: str
    fatigue_level: list[str]
    body_level: list[str]


class Advantage(TypedDict):
    """Advantage won, carried into the next round's totals (ArM3 p168)."""

    combatant: str
    attack: int
    defense: int


class Corrected(TypedDict):
    """What a correction changed, each as [before, after]."""

    fatigue_level: NotRequired[list[str]]
    body_level: NotRequired[list[str]]
    advantage_attack: NotRequired[list[int]]
    advantage_defense: NotRequired[list[int]]


RecoveryStep = TypedDict("RecoveryStep", {"from": str, "to": str, "after_minutes": int})
RecoveryStep.__doc__ = "One Fatigue level recovered, some minutes into the period (ArM3 p177)."

Recovered = TypedDict(
    "Recovered",
    {
        "character": int,
        "name": str,
        "from": str,
        "to": str,
        "steps": list[RecoveryStep],
        "blocked_by_long_term": bool,
        "rested_seconds": int,
    },
)
Recovered.__doc__ = "One character's Fatigue before and after a rest, and each level on the way (ArM3 p177)."


class StaminaRoll(TypedDict):
    """A Stamina roll to recover faster: simple die + Stamina + penalties against 9 (ArM3 p177)."""

    face: int
    value: int
    stamina: int
    total: int
    ease_factor: int
    success: bool


class RestedAwhile(Recovered):
    """A character's rest while time passes, with the Stamina roll when one was made."""

    stamina: StaminaRoll | None


# --- the payloads -----------------------------------------------------------------------------------


class RoundStart(TypedDict):
    """A combatant's levels and the advantage it carries as a round begins (for the replay)."""

    combatant: str
    fatigue_level: str
    body_level: str
    advantage_attack: int
    advantage_defense: int


class DeclarationsOpened(TypedDict):
    """A round begins with declarations open (ArM3 p163); `start` is each combatant's levels then
    (logs from before it was kept lack it)."""

    round: int
    start: NotRequired[list[RoundStart]]


class Declared(TypedDict):
    """A combatant's declaration, made or changed; an NPC's is the storyguide's only."""

    combatant: str
    name: str
    summary: DeclarationSummary
    by_storyguide: bool


class Movement(TypedDict):
    """Declarations closed: Initiative Totals, engagements and escapes (ArM3 p163-p164)."""

    initiative: list[InitiativeRecord]
    engagements: list[Engagement]
    escapes: list[Escape]
    declarations: list[DeclaredAction]
    names: dict[str, str]
    dice: Faces


class PhasePreviewed(TypedDict):
    """The phase rolled but not yet confirmed: its dice, options and totals, for the storyguide."""

    phase: str
    dice: Faces
    options: PhaseOptions
    result: PhaseResult


class PhaseResolved(TypedDict):
    """The phase confirmed: who died, whose levels changed, on which dice and options."""

    phase: str
    deaths: list[str]
    levels: list[LevelsChanged]
    options: PhaseOptions
    dice: Faces
    quiet: NotRequired[bool]  # nobody acted in it: it passed by itself, nothing rolled (ArM3 p163) [ours]


class PhaseUndone(TypedDict):
    """The storyguide took back the round's last confirmed phase, with a reason shown to everyone.

    The round stands again where it stood before that phase was confirmed: at `phase`, whose dice and
    options come back to the storyguide as a preview (a storyguide-only `phase_previewed` event that
    follows); the phases in `passed` (empty ones that passed by themselves after it) are taken back too;
    each combatant in `levels` goes back to the levels it had before the phase ([before the undo, after]).
    """

    phase: str
    passed: list[str]
    levels: list[LevelsChanged]
    reason: str


class RoundEnded(TypedDict):
    """The round over, with the advantage carried into the next (ArM3 p168)."""

    round: int
    advantages: list[Advantage]


class Correction(TypedDict):
    """The storyguide's correction of a combatant, with a reason shown to everyone."""

    combatant: str
    name: str
    changes: Corrected
    reason: str


class TimePassed(TypedDict):
    """Minutes of rest or activity for everyone in the scene (ArM3 p177)."""

    minutes: int
    active: bool
    characters: list[RestedAwhile]


class NightOfSleep(TypedDict):
    """A night's sleep for everyone in the scene, with or without a good meal (ArM3 p177)."""

    good_meal: bool
    characters: list[Recovered]


LongTermExertion = TypedDict(
    "LongTermExertion", {"character": int, "name": str, "what": str, "levels": int, "from": str, "to": str}
)
LongTermExertion.__doc__ = "Fatigue levels lost to a long-term exertion, back only after sleep (ArM3 p177)."


PAYLOADS: dict[str, type] = {
    Kind.DECLARATIONS_OPENED: DeclarationsOpened,
    Kind.DECLARED: Declared,
    Kind.MOVEMENT: Movement,
    Kind.ATTACK: Attack,
    Kind.SPELL: Casting,
    Kind.FATIGUE_ROLL: Fatigue,
    Kind.SKIPPED: Skip,
    Kind.PHASE_PREVIEWED: PhasePreviewed,
    Kind.PHASE_RESOLVED: PhaseResolved,
    Kind.PHASE_UNDONE: PhaseUndone,
    Kind.ROUND_ENDED: RoundEnded,
    Kind.CORRECTION: Correction,
    Kind.TIME_PASSED: TimePassed,
    Kind.NIGHT_OF_SLEEP: NightOfSleep,
    Kind.EXERTION: LongTermExertion,
}

# The storyguide's panels each kind changes, which its live frame pushes again (`EventKind.panels`): "setup"
# (who is in the fight, and whether combatants can still be removed: other frames leave a half-filled form
# alone), "declare" ("Declare for NPCs": its forms, who has declared, open or closed, who can act, ArM3 p177,
# which time passing changes for anyone in the scene; a declaration changes only its own entry and a
# correction its combatant's, `panels.frame_context`), "time" (time passes: shown between rounds and outside
# the fight) and "step" (undo the last step, after the round moves on or back; its reason kept meanwhile).
# Any other kind changes none of them. The core's kinds name theirs in `views.Table.CORE_KIND_PANELS`.
ROUND_MOVES = frozenset({"setup", "declare", "time", "step"})
PANELS: dict[str, frozenset[str]] = {
    Kind.DECLARATIONS_OPENED: ROUND_MOVES,
    Kind.MOVEMENT: ROUND_MOVES,
    Kind.PHASE_RESOLVED: frozenset({"declare", "time", "step"}),
    Kind.PHASE_UNDONE: frozenset({"time", "step"}),
    Kind.ROUND_ENDED: frozenset({"declare", "time", "step"}),
    Kind.TIME_PASSED: frozenset({"declare", "time"}),
    Kind.NIGHT_OF_SLEEP: frozenset({"declare", "time"}),
    Kind.EXERTION: frozenset({"declare", "time"}),
}

EVENT_KINDS = tuple(
    EventKind(
        kind.value,
        kind.label,
        PAYLOADS[kind],
        f"arsmagica/events/{kind.value}.html",
        panels=PANELS.get(kind, frozenset()),
    )
    for kind in Kind
)
