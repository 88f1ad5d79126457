"""A chase on a grid, one step per service: start, an exchange, a terrain offer, the target's
choice, a breather for a runner standing still. Each runs in one transaction on the locked
encounter, refuses a stale version, rebuilds the engine's `ChaseState` from rows, calls one
rule (d6.rules.chase) and logs what happened."""

from __future__ import annotations

from django.db import transaction

from combat.errors import InvalidCommand
from combat.models import Encounter
from combat.rules.errors import RulesError
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of
from d6 import rules
from d6.rules import chase as chase_rules
from d6.rules import table

from ..kinds import (
    BREATHER,
    CHASE_ENDED,
    CHASE_STARTED,
    EXCHANGE,
    FACES_IN,
    PASS_CHOICE,
    TERRAIN_CHOSEN,
    TERRAIN_OFFERED,
)
from ..models import Chase, Runner
from ..state import D6Read, actor, read_combatants, table_state, target_row, with_combatants
from .common import require_d6
from .dice import dice_for, parse_faces
from .sheet import chase_scores, current_fatigue, save_fatigue, stamina_base

MAX_DISTANCE = 30


def _terrains(entries) -> list[dict]:
    """[(name, rolled), ...] or [{"name", "rolled"}] as clean terrain dicts; blank rows left out."""
    terrains: list[dict] = []
    for entry in entries or ():
        name, rolled = (entry.get("name"), entry.get("rolled")) if isinstance(entry, dict) else entry
        name, rolled = (name or "").strip(), (rolled or "").strip()
        if not name and not rolled:
            continue
        if not name or not rolled:
            raise InvalidCommand("Each terrain needs a name and what is rolled on it.")
        if any(t["name"] == name[:60] for t in terrains):
            raise InvalidCommand(f"The terrain {name!r} is named twice.")
        terrains.append({"name": name[:60], "rolled": rolled[:60]})
    return terrains


def _as_terrains(terrains: list[dict]) -> list[rules.Terrain]:
    return [rules.Terrain(t["name"], t["rolled"]) for t in terrains]


def _chase(encounter: Encounter) -> tuple[Chase | None, list[Runner], table.TableState, D6Read]:
    """The running chase's rows and the table's state, the chase as the engine's input, and every combatant
    (the runners' are the same objects) for the push to draw as the command leaves them."""
    chase = encounter.d6_chases.filter(outcome=Chase.Outcome.ONGOING).first()
    combatants = read_combatants(encounter)
    rows = [] if chase is None else with_combatants(chase.runners.all(), combatants)
    state = table_state(encounter, combatants=combatants, chase=chase, runners=rows, fatigue=current_fatigue)
    return chase, rows, state, D6Read(combatants)


def _engine(step, *args, **kwargs):
    """One engine step; a refusal the checks did not foresee becomes the person's error."""
    try:
        return step(*args, **kwargs)
    except RulesError as error:
        raise InvalidCommand(str(error)) from None


# --- start ---------------------------------------------------------------------------------------


def _pick_target(combatants: dict, target_id):
    target = combatants.get(str(target_id))
    if target is None:
        raise InvalidCommand("Pick the target among the combatants.")
    return target


def _pick_chasers(combatants: dict, target, chasers: list[tuple]) -> list[tuple]:
    """[(combatant, distance)] in the order given: each a combatant, not the target, once, 1-30 behind."""
    picked = []
    for who, distance in chasers:
        combatant = combatants.get(str(who))
        if combatant is None:
            raise InvalidCommand("Pick the chasers among the combatants.")
        name = combatant.character.name
        if combatant.pk == target.pk:
            raise InvalidCommand(f"{name} cannot chase themself.")
        if any(c.pk == combatant.pk for c, _ in picked):
            raise InvalidCommand(f"{name} is picked twice.")
        if not isinstance(distance, int) or not 1 <= distance <= MAX_DISTANCE:
            raise InvalidCommand(f"{name} starts 1 to {MAX_DISTANCE} squares behind the target.")
        picked.append((combatant, distance))
    if not picked:
        raise InvalidCommand("Pick at least one chaser, with its distance.")
    return picked


def _route(terrains: list) -> list[dict]:
    route = _terrains(terrains)
    if not route:
        raise InvalidCommand("Name the terrain the chase starts on, and what is rolled there.")
    return route


def _starting_runner(combatant, distance: int | None = None) -> rules.Runner:
    character = combatant.character
    return rules.Runner(
        id=str(combatant.pk),
        fatigue=current_fatigue(character),
        base_fatigue=stamina_base(character),
        scores=chase_scores(character),
        distance=distance,
    )


def _save_chase(
    encounter: Encounter, target, picked: list[tuple], route: list[dict], escape_distance
) -> Chase:
    """The chase's rows: the chase on its first terrain, the target, then each chaser in order."""
    chase = Chase.objects.create(
        encounter=encounter,
        number=encounter.d6_chases.count() + 1,
        escape_distance=escape_distance,
        stretches=[{**route[0], "starts_at": 1}],
        route=route,
    )
    Runner.objects.create(
        chase=chase,
        combatant=target,
        role=Runner.Role.TARGET,
        position=0,
        base_fatigue=stamina_base(target.character),
    )
    for position, (combatant, distance) in enumerate(picked, start=1):
        Runner.objects.create(
            chase=chase,
            combatant=combatant,
            role=Runner.Role.CHASER,
            position=position,
            start_distance=distance,
            distance=distance,
            base_fatigue=stamina_base(combatant.character),
        )
    return chase


def _started_payload(chase: Chase, target, picked: list[tuple], route: list[dict]) -> dict:
    return {
        "chase": chase.number,
        "target": str(target.pk),
        "target_name": target.character.name,
        "chasers": [{"combatant": str(c.pk), "name": c.character.name, "distance": d} for c, d in picked],
        "terrain": route[0],
        "route": route,
        "escape_distance": chase.escape_distance,
    }


def start_chase(
    user,
    encounter_id: int,
    expected_version: int,
    target_id,
    chasers: list[tuple],
    terrains: list,
    escape_distance: int | None = None,
) -> Chase:
    """d6 seed: a target, one or more chasers some squares behind, the terrain's roll.

    `chasers` is [(combatant_id, distance)]; `terrains` [(name, rolled)], the first is where the
    chase begins, the others the storyguide may offer the target later.
    """
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        require_d6(encounter)
        combatants = read_combatants(encounter)
        state = table_state(encounter, combatants=combatants)
        obey(table.can_start_chase(state))
        by_id = {str(c.pk): c for c in combatants}
        target = _pick_target(by_id, target_id)
        picked = _pick_chasers(by_id, target, chasers)
        route = _route(terrains)
        runners = [_starting_runner(target), *(_starting_runner(c, d) for c, d in picked)]
        obey(table.unrollable(state, _as_terrains(route[:1]), runners))
        if escape_distance is not None and escape_distance > MAX_DISTANCE:
            raise InvalidCommand(f"The grid has at most {MAX_DISTANCE} squares.")
        terrain = rules.Terrain(route[0]["name"], route[0]["rolled"])
        _engine(rules.start_chase, runners[0], runners[1:], terrain, escape_distance=escape_distance)
        chase = _save_chase(encounter, target, picked, route, escape_distance)
        encounter.status = Encounter.Status.RUNNING
        log = EventLog(encounter, user)
        log.append(CHASE_STARTED, _started_payload(chase, target, picked, route))
        log.save("status", read=D6Read(combatants))
    return chase


# --- an exchange ---------------------------------------------------------------------------------


def _runner_dice(encounter: Encounter, rows: list[Runner], state: table.TableState, typed: dict) -> dict:
    """Each running runner's dice: faces the storyguide typed, else those its player sent, else rolled."""
    physical = encounter.saga.physical_dice
    rolled = state.chase.terrain.rolled
    runner_dice = {}
    for row in rows:
        if row.status != Runner.Status.RUNNING:
            continue
        who = str(row.combatant_id)
        text = typed.get(who)
        if text is None and row.faces:
            text = " ".join(str(face) for face in row.faces)
        consistency = state.chase.runner(who).score(rolled).consistency
        runner_dice[who] = dice_for(physical, text, state.name(who), consistency)
    return runner_dice


def _save_runners(rows: list[Runner], after: rules.ChaseState) -> None:
    by_id = {runner.id: runner for runner in (after.target, *after.chasers)}
    for row in rows:
        runner = by_id[str(row.combatant_id)]
        save_fatigue(row.combatant.character, runner.fatigue)
        if (row.distance, row.status, row.faces) != (runner.distance, runner.status, []):
            row.distance, row.status, row.faces = runner.distance, runner.status, []
            row.save(update_fields=["distance", "status", "faces"])


def exchange(user, encounter_id: int, expected_version: int, typed: dict | None = None) -> dict:
    """d6 seed: the target rolls, then each chaser; 3 or more higher closes a square, 3 or more
    lower loses one; a runner whose die result is below fatigue drops out; a chaser who would
    pass the target acts against it, or moves ahead of it when its player chose so.

    With physical dice, faces the storyguide types win; a runner left blank uses the faces its
    player typed in (`enter_faces`)."""
    typed = {who: text for who, text in (typed or {}).items() if (text or "").strip()}
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        require_d6(encounter)
        chase, rows, state, read = _chase(encounter)
        obey(table.can_exchange(state, typed))
        names = dict(state.names)
        runner_dice = _runner_dice(encounter, rows, state, typed)
        move_ahead = [
            str(row.combatant_id)
            for row in rows
            if row.role == Runner.Role.CHASER and row.status == Runner.Status.RUNNING and row.moves_ahead
        ]
        after, record = _engine(
            rules.exchange,
            state.chase,
            runner_dice[state.chase.target.id],
            runner_dice=runner_dice,
            move_ahead=move_ahead,
        )
        _save_runners(rows, after)
        payload = _exchange_payload(record, names, chase.number)
        chase.exchanges = after.exchanges
        chase.offered = []
        chase.outcome = after.outcome
        chase.caught_by_id = None if after.caught_by is None else int(after.caught_by)
        chase.acts_against_target = record.acts_against_target
        chase.last_exchange = payload
        chase.save(
            update_fields=[
                "exchanges",
                "offered",
                "outcome",
                "caught_by",
                "acts_against_target",
                "last_exchange",
            ]
        )
        log = EventLog(encounter, user)
        log.append(EXCHANGE, payload)
        if after.outcome != rules.ONGOING:
            log.append(
                CHASE_ENDED,
                {
                    "chase": chase.number,
                    "outcome": after.outcome,
                    "target_name": names[after.target.id],
                    "caught_by_name": names.get(after.caught_by or ""),
                    "acts_against_target": record.acts_against_target,
                    "moved_ahead": [names[who] for who in record.moved_ahead],
                    "exchanges": after.exchanges,
                },
            )
        log.save(read=read)
    return payload


def _exchange_payload(record: chase_rules.Exchange, names: dict[str, str], number: int) -> dict:
    target_roll = record.rolls[0]
    rolls = []
    for roll in record.rolls:
        entry = {
            "runner": roll.runner,
            "name": names[roll.runner],
            "role": roll.role,
            "dropped_out": roll.dropped_out,
            **roll.attempt.to_dict(),
        }
        if roll.role == "chaser" and not roll.dropped_out and not target_roll.dropped_out:
            entry["margin"] = roll.attempt.roll.result - target_roll.attempt.roll.result
        rolls.append(entry)
    return {
        "chase": number,
        "number": record.number,
        "terrain": {"name": record.terrain.name, "rolled": record.terrain.rolled},
        "rolls": rolls,
        "moves": [
            {
                "mover": move.mover,
                "mover_name": names[move.mover],
                "chaser": move.chaser,
                "chaser_name": names[move.chaser],
                "before": move.distance_before,
                "after": move.distance_after,
            }
            for move in record.moves
        ],
        "distances_before": {who: d for who, d in record.distances_before},
        "distances_after": {who: d for who, d in record.distances_after},
        "dropped_out": [names[who] for who in record.dropped_out],
        "lost_sight": [names[who] for who in record.lost_sight],
        "caught_by": record.caught_by,
        "caught_by_name": names.get(record.caught_by or ""),
        "acts_against_target": record.acts_against_target,
        "moved_ahead": [names[who] for who in record.moved_ahead],
        "outcome": record.outcome,
    }


def offer_terrain(user, encounter_id: int, expected_version: int, terrains: list) -> dict:
    """d6 seed: the GM presents the chase target with terrain decisions."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        require_d6(encounter)
        chase, rows, state, read = _chase(encounter)
        obey(table.can_offer_terrain(state))
        offered = _terrains(terrains)
        obey(table.can_offer_terrain(state, _as_terrains(offered)))
        _, offer = _engine(rules.offer_terrain, state.chase, _as_terrains(offered))
        chase.offered = offered
        chase.route = chase.route + [t for t in offered if t["name"] not in {r["name"] for r in chase.route}]
        chase.save(update_fields=["offered", "route"])
        target = target_row(rows)
        owner = target.combatant.character.owner
        payload = {
            "chase": chase.number,
            "after_exchange": offer.exchange,
            "terrains": offered,
            "target_name": target.combatant.character.name,
            "chooser": owner.get_username() if owner else "the storyguide",
        }
        log = EventLog(encounter, user)
        log.append(TERRAIN_OFFERED, payload)
        log.save(read=read)
    return payload


def choose_terrain(user, encounter_id: int, expected_version: int, name: str) -> dict:
    """d6 seed: the target takes the chase onto an offered terrain, which changes what is rolled."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_d6(encounter)
        chase, rows, state, read = _chase(encounter)
        name = (name or "").strip()
        obey(table.can_choose_terrain(state, actor(user, encounter, [r.combatant for r in rows]), name))
        target = target_row(rows)
        state, change = rules.change_terrain(state.chase, name)
        after = {"name": change.after.name, "rolled": change.after.rolled}
        chase.stretches = chase.stretches + [{**after, "starts_at": state.exchanges + 1}]
        chase.offered = []
        chase.save(update_fields=["stretches", "offered"])
        typed_before = [row for row in rows if row.faces]
        for row in typed_before:  # typed for the old terrain's roll
            row.faces = []
            row.save(update_fields=["faces"])
        payload = {
            "chase": chase.number,
            "target_name": target.combatant.character.name,
            "before": {"name": change.before.name, "rolled": change.before.rolled},
            "after": after,
            "from_exchange": state.exchanges + 1,
            "dice_cleared": [row.combatant.character.name for row in typed_before],
        }
        log = EventLog(encounter, user)
        log.append(TERRAIN_CHOSEN, payload)
        log.save(read=read)
    return payload


def runner_breather(user, encounter_id: int, expected_version: int, combatant_id) -> dict:
    """d6 seed: fatigue cannot be lowered during a chase; only standing still restores it."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        require_d6(encounter)
        chase, rows, state, read = _chase(encounter)
        obey(table.can_take_runner_breather(state, str(combatant_id)))
        # The check refused a combatant not among the runners (`_runner_refusal`): this finds it.
        row = next(r for r in rows if str(r.combatant_id) == str(combatant_id))
        _, record = chase_rules.take_breather(state.chase, str(row.combatant_id))
        character = row.combatant.character
        save_fatigue(character, record.fatigue_after)
        payload = {
            "combatant": record.runner,
            "name": character.name,
            "in_chase": chase.number,
            "fatigue_before": record.fatigue_before,
            "fatigue_after": record.fatigue_after,
        }
        log = EventLog(encounter, user)
        log.append(BREATHER, payload)
        log.save(read=read)
    return payload


def _runner_command(user, encounter_id: int, expected_exchange: int, combatant_id, check):
    """A runner's own command (typed dice, the choice at the target): the storyguide or the
    runner's player. Refused as stale when the chase has rolled on since the page was drawn:
    these commands check the exchange, not the version, so that players typing at once do
    not refuse each other [ours]."""
    encounter = lock_encounter(encounter_id, None)
    require_d6(encounter)
    chase, rows, state, read = _chase(encounter)
    by = actor(user, encounter, [r.combatant for r in rows])
    obey(check(state, by, str(combatant_id), expected_exchange))
    # Both checks refuse a combatant not among the runners (`_runner_may_act`): this finds it.
    row = next(r for r in rows if str(r.combatant_id) == str(combatant_id))
    return encounter, chase, rows, row, read


def enter_faces(user, encounter_id: int, expected_exchange: int, combatant_id, text: str) -> dict:
    """A runner's player types the dice they rolled for the next exchange (physical dice): the d6,
    then the d10s for what the current terrain calls for. The storyguide rolls the exchange."""
    with transaction.atomic():
        encounter, chase, rows, row, read = _runner_command(
            user, encounter_id, expected_exchange, combatant_id, table.can_enter_faces
        )
        name = row.combatant.character.name
        terrain = chase.stretches[-1]
        consistency = chase_scores(row.combatant.character)[terrain["rolled"]].consistency
        row.faces = parse_faces(text, name, consistency)
        row.save(update_fields=["faces"])
        payload = {
            "chase": chase.number,
            "combatant": str(row.combatant_id),
            "name": name,
            "exchange": chase.exchanges + 1,
            "rolled": terrain["rolled"],
            "faces": row.faces,
        }
        log = EventLog(encounter, user)
        log.append(FACES_IN, payload)
        log.save(read=read)
    return payload


def choose_at_target(user, encounter_id: int, expected_exchange: int, combatant_id, move_ahead: bool) -> dict:
    """d6 seed: on the roll where the chaser would pass the target, it acts against the target
    instead of moving ahead. The chaser's player (or the storyguide) says beforehand which [ours]."""
    with transaction.atomic():
        encounter, chase, rows, row, read = _runner_command(
            user, encounter_id, expected_exchange, combatant_id, table.can_choose_at_target
        )
        row.moves_ahead = bool(move_ahead)
        row.save(update_fields=["moves_ahead"])
        target = target_row(rows)
        payload = {
            "chase": chase.number,
            "combatant": str(row.combatant_id),
            "name": row.combatant.character.name,
            "target_name": target.combatant.character.name,
            "move_ahead": row.moves_ahead,
        }
        log = EventLog(encounter, user)
        log.append(PASS_CHOICE, payload)
        log.save(read=read)
    return payload
