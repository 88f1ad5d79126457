"""`rules: "d6fatigue"` encounter files: characters, a fight in turns, a chase, resolved to JSON.

The format is documented in docs/encounter-files.md (d6 section) with its JSON Schema in
docs/schemas/d6fatigue.schema.json. Every malformed file raises EncounterFileError naming
the place in the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from combat.rules.dice import Dice, RandomDice, ScriptedDice
from combat.rules.errors import EncounterFileError, RulesError

from . import chase as chase_rules
from . import fight as fight_rules
from .challenge import TEN, Challenge
from .fatigue import base_fatigue
from .file_fields import boolean, integer, listing, mapping, place, required, text
from .initiative import roll_initiative

PHYSICAL_ATTRIBUTES = ("strength", "dexterity", "stamina")
ROLL_UNTIL_OVER_LIMIT = 1000
TOP_FIELDS = ("rules", "name", "description", "seed", "physical_attributes", "characters", "fight", "chase")

CONSISTENCY = 20  # |C| d10s rolled: a sheet holds -10 to 10; more would only make work


@dataclass(frozen=True)
class Ability:
    """An ability on a sheet: base consistency, potential, and the attribute it rests on."""

    consistency: int
    potential: int
    attribute: str | None


@dataclass(frozen=True)
class Character:
    """A character read from the file."""

    id: str
    name: str
    attributes: dict[str, int]
    abilities: dict[str, Ability]
    fatigue: int

    @property
    def stamina(self) -> int:
        """Stamina, 0 when the sheet leaves it out [ours]."""
        return self.attributes.get("stamina", 0)


class _Sheet:
    """Everything read before the fight: characters, what counts as physical, the dice."""

    def __init__(self, characters: dict[str, Character], physical: frozenset[str], dice: Dice):
        self.characters = characters
        self.physical = physical
        self.dice = dice
        self.fatigue = {who: character.fatigue for who, character in characters.items()}

    def character(self, value: Any, where: str) -> Character:
        who = text(value, where)
        if who not in self.characters:
            raise EncounterFileError(where, f"no character {who!r}")
        return self.characters[who]


def _faces(value: Any, where: str, consistency: int) -> ScriptedDice:
    faces = listing(value, where)
    if len(faces) != 1 + abs(consistency):
        raise EncounterFileError(
            where, f"expected {1 + abs(consistency)} faces (the d6, then {abs(consistency)} d10s)"
        )
    integer(faces[0], place(where, 0), low=1, high=6)
    for index, face in enumerate(faces[1:], start=1):
        integer(face, place(where, index), low=0, high=TEN)
    return ScriptedDice([faces[0], *(0 if face == TEN else face for face in faces[1:])])


def _dice(data: dict, where: str, consistency: int, sheet: _Sheet) -> Dice:
    if "dice" in data:
        return _faces(data["dice"], place(where, "dice"), consistency)
    return sheet.dice


def _read_characters(value: Any) -> dict[str, Character]:
    characters: dict[str, Character] = {}
    for index, entry in enumerate(listing(value, "characters", empty=False)):
        where = place("characters", index)
        entry = mapping(entry, where, ("id", "name", "attributes", "abilities", "fatigue"))
        who = text(required(entry, "id", where), place(where, "id"))
        if who in characters:
            raise EncounterFileError(place(where, "id"), f"{who!r} is listed twice")
        name = text(entry.get("name", who), place(where, "name"))
        attributes_where = place(where, "attributes")
        raw = entry.get("attributes", {})
        if not isinstance(raw, dict):
            raise EncounterFileError(attributes_where, "expected an object")
        attributes = {key: integer(score, place(attributes_where, key)) for key, score in raw.items()}
        abilities: dict[str, Ability] = {}
        for number, ability in enumerate(listing(entry.get("abilities", []), place(where, "abilities"))):
            at = place(place(where, "abilities"), number)
            ability = mapping(ability, at, ("name", "consistency", "potential", "attribute"))
            ability_name = text(required(ability, "name", at), place(at, "name"))
            if ability_name in abilities:
                raise EncounterFileError(place(at, "name"), f"{ability_name!r} is listed twice")
            attribute = ability.get("attribute")
            if attribute is not None:
                text(attribute, place(at, "attribute"))
            abilities[ability_name] = Ability(
                consistency=integer(
                    required(ability, "consistency", at),
                    place(at, "consistency"),
                    low=-CONSISTENCY,
                    high=CONSISTENCY,
                ),
                potential=integer(ability.get("potential", 0), place(at, "potential")),
                attribute=attribute,
            )
        stamina = attributes.get("stamina", 0)
        fatigue = entry.get("fatigue", base_fatigue(stamina))
        integer(fatigue, place(where, "fatigue"), low=1, high=20)
        characters[who] = Character(who, name, attributes, abilities, fatigue)
    return characters


def _challenge(data: dict, where: str, character: Character, sheet: _Sheet) -> tuple[Challenge, str | None]:
    """The challenge a file entry asks for, with the name of what is rolled."""
    if "attribute" in data and "ability" in data:
        raise EncounterFileError(where, "name an attribute or an ability, not both")
    rolled = None
    consistency = potential = None
    physical = None
    if "ability" in data:
        rolled = text(data["ability"], place(where, "ability"))
        if rolled not in character.abilities:
            raise EncounterFileError(place(where, "ability"), f"{character.id} has no ability {rolled!r}")
        ability = character.abilities[rolled]
        consistency, potential = ability.consistency, ability.potential
        physical = ability.attribute in sheet.physical
    elif "attribute" in data:
        rolled = text(data["attribute"], place(where, "attribute"))
        if rolled not in character.attributes:
            raise EncounterFileError(place(where, "attribute"), f"{character.id} has no attribute {rolled!r}")
        consistency, potential = character.attributes[rolled], 0
        physical = rolled in sheet.physical
    if "consistency" in data or consistency is None:
        consistency = integer(
            required(data, "consistency", where),
            place(where, "consistency"),
            low=-CONSISTENCY,
            high=CONSISTENCY,
        )
    potential = integer(data.get("potential", potential or 0), place(where, "potential"))
    if "physical" in data or physical is None:
        physical = boolean(required(data, "physical", where), place(where, "physical"))
    value = data.get("value")
    if value is not None:
        integer(value, place(where, "value"))
    challenge = Challenge(consistency=consistency, potential=potential, value=value, physical=physical)
    return challenge, rolled


CHALLENGE_FIELDS = (
    "who",
    "attribute",
    "ability",
    "consistency",
    "potential",
    "value",
    "physical",
    "exertion",
    "target",
    "defends",
    "same_ranged_attack",
    "dice",
)


def _initiative(value: Any, fighters: list[Character], sheet: _Sheet) -> tuple[list[str], list | None]:
    where = "fight.initiative"
    ids = [fighter.id for fighter in fighters]
    if isinstance(value, list):
        order = [text(who, place(where, index)) for index, who in enumerate(value)]
        if sorted(order) != sorted(ids):
            raise EncounterFileError(where, f"expected each fighter once: {', '.join(ids)}")
        return order, None
    data = mapping(value if value is not None else {}, where, ("dice",))
    dice_where = place(where, "dice")
    given = mapping(data.get("dice", {}), dice_where, ids)
    dexterity = [(fighter.id, fighter.attributes.get("dexterity", 0)) for fighter in fighters]
    own = {who: _faces(faces, place(dice_where, who), dict(dexterity)[who]) for who, faces in given.items()}
    rolls = roll_initiative(sheet.dice, dexterity, fighter_dice=own)
    shown = [
        {
            "character": roll.who,
            "dexterity": roll.dexterity,
            "faces": list(roll.roll.faces),
            "die_result": roll.roll.die_result,
            "result": roll.roll.result,
        }
        for roll in rolls
    ]
    return [roll.who for roll in rolls], shown


def _wrap(error: RulesError, where: str) -> EncounterFileError:
    if isinstance(error, EncounterFileError):
        return error
    return EncounterFileError(where, str(error))


def _turn(
    state: fight_rules.FightState, entry: Any, where: str, number: int, sheet: _Sheet
) -> tuple[fight_rules.FightState, dict]:
    entry = mapping(entry, where, ("who", "breather", "challenges"))
    current = state.current.id
    if "who" in entry:
        who = sheet.character(entry["who"], place(where, "who")).id
        if who != current:
            raise EncounterFileError(place(where, "who"), f"it is {current}'s turn, not {who}'s")
    shown: dict[str, Any] = {"number": number, "round": state.round, "who": current, "breather": None}
    if boolean(entry.get("breather", False), place(where, "breather")):
        state, breather = fight_rules.take_breather(state, current)
        shown["breather"] = {
            "fatigue_before": breather.fatigue_before,
            "fatigue_after": breather.fatigue_after,
        }
    records: list[dict] = []
    rolled: list[fight_rules.FightRoll | None] = []
    for index, data in enumerate(listing(entry.get("challenges", []), place(where, "challenges"))):
        at = place(place(where, "challenges"), index)
        try:
            state, record, shown_roll = _fight_challenge(state, data, at, current, rolled, sheet)
        except RulesError as error:
            raise _wrap(error, at) from None
        rolled.append(record)
        records.append(shown_roll)
    shown["challenges"] = records
    state, _ = fight_rules.end_turn(state)
    return state, shown


def _fight_challenge(
    state: fight_rules.FightState,
    data: Any,
    where: str,
    current: str,
    earlier: list[fight_rules.FightRoll | None],
    sheet: _Sheet,
) -> tuple[fight_rules.FightState, fight_rules.FightRoll | None, dict]:
    data = mapping(data, where, CHALLENGE_FIELDS)
    character = sheet.character(data.get("who", current), place(where, "who"))
    who = character.id
    target = None
    if "target" in data:
        target = sheet.character(data["target"], place(where, "target")).id
    attack = None
    if "defends" in data:
        index = integer(data["defends"], place(where, "defends"), low=0)
        if index >= len(earlier) or earlier[index] is None or earlier[index].target != who:
            raise EncounterFileError(
                place(where, "defends"), f"expected an earlier challenge of this turn attacking {who}"
            )
        attack = earlier[index]
        if not attack.defence_needed:
            shown = {"who": who, "defends": index, "skipped": "the attack failed: no defence needed"}
            return state, None, shown
    challenge, rolled = _challenge(data, where, character, sheet)
    if attack is not None and challenge.value is None:
        challenge = Challenge(
            consistency=challenge.consistency,
            potential=challenge.potential,
            value=attack.attempt.roll.result,
            physical=challenge.physical,
        )
    may_raise = True
    if boolean(data.get("same_ranged_attack", False), place(where, "same_ranged_attack")):
        previous = earlier[-1] if earlier else None
        if previous is None or previous.who != who or previous.defending:
            raise EncounterFileError(
                place(where, "same_ranged_attack"), f"expected to follow a challenge by {who} this turn"
            )
        may_raise = False
    exertion = boolean(data.get("exertion", True), place(where, "exertion"))
    dice = _dice(data, where, challenge.consistency, sheet)
    state, record = fight_rules.fight_roll(
        state, dice, who, challenge, target=target, exertion=exertion, may_raise=may_raise
    )
    shown = {"who": who, "rolled": rolled, "defending": record.defending, **record.attempt.to_dict()}
    if target is not None:
        shown["target"] = target
        shown["defence_needed"] = record.defence_needed
    if attack is not None:
        shown["defends"] = data["defends"]
    return state, record, shown


def _fight(value: Any, sheet: _Sheet) -> dict:
    where = "fight"
    data = mapping(value, where, ("fighters", "initiative", "turns"))
    if "fighters" in data:
        fighters_where = place(where, "fighters")
        names = listing(data["fighters"], fighters_where, empty=False)
        fighters = [sheet.character(who, place(fighters_where, i)) for i, who in enumerate(names)]
        if len({f.id for f in fighters}) != len(fighters):
            raise EncounterFileError(fighters_where, "each fighter is listed once")
    else:
        fighters = list(sheet.characters.values())
    order, initiative = _initiative(data.get("initiative"), fighters, sheet)
    state = fight_rules.start_fight(
        [
            fight_rules.Fighter(
                id=who, base_fatigue=base_fatigue(sheet.characters[who].stamina), fatigue=sheet.fatigue[who]
            )
            for who in order
        ]
    )
    turns = []
    for index, entry in enumerate(listing(data.get("turns", []), place(where, "turns"))):
        at = place(place(where, "turns"), index)
        state, shown = _turn(state, entry, at, index + 1, sheet)
        turns.append(shown)
    for fighter in state.fighters:
        sheet.fatigue[fighter.id] = fighter.fatigue
    return {
        "initiative": initiative,
        "order": order,
        "turns": turns,
        "fatigue": {fighter.id: fighter.fatigue for fighter in state.fighters},
    }


def _runner(character: Character, sheet: _Sheet, distance: int | None) -> chase_rules.Runner:
    scores = {name: chase_rules.Score(score, 0) for name, score in character.attributes.items()}
    scores.update(
        {name: chase_rules.Score(a.consistency, a.potential) for name, a in character.abilities.items()}
    )
    return chase_rules.Runner(
        id=character.id,
        fatigue=sheet.fatigue[character.id],
        base_fatigue=base_fatigue(character.stamina),
        scores=scores,
        distance=distance,
    )


def _runner_json(roll: chase_rules.RunnerRoll) -> dict:
    return {
        "runner": roll.runner,
        "role": roll.role,
        "terrain": roll.terrain,
        "rolled": roll.rolled,
        "dropped_out": roll.dropped_out,
        **roll.attempt.to_dict(),
    }


def _exchange_json(record: chase_rules.Exchange) -> dict:
    return {
        "number": record.number,
        "terrain": {"name": record.terrain.name, "rolled": record.terrain.rolled},
        "rolls": [_runner_json(roll) for roll in record.rolls],
        "distances_before": dict(record.distances_before),
        "distances_after": dict(record.distances_after),
        "moves": [
            {"mover": m.mover, "chaser": m.chaser, "from": m.distance_before, "to": m.distance_after}
            for m in record.moves
        ],
        "dropped_out": list(record.dropped_out),
        "lost_sight": list(record.lost_sight),
        "caught_by": record.caught_by,
        "acts_against_target": record.acts_against_target,
        "moved_ahead": list(record.moved_ahead),
        "outcome": record.outcome,
    }


def _terrains(value: Any, where: str) -> dict[str, chase_rules.Terrain]:
    terrains: dict[str, chase_rules.Terrain] = {}
    for index, entry in enumerate(listing(value, where, empty=False)):
        at = place(where, index)
        entry = mapping(entry, at, ("name", "rolled"))
        name = text(required(entry, "name", at), place(at, "name"))
        if name in terrains:
            raise EncounterFileError(place(at, "name"), f"{name!r} is listed twice")
        terrains[name] = chase_rules.Terrain(name, text(required(entry, "rolled", at), place(at, "rolled")))
    return terrains


def _chase_step(
    state: chase_rules.ChaseState,
    entry: Any,
    where: str,
    terrains: dict[str, chase_rules.Terrain],
    sheet: _Sheet,
) -> tuple[chase_rules.ChaseState, dict]:
    entry = mapping(entry, where, ("offer", "choose", "dice", "move_ahead"))
    offered: list[str] = []
    change = None
    if "offer" in entry:
        offer_where = place(where, "offer")
        for index, name in enumerate(listing(entry["offer"], offer_where, empty=False)):
            if text(name, place(offer_where, index)) not in terrains:
                raise EncounterFileError(place(offer_where, index), f"no terrain {name!r} in chase.terrains")
            offered.append(name)
        state, _ = chase_rules.offer_terrain(state, [terrains[name] for name in offered])
    if "choose" in entry:
        state, changed = chase_rules.change_terrain(state, text(entry["choose"], place(where, "choose")))
        change = {"before": changed.before.name, "after": changed.after.name}
    dice_where = place(where, "dice")
    runners = [state.target, *state.chasers]
    given = mapping(entry.get("dice", {}), dice_where, [runner.id for runner in runners])
    own = {}
    for runner in runners:
        if runner.id in given:
            score = runner.score(state.terrain.rolled)
            own[runner.id] = _faces(given[runner.id], place(dice_where, runner.id), score.consistency)
    ahead_where = place(where, "move_ahead")
    ahead = [
        text(who, place(ahead_where, index))
        for index, who in enumerate(listing(entry.get("move_ahead", []), ahead_where))
    ]
    state, record = chase_rules.exchange(state, sheet.dice, runner_dice=own, move_ahead=ahead)
    return state, {"offered": offered, "terrain_change": change, **_exchange_json(record)}


def _chase(value: Any, sheet: _Sheet) -> dict:
    where = "chase"
    data = mapping(
        value, where, ("target", "chasers", "terrains", "escape_distance", "exchanges", "roll_until_over")
    )
    target = sheet.character(required(data, "target", where), place(where, "target"))
    chasers = []
    chasers_where = place(where, "chasers")
    for index, entry in enumerate(listing(required(data, "chasers", where), chasers_where, empty=False)):
        at = place(chasers_where, index)
        entry = mapping(entry, at, ("id", "distance"))
        character = sheet.character(required(entry, "id", at), place(at, "id"))
        distance = integer(required(entry, "distance", at), place(at, "distance"), low=1)
        chasers.append(_runner(character, sheet, distance))
    terrains = _terrains(required(data, "terrains", where), place(where, "terrains"))
    escape = data.get("escape_distance")
    if escape is not None:
        integer(escape, place(where, "escape_distance"), low=2)
    try:
        state = chase_rules.start_chase(
            _runner(target, sheet, None), chasers, next(iter(terrains.values())), escape_distance=escape
        )
    except RulesError as error:
        raise _wrap(error, where) from None
    exchanges = []
    steps = listing(data.get("exchanges", []), place(where, "exchanges"))
    for index, entry in enumerate(steps):
        at = place(place(where, "exchanges"), index)
        try:
            state, shown = _chase_step(state, entry, at, terrains, sheet)
        except RulesError as error:
            raise _wrap(error, at) from None
        exchanges.append(shown)
    if boolean(data.get("roll_until_over", False), place(where, "roll_until_over")):
        for _ in range(ROLL_UNTIL_OVER_LIMIT):
            if state.outcome != chase_rules.ONGOING:
                break
            try:
                state, shown = _chase_step(state, {}, place(where, "roll_until_over"), terrains, sheet)
            except RulesError as error:
                raise _wrap(error, place(where, "roll_until_over")) from None
            exchanges.append(shown)
    for runner in (state.target, *state.chasers):
        sheet.fatigue[runner.id] = runner.fatigue
    return {
        "target": state.target.id,
        "chasers": [chaser.id for chaser in state.chasers],
        "escape_distance": state.escape_distance,
        "exchanges": exchanges,
        "distances": dict(state.distances),
        "outcome": state.outcome,
        "caught_by": state.caught_by,
        "fatigue": {runner.id: runner.fatigue for runner in (state.target, *state.chasers)},
    }


def resolve(data: dict) -> dict:
    """RULES.md Part 2 [ours]: resolve a `d6fatigue` encounter file (fight, then chase) to JSON."""
    data = mapping(data, "", TOP_FIELDS)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise EncounterFileError("seed", "expected an integer or a string")
    physical_where = "physical_attributes"
    names = listing(data.get(physical_where, list(PHYSICAL_ATTRIBUTES)), physical_where)
    physical = frozenset(text(name, place(physical_where, index)) for index, name in enumerate(names))
    characters = _read_characters(required(data, "characters", ""))
    sheet = _Sheet(characters, physical, RandomDice(seed))
    if "fight" not in data and "chase" not in data:
        raise EncounterFileError("", "expected a fight, a chase or both")
    start = dict(sheet.fatigue)
    result: dict[str, Any] = {"rules": "d6fatigue", "seed": seed}
    result["fight"] = _fight(data["fight"], sheet) if "fight" in data else None
    result["chase"] = _chase(data["chase"], sheet) if "chase" in data else None
    result["characters"] = [
        {
            "id": character.id,
            "name": character.name,
            "stamina": character.stamina,
            "base_fatigue": base_fatigue(character.stamina),
            "fatigue_start": start[character.id],
            "fatigue_end": sheet.fatigue[character.id],
        }
        for character in characters.values()
    ]
    return result
