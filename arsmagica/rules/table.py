"""May this happen now? Each storyguide or player command of the round, asked of where the table
stands (ArM3 p163): None when it may, else the reason, in plain words for a person. Each refuses
first on an ended encounter (`while_open`): nothing more happens in it.

The commands obey these functions and the control panel asks the same ones to enable its buttons, so
a button is never offered for a command that would be refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from combat.rules.refusals import BAD_INPUT, Refusal, while_open

# The steps of a round as the table keeps them, with the words people read (ArM3 p163): before the
# first round, declarations, the five phases the storyguide rolls (Movement runs as declarations
# close), and the round's end.
STEPS = {
    "": "Not started",
    "declaring": "Declarations",
    "first_missile": "First Missile",
    "melee": "Melee",
    "second_missile": "Second Missile",
    "magic": "Magic",
    "fatigue": "Fatigue",
    "round_over": "Round over",
}
# The step after each phase; the phases the storyguide previews and confirms are its keys.
NEXT_STEP = {
    "first_missile": "melee",
    "melee": "second_missile",
    "second_missile": "magic",
    "magic": "fatigue",
    "fatigue": "round_over",
}
RESOLVABLE = tuple(NEXT_STEP)
# Between rounds or outside the fight: the round's phases are not interrupted by rest (ArM3 p177).
RESTING_STEPS = ("", "declaring", "round_over")

PREPARING, RUNNING = "preparing", "running"


def incomplete(text: str) -> Refusal:
    """Why a command may not happen yet: the table lacks what it needs (two sides, a declaration)."""
    return Refusal(text, BAD_INPUT)


@dataclass(frozen=True, slots=True)
class Table:
    """Where an encounter stands: its status, the round's step, the phase rolled for preview."""

    status: str = PREPARING
    phase: str = ""
    round_number: int = 0
    pending_phase: str = ""  # the phase previewed this round and not yet confirmed
    sides: int = 0  # how many sides have combatants in the fight
    declared: int = 0  # declarations made this round
    undoable: str = ""  # the round's last phase the storyguide confirmed, which may be taken back


def step_label(step: str) -> str:
    """The round's step as people read it: "First Missile", "Declarations", "Not started" (ArM3 p163)."""
    return STEPS.get(step, step)


@while_open
def can_open_declarations(table: Table) -> Refusal | None:
    """The first round begins with declarations, once two sides face each other (ArM3 p163)."""
    if table.status != PREPARING:
        return Refusal("The fight has already begun; declarations open at each new round.")
    if table.sides < 2:
        return incomplete("A fight needs combatants on at least two sides.")
    return None


@while_open
def can_declare(table: Table) -> Refusal | None:
    """Everyone declares before Initiative is rolled (ArM3 p163)."""
    if table.phase != "declaring":
        return Refusal("Declarations are closed.")
    return None


@while_open
def can_close_declarations(table: Table) -> Refusal | None:
    """Declarations close, and Movement runs, once someone has declared (ArM3 p163)."""
    if table.phase != "declaring":
        return Refusal("Declarations are not open.")
    if not table.declared:
        return incomplete("Nobody has declared yet.")
    return None


@while_open
def can_preview_phase(table: Table, phase: str) -> Refusal | None:
    """A phase is rolled when the round reaches it, in order (ArM3 p163)."""
    if table.status != RUNNING:
        return Refusal("The encounter is not running.")
    if phase not in RESOLVABLE:
        return incomplete(f"There is no phase called {phase!r}.")
    if table.phase != phase:
        return Refusal(f"The round is at {step_label(table.phase)}, not {STEPS[phase]}; nothing was done.")
    return None


@while_open
def can_confirm_phase(table: Table, phase: str) -> Refusal | None:
    """A phase is confirmed on the dice of its preview, the storyguide having seen the totals [ours]."""
    refusal = can_preview_phase(table, phase)
    if refusal is None and table.pending_phase != phase:
        return Refusal(f"Roll {STEPS[phase]} first, to see its totals before confirming.")
    return refusal


@while_open
def can_end_round(table: Table) -> Refusal | None:
    """A round ends after its Fatigue phase; advantage then carries on (ArM3 p168)."""
    if table.phase != "round_over":
        return Refusal("Resolve every phase of the round before ending it.")
    return None


@while_open
def can_undo(table: Table) -> Refusal | None:
    """The storyguide takes back the last phase confirmed in the current round, with a reason [ours]."""
    if table.status != RUNNING:
        return Refusal("The encounter is not running: there is no round to undo.")
    if not table.undoable:
        return Refusal("No phase of this round has been confirmed yet: there is nothing to undo.")
    return None


@while_open
def can_correct(table: Table) -> Refusal | None:
    """The storyguide corrects a result while the encounter lasts (`while_open`) [ours]."""
    return None


@while_open
def can_change_combatants(table: Table) -> Refusal | None:
    """Combatants join or leave before a round's Initiative is rolled, never mid-round [ours]."""
    if table.status == RUNNING and table.phase != "declaring":
        return Refusal("Combatants join or leave while declarations are open, not in the middle of a round.")
    return None


@while_open
def can_pass_time(table: Table) -> Refusal | None:
    """Time passes for rest between rounds or outside the fight, never mid-round (ArM3 p177)."""
    if table.status == RUNNING and table.phase not in RESTING_STEPS:
        return Refusal("Finish the round first: time passes between rounds or outside the fight.")
    return None
