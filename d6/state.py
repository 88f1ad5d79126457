"""The table as the rules see it, built from rows in one place: the commands obey the checks of
`d6.rules.table` on it and the panels ask the same checks to enable their buttons."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Subquery

from campaign.models import Character
from combat.access import holds_seat
from combat.models import Combatant, Encounter
from d6 import rules
from d6.rules import chase as chase_rules
from d6.rules.table import Actor, Defence, TableState

from .models import Chase, Fight, Fighter, Runner
from .services.sheet import chase_scores, current_fatigue
from .sheet import sheet_of

Fatigue = Callable[[Character], int]
UNREAD = object()  # a row not handed in: read it here


@dataclass(frozen=True)
class D6Read:
    """What a d6 command read of its encounter under the lock, handed to its push (`EventLog.save(read=)`):
    every combatant, with its character, the character's saga and player, as the command left them."""

    combatants: list[Combatant]


def read_combatants(encounter: Encounter) -> list[Combatant]:
    """The encounter's combatants with their characters, the characters' saga and player (one query)."""
    return list(encounter.combatants.select_related("character__owner", "character__saga"))


def with_combatants(rows: Iterable, combatants: list[Combatant]) -> list:
    """Fighter or runner rows, each given its combatant from `combatants` (the same objects: what a command
    saves through one shows in the other), instead of reading the combatants again with them."""
    by_id = {combatant.pk: combatant for combatant in combatants}
    rows = list(rows)
    for row in rows:
        row.combatant = by_id[row.combatant_id]
    return rows


def fight_with_fighters(
    encounter: Encounter, combatants: list[Combatant]
) -> tuple[Fight | None, list[Fighter]]:
    """The encounter's fight and its fighters (each given its combatant from `combatants`), read in one
    query, as `newest_chase` reads a chase: a fight is written with its fighters in one transaction."""
    fighters = with_combatants(
        Fighter.objects.filter(fight__encounter=encounter).select_related("fight"), combatants
    )
    if not fighters:
        return None, []
    fight = fighters[0].fight
    for fighter in fighters:
        fighter.fight = fight
    return fight, fighters


def newest_chase(encounter: Encounter, combatants: list[Combatant]) -> tuple[Chase | None, list[Runner]]:
    """The encounter's newest chase and its runners (each given its combatant from `combatants`), read in
    one query: a reader outside a transaction (a page, a push after its commit, a websocket's replay) sees
    them as one commit left them, never the chase from before a delete and its runners from after it."""
    newest = encounter.d6_chases.order_by("-number").values("pk")[:1]
    rows = Runner.objects.filter(chase=Subquery(newest)).select_related("chase")
    runners = with_combatants(rows, combatants)
    if not runners:  # a chase is written with its target and chasers in one transaction: no chase
        return None, []
    chase = runners[0].chase
    for runner in runners:
        runner.chase = chase
    return chase, runners


def target_row(runners: Iterable[Runner]) -> Runner:
    """The chase's target among its runners. A chase is written with its target in one transaction and read
    with its runners in one query: a missing target is a broken invariant, raised as a LookupError naming
    the chase rather than as the StopIteration of a bare `next()`, which a Future garbles into a TypeError
    and a generator swallows."""
    runners = list(runners)
    for runner in runners:
        if runner.role == Runner.Role.TARGET:
            return runner
    which = f"chase {runners[0].chase.number}" if runners else "a chase"
    raise LookupError(f"{which} has no target among the runners read with it")


def _sheet_fatigue(character: Character) -> int:
    return sheet_of(character).fatigue


def fight_state(
    fight: Fight, fighters: list[Fighter], fatigue: Fatigue = current_fatigue
) -> rules.FightState:
    """The engine's fight from its rows (`fatigue` reads a sheet: checked on the track by default)."""
    return rules.FightState(
        fighters=tuple(
            rules.Fighter(
                id=str(f.combatant_id),
                base_fatigue=f.base_fatigue,
                fatigue=fatigue(f.combatant.character),
                rose_this_turn=f.rose_this_turn,
            )
            for f in fighters
        ),
        round=fight.round,
        turn=fight.turn,
        acted=fight.acted,
        took_breather=fight.took_breather,
    )


def _engine_runner(row: Runner, fatigue: Fatigue) -> rules.Runner:
    character = row.combatant.character
    return rules.Runner(
        id=str(row.combatant_id),
        fatigue=fatigue(character),
        base_fatigue=row.base_fatigue,
        scores=chase_scores(character),
        distance=row.distance if row.role == Runner.Role.CHASER else None,
        status=row.status,
    )


def chase_state(chase: Chase, rows: list[Runner], fatigue: Fatigue = current_fatigue) -> rules.ChaseState:
    """The engine's chase from its rows."""
    target = target_row(rows)
    return rules.ChaseState(
        target=_engine_runner(target, fatigue),
        chasers=tuple(_engine_runner(row, fatigue) for row in rows if row.role == Runner.Role.CHASER),
        stretches=tuple(
            chase_rules.Stretch(terrain=rules.Terrain(s["name"], s["rolled"]), starts_at=s["starts_at"])
            for s in chase.stretches
        ),
        escape_distance=chase.escape_distance,
        offered=tuple(rules.Terrain(t["name"], t["rolled"]) for t in chase.offered),
        exchanges=chase.exchanges,
        outcome=chase.outcome,
        caught_by=None if chase.caught_by_id is None else str(chase.caught_by_id),
    )


def _player_name(character: Character) -> str | None:
    if character.is_npc or character.owner_id is None:
        return None
    return character.owner.get_username()


def _defence(fight: Fight | None) -> Defence | None:
    if fight is None or not fight.defence:
        return None
    return Defence(attacker=fight.defence["attacker"], defender=fight.defence["defender"])


def table_state(
    encounter: Encounter,
    *,
    combatants: list[Combatant] | None = None,
    fight=UNREAD,
    fighters: list[Fighter] | None = None,
    chase=UNREAD,
    runners: list[Runner] | None = None,
    fatigue: Fatigue = _sheet_fatigue,
) -> TableState:
    """The table now. Rows already read may be handed in (`fight` with `fighters`, the latest
    `chase` with `runners`, None for none); the others are read here. `fatigue=current_fatigue`
    makes the fight and chase the engine's input, refusing a sheet off the track."""
    if combatants is None:
        combatants = list(encounter.combatants.select_related("character__owner", "character__saga"))
    if fight is UNREAD:
        fight = Fight.objects.filter(encounter=encounter).first()
    if fight is not None and fighters is None:
        fighters = list(
            fight.fighters.select_related("combatant__character__owner", "combatant__character__saga")
        )
    if chase is UNREAD:
        chase = encounter.d6_chases.filter(outcome=Chase.Outcome.ONGOING).first()
    if chase is not None and not chase.ongoing:
        chase = None
    if chase is not None and runners is None:
        runners = list(
            chase.runners.select_related("combatant__character__owner", "combatant__character__saga")
        )
    return TableState(
        status=encounter.status,
        names=tuple((str(c.pk), c.character.name) for c in combatants),
        played=tuple(
            (str(c.pk), player) for c in combatants if (player := _player_name(c.character)) is not None
        ),
        physical_dice=encounter.saga.physical_dice,
        fight=None if fight is None else fight_state(fight, fighters, fatigue),
        defence=_defence(fight),
        chase=None if chase is None else chase_state(chase, runners, fatigue),
        dice_in=frozenset(str(r.combatant_id) for r in runners or () if r.faces) if chase else frozenset(),
    )


def actor(user, encounter: Encounter, combatants: list[Combatant] | None = None) -> Actor:
    """The user at this table: who holds its storyguide's seat, or a player; either with the player characters
    they play (a holder's own character is still a player character: its player's choices are theirs)."""
    if combatants is None:
        combatants = list(encounter.combatants.select_related("character"))
    plays = frozenset(
        str(c.pk)
        for c in combatants
        if user.is_authenticated and not c.character.is_npc and c.character.owner_id == user.pk
    )
    return Actor(storyguide=holds_seat(user, encounter), plays=plays)
