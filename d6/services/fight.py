"""The turn-based d6 fight, one step per service: start (initiative), a challenge, a breather,
the next turn. Each runs in one transaction on the locked encounter, refuses a stale version,
rebuilds the engine's `FightState` from rows, calls one rule and logs what happened."""

from __future__ import annotations

from django.db import transaction

from combat.errors import InvalidCommand
from combat.models import Encounter
from combat.rules.errors import RulesError
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of
from d6 import rules
from d6.rules import table
from d6.rules.fight import take_breather as take_fight_breather

from ..kinds import BREATHER, FIGHT_STARTED, ROLL, TURN_ENDED, VALUE_SET
from ..models import Fight, Fighter
from ..state import D6Read, actor, read_combatants, table_state, with_combatants
from .common import checked_potential, require_d6
from .dice import dice_for
from .sheet import current_fatigue, dexterity_of, save_fatigue, score_of, stamina_base


def _command(user, encounter_id: int, expected_version: int) -> Encounter:
    encounter = lock_encounter(encounter_id, expected_version)
    require_storyguide_of(user, encounter)
    require_d6(encounter)
    return encounter


def _open(encounter_id: int, expected_version: int) -> Encounter:
    """A command the storyguide or a player may give: permissions are checked per character."""
    encounter = lock_encounter(encounter_id, expected_version)
    require_d6(encounter)
    return encounter


def _fight(encounter: Encounter) -> tuple[Fight | None, list[Fighter], table.TableState, D6Read]:
    """The fight's rows and the table's state, the fight as the engine's input; the combatants read once,
    each fighter's its own (`with_combatants`), and handed to the push as the command leaves them."""
    combatants = read_combatants(encounter)
    fight = Fight.objects.filter(encounter=encounter).first()
    fighters = [] if fight is None else with_combatants(fight.fighters.all(), combatants)
    state = table_state(
        encounter, combatants=combatants, fight=fight, fighters=fighters, fatigue=current_fatigue
    )
    return fight, fighters, state, D6Read(combatants)


def _by_id(fighters: list[Fighter], who) -> Fighter:
    for fighter in fighters:
        if str(fighter.combatant_id) == str(who):
            return fighter
    raise InvalidCommand("That combatant is not in this fight.")


def _save_fatigue(fighter: Fighter, fatigue: int) -> None:
    save_fatigue(fighter.combatant.character, fatigue)


def start_fight(user, encounter_id: int, expected_version: int, typed: dict | None = None) -> Fight:
    """RULES.md Part 2 [ours]: everyone rolls a Dexterity challenge; highest result acts first."""
    typed = typed or {}
    with transaction.atomic():
        encounter = _command(user, encounter_id, expected_version)
        combatants = list(encounter.combatants.select_related("character__owner"))
        obey(table.can_start_fight(table_state(encounter, combatants=combatants)))
        physical = encounter.saga.physical_dice
        dexterity, own_dice, recorders = [], {}, {}
        for combatant in combatants:
            character = combatant.character
            current_fatigue(character)
            score = dexterity_of(character)
            who = str(combatant.pk)
            dexterity.append((who, score))
            recorders[who] = dice_for(physical, typed.get(who), f"{character.name} (initiative)", score)
            own_dice[who] = recorders[who]
        try:
            order = rules.roll_initiative(own_dice[dexterity[0][0]], dexterity, fighter_dice=own_dice)
        except RulesError as error:
            raise InvalidCommand(f"Initiative: {error}") from None
        fight = Fight.objects.create(encounter=encounter)
        by_id = {str(c.pk): c for c in combatants}
        rows = []
        for position, roll in enumerate(order):
            combatant = by_id[roll.who]
            Fighter.objects.create(
                fight=fight,
                combatant=combatant,
                position=position,
                base_fatigue=stamina_base(combatant.character),
                initiative=_initiative_payload(roll),
            )
            rows.append(
                {
                    "combatant": roll.who,
                    "name": combatant.character.name,
                    "dexterity": roll.dexterity,
                    **_initiative_payload(roll),
                }
            )
        encounter.status = Encounter.Status.RUNNING
        encounter.round_number = 1
        log = EventLog(encounter, user)
        log.append(FIGHT_STARTED, {"order": rows, "first": rows[0]["name"]})
        log.save("status", "round_number")
    return fight


def _initiative_payload(roll) -> dict:
    r = roll.roll
    return {"faces": list(r.faces), "die_result": r.die_result, "result": r.result}


def _defence_names(fighters: list[Fighter], defences: list[dict]) -> str:
    return ", ".join(_by_id(fighters, d["defender"]).combatant.character.name for d in defences)


def _score_challenge(character, score_key, value, physical, potential) -> tuple:
    score = score_of(character, score_key)
    challenge = rules.Challenge(
        consistency=score.consistency,
        potential=checked_potential(potential, score.potential),
        value=value,
        physical=score.physical if physical is None else physical,
    )
    return score, challenge


def _roll_payload(record, fighters, character, score, target) -> dict:
    return {
        "combatant": record.who,
        "name": character.name,
        "rolled": score.label,
        "round": record.round,
        "turn_of": record.turn_of,
        "defending": record.defending,
        "target": None if target is None else str(target.combatant_id),
        "target_name": None if target is None else target.combatant.character.name,
        "defence_needed": record.defence_needed,
        **record.attempt.to_dict(),
    }


def _save_roller(roller: Fighter, state: rules.FightState) -> None:
    after = state.fighter(str(roller.combatant_id))
    _save_fatigue(roller, after.fatigue)
    if after.rose_this_turn != roller.rose_this_turn:
        roller.rose_this_turn = after.rose_this_turn
        roller.save(update_fields=["rose_this_turn"])


def roll(
    user,
    encounter_id: int,
    expected_version: int,
    combatant_id,
    score_key: str,
    *,
    value: int | None = None,
    physical: bool | None = None,
    target_id=None,
    typed: str | None = None,
    potential: int | None = None,
) -> dict:
    """d6 seed: one challenge in the fight, the turn's action or a defence; fatigue checked and
    raised at most once per turn; a failed attack needs no defence.

    The storyguide rolls for anyone. A player rolls for their own character on its turn or to
    defend; the challenge value is then the storyguide's (the turn's value, or the attack's
    result for a defence) [ours]."""
    with transaction.atomic():
        encounter = _open(encounter_id, expected_version)
        fight, fighters, state, read = _fight(encounter)
        target_id = None if target_id in (None, "") else str(target_id)
        by = actor(user, encounter, [f.combatant for f in fighters])
        obey(table.can_roll(state, by, str(combatant_id), value_given=value is not None, target=target_id))
        roller = _by_id(fighters, combatant_id)
        who = str(roller.combatant_id)
        character = roller.combatant.character
        target = None if target_id is None else _by_id(fighters, target_id)
        defends_against = dict(fight.defence or {}) or None
        if defends_against and value is None:
            value = defends_against["value"]
        elif not defends_against and not by.storyguide:
            value = fight.value
        score, challenge = _score_challenge(character, score_key, value, physical, potential)
        dice = dice_for(encounter.saga.physical_dice, typed, character.name, score.consistency)
        try:
            engine, record = rules.fight_roll(state.fight, dice, who, challenge, target=target_id)
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
        _save_roller(roller, engine)
        fight.acted = engine.acted
        if defends_against:
            queue = list(fight.queue or [])
            fight.defence = queue.pop(0) if queue else {}
            fight.queue = queue
        elif record.defence_needed:
            fight.defence = {
                "attacker": who,
                "defender": str(target.combatant_id),
                "value": record.attempt.roll.result,
            }
        else:
            fight.defence = {}
        fight.save(update_fields=["acted", "defence", "queue"])
        payload = _roll_payload(record, fighters, character, score, target)
        if defends_against:
            attacker = _by_id(fighters, defends_against["attacker"])
            payload.update(
                defends_against=defends_against["attacker"],
                attacker_name=attacker.combatant.character.name,
                attack_result=defends_against["value"],
            )
        log = EventLog(encounter, user)
        log.append(ROLL, payload)
        log.save(read=read)
    return payload


def cluster_attack(
    user,
    encounter_id: int,
    expected_version: int,
    combatant_id,
    score_key: str,
    target_ids: list,
    *,
    value: int | None = None,
    physical: bool | None = None,
    typed: dict | None = None,
    potential: int | None = None,
) -> list[dict]:
    """d6 seed: a ranged attack into a combat cluster, one challenge per target in the cluster;
    only the first challenge can raise fatigue. Each attack that needs a defence queues it."""
    typed = typed or {}
    with transaction.atomic():
        encounter = _open(encounter_id, expected_version)
        fight, fighters, state, read = _fight(encounter)
        by = actor(user, encounter, [f.combatant for f in fighters])
        obey(table.can_cluster_attack(state, by, str(combatant_id), value_given=value is not None))
        roller = _by_id(fighters, combatant_id)
        who = str(roller.combatant_id)
        character = roller.combatant.character
        if not by.storyguide:
            value = fight.value
        targets = []
        for target_id in target_ids:
            target = _by_id(fighters, target_id)
            if target in targets:
                raise InvalidCommand(f"{target.combatant.character.name} is picked twice.")
            if target is roller:
                raise InvalidCommand(f"{character.name} cannot shoot at themself.")
            targets.append(target)
        if not targets:
            raise InvalidCommand("Pick the fighters in the cluster you shoot at.")
        score, challenge = _score_challenge(character, score_key, value, physical, potential)
        physical_dice = encounter.saga.physical_dice
        dice = [
            dice_for(
                physical_dice,
                typed.get(str(t.combatant_id)),
                f"{character.name} (shot at {t.combatant.character.name})",
                score.consistency,
            )
            for t in targets
        ]
        try:
            engine, records = rules.ranged_attack_into_cluster(
                state.fight,
                dice[0],
                who,
                [challenge] * len(targets),
                targets=[str(t.combatant_id) for t in targets],
                fighter_dice=dice,
            )
        except RulesError as error:
            raise InvalidCommand(str(error)) from None
        _save_roller(roller, engine)
        fight.acted = engine.acted
        awaited = [
            {"attacker": who, "defender": r.target, "value": r.attempt.roll.result}
            for r in records
            if r.defence_needed
        ]
        fight.defence = awaited[0] if awaited else {}
        fight.queue = awaited[1:]
        fight.save(update_fields=["acted", "defence", "queue"])
        log = EventLog(encounter, user)
        payloads = []
        for index, (record, target) in enumerate(zip(records, targets, strict=True), start=1):
            payload = _roll_payload(record, fighters, character, score, target)
            payload["cluster"] = {"index": index, "of": len(records)}
            payloads.append(payload)
            log.append(ROLL, payload)
        log.save(read=read)
    return payloads


def set_challenge_value(user, encounter_id: int, expected_version: int, value: int | None) -> dict:
    """RULES.md Part 2 [ours]: the storyguide names the challenge value of the acting character's
    action (blank: none), or of the defence awaited (the attack's result unless changed)."""
    with transaction.atomic():
        encounter = _command(user, encounter_id, expected_version)
        fight, fighters, state, read = _fight(encounter)
        obey(table.can_set_value(state, value_given=value is not None))
        against = {}
        if fight.defence:
            defence = dict(fight.defence)
            defence["value"] = value
            defence["set"] = True
            fight.defence = defence
            fight.save(update_fields=["defence"])
            who = _by_id(fighters, defence["defender"])
            against = {"attacker": defence["attacker"]}  # whose attack the defence meets: who may see it
        else:
            fight.value = value
            fight.save(update_fields=["value"])
            who = _by_id(fighters, state.fight.current.id)
        payload = {
            "value": value,
            "name": who.combatant.character.name,
            "defence": bool(fight.defence),
            "combatant": str(who.combatant_id),
            **against,
        }
        log = EventLog(encounter, user)
        log.append(VALUE_SET, payload)
        log.save(read=read)
    return payload


def take_breather(user, encounter_id: int, expected_version: int) -> dict:
    """d6 seed: taking a breather is the turn's action and returns fatigue to base."""
    with transaction.atomic():
        encounter = _open(encounter_id, expected_version)
        fight, fighters, state, read = _fight(encounter)
        obey(table.can_take_breather(state, actor(user, encounter, [f.combatant for f in fighters])))
        who = state.fight.current.id
        _, record = take_fight_breather(state.fight, who)
        fighter = _by_id(fighters, who)
        _save_fatigue(fighter, record.fatigue_after)
        fight.took_breather = True
        fight.save(update_fields=["took_breather"])
        payload = {
            "combatant": who,
            "name": fighter.combatant.character.name,
            "round": record.round,
            "fatigue_before": record.fatigue_before,
            "fatigue_after": record.fatigue_after,
        }
        log = EventLog(encounter, user)
        log.append(BREATHER, payload)
        log.save(read=read)
    return payload


def end_turn(user, encounter_id: int, expected_version: int) -> dict:
    """d6 seed: the turn passes on; the next fighter's turn opens a new window for one rise.

    The acting character's player may end their own turn once no defence is awaited."""
    with transaction.atomic():
        encounter = _open(encounter_id, expected_version)
        fight, fighters, state, read = _fight(encounter)
        obey(table.can_end_turn(state, actor(user, encounter, [f.combatant for f in fighters])))
        lapsed = [d for d in [fight.defence, *(fight.queue or [])] if d]
        state, record = rules.end_turn(state.fight)
        following = _by_id(fighters, record.next)
        if following.rose_this_turn:
            following.rose_this_turn = False
            following.save(update_fields=["rose_this_turn"])
        fight.turn, fight.round = state.turn, state.round
        fight.acted = fight.took_breather = False
        fight.defence, fight.queue, fight.value = {}, [], None
        fight.save(update_fields=["turn", "round", "acted", "took_breather", "defence", "queue", "value"])
        payload = {
            "round": record.round,
            "ended": record.ended,
            "ended_name": _by_id(fighters, record.ended).combatant.character.name,
            "next": record.next,
            "next_name": following.combatant.character.name,
            "new_round": record.new_round,
            "next_round": state.round,
        }
        if lapsed:
            payload["defence_lapsed"] = _defence_names(fighters, lapsed)
        log = EventLog(encounter, user)
        log.append(TURN_ENDED, payload)
        encounter.round_number = state.round
        log.save("round_number", read=read)
    return payload


__all__ = [
    "cluster_attack",
    "end_turn",
    "roll",
    "set_challenge_value",
    "start_fight",
    "take_breather",
]
