"""The d6 table's panels, built from rows: fighters with their fatigue tracks, the turn, the
chase grid. The same context renders the full pages and the frames pushed after each command
(`arsmagica.panels.state_context` hands a d6 encounter over to `state_context` here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.defaultfilters import floatformat
from django.utils.html import format_html

from campaign.models import Character, fighter_label, guiding_owners
from combat.access import holds_seat
from combat.audience import STORYGUIDE
from combat.events import CoreKind
from combat.models import Combatant, Encounter, Event
from d6.rules import table
from d6.rules.fatigue import FATIGUE_MAX

from . import events, presenters
from .kinds import EXCHANGE, ROLL, TURN_ENDED
from .models import Chase, Fight, Runner
from .services.sheet import SheetScore, rollable_names, scores_of, stamina_base
from .sheet import sheet_of
from .state import (
    D6Read,
    fight_with_fighters,
    newest_chase,
    read_combatants,
    table_state,
    target_row,
)

TERRAIN_ROWS = 3  # terrain stretches named when a chase starts
ALWAYS_RISES = 6  # d6 seed: above six, every physical roll raises fatigue
FRAME_TEMPLATE = "d6/_frame_panels.html"  # the panels every live frame pushes (the page role)
# The panels of the d6 frame each of the core's kinds changes (its own kinds name theirs, `events.SETUP`):
# who joins, leaves, is renamed or handed over changes set-up's lists; the end hides it.
CORE_KIND_PANELS = {
    CoreKind.ENCOUNTER_CREATED: frozenset(),
    CoreKind.COMBATANT_ADDED: events.SETUP,
    CoreKind.COMBATANT_REMOVED: events.SETUP,
    CoreKind.COMBATANT_RENAMED: events.SETUP,
    CoreKind.HANDED_OVER: events.SETUP,
    CoreKind.RESET_LINK_MADE: frozenset(),
    CoreKind.ENCOUNTER_ENDED: events.SETUP,
}
TINTS = 6  # terrain colours: d6.css's --terrain-0 .. --terrain-5, each with a light and a dark value


@dataclass
class Cell:
    number: int
    fails: bool
    now: bool
    base: bool
    always_rises: bool

    @property
    def css_class(self) -> str:
        """The cell's classes: in the fail zone, the fatigue now, the base, where fatigue always rises."""
        marks = ("fails", self.fails), ("now", self.now), ("base", self.base), ("rises", self.always_rises)
        return " ".join(["cell"] + [name for name, marked in marks if marked])

    @property
    def testid(self) -> str:
        return "track-now" if self.now else "track-base" if self.base else ""

    @property
    def shown(self) -> str:
        """The number written in the cell: only the ends, the base and the fatigue now."""
        return str(self.number) if self.now or self.base or self.number in (1, FATIGUE_MAX) else ""


@dataclass
class Track:
    """A fatigue track 1-20: the base marked, the current fatigue, the auto-fail zone below it."""

    fatigue: int
    base: int
    cells: list[Cell] = field(default_factory=list)

    @classmethod
    def of(cls, fatigue: int, base: int) -> Track:
        cells = [
            Cell(n, n < fatigue, n == fatigue, n == base, n > ALWAYS_RISES) for n in range(1, FATIGUE_MAX + 1)
        ]
        return cls(fatigue, base, cells)

    @property
    def text(self) -> str:
        """What the fatigue does now: which die results fail, whether every physical roll raises it."""
        return presenters.track_text(self.fatigue, ALWAYS_RISES)

    @property
    def base_text(self) -> str:
        """What its base means: where a breather brings it back."""
        return presenters.track_base(self.fatigue, self.base)

    @property
    def label(self) -> str:
        return presenters.track_label(self.fatigue, self.base, FATIGUE_MAX)


@dataclass
class FighterCard:
    """One combatant: its track, its place in the order, whether it is its turn."""

    combatant: Combatant
    track: Track
    scores: list[SheetScore]
    position: int | None = None
    initiative: dict | None = None
    current: bool = False
    rose_this_turn: bool = False

    @property
    def id(self) -> int:
        return self.combatant.pk

    @property
    def character(self):
        return self.combatant.character

    @property
    def player_id(self) -> int | None:
        """The user who plays this character (None for an NPC): their page shows its controls."""
        return player_of(self.character)


def player_of(character: Character) -> int | None:
    return None if character.is_npc else character.owner_id


def _card(combatant: Combatant, base: int | None = None) -> FighterCard:
    character = combatant.character
    base = stamina_base(character) if base is None else base
    return FighterCard(combatant, Track.of(sheet_of(character).fatigue, base), scores_of(character))


def terrain_tint(name: str) -> str:
    """A terrain's colour, the same for the same name: the class of one of d6.css's tints."""
    return f"terrain-{sum(name.encode()) % TINTS}"


def token_label(name: str) -> str:
    """A runner's token on the grid: the initials of the name's capitalised words, up to three
    ("Watchman Hale" -> "WH", "Marta the Huntress" -> "MH", "Bandit 2" -> "B2"); one word keeps two."""
    words = ["".join(ch for ch in word if ch.isalnum()) for word in name.split()]
    words = [word for word in words if word]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:1].upper() + words[0][1:2]
    marked = [word for word in words if word[0].isupper() or word[0].isdigit()]
    return "".join(word[0] for word in (marked if len(marked) >= 2 else words)[:3]).upper()


def token_labels(names: list[str]) -> list[str]:
    """A label per name, told apart: names whose initials coincide get a number after them ("WH1", "WH2")."""
    labels = [token_label(name) for name in names]
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    numbers: dict[str, int] = {}
    told_apart = []
    for label in labels:
        if seen[label] > 1:
            numbers[label] = numbers.get(label, 0) + 1
            label = f"{label[:2]}{numbers[label]}"
        told_apart.append(label)
    return told_apart


@dataclass
class Lane:
    """A chaser's lane on the grid: its squares, its token, and the target's token at its right end."""

    runner: Runner
    y: int
    column: int
    x: int
    squares: list[dict]
    token: str
    label: str = ""
    target_x: int = 0
    target_out: str = ""

    @property
    def name(self) -> str:
        return self.runner.combatant.character.name

    @property
    def label_y(self) -> int:
        return self.y - 5

    @property
    def cy(self) -> int:
        return self.y + CELL // 2

    @property
    def text_y(self) -> int:
        return self.cy + 5

    @property
    def cx(self) -> int:
        return self.x + CELL // 2

    @property
    def cross(self) -> str:
        """The cross drawn over a runner who dropped out (empty otherwise)."""
        return cross_path(self.x, self.y) if self.runner.status == Runner.Status.DROPPED_OUT else ""

    @property
    def target_cross(self) -> str:
        return cross_path(self.target_x, self.y) if self.target_out == Runner.Status.DROPPED_OUT else ""

    @property
    def target_cx(self) -> int:
        return self.target_x + CELL // 2


def cross_path(x: int, y: int) -> str:
    """An X across one square of the grid, as an SVG path."""
    side = CELL - 12
    return f"M{x + 6} {y + 6} l{side} {side} m0 -{side} l-{side} {side}"


CELL = 34
GAP = 4
LABEL = 16
STRIP = 26
PAD = 6


def chase_grid(chase: Chase, runners: list[Runner]) -> dict:
    """The SVG geometry: a lane per chaser, the target's square at the right end of each lane,
    the chaser `distance` squares behind it; the terrain stretches as a strip on top."""
    target = target_row(runners)
    chasers = [r for r in runners if r.role == Runner.Role.CHASER]
    furthest = max([r.start_distance or 1 for r in chasers] + [r.distance or 0 for r in chasers])
    columns = chase.escape_distance or furthest + 2
    columns = max(columns, 4)
    target_column = columns
    ahead = any((r.distance or 0) < 0 for r in chasers)  # a chaser who moved ahead of the target
    squares_per_lane = columns + 1 + (1 if ahead else 0)
    width = PAD * 2 + squares_per_lane * (CELL + GAP)
    tint = terrain_tint(chase.stretches[-1]["name"])
    target_name = target.combatant.character.name
    target_token, *chaser_tokens = token_labels(
        [target.combatant.character.name] + [chaser.combatant.character.name for chaser in chasers]
    )
    lanes = []
    for index, chaser in enumerate(chasers):
        y = PAD + STRIP + GAP + index * (CELL + LABEL + GAP * 2) + LABEL
        distance = chaser.distance if chaser.distance is not None else 0
        column = max(target_column - distance, 0)
        low, high = sorted((column, target_column))
        squares = [
            {
                "x": PAD + c * (CELL + GAP),
                "between": low <= c <= high,
                "edge": chase.escape_distance is not None and c == 0,
            }
            for c in range(squares_per_lane)
        ]
        label = presenters.lane_label(
            chaser.combatant.character.name, chaser.status, chaser.distance, target_name
        )
        lanes.append(
            Lane(
                chaser,
                y,
                column,
                PAD + column * (CELL + GAP),
                squares,
                chaser_tokens[index],
                label,
                target_x=PAD + target_column * (CELL + GAP),
                target_out=target.status,
            )
        )
    height = PAD * 2 + STRIP + GAP + len(chasers) * (CELL + LABEL + GAP * 2)
    strip = []
    stretches = chase.stretches
    share = (width - PAD * 2) / max(len(stretches), 1)
    for index, stretch in enumerate(stretches):
        last = stretches[index + 1]["starts_at"] - 1 if index + 1 < len(stretches) else chase.exchanges
        entry = {
            **stretch,
            "until": last,
            "count": max(last - stretch["starts_at"] + 1, 0),
            "tint": terrain_tint(stretch["name"]),
            "x": round(PAD + index * share, 1),
            "width": round(share - 3, 1),
        }
        entry["exchanges"] = presenters.stretch_exchanges(entry)
        entry["rect_width"] = (
            int(floatformat(entry["width"], 0)) - 1
        )  # the rectangle inside its half-pixel border
        strip.append(entry)
    return {
        "width": width,
        "height": height,
        "cell": CELL,
        "half": CELL // 2,
        "strip_height": STRIP,
        "columns": columns,
        "target": target,
        "target_token": target_token,
        "target_name": target_name,
        "title": presenters.grid_title(
            [(lane.runner.combatant.character.name, lane.runner.distance) for lane in lanes], target_name
        ),
        "radius": CELL // 2 - 4,
        "rect_height": STRIP - 1,
        "target_x": PAD + target_column * (CELL + GAP),
        "lanes": lanes,
        "strip": strip,
        "tint": tint,
        "pad": PAD,
    }


@dataclass
class OwnRun:
    """A runner a player plays: what they roll next, and whether the choice at the target is open."""

    runner: Runner
    player_id: int
    rolled: str
    dice: int
    at_target: bool
    prompt: str
    faces_refusal: str | None = None
    at_target_refusal: str | None = None
    choice: str = ""  # a choice waiting on this runner's player, named in their box's heading

    @property
    def typed(self) -> str:
        return " ".join(str(face) for face in self.runner.faces)


def _own_runs(chase: Chase, runners: list[Runner]) -> list[OwnRun]:
    rolled = chase.stretches[-1]["rolled"]
    runs = []
    for runner in runners:
        player = player_of(runner.combatant.character)
        if player is None or runner.status != Runner.Status.RUNNING:
            continue
        score = next((s for s in scores_of(runner.combatant.character) if s.name == rolled), None)
        dice = abs(score.consistency) if score else 0
        runs.append(
            OwnRun(
                runner=runner,
                player_id=player,
                rolled=rolled,
                dice=dice,
                at_target=runner.role == Runner.Role.CHASER and runner.distance == 1,
                prompt=presenters.faces_prompt(chase.exchanges + 1, rolled, dice),
            )
        )
    return runs


def _name_the_choice(chase_context: dict) -> None:
    """The target's player, offered a terrain change, reads in their box's heading that a choice waits."""
    if not chase_context["choosing"] or chase_context["chooser_id"] is None:
        return
    for own in chase_context["yours"]:
        if own.runner.role == Runner.Role.TARGET and own.player_id == chase_context["chooser_id"]:
            own.choice = "choose where to run"


def chase_texts(
    chase: Chase, runners: list[Runner], target: Runner, *, physical_dice: bool, over: bool = False
) -> dict:
    """The chase panel's wording: its heading, its outcome, the terrain now, each chaser's place. A chase
    the encounter's end stopped (`over`) reads as stopped: no next exchange, no dice awaited."""
    chasers = [r for r in runners if r.role == Runner.Role.CHASER]
    target_name = target.combatant.character.name
    ongoing = chase.ongoing and not over
    texts = {
        "heading": presenters.chase_heading(
            chase.number, [r.combatant.character.name for r in chasers], target_name
        ),
        "exchanges_text": presenters.plural(chase.exchanges, "exchange"),
        "next_exchange": chase.exchanges + 1 if ongoing else None,
        "terrain": chase.stretches[-1],
        "exchange_button": presenters.roll_exchange_text(chase.exchanges + 1, chase.stretches[-1]),
        "not_sent_yet": presenters.not_sent_yet(
            [r.combatant.character.name for r in runners if r.status == Runner.Status.RUNNING and not r.faces]
        )
        if ongoing
        else "",
        "offered_text": presenters.terrains_text(chase.offered),
        "distances": [distance_row(r, target_name, ongoing, physical_dice) for r in chasers],
        "target_dice": "",
        "outcome": "",
        "outcome_key": chase.outcome,
    }
    if chase.ongoing and over:
        texts["outcome"], texts["outcome_key"] = presenters.chase_stopped(), "stopped"
    elif not chase.ongoing:
        texts["outcome"] = presenters.chase_outcome(
            chase.outcome,
            target_name,
            chase.caught_by.character.name if chase.caught_by else "",
            acts_against_target=chase.acts_against_target,
            ahead=[r.combatant.character.name for r in chasers if r.status == Runner.Status.AHEAD],
        )
    elif physical_dice and ongoing and target.status == Runner.Status.RUNNING:
        texts["target_dice"] = dice_note(target)
    return texts


def dice_note(runner: Runner, *, testid: bool = False) -> str:
    """Physical dice: "dice in" or "no dice yet" for a runner's next exchange."""
    tone = "dice-in" if runner.faces else "muted"
    if testid:
        return format_html(
            '<span class="small nowrap {}" data-testid="dice-in-{}">{}</span>',
            tone,
            runner.combatant_id,
            presenters.dice_in(runner.faces),
        )
    return format_html('<span class="small nowrap {}">{}</span>', tone, presenters.dice_in(runner.faces))


def distance_row(runner: Runner, target_name: str, ongoing: bool, physical_dice: bool) -> dict:
    """One chaser's line under the grid: how far behind, why out or the choice at the target, dice in."""
    running = runner.status == Runner.Status.RUNNING
    return {
        "runner": runner,
        "where": presenters.distance_text(runner.status, runner.distance),
        "note": runner_note(runner, target_name, ongoing),
        "at_target": running and runner.distance == 1 and ongoing,
        "dice": format_html("&nbsp;· {}", dice_note(runner, testid=True))
        if physical_dice and ongoing and running
        else "",
    }


def runner_note(runner: Runner, target_name: str, ongoing: bool) -> str:
    """Why a chaser is out, or, one square behind, what it does if its roll would pass the target."""
    out = presenters.out_text(runner.status)
    if out:
        return format_html(' · <span class="out">{}</span>', out)
    if runner.status == Runner.Status.RUNNING and runner.distance == 1 and ongoing:
        return format_html(
            ' · <span class="at-target" data-testid="at-target-{}" data-choice="{}">'
            "if the roll would pass: {}</span>",
            runner.combatant_id,
            "move_ahead" if runner.moves_ahead else "act",
            presenters.at_target_choice(runner.moves_ahead, target_name),
        )
    return ""


@dataclass(frozen=True)
class ChallengeValue:
    """A challenge value as the forms show it: the number (None: not set) and where it comes from."""

    value: int | None
    note: str


def fight_texts(fight: Fight | None, current: FighterCard | None, defence: dict | None) -> dict:
    """The fight panel's wording: the challenge values with their notes, the set-value field's label,
    the roller's challenge, the defence awaited and the defenders queued behind it."""
    value = fight.value if fight is not None else None
    roll_note = presenters.value_note(defence=False, set_by_storyguide=value is not None)
    texts = {
        "challenge": {"roll": ChallengeValue(value, roll_note)},
        "challenge_word": presenters.challenge_word(acted=bool(fight and fight.acted)),
        "set_value_label": "",
        "queued_defences": "",
        "awaiting_defence": "",
    }
    if defence:
        defender = defence["defender"].character.name
        defence_note = presenters.value_note(defence=True, set_by_storyguide=defence["set"])
        texts["challenge"]["defence"] = ChallengeValue(defence["value"], defence_note)
        texts["set_value_label"] = presenters.set_value_label(defender, defence=True)
        texts["queued_defences"] = presenters.queued_defences([c.character.name for c in defence["more"]])
        texts["awaiting_defence"] = presenters.awaiting_defence(
            defender, defence["attacker"].character.name, None if defence["screened"] else defence["value"]
        )
    elif current is not None:
        texts["set_value_label"] = presenters.set_value_label(
            current.character.name, defence=False, player_rolls=current.player_id is not None
        )
    return texts


def holder_actor(encounter: Encounter, combatants) -> table.Actor:
    """Who holds the encounter's seat, as the checks see them: the storyguide, who plays their own characters
    too (issue 38, item 4: run from the storyguide's panel, still player characters)."""
    holder = encounter.seat_holder_id
    own = (str(c.pk) for c in combatants if not c.character.is_npc and c.character.owner_id == holder)
    return table.Actor(storyguide=True, plays=frozenset(own))


def player_for(*combatant_ids) -> table.Actor:
    """The player who plays these combatants, as the checks see them."""
    return table.Actor(
        storyguide=False, plays=frozenset(str(who) for who in combatant_ids if who is not None)
    )


def refusals(
    state: table.TableState,
    current: FighterCard | None,
    defence: dict | None = None,
    holder: table.Actor = table.STORYGUIDE,
) -> dict:
    """Why each button is disabled (None: enabled), from the checks the commands obey: the
    storyguide's (`holder`: who holds the seat, with the characters they play themselves), and the acting
    character's player's (`player_*`)."""
    player = player_for(current.id if current else None)
    found = {
        "start_fight": table.can_start_fight(state),
        "set_value": table.can_set_value(state) if state.fight is not None else None,
        "breather": table.can_take_breather(state, table.STORYGUIDE),
        "end_turn": table.can_end_turn(state, table.STORYGUIDE),
        "player_breather": table.can_take_breather(state, player),
        "player_end_turn": table.can_end_turn(state, player),
        "exchange": table.can_exchange(state),
        "offer_terrain": table.can_offer_terrain(state),
    }
    if state.fight is not None and current is not None:
        roller = str(defence["defender"].id if defence and defence["defender"] else current.id)
        found["roll"] = table.can_roll(state, table.STORYGUIDE, roller)
        found["player_roll"] = table.can_roll(state, player_for(roller), roller)
    if state.chase is not None:
        target = state.chase.target.id
        found["choose_terrain"] = table.can_choose_terrain(state, holder)
        found["player_choose_terrain"] = table.can_choose_terrain(state, player_for(target))
    return found


def runner_refusals(state: table.TableState, chase_context: dict) -> None:
    """Each runner's own buttons ask the checks their commands obey: dice typed in by its player,
    and the choice at the target (the storyguide's and the player's)."""
    if state.chase is None:
        return
    exchange = state.chase.exchanges + 1
    for own in chase_context["yours"]:
        who = str(own.runner.combatant_id)
        own.faces_refusal = table.can_enter_faces(state, player_for(who), who, exchange)
        own.at_target_refusal = table.can_choose_at_target(state, player_for(who), who, exchange)
    for row in chase_context["distances"]:
        who = str(row["runner"].combatant_id)
        row["at_target_refusal"] = table.can_choose_at_target(state, table.STORYGUIDE, who, exchange)


FIGHT_STARTED_ROW = "initiative"  # one fighter's initiative roll, as the fighter's row keeps it


# The storyguide's keys for each mode of the table, as `data-key` gives them to the buttons shown then
# (static/js/storyguide-keys.js); N takes the next step in every mode.
KEYS = {
    "": [("S", "start the fight")],
    "chase_over": [("S", "start the fight")],
    "fight": [("R", "roll"), ("E", "end the turn"), ("B", "breather"), ("V", "set the value")],
    "chase": [("R", "roll the exchange")],
}


def shortcut_keys(mode: str) -> list[tuple[str, str]]:
    """The keys the control panel lists: only those whose buttons it shows now (none once it is over)."""
    return [] if mode == "over" else [*KEYS.get(mode, []), ("N", "next step")]


def players_view(encounter: Encounter, audience: str, combatants: list[Combatant]):
    """How a panel shows an entry's payload to the audience: whole for the storyguide, the players' version
    (`events.players_entry`) for the players; a fighter's initiative as one row of the fight's start."""
    if audience == STORYGUIDE:
        return lambda payload, kind, combatant=None: payload
    players = {str(c.pk) for c in combatants if not c.character.is_npc}
    npc_rolls = encounter.saga.npc_rolls

    def players_see(payload: dict, kind: str, combatant=None) -> dict:
        if kind == FIGHT_STARTED_ROW:
            return presenters.players_challenge(payload, combatant, players, npc_rolls)
        return events.players_entry(kind, payload, players, npc_rolls)

    return players_see


def screened_to_meet(encounter: Encounter, audience: str, combatants: list[Combatant], defence: dict) -> bool:
    """Whether the players' panels, the same for every player, leave out the number the awaited defence
    must meet: an NPC's attack result where the saga keeps NPC totals behind the screen (issue 35, item 10;
    the defender's player fetches it, `to_meet`)."""
    if audience == STORYGUIDE:
        return False
    players = {str(c.pk) for c in combatants if not c.character.is_npc}
    return presenters.to_meet_hidden(
        defence["attacker"], defence["defender"], players, set(), encounter.saga.npc_rolls
    )


def to_meet(encounter: Encounter, user) -> dict | None:
    """The defence awaited as `user` may read it: who attacks whom and, for the storyguide or the player of
    the defending character, the number to meet (None: no defence is awaited)."""
    fight = Fight.objects.filter(encounter=encounter).first()
    if fight is None or not fight.defence or encounter.status == Encounter.Status.ENDED:
        return None
    combatants = list(encounter.combatants.select_related("character"))
    by_id = {str(c.pk): c for c in combatants}
    attacker, defender = by_id.get(fight.defence["attacker"]), by_id.get(fight.defence["defender"])
    if attacker is None or defender is None:
        return None
    own = {str(defender.pk)} if defender.character.owner_id == user.pk else set()
    players = {str(c.pk) for c in combatants if not c.character.is_npc}
    storyguide = holds_seat(user, encounter)
    hidden = not storyguide and presenters.to_meet_hidden(
        fight.defence["attacker"], fight.defence["defender"], players, own, encounter.saga.npc_rolls
    )
    return {
        "attacker": attacker,
        "defender": defender,
        "hidden": hidden,
        "value": None if hidden else fight.defence["value"],
    }


@dataclass
class D6Facts:
    """The rows both audiences' d6 panels are built from, read once per page or push (up to six queries)."""

    combatants: list[Combatant]
    fight: Fight | None
    fighters: list
    chase: Chase | None
    runners: list[Runner]
    last_entry: Event | None  # the fight's newest roll or turn's end


def table_facts(encounter: Encounter, read: D6Read | None = None) -> D6Facts:
    """The combatants, the fight and its fighters, the newest chase and its runners, the last roll; the
    combatants as the command left them where it hands them over (`read`), else read here."""
    # Each sheet reads its saga's attribute names: the saga comes along, not once per character.
    combatants = read.combatants if read is not None else read_combatants(encounter)
    fight, fighters = fight_with_fighters(encounter, combatants)  # one query, as the chase below
    chase, runners = newest_chase(encounter, combatants)  # one query: never a chase without its runners
    entries = encounter.events.filter(kind__in=(ROLL, TURN_ENDED)).order_by("-seq")
    last_entry = entries.first() if fight is not None else None
    return D6Facts(combatants, fight, fighters, chase, runners, last_entry)


def state_context(encounter: Encounter, audience: str, facts: D6Facts | None = None) -> dict:
    """Everything the d6 panels show; `audience` hides the storyguide's controls and NPC sheets. A push
    reads `facts` once for both audiences."""
    facts = facts or table_facts(encounter)
    over = encounter.status == Encounter.Status.ENDED  # the one decision: an ended table names no next step
    combatants, fight, fighters, chase, runners = (
        facts.combatants, facts.fight, facts.fighters, facts.chase, facts.runners
    )
    shown = players_view(encounter, audience, combatants)
    cards: list[FighterCard] = []
    current = None
    defence = None
    if fight is not None:
        in_fight = set()
        for fighter in fighters:
            card = _card(fighter.combatant, fighter.base_fatigue)
            card.position = fighter.position + 1
            card.initiative = shown(fighter.initiative, FIGHT_STARTED_ROW, fighter.combatant_id)
            card.current = fighter.position == fight.turn and not over
            card.rose_this_turn = fighter.rose_this_turn
            cards.append(card)
            in_fight.add(fighter.combatant_id)
            if card.current:
                current = card
        cards += [_card(c) for c in combatants if c.pk not in in_fight]
        if fight.defence and not over:
            by_id = {str(card.id): card for card in cards}
            defence = {
                "attacker": by_id.get(fight.defence["attacker"]),
                "defender": by_id.get(fight.defence["defender"]),
                "value": fight.defence["value"],
                "set": fight.defence.get("set", False),
                "more": [by_id.get(d["defender"]) for d in fight.queue or []],
                "screened": screened_to_meet(encounter, audience, combatants, fight.defence),
            }
            if defence["screened"]:  # its player fetches it (`to_meet`); every other player never sees it
                defence["value"] = None
    else:
        cards = [_card(c) for c in combatants]
    chase_context = None
    chase_runs = chase is not None and chase.ongoing and not over
    if chase is not None:
        target = target_row(runners)
        owner = target.combatant.character.owner
        chooser_id = owner.pk if owner is not None and not target.combatant.character.is_npc else None
        chase_context = {
            **chase_texts(chase, runners, target, physical_dice=encounter.saga.physical_dice, over=over),
            "chase": chase,
            "runners": runners,
            "target": target,
            "chasers": [r for r in runners if r.role == Runner.Role.CHASER],
            "grid": chase_grid(chase, runners),
            "chooser_id": chooser_id,
            "chooser_name": owner.get_username() if chooser_id else "the storyguide",
            "last": shown(chase.last_exchange, EXCHANGE) if chase.last_exchange else None,
            "cards": [c for c in cards if c.id in {r.combatant_id for r in runners}],
            "standing": [r for r in runners if r.status != Runner.Status.RUNNING] if chase_runs else [],
            "yours": _own_runs(chase, runners) if chase_runs else [],
            # A terrain offered and not chosen is a choice only while the encounter lasts.
            "choosing": bool(chase.offered) and chase_runs,
        }
        # The seat holder's own character is the target: they choose from the storyguide's panel (item 4).
        chase_context["holder_chooses"] = audience == STORYGUIDE and chooser_id == encounter.seat_holder_id
        _name_the_choice(chase_context)
    chase_ongoing = chase_runs
    if over:
        mode = "over"
    elif chase_ongoing:
        mode = "chase"
    elif fight is not None:
        mode = "fight"
    elif chase is not None:
        mode = "chase_over"
    else:
        mode = ""
    last_roll = None
    event = facts.last_entry
    if fight is not None and event is not None and event.kind == ROLL:
        last_roll = shown(event.payload, ROLL)
    state = table_state(
        encounter,
        combatants=combatants,
        fight=fight,
        fighters=fighters if fight is not None else None,
        chase=chase if chase_ongoing else None,
        runners=runners,
    )
    if chase_context is not None:
        runner_refusals(state, chase_context)
    # Whom the acting fighter may attack, or shoot at in a cluster: those the roll's check takes as a target.
    roller = str(current.id) if current is not None else None
    sg = table.STORYGUIDE
    targets = [c for c in cards if roller and table.can_roll(state, sg, roller, target=str(c.id)) is None]
    available = []
    if audience == STORYGUIDE and encounter.status == Encounter.Status.PREPARING:
        in_encounter = {c.character_id for c in combatants}
        fighters = Character.objects.filter(saga=encounter.saga_id).fighters().select_related("owner")
        available = [c for c in fighters.with_owner_guiding() if c.pk not in in_encounter]
        storyguides = guiding_owners(encounter.saga, available)
        for character in available:
            character.label = fighter_label(character, storyguides)
    sides: dict[str, list[FighterCard]] = {}
    for card in cards:
        sides.setdefault(card.combatant.side, []).append(card)
    return {
        "d6": True,
        "encounter": encounter,
        "audience": audience,
        "is_storyguide": audience == STORYGUIDE,
        "physical_dice": encounter.saga.physical_dice,
        "cards": cards,
        "sides": sides,
        "fight": fight,
        "current": current,
        "defence": defence,
        "targets": targets,
        "last_roll": last_roll,
        "available": available,
        "chase": chase_context,
        "chase_ongoing": chase_ongoing,
        "mode": mode,
        "over": over,
        "fight_over": presenters.fight_over(fight.round) if over and fight is not None else "",
        "rollable": rollable_names(c.character for c in combatants) if audience == STORYGUIDE else [],
        "refusals": refusals(state, current, defence, holder_actor(encounter, combatants)),
        **fight_texts(fight, current, defence),
        "terrain_rows": range(TERRAIN_ROWS),
        "shortcut_keys": shortcut_keys(mode),
    }
