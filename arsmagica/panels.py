"""The state panels of an encounter page, built from rows in a fixed number of queries.

The same context renders the full page and the fragments pushed after every command.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from django.utils.functional import SimpleLazyObject

from arsmagica.events import Kind, MovementKind
from arsmagica.models import Declaration, Phase, Weapon
from campaign.models import Character, guiding_owners
from combat import commands
from combat.audience import STORYGUIDE
from combat.events import CoreKind
from combat.models import Combatant, Encounter, Event
from config.prepared import Prepared

from . import presenters
from .commands import COMMANDS
from .forms import DeclarationForm
from .odds import odds_context
from .presenters import my_declarations_words
from .rolling import rolling_notice
from .rules.declarations import declarations_awaited
from .rules.state import PhaseOptions
from .rules.table import (
    Table,
    can_change_combatants,
    can_declare,
    step_label,
)
from .services.corrections import LEVELS
from .services.declarations import repeat_refusals
from .services.dice import PURPOSE_LABELS
from .services.sheets import fatigue_state_of, level_penalties, unable_to_act
from .services.table import CommandRead, combatants_of, declarations_in, last_confirmed, table_of
from .sheet import carried, sheet_of

FRAME_TEMPLATE = "arsmagica/_frame_panels.html"  # the panels every live frame pushes (the page role)
# The dice each phase asks for, where the saga types physical dice in.
PHASE_PURPOSES = {
    "first_missile": ("missile", "combat"),
    "melee": ("combat",),
    "second_missile": ("missile_second", "combat"),
    "magic": ("magic",),
    "fatigue": ("fatigue",),
}


# The storyguide's panels each of the core's kinds changes (its own kinds name theirs, `events.PANELS`):
# who joins or leaves changes who is in the fight, who can declare and whether time may pass; the end, every
# one of them; a name, none (the panels that show it are pushed whole anyway).
JOINS = frozenset({"setup", "declare", "time"})
CORE_KIND_PANELS = {
    CoreKind.ENCOUNTER_CREATED: frozenset(),
    CoreKind.COMBATANT_ADDED: JOINS,
    CoreKind.COMBATANT_REMOVED: JOINS,
    CoreKind.COMBATANT_RENAMED: frozenset(),
    CoreKind.HANDED_OVER: frozenset(),
    CoreKind.RESET_LINK_MADE: frozenset(),
    CoreKind.ENCOUNTER_ENDED: JOINS | {"step"},
}
DEFAULT_BOTCH_DICE = PhaseOptions().default_botch_dice  # a preview's botch dice left blank
# The storyguide's NPC entries shown open, each with its form, when there are at most this many; beyond, every
# entry is closed and its form is fetched when it is opened (a form per combatant made a 40-combatant page
# half a second of work and half a megabyte).
OPEN_AT_ONCE = 6


def changed_cards(events, *, replay: bool) -> set[int] | None:
    """The combatants whose cards a frame's events changed, when they can say (a correction names its
    combatant, a declaration changes no card); None when any card, the acting order or the engagements
    may have changed (the panels go whole)."""
    if replay:
        return None
    changed: set[int] = set()
    for event in events:
        if event.kind == Kind.CORRECTION:
            changed.add(int(event.payload["combatant"]))
        elif event.kind != Kind.DECLARED:
            return None
    return changed


def frame_context(events, *, replay: bool, context: dict) -> dict:
    """The cards to push alone when the frame changed only those (`changed_cards`: not the acting order,
    the engagements or the other cards); "Declare for NPCs" whole after a death corrected in or out (added
    to `pushed`, the panels the frame's kinds name: `events.PANELS`, `CORE_KIND_PANELS`); whether who has
    declared, or who can act, may have changed (`declared_changed`: the "Declarations" panel is pushed only
    then, and so is the storyguide's "Control", whose step, refusals and close button follow from them; its
    forms take each frame's version, `data-live-version`, as the preview's do, which a frame of cards alone
    leaves: `preview_context`); and for the storyguide the entries of "Declare for
    NPCs" that the frame's declarations, the declarations its command withdrew, or its corrections of levels
    (who can act, ArM3 p177) changed, when the panel shows its entries (declarations open) and is not pushed
    whole."""
    flags: dict = {}
    changed = changed_cards(events, replay=replay)
    flags["cards_alone"] = changed is not None
    # Who has declared: a frame of corrections alone changes no one's (a declaration's frame does), unless
    # the command withdrew a declaration (`withdrawn`: a correction that left its combatant unable to act);
    # a correction of levels may change who can act, whom the count waits for and who is named unable.
    declared = {int(event.payload["combatant"]) for event in events if event.kind == Kind.DECLARED}
    declared |= context["withdrawn"]
    relevelled = {
        int(event.payload["combatant"])
        for event in events
        if event.kind == Kind.CORRECTION and not set(LEVELS).isdisjoint(event.payload["changes"])
    }
    # A death corrected in, or out, changes whom everyone may engage (`can_engage`): each NPC's target list
    # and "same as last round" with it, so the storyguide's "Declare for NPCs" panel goes whole.
    pushed = context["pushed"]
    if any(died(event) for event in events):
        pushed = flags["pushed"] = pushed | {"declare"}
    flags["declared_changed"] = changed is None or bool(declared or relevelled)
    flags["changed_cards"] = [card for card in context["cards"] if card.id in (changed or ())]
    # Only while the panel shows its entries: closed, it says so instead and has none to swap into.
    showing = context["is_storyguide"] and context["refusal"] is None
    if showing and "declare" not in pushed and (declared or relevelled):
        flags["declared_entries"] = context["entries_of"](declared | relevelled)
    return flags


def died(event) -> bool:
    """A correction that makes its combatant dead, or dead no more (ArM3 p177)."""
    return event.kind == Kind.CORRECTION and "dead" in event.payload["changes"].get("body_level", ())


@dataclass
class Card:
    """One combatant as a card: levels with their penalties, advantage, declared or not. What it shows is
    worked out once and kept (a push draws the same card for both audiences: the cards live as long as
    the one page or push that built them, `table_facts`)."""

    combatant: Combatant
    fatigue_penalty: int
    wound_penalty: int
    declared: bool
    declaration: Declaration | None

    @property
    def id(self) -> int:
        return self.combatant.pk

    @property
    def character(self):
        return self.combatant.character

    @cached_property
    def sheet(self):
        return sheet_of(self.character)

    @cached_property
    def weapons(self) -> list[Weapon]:
        return Weapon.of(self.character)

    @cached_property
    def fatigue_label(self) -> str:
        """ "Weary: −1 to rolls": the level and what it does."""
        return presenters.fatigue_words(self.sheet.fatigue_level)

    @cached_property
    def body_label(self) -> str:
        """ "Light Wounds: −1 to rolls": the level and what it does."""
        return presenters.body_words(self.sheet.body_level)

    @property
    def penalty(self) -> int:
        return self.fatigue_penalty + self.wound_penalty

    @cached_property
    def penalty_words(self) -> str:
        return presenters.penalty_words(self.penalty)

    @cached_property
    def css(self) -> str:
        return presenters.card_classes(self.character)

    @cached_property
    def carries(self):
        """What the combatant carries into the next round (`arsmagica.sheet.carried`)."""
        return carried(self.combatant)

    @cached_property
    def advantage(self) -> str:
        carries = self.carries
        return presenters.advantage_words(carries.advantage_attack, carries.advantage_defense)

    def advantage_shown(self, storyguide: bool, npc_rolls: str) -> str:
        """The advantage as the audience reads it: an NPC's size behind the screen for players where the
        saga keeps NPC totals there (issue 35, item 10)."""
        if storyguide or not self.character.is_npc or not presenters.screened_advantage(npc_rolls):
            return self.advantage
        carries = self.carries
        return presenters.advantage_sides(carries.advantage_attack, carries.advantage_defense)

    @cached_property
    def sheet_line(self) -> str:
        return presenters.sheet_line(self.character)

    @cached_property
    def unable(self) -> str:
        """Why this combatant cannot act ("dead", "incapacitated", "unconscious", ArM3 p177); "" if it can."""
        return unable_to_act(self.character)

    @property
    def can_act(self) -> bool:
        return not self.unable

    @cached_property
    def long_term(self) -> int:
        """Fatigue levels lost to long-term exertion: back only with food and sleep (ArM3 p177)."""
        return sum(1 for exertion in fatigue_state_of(self.character).lost if exertion.value == "long_term")


@dataclass
class PanelFacts:
    """What every audience's panels are built from, read once per page or push (at most six queries)."""

    encounter: Encounter
    combatants: list[Combatant]
    declarations: dict[int, Declaration]
    cards: list[Card]
    table: Table
    can: dict[str, str | None]
    # Whose declarations the command that handed over its read withdrew (`CommandRead.withdraw`).
    withdrawn: frozenset[int] = frozenset()

    @cached_property
    def movement(self) -> Event | None:
        """This round's Movement (ArM3 p163), read only when a panel shows it: a frame of cards alone
        shows neither the acting order nor the engagements."""
        encounter = self.encounter
        if not encounter.round_number:
            return None
        return next(iter(_MOVEMENT(encounter=encounter.pk, round=encounter.round_number)), None)

    @cached_property
    def shared(self) -> dict:
        """The panels' context every audience shares (`shared_context`): a push works it out once."""
        return shared_context(self)


# A round's Movement, the newest, compiled once a process (`config.prepared`): a frame of the order reads it.
_MOVEMENT = Prepared(
    lambda encounter, round: Event.objects.filter(
        encounter=encounter, round_number=round, kind=Kind.MOVEMENT
    ).order_by("-seq")[:1],
    "encounter",
    "round",
)


def table_facts(encounter: Encounter, read: CommandRead | None = None) -> PanelFacts:
    """The encounter's combatants, this round's declarations and Movement, and the rules' refusals;
    the combatants and declarations from `read` where a command hands over what it read and left (its
    declarations only while the round is the one it read them in: a new round's are read), with those it
    withdrew."""
    combatants = combatants_of(encounter) if read is None else read.combatants
    withdrawn = frozenset()
    if read is not None and read.round_number == encounter.round_number:
        declarations, withdrawn = read.declarations, frozenset(read.withdrawn)
    else:
        declarations = declarations_in(encounter, encounter.round_number)
    cards = []
    for combatant in combatants:
        fatigue_penalty, wound_penalty = level_penalties(combatant.character)
        declaration = declarations.get(combatant.pk)
        cards.append(Card(combatant, fatigue_penalty, wound_penalty, declaration is not None, declaration))
    table = table_of(encounter, combatants, len(declarations))
    return PanelFacts(encounter, combatants, declarations, cards, table, refusals(table), withdrawn)


def state_context(encounter: Encounter, audience: str, facts: PanelFacts | None = None) -> dict:
    """Everything the panels show; `audience` decides what is hidden from players. A push builds `facts`
    once for both audiences, with what every audience's panels show alike (`shared_context`); the
    storyguide's forms are built only when a page or frame shows them."""
    facts = facts or table_facts(encounter)
    combatants, declarations, cards, can = facts.combatants, facts.declarations, facts.cards, facts.can
    saga = encounter.saga
    storyguide = audience == STORYGUIDE
    return {
        **facts.shared,
        "audience": audience,
        "is_storyguide": storyguide,
        "advantages": {card.id: card.advantage_shown(storyguide, saga.npc_rolls) for card in cards},
        "movement": SimpleLazyObject(lambda: acting_order(facts.movement, audience, saga, combatants)),
        "rolling": None if storyguide else rolling_notice(encounter, combatants),
        **(setup_context(encounter, cards) if storyguide else {}),
        **(npc_declarations(encounter, combatants, declarations, can["declare"]) if storyguide else {}),
        **(
            preview_context(encounter, facts)
            if storyguide and encounter.pending
            else {"option_rows": [], "options_open": False, "options_held": False}
        ),
    }


def preview_context(encounter: Encounter, facts: PanelFacts) -> dict:
    """The storyguide's preview of a rolled phase: its rows with their chances (`odds_context`) and its
    options (`preview_options`), worked out only when a page or frame draws the panel (a frame of cards
    alone does not: a correction or declaration changes nothing it shows)."""

    def build() -> dict:
        movement = facts.movement.payload if facts.movement else None  # read only when the panel is drawn
        return {**odds_context(encounter.pending), **preview_options(encounter, facts.cards, movement)}

    built = SimpleLazyObject(build)
    keys = ("preview", "option_rows", "options_open", "options_held")
    return {key: SimpleLazyObject(lambda key=key: built.get(key)) for key in keys}


def shared_context(facts: PanelFacts) -> dict:
    """What the panels show every audience alike, worked out once for a page or push (`PanelFacts.shared`)."""
    encounter, cards, can = facts.encounter, facts.cards, facts.can
    sides: dict[str, list[Card]] = {}
    for card in cards:
        sides.setdefault(card.combatant.side, []).append(card)
    over = encounter.status == Encounter.Status.ENDED  # the one decision: an ended table names no next step
    return {
        "encounter": encounter,
        "over": over,
        "order_note": order_note(over),
        "cards": cards,
        "sides": sides,
        "names": {str(combatant.pk): combatant.character.name for combatant in facts.combatants},
        "declaring": can["declare"] is None,  # open, in a round of an encounter not over
        **declaration_counts(cards),
        "people": people_digest(cards),
        "withdrawn": facts.withdrawn,
        "pending": encounter.pending or None,
        "phase_track": PHASE_TRACK,
        "phase_label": step_label(encounter.phase),
        "pending_label": step_label(encounter.pending["phase"]) if encounter.pending else "",
        "can": can,
        "next_command": next_command(facts.table),
        "undo": dict(zip(("phase", "passed"), last_confirmed(encounter.round_log or {}), strict=True)),
        "on_success_choices": Declaration.OnSuccess.choices,
        "phase_purposes": [(p, PURPOSE_LABELS[p]) for p in PHASE_PURPOSES.get(encounter.phase, ())],
        "time_people": [card.character for card in cards],
    }


def declaration_counts(cards: list[Card]) -> dict:
    """Who has declared of those the round waits for, and who cannot act and why (ArM3 p163, p177): the
    "N/M declared" of the Declarations panel and the close button count only those who can act; the close
    button's confirmation names those it would leave doing nothing."""
    declared, able = declarations_awaited((card.declared, card.unable) for card in cards)
    waiting = [card.character.name for card in cards if not card.declared and not card.unable]
    return {
        "declared_count": declared,
        "able_count": able,
        "unable_count": len(cards) - able,
        # Closing declarations on someone who can act and has not declared asks once, naming them.
        "close_confirm": presenters.close_declarations_confirm(waiting),
    }


def people_digest(cards: list[Card]) -> str:
    """A digest of what each person's own panels (a player's declarations) show beyond the round and phase:
    who is in the fight and can act. The status bar carries it (`data-people`) and live.js has those panels
    fetch themselves again when it changes, so a correction that leaves a combatant unable to act (or able
    again) reaches them; a correction of anything else (an advantage, a level that still acts) does not."""
    able = ",".join(str(card.id) for card in cards if card.can_act)
    return hashlib.blake2b(able.encode(), digest_size=6).hexdigest()


def acting_order(movement: Event | None, audience: str, saga, combatants) -> dict | None:
    """The round's Movement event for the acting order: for the players, their version (ArM3 p163)."""
    if movement is None or audience == STORYGUIDE:
        return movement.payload if movement else None
    players = {str(combatant.pk) for combatant in combatants if not combatant.character.is_npc}
    return MovementKind().for_players(movement, set(), players, saga.npc_rolls)


def order_note(over: bool) -> str:
    """What the acting order says before this round's Initiative is rolled (ArM3 p163): when it will be,
    or, the encounter over, that it will not."""
    if over:
        return "The encounter is over: no more Initiative is rolled."
    return "Initiative is rolled when the storyguide closes declarations."


def refusals(table: Table) -> dict[str, str | None]:
    """Each command's refusal from the rules (None: it may happen now), for the buttons that offer it: its
    declaration's (`commands.COMMANDS`), and a declaration's and set-up's, which have views of their own."""
    return {
        **commands.refusals(COMMANDS, table),
        "declare": can_declare(table),
        "change_combatants": can_change_combatants(table),
    }


def next_command(table: Table) -> str:
    """The storyguide's next step in the round (ArM3 p163), the one the control panel offers."""
    if table.status == "preparing":
        return "open_declarations"
    if table.status != "running":
        return ""
    if table.phase == "declaring":
        return "close_declarations"
    if table.phase == "round_over":
        return "end_round"
    return "confirm_phase" if table.pending_phase else "preview_phase"


def preview_options(encounter: Encounter, cards: list[Card], movement: dict | None) -> dict:
    """The preview's options per combatant, and whether they open by themselves: when one holds something
    other than its default, or in the Fatigue phase, which asks who else rolls (ArM3 p168)."""
    rows = option_rows(encounter, cards, movement)
    held = options_changed(rows)
    fatigue = (encounter.pending or {}).get("phase") == Phase.FATIGUE
    return {"option_rows": rows, "options_open": fatigue or held, "options_held": held}


def options_changed(rows: list[dict]) -> bool:
    """Whether an option of the preview holds something other than its default: botch dice other than one
    (a stress roll's one botch die, ArM3 p163), a modifier other than 0, someone called to a Fatigue roll."""
    return any(
        row["botch_dice"] not in ("", DEFAULT_BOTCH_DICE) or row["modifier"] not in ("", 0) or row["called"]
        for row in rows
    )


def option_rows(encounter: Encounter, cards: list[Card], movement: dict | None) -> list[dict]:
    """The preview's options per combatant; in the Fatigue phase, who rolls because they fought hand
    to hand, and who the storyguide may call on for other strenuous things (ArM3 p168)."""
    pending = encounter.pending or {}
    options = pending.get("options", {})
    engaged = {str(pair[key]) for pair in (movement or {}).get("engagements", []) for key in ("a", "b")}
    extra = {str(cid) for cid in options.get("extra_fatigue_rollers", [])}
    fatigue = pending.get("phase") == Phase.FATIGUE
    return [
        {
            "card": card,
            "botch_dice": options.get("botch_dice", {}).get(str(card.id), ""),
            "modifier": options.get("modifiers", {}).get(str(card.id), ""),
            "fought": fatigue and str(card.id) in engaged,
            "callable": fatigue and str(card.id) not in engaged,
            "called": str(card.id) in extra,
        }
        for card in cards
    ]


def setup_context(encounter: Encounter, cards: list[Card]) -> dict:
    """The storyguide's "add to the fight" form and correction form, kept current by every push that
    shows them (built only then)."""
    from combat.forms import AddCombatantsForm

    from .forms import CorrectionForm

    def add_form() -> AddCombatantsForm:
        in_fight = [card.character.pk for card in cards]
        saga_fighters = Character.objects.filter(saga=encounter.saga_id).fighters()
        available = saga_fighters.exclude(pk__in=in_fight).select_related("owner").defer("sheet", "notes")
        available = list(available.with_owner_guiding())
        return AddCombatantsForm(available=available, storyguides=guiding_owners(encounter.saga, available))

    return {
        "add_form": SimpleLazyObject(add_form),
        "correction_form": SimpleLazyObject(
            lambda: CorrectionForm(combatants=[card.combatant for card in cards])
        ),
    }


def still_to_declare(combatants, declarations: dict, user_id) -> tuple[str, ...]:
    """The names of a player's characters that can act and have not declared this round (ArM3 p163, p177):
    the heading of their declarations panel names them."""
    return tuple(
        combatant.character.name
        for combatant in combatants
        if combatant.character.owner_id == user_id
        and not combatant.character.is_npc
        and combatant.pk not in declarations
        and not unable_to_act(combatant.character)
    )


def declaration_entries(
    encounter: Encounter,
    combatants,
    declarations: dict,
    *,
    storyguide: bool,
    user_id=None,
    previous=None,
    only: set[int] | None = None,
) -> list[dict]:
    """The declaration entries one person may fill in: for whoever holds the seat their own characters first
    (run from the storyguide's panel, still player characters: issue 38, item 4), then the NPCs, then everyone
    else's (the storyguide may declare for anyone); a player's own characters. A character that cannot act has
    why (`unable`, ArM3 p177) in place of its form. An entry shown open has its form, or why not;
    a closed one (someone else's, or an NPC among more than OPEN_AT_ONCE) gets it when opened.
    `previous`: last round's declarations by combatant, for "same as last round"; `only`: just these
    combatants' entries."""
    own = [c for c in combatants if not c.character.is_npc and c.character.owner_id == user_id]
    mine = own + [c for c in combatants if c.character.is_npc] if storyguide else own
    mine_ids = {c.pk for c in mine}
    others = [c for c in combatants if c.pk not in mine_ids] if storyguide else []
    mine_open = not storyguide or len(mine) <= OPEN_AT_ONCE
    shown = [c for c in mine + others if only is None or c.pk in only]
    # "Same as last round" is offered where `declare` would take it; elsewhere, why not in its place.
    repeats = {c.pk: previous[c.pk] for c in shown if previous and c.pk in previous}
    refused = repeat_refusals(encounter, combatants, repeats) if repeats else {}
    entries = []
    for combatant in mine + others:
        if only is not None and combatant.pk not in only:
            continue
        declaration = declarations.get(combatant.pk)
        own = combatant.pk in mine_ids
        unable = unable_to_act(combatant.character)  # nothing to declare: the entry says why instead
        opened = mine_open and own  # shown open: its form, or why not
        entries.append(
            {
                "form": declaration_form(encounter, combatant, combatants, storyguide, declaration)
                if opened and not unable
                else None,
                "combatant": combatant,
                "declaration": declaration,
                "previous": (previous or {}).get(combatant.pk),
                "repeat_refusal": refused.get(combatant.pk),
                "own": own,
                "open": opened,
                "unable": unable,
            }
        )
    return entries


def declaration_form(encounter: Encounter, combatant, combatants, storyguide: bool, declaration=None):
    """One combatant's declaration form, filled in with its declaration this round if any."""
    return DeclarationForm(
        combatant=combatant,
        others=combatants,
        physical=encounter.saga.physical_dice,
        storyguide=storyguide,
        declaration=declaration,
    )


def npcs_to_repeat(encounter: Encounter, combatants, declarations: dict, previous: dict) -> bool:
    """Whether "every NPC not declared yet: same as last round" has anyone it would declare for [ours]: an
    NPC that cannot act (ArM3 p177) has nothing to declare, and a repeat the check refuses is left out."""
    waiting = [c for c in combatants if c.character.is_npc and c.pk in previous and c.pk not in declarations]
    waiting = [c for c in waiting if not unable_to_act(c.character)]
    if not waiting:
        return False
    refused = repeat_refusals(encounter, combatants, {c.pk: previous[c.pk] for c in waiting})
    return any(c.pk not in refused for c in waiting)


def npc_declarations(encounter: Encounter, combatants, declarations: dict, refusal) -> dict:
    """The storyguide's "Declare for NPCs" panel, pushed in their frames (one render for every tab of theirs):
    the forms (and last round's declarations, for "same as last round") are built only when a page or
    frame shows the panel, or some of its entries (`entries_of`)."""

    previous = SimpleLazyObject(lambda: declarations_in(encounter, encounter.round_number - 1, weapons=True))

    def entries_of(only: set[int] | None = None) -> list[dict]:
        return declaration_entries(
            encounter, combatants, declarations, storyguide=True, previous=previous, only=only
        )

    return {
        "entries": SimpleLazyObject(entries_of),
        "entries_of": entries_of,
        "npcs_as_before": SimpleLazyObject(
            lambda: npcs_to_repeat(encounter, combatants, declarations, previous)
        ),
        "refusal": refusal,
        **my_declarations_words(encounter, True),
    }


# The steps of a round, for the status bar: the same for every table.
PHASE_TRACK = tuple((value, label) for value, label in Phase.choices if value)
