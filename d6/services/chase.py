"""A chase on a grid, one step per service: start, an exchange, a terrain offer, the target's
choice, a breather for a runner standing still. Each runs in one transaction on the locked
encounter, refuses a stale version, rebuilds the engine's `ChaseState` from rows, calls one
rule (d6.rules.chase) and logs what happened."""

from __future__ import annotations

from django.db import transaction

from campaign.access import is_storyguide
from combat.errors import InvalidCommand, NotAllowed, StaleCommand, WrongPhase
from combat.models import Encounter
from combat.rules.errors import RulesError
from combat.services.log import EventLog, lock_encounter, require_storyguide_of
from d6 import rules
from d6.rules import chase as chase_rules

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
from .common import ongoing_chase, require_d6, require_player_or_storyguide
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


def _runners(chase: Chase) -> list[Runner]:
    return list(chase.runners.select_related("combatant__character", "combatant__character__owner"))


def _engine_runner(row: Runner) -> rules.Runner:
    character = row.combatant.character
    return rules.Runner(
        id=str(row.combatant_id),
        fatigue=current_fatigue(character),
        base_fatigue=row.base_fatigue,
        scores=chase_scores(character),
        distance=row.distance if row.role == Runner.Role.CHASER else None,
        status=row.status,
    )


def _state(chase: Chase, rows: list[Runner]) -> rules.ChaseState:
    target = next(row for row in rows if row.role == Runner.Role.TARGET)
    return rules.ChaseState(
        target=_engine_runner(target),
        chasers=tuple(_engine_runner(row) for row in rows if row.role == Runner.Role.CHASER),
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


def _check_scores(rows_or_characters, terrains: list[dict]) -> None:
    """Every runner still in the chase can roll what each terrain calls for."""
    for character in rows_or_characters:
        scores = chase_scores(character)
        for terrain in terrains:
            if terrain["rolled"] not in scores:
                raise InvalidCommand(
                    f"{character.name}'s sheet has no {terrain['rolled']!r} to roll on {terrain['name']}."
                )


def _chase(encounter: Encounter) -> Chase:
    chase = ongoing_chase(encounter)
    if chase is None:
        raise WrongPhase("No chase is running.")
    return chase


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
        if ongoing_chase(encounter) is not None:
            raise WrongPhase("A chase is already running.")
        combatants = {str(c.pk): c for c in encounter.combatants.select_related("character")}
        target = combatants.get(str(target_id))
        if target is None:
            raise InvalidCommand("Pick the target among the combatants.")
        picked = []
        for who, distance in chasers:
            combatant = combatants.get(str(who))
            if combatant is None:
                raise InvalidCommand("Pick the chasers among the combatants.")
            if combatant.pk == target.pk:
                raise InvalidCommand(f"{combatant.character.name} cannot chase themself.")
            if any(c.pk == combatant.pk for c, _ in picked):
                raise InvalidCommand(f"{combatant.character.name} is picked twice.")
            if not isinstance(distance, int) or not 1 <= distance <= MAX_DISTANCE:
                raise InvalidCommand(
                    f"{combatant.character.name} starts 1 to {MAX_DISTANCE} squares behind the target."
                )
            picked.append((combatant, distance))
        if not picked:
            raise InvalidCommand("Pick at least one chaser, with its distance.")
        route = _terrains(terrains)
        if not route:
            raise InvalidCommand("Name the terrain the chase starts on, and what is rolled there.")
        _check_scores([target.character, *(c.character for c, _ in picked)], route[:1])
        if escape_distance is not None and escape_distance > MAX_DISTANCE:
            raise InvalidCommand(f"The grid has at most {MAX_DISTANCE} squares.")
        engine_target = rules.Runner(
            id=str(target.pk),
            fatigue=current_fatigue(target.character),
            base_fatigue=stamina_base(target.character),
            scores=chase_scores(target.character),
        )
        engine_chasers = [
            rules.Runner(
                id=str(c.pk),
                fatigue=current_fatigue(c.character),
                base_fatigue=stamina_base(c.character),
                scores=chase_scores(c.character),
                distance=distance,
            )
            for c, distance in picked
        ]
        try:
            rules.start_chase(
                engine_target,
                engine_chasers,
                rules.Terrain(route[0]["name"], route[0]["rolled"]),
                escape_distance=escape_distance,
            )
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
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
            base_fatigue=engine_target.base_fatigue,
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
        encounter.status = Encounter.Status.RUNNING
        log = EventLog(encounter, user)
        log.append(
            CHASE_STARTED,
            {
                "chase": chase.number,
                "target": str(target.pk),
                "target_name": target.character.name,
                "chasers": [
                    {"combatant": str(c.pk), "name": c.character.name, "distance": d} for c, d in picked
                ],
                "terrain": route[0],
                "route": route,
                "escape_distance": escape_distance,
            },
        )
        log.save("status")
    return chase


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
        chase = _chase(encounter)
        rows = _runners(chase)
        state = _state(chase, rows)
        names = {str(row.combatant_id): row.combatant.character.name for row in rows}
        terrain = state.terrain
        physical = encounter.saga.physical_dice
        runner_dice = {}
        for row in rows:
            if row.status != Runner.Status.RUNNING:
                continue
            who = str(row.combatant_id)
            runner = state.runner(who)
            try:
                consistency = runner.score(terrain.rolled).consistency
            except RulesError as error:
                raise InvalidCommand(str(error)) from None
            text = typed.get(who)
            if text is None and row.faces:
                text = " ".join(str(face) for face in row.faces)
            owner = row.combatant.character.owner
            if physical and text is None and owner is not None and not row.combatant.character.is_npc:
                raise InvalidCommand(
                    f"Waiting for {names[who]}'s dice: {owner.get_username()} types them, or you do."
                )
            runner_dice[who] = dice_for(physical, text, names[who], consistency)
        move_ahead = [
            str(row.combatant_id)
            for row in rows
            if row.role == Runner.Role.CHASER and row.status == Runner.Status.RUNNING and row.moves_ahead
        ]
        try:
            state, record = rules.exchange(
                state, runner_dice[state.target.id], runner_dice=runner_dice, move_ahead=move_ahead
            )
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
        after = {runner.id: runner for runner in (state.target, *state.chasers)}
        for row in rows:
            runner = after[str(row.combatant_id)]
            save_fatigue(row.combatant.character, runner.fatigue)
            if (row.distance, row.status, row.faces) != (runner.distance, runner.status, []):
                row.distance, row.status, row.faces = runner.distance, runner.status, []
                row.save(update_fields=["distance", "status", "faces"])
        payload = _exchange_payload(record, names, chase.number)
        chase.exchanges = state.exchanges
        chase.offered = []
        chase.outcome = state.outcome
        chase.caught_by_id = None if state.caught_by is None else int(state.caught_by)
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
        if state.outcome != rules.ONGOING:
            log.append(
                CHASE_ENDED,
                {
                    "chase": chase.number,
                    "outcome": state.outcome,
                    "target_name": names[state.target.id],
                    "caught_by_name": names.get(state.caught_by or ""),
                    "acts_against_target": record.acts_against_target,
                    "moved_ahead": [names[who] for who in record.moved_ahead],
                    "exchanges": state.exchanges,
                },
            )
        log.save()
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
        chase = _chase(encounter)
        offered = _terrains(terrains)
        if not offered:
            raise InvalidCommand("Offer at least one terrain.")
        rows = _runners(chase)
        _check_scores(
            [row.combatant.character for row in rows if row.status == Runner.Status.RUNNING], offered
        )
        state = _state(chase, rows)
        try:
            state, offer = rules.offer_terrain(
                state, [rules.Terrain(t["name"], t["rolled"]) for t in offered]
            )
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
        chase.offered = offered
        chase.route = chase.route + [t for t in offered if t["name"] not in {r["name"] for r in chase.route}]
        chase.save(update_fields=["offered", "route"])
        target = next(row for row in rows if row.role == Runner.Role.TARGET)
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
        log.save()
    return payload


def may_choose_terrain(user, chase: Chase, target: Runner) -> bool:
    """The target's player chooses; the storyguide chooses for an NPC target."""
    character = target.combatant.character
    if character.owner_id is not None and not character.is_npc:
        return user.is_authenticated and character.owner_id == user.pk
    return is_storyguide(user, chase.encounter.saga)


def choose_terrain(user, encounter_id: int, expected_version: int, name: str) -> dict:
    """d6 seed: the target takes the chase onto an offered terrain, which changes what is rolled."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_d6(encounter)
        chase = _chase(encounter)
        rows = _runners(chase)
        target = next(row for row in rows if row.role == Runner.Role.TARGET)
        if not may_choose_terrain(user, chase, target):
            raise NotAllowed(f"Only {target.combatant.character.name}'s player chooses the terrain.")
        state = _state(chase, rows)
        try:
            state, change = rules.change_terrain(state, (name or "").strip())
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
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
        log.save()
    return payload


def runner_breather(user, encounter_id: int, expected_version: int, combatant_id) -> dict:
    """d6 seed: fatigue cannot be lowered during a chase; only standing still restores it."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        require_d6(encounter)
        chase = _chase(encounter)
        rows = _runners(chase)
        row = next((r for r in rows if str(r.combatant_id) == str(combatant_id)), None)
        if row is None:
            raise InvalidCommand("That combatant is not in the chase.")
        state = _state(chase, rows)
        try:
            state, record = chase_rules.take_breather(state, str(row.combatant_id))
        except RulesError as error:
            raise WrongPhase(
                f"{row.combatant.character.name} is still running: fatigue cannot be lowered during a chase."
            ) from error
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
        log.save()
    return payload


def _runner_command(user, encounter_id: int, expected_exchange: int, combatant_id):
    """A runner's own command (typed dice, the choice at the target): the storyguide or the
    runner's player. Refused as stale when the chase has rolled on since the page was drawn:
    these commands check the exchange, not the version, so that players typing at once do
    not refuse each other [ours]."""
    encounter = lock_encounter(encounter_id, None)
    require_d6(encounter)
    chase = _chase(encounter)
    if expected_exchange != chase.exchanges + 1:
        raise StaleCommand(
            f"The chase has moved on to exchange {chase.exchanges + 1}; nothing was changed. Look again."
        )
    rows = _runners(chase)
    row = next((r for r in rows if str(r.combatant_id) == str(combatant_id)), None)
    if row is None:
        raise InvalidCommand("That combatant is not in the chase.")
    require_player_or_storyguide(user, encounter, row.combatant.character)
    if row.status != Runner.Status.RUNNING:
        raise WrongPhase(f"{row.combatant.character.name} is out of the chase.")
    return encounter, chase, rows, row


def enter_faces(user, encounter_id: int, expected_exchange: int, combatant_id, text: str) -> dict:
    """A runner's player types the dice they rolled for the next exchange (physical dice): the d6,
    then the d10s for what the current terrain calls for. The storyguide rolls the exchange."""
    with transaction.atomic():
        encounter, chase, rows, row = _runner_command(user, encounter_id, expected_exchange, combatant_id)
        if not encounter.saga.physical_dice:
            raise WrongPhase("This saga's dice are rolled by the server: the storyguide rolls the exchange.")
        name = row.combatant.character.name
        terrain = chase.stretches[-1]
        try:
            consistency = chase_scores(row.combatant.character)[terrain["rolled"]].consistency
        except KeyError:
            raise InvalidCommand(f"{name}'s sheet has no {terrain['rolled']!r} to roll.") from None
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
        log.save()
    return payload


def choose_at_target(user, encounter_id: int, expected_exchange: int, combatant_id, move_ahead: bool) -> dict:
    """d6 seed: on the roll where the chaser would pass the target, it acts against the target
    instead of moving ahead. The chaser's player (or the storyguide) says beforehand which [ours]."""
    with transaction.atomic():
        encounter, chase, rows, row = _runner_command(user, encounter_id, expected_exchange, combatant_id)
        if row.role != Runner.Role.CHASER:
            raise InvalidCommand("Only a chaser can move ahead of the target.")
        row.moves_ahead = bool(move_ahead)
        row.save(update_fields=["moves_ahead"])
        target = next(r for r in rows if r.role == Runner.Role.TARGET)
        payload = {
            "chase": chase.number,
            "combatant": str(row.combatant_id),
            "name": row.combatant.character.name,
            "target_name": target.combatant.character.name,
            "move_ahead": row.moves_ahead,
        }
        log = EventLog(encounter, user)
        log.append(PASS_CHOICE, payload)
        log.save()
    return payload
