"""The Ars Magica round's event kinds, each one unit (`combat.events.EventKind`, below; ArM3 p163-p177): its
payload type, its line (`arsmagica/events/<name>.html`), its sentence (`arsmagica.sentences`' wording), what
players see of it, its effect on the replay's table (`arsmagica.replay.Table`), its marks and tallies on the
charts, and the storyguide's panels it changes. Their names are `arsmagica.kinds.Kind`.

A payload type says what the log keeps as JSON: the engine's records as their `to_dict()` gives
them (enums by value, tuples as lists), and what the services add around them.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from typing_extensions import override

from combat.events import EventKind

from . import presenters as say
from . import sentences
from .kinds import RECORD_KINDS, Kind  # noqa: F401 (both read from here too)
from .rules.table import NEXT_STEP

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


# --- the kinds, each one unit ---------------------------------------------------------------------
#
# The storyguide's panels a kind changes, which its live frame pushes again (`panels`): "setup" (who is in
# the fight, and whether combatants can still be removed: other frames leave a half-filled form alone),
# "declare" ("Declare for NPCs": its forms, who has declared, open or closed, who can act, ArM3 p177, which
# time passing changes for anyone in the scene; a declaration changes only its own entry and a correction its
# combatant's, `panels.frame_context`), "time" (time passes: shown between rounds and outside the fight) and
# "step" (undo the last step, after the round moves on or back; its reason kept meanwhile). The core's kinds
# name theirs in `panels.CORE_KIND_PANELS`.
ROUND_MOVES = frozenset({"setup", "declare", "time", "step"})
PHASE_MOVES = frozenset({"declare", "time", "step"})
TIME_MOVES = frozenset({"declare", "time"})


class ArsKind(EventKind):
    """An Ars Magica kind: its line `arsmagica/events/<name>.html` (the default); players see only the core's
    fields of it unless it says what they see (`for_players`) or that it holds no secret (`secret = False`),
    in every log, frame, history and export; it changes none of the storyguide's panels unless it names
    them. What names characters by id is seen as `for_players` left it (only time passing says more)."""

    panels = frozenset()

    def __init_subclass__(cls, kind: Kind | None = None, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if kind is not None:
            cls.name, cls.label = kind.value, kind.label

    @override
    def for_players_record(self, record, characters: set[str], npc_rolls: str) -> dict:
        return record.payload


def _levels_back(table, p: dict) -> None:
    """Each `levels` entry's second value: the levels a phase left, or gave back when undone."""
    for change in p.get("levels", ()):
        fighter = table.fighters.get(change["combatant"])
        if fighter is not None:
            fighter.fatigue_level, fighter.body_level = change["fatigue_level"][1], change["body_level"][1]


def _rested(table, p: dict) -> None:
    """Time passed or a night's sleep: each rested character's Fatigue level after (ArM3 p177)."""
    for entry in p.get("characters", ()):
        fighter = table.by_character(entry.get("character"), entry.get("name", ""))
        if fighter is not None:
            fighter.fatigue_level = entry["to"]


def _botched(roll) -> bool:
    return bool(roll) and roll.get("botches", 0) > 0


class DeclarationsOpenedKind(ArsKind, kind=Kind.DECLARATIONS_OPENED):
    payload, panels = DeclarationsOpened, ROUND_MOVES

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return f"Round {payload['round']}: declarations are open."

    @override
    def for_players(self, event, own, players, npc_rolls):
        return say.players_opened(event.payload, players, npc_rolls)

    @override
    def apply(self, table, event):
        """A round begins (ArM3 p163): declarations open, last round's order and engagements are gone."""
        p = event.payload
        table.status, table.round, table.phase = "running", p.get("round", table.round + 1), "declaring"
        table.order, table.engagements, table.escapes = [], [], []
        for entry in p.get("start", ()):
            fighter = table.fighters.get(entry["combatant"])
            if fighter is not None:
                fighter.fatigue_level, fighter.body_level = entry["fatigue_level"], entry["body_level"]
                fighter.advantage_attack = entry.get("advantage_attack", 0)
                fighter.advantage_defense = entry.get("advantage_defense", 0)
                fighter.advantage_screened = tuple(entry.get("advantage_screened", ()))
        return table


class DeclaredKind(ArsKind, kind=Kind.DECLARED):
    payload = Declared

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.declared(payload, names, storyguide)

    @override
    def for_players(self, event, own, players, npc_rolls):
        """Another character's declaration says only who declared."""
        payload = event.payload
        if payload.get("combatant") not in own:
            return {"combatant": payload.get("combatant"), "name": payload.get("name", "")}
        return payload


class MovementKind(ArsKind, kind=Kind.MOVEMENT):
    payload, panels = Movement, ROUND_MOVES

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.movement(payload, names, storyguide)

    @override
    def for_players(self, event, own, players, npc_rolls):
        """The viewer's own declarations in full, another player character's as who declared, no NPC's."""
        return say.players_movement(event.payload, own, players, npc_rolls)

    @override
    def apply(self, table, event):
        """Initiative in acting order, engagements and escapes (ArM3 p163-p164)."""
        p = event.payload
        table.order = list(p.get("initiative", ()))
        table.engagements = list(p.get("engagements", ()))
        table.escapes = list(p.get("escapes", ()))
        table.phase = "first_missile"
        return table

    @override
    def rolls(self, event):
        """Each Initiative total (ArM3 p163)."""
        return [
            (row.get("combatant"), row.get("total"), "Initiative")
            for row in event.payload.get("initiative") or ()
        ]


class _Rolled(ArsKind):
    """A roll of a phase: an NPC's as much as the saga's `npc_rolls` lets players see (`behind_the_screen`),
    with the storyguide's options on it."""

    @override
    def for_players(self, event, own, players, npc_rolls):
        payload = event.payload
        shown = self._screen(payload, players, npc_rolls)
        if "storyguide_options" in payload:
            chosen = say.players_chosen(payload["storyguide_options"], players, npc_rolls)
            shown = {**shown, "storyguide_options": chosen}
        return shown


class AttackKind(_Rolled, kind=Kind.ATTACK):
    payload, _screen = Attack, staticmethod(say.players_attack)

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.attack(payload, names, storyguide)

    @override
    def marks(self, event):
        """Hits, wounds and botches, as the reader's version of the event shows them."""
        p, marks = event.payload, []
        if p.get("result") == "hit":
            marks.append(("hit", p["attacker"], "hit"))
        if p.get("body_levels_lost"):
            marks.append(("wound", p["defender"], f"{p['body_levels_lost']} Body level(s) lost"))
        if _botched(p.get("attack_roll")):
            marks.append(("botch", p["attacker"], "botched an attack"))
        if _botched(p.get("defense_roll")):
            marks.append(("botch", p["defender"], "botched a defense"))
        return marks

    @override
    def tally(self, event):
        """Attacks made and landed, Body levels dealt and taken, botches (ArM3 p168-p177)."""
        p = event.payload
        tally = [(p["attacker"], "attacks", 1)]
        if p.get("result") == "hit":
            tally.append((p["attacker"], "landed", 1))
        if p.get("body_levels_lost"):
            tally += [(p["attacker"], "wounds_dealt", p["body_levels_lost"])]
            tally += [(p["defender"], "wounds_taken", p["body_levels_lost"])]
        return tally + [(who, "botches", 1) for mark, who, _ in self.marks(event) if mark == "botch"]

    @override
    def rolls(self, event):
        """The attack and the defense totals (ArM3 p168)."""
        p, weapon = event.payload, event.payload.get("weapon") or "weapon"
        return [
            (p.get("attacker"), p.get("attack_total"), f"attack with the {weapon}"),
            (p.get("defender"), p.get("defense_total"), "defense"),
        ]


class SpellKind(_Rolled, kind=Kind.SPELL):
    payload, _screen = Casting, staticmethod(say.players_spell)

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.spell(payload, names, storyguide)

    @override
    def marks(self, event):
        p = event.payload
        return [("botch", p["caster"], "botched a spell")] if _botched(p.get("roll")) else []

    @override
    def tally(self, event):
        """A botch, and the Fatigue levels its Fatigue test lost (ArM3 p177)."""
        p = event.payload
        tally = [(who, "botches", 1) for mark, who, _ in self.marks(event) if mark == "botch"]
        if (p.get("fatigue_test") or {}).get("levels_lost"):
            tally.append((p["caster"], "fatigue_lost", p["fatigue_test"]["levels_lost"]))
        return tally

    @override
    def rolls(self, event):
        """The casting total (ArM3 p177)."""
        p = event.payload
        return [(p.get("caster"), p.get("casting_total"), f"casting of {p.get('spell') or 'a spell'}")]


class FatigueRollKind(_Rolled, kind=Kind.FATIGUE_ROLL):
    payload, _screen = Fatigue, staticmethod(say.players_fatigue_roll)

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.fatigue_roll(payload, names, storyguide)

    @override
    def marks(self, event):
        p = event.payload
        return [("botch", p["combatant"], "botched a Fatigue roll")] if p.get("botch") else []

    @override
    def tally(self, event):
        """A botch, and the Fatigue levels lost (ArM3 p177)."""
        p = event.payload
        tally = [(who, "botches", 1) for mark, who, _ in self.marks(event) if mark == "botch"]
        if p.get("levels_lost"):
            tally.append((p["combatant"], "fatigue_lost", p["levels_lost"]))
        return tally

    @override
    def rolls(self, event):
        """The Fatigue roll's total (ArM3 p177)."""
        return [(event.payload.get("combatant"), event.payload.get("total"), "Fatigue roll")]


class SkippedKind(ArsKind, kind=Kind.SKIPPED):
    payload = Skip
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.skipped(payload, names, storyguide)


class PhasePreviewedKind(ArsKind, kind=Kind.PHASE_PREVIEWED):
    payload = PhasePreviewed
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.previewed(payload, names, storyguide)


class PhaseResolvedKind(ArsKind, kind=Kind.PHASE_RESOLVED):
    payload, panels = PhaseResolved, PHASE_MOVES

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.phase_resolved(payload, names, storyguide)

    @override
    def for_players(self, event, own, players, npc_rolls):
        """An NPC's dice and options at the setting (a phase nobody acted in passed by itself, with no dice,
        ArM3 p163)."""
        payload = event.payload
        screened = dict(payload)
        if "dice" in payload:
            screened["dice"] = say.players_faces(payload["dice"], players, npc_rolls)
        if "options" in payload:
            screened["options"] = say.players_options(payload["options"], players, npc_rolls)
        return screened

    @override
    def apply(self, table, event):
        """A confirmed phase: the levels it changed, and the round's next step."""
        _levels_back(table, event.payload)
        table.phase = NEXT_STEP.get(event.payload.get("phase", ""), table.phase)
        return table


class PhaseUndoneKind(ArsKind, kind=Kind.PHASE_UNDONE):
    payload, panels = PhaseUndone, frozenset({"time", "step"})
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.phase_undone(payload, names, storyguide)

    @override
    def apply(self, table, event):
        """The storyguide took back the last confirmed phase [ours]: the levels it changed go back (each
        `levels` entry's second value), and the round stands at that phase again."""
        _levels_back(table, event.payload)
        table.phase = event.payload.get("phase", table.phase)
        return table


class RoundEndedKind(ArsKind, kind=Kind.ROUND_ENDED):
    payload, panels = RoundEnded, PHASE_MOVES

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.round_ended(payload, names, storyguide)

    @override
    def for_players(self, event, own, players, npc_rolls):
        return say.players_round_ended(event.payload, players, npc_rolls)

    @override
    def apply(self, table, event):
        """Advantage won carries into the next round; advantage held is used up (ArM3 p168)."""
        carried = {a["combatant"]: a for a in event.payload.get("advantages", ())}
        for fighter in table.fighters.values():
            won = carried.get(fighter.id, {})
            fighter.advantage_attack, fighter.advantage_defense = won.get("attack", 0), won.get("defense", 0)
            fighter.advantage_screened = tuple(won.get("screened", ()))
        return table


class CorrectionKind(ArsKind, kind=Kind.CORRECTION):
    payload = Correction
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.correction(payload, names, storyguide)

    @override
    def apply(self, table, event):
        p = event.payload
        fighter = table.fighters.get(p.get("combatant"))
        if fighter is None:
            return table
        for key, (_, after) in (p.get("changes") or {}).items():
            setattr(fighter, key, after)
            screened = fighter.advantage_screened
            fighter.advantage_screened = tuple(s for s in screened if f"advantage_{s}" != key)
        return table

    @override
    def marks(self, event):
        return [("correction", event.payload["combatant"], event.payload.get("reason", ""))]


class TimePassedKind(ArsKind, kind=Kind.TIME_PASSED):
    payload, panels = TimePassed, TIME_MOVES
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.time_passed(payload, names, storyguide)

    @override
    def for_players_record(self, record, characters, npc_rolls):
        """An NPC's Stamina roll at the saga's setting, its outcome kept (the ease factor is the rule's 9
        for everyone, ArM3 p177)."""
        return say.players_record(record, characters, npc_rolls)

    @override
    def apply(self, table, event):
        _rested(table, event.payload)
        return table


class NightOfSleepKind(ArsKind, kind=Kind.NIGHT_OF_SLEEP):
    payload, panels = NightOfSleep, TIME_MOVES
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.night_of_sleep(payload, names, storyguide)

    @override
    def apply(self, table, event):
        _rested(table, event.payload)
        return table


class ExertionKind(ArsKind, kind=Kind.EXERTION):
    payload, panels = LongTermExertion, TIME_MOVES
    secret = False

    @override
    def sentence(self, payload: dict, names: dict, *, storyguide: bool) -> str:
        return sentences.exertion(payload, names, storyguide)

    @override
    def apply(self, table, event):
        p = event.payload
        fighter = table.by_character(p.get("character"), p.get("name", ""))
        if fighter is not None:
            fighter.fatigue_level = p["to"]
        return table


EVENT_KINDS = (
    DeclarationsOpenedKind,
    DeclaredKind,
    MovementKind,
    AttackKind,
    SpellKind,
    FatigueRollKind,
    SkippedKind,
    PhasePreviewedKind,
    PhaseResolvedKind,
    PhaseUndoneKind,
    RoundEndedKind,
    CorrectionKind,
    TimePassedKind,
    NightOfSleepKind,
    ExertionKind,
)
