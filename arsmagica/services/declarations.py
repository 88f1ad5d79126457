"""Declarations: open them, declare (players for their own characters, the storyguide for
anyone), close them: Initiative rolled or typed in, engagement contests settled (ArM3 p163)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from arsmagica.events import Kind
from arsmagica.models import Declaration, Phase, Weapon
from arsmagica.presenters import repeated_words
from arsmagica.rules import check_declaration, movement_phase
from arsmagica.rules import declare as engine_declare
from arsmagica.rules.table import can_close_declarations, can_declare, can_open_declarations
from combat.access import holds_seat
from combat.errors import InvalidCommand, NotAllowed
from combat.models import Combatant, Encounter, Event
from combat.rules.errors import RulesError
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of

from .dice import PURPOSE_LABELS, plain_faces, recording_box
from .guard import require_ars_magica
from .round import pass_quiet_phases, rebuild, snapshots, start_log
from .sheets import declaration_of, engage_refusal, options_from_json, unable_to_act
from .table import Seen, declarations_in, read_table

DECLARATION_FIELDS = (
    "action",
    "weapon_id",
    "engage",
    "range",
    "on_success",
    "movement",
    "mounted",
    "charging",
    "high_ground",
    "routing",
    "modifier",
    "missile_phase",
    "spell_kind",
    "spell_name",
    "casting_score",
    "fast_cast_phase",
    "distance",
    "dice",
)


# What a round's start keeps of each combatant in its `declarations_opened` event, for the replay.
ROUND_START = ("fatigue_level", "body_level", "advantage_attack", "advantage_defense")


def begin_round(encounter: Encounter, log: EventLog, combatants: list[Combatant]) -> None:
    """Round n+1 starts with declarations open; its start is kept for the engine."""
    encounter.status = Encounter.Status.RUNNING
    encounter.round_number += 1
    encounter.phase = Phase.DECLARING
    encounter.pending = {}
    encounter.round_log = start_log(combatants)
    start = [
        {"combatant": entry["id"], **{key: entry[key] for key in ROUND_START}}
        for entry in encounter.round_log["start"]
    ]
    log.append(Kind.DECLARATIONS_OPENED, {"round": encounter.round_number, "start": start})


def open_declarations(user, encounter_id: int, expected_version: int) -> Encounter:
    """Start the first round: declarations open for everyone in the fight."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_open_declarations(read.table))
        log = EventLog(encounter, user)
        begin_round(encounter, log, read.combatants)
        log.save("status", "round_number", "phase", "pending", "round_log", read=read)
    return encounter


def declare(
    user,
    encounter_id: int,
    combatant_id: int,
    values: dict,
    expected_version: int | None = None,
    *,
    seen: Seen | None = None,
):
    """Declare (or change) a combatant's action for this round.

    A player declares for their own characters only; the storyguide for NPCs and anyone.
    `values` holds the Declaration fields (weapon as `weapon_id`, targets as combatant ids).
    Many people declare at once, so the version is checked only when given; the round and
    phase are always checked. `seen`: the combatants the view read for the form (`read_table`).
    """
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        # The declarer's weapons alone: its push draws no card.
        read = read_table(encounter, weapons=False, seen=seen)
        obey(can_declare(read.table))
        combatant = read.combatant(combatant_id)
        if combatant is None:
            raise InvalidCommand("That combatant is not in this encounter.")
        character = combatant.character
        storyguide = holds_seat(user, encounter)
        if not storyguide and (character.is_npc or character.owner_id != user.pk):
            raise NotAllowed(
                f"You cannot declare for {character.name}: only their player or the storyguide can."
            )
        values = dict(values)
        if not storyguide:
            values.pop("modifier", None)  # the storyguide's Initiative modifier
        row = read.declarations.get(combatant.pk)
        row = declaration_row(encounter, combatant, values, read.combatants, row)
        row.declared_by = user
        row.save()
        read.declarations[combatant.pk] = row  # the push shows the table as this command left it
        log = EventLog(encounter, user)
        # The holder's own character is declared by its player, from the storyguide's panel (issue 38, 4).
        own = not character.is_npc and character.owner_id == user.pk
        append_declared(log, row, by_storyguide=storyguide and not own)
        log.save(read=read)
    return row


def append_declared(log: EventLog, row: Declaration, *, by_storyguide: bool) -> None:
    """The `declared` event of a saved declaration; an NPC's is the storyguide's alone."""
    character = row.combatant.character
    log.append(
        Kind.DECLARED,
        {
            "combatant": str(row.combatant_id),
            "name": character.name,
            "summary": summary(row),
            "by_storyguide": by_storyguide,
        },
        storyguide_only=character.is_npc,
    )


def declaration_row(
    encounter: Encounter, combatant: Combatant, values: dict, combatants: list, row=None, *, state=None
) -> Declaration:
    """The declaration `values` make for `combatant` this round (on its `row` when it has one), checked as
    `declare` checks it: known fields, targets in this encounter, a weapon on the sheet, and the engine's
    check (ArM3 p163); not saved. `state`: the round as `rebuild` made it, when the caller checks several."""
    unknown = set(values) - set(DECLARATION_FIELDS)
    if unknown:
        raise InvalidCommand(f"Unknown declaration fields: {', '.join(sorted(unknown))}.")
    values = dict(values)
    engage = [int(target) for target in values.get("engage", [])]
    if not set(engage) <= {each.pk for each in combatants}:
        raise InvalidCommand("You can only engage combatants of this encounter.")
    values["engage"] = engage
    weapon_id = values.get("weapon_id")
    on_sheet = {str(weapon.pk): weapon for weapon in Weapon.of(combatant.character)}
    if weapon_id is not None and str(weapon_id) not in on_sheet:
        raise InvalidCommand(f"That weapon is not on {combatant.character.name}'s sheet.")
    if row is None:
        row = Declaration(encounter=encounter, combatant=combatant, round_number=encounter.round_number)
    for field, value in values.items():
        setattr(row, field, value)
    if weapon_id is not None:  # the row as read with the sheet, for the summary and the push
        row.weapon = on_sheet[str(weapon_id)]
    _check_with_engine(encounter, row, combatants, state)
    return row


def as_before(previous: Declaration, combatants: list) -> dict:
    """What "same as last round" declares [ours]: last round's declaration, less its targets that have left
    the fight or can be engaged no more (`can_engage`: the dead); typed dice are the new round's to roll."""
    by_id = {combatant.pk: combatant for combatant in combatants}
    declarer = by_id.get(previous.combatant_id)
    values = {field: getattr(previous, field) for field in DECLARATION_FIELDS if field != "dice"}
    targets = [by_id[int(target)] for target in previous.engage if int(target) in by_id]
    values["engage"] = [
        target.pk for target in targets if declarer is not None and engage_refusal(declarer, target) is None
    ]
    return values


def repeated_row(encounter: Encounter, combatant, previous: Declaration, combatants: list, state=None):
    """The declaration "same as last round" makes (`as_before`), checked as `declare` checks it; refused
    with the reason a target dropped gives (it is dead) where the repeat fails without it."""
    try:
        return declaration_row(encounter, combatant, as_before(previous, combatants), combatants, state=state)
    except InvalidCommand:
        _refused_for_a_dropped_target(combatant, previous, combatants)
        raise


def _refused_for_a_dropped_target(combatant, previous: Declaration, combatants: list) -> None:
    """A repeat refused once its dead targets were dropped is refused for them: the reason `can_engage`
    gives ("Bandit 2 cannot engage Sir Boris, who is dead."), not what the declaration then lacks."""
    for target in combatants:
        if target.pk in previous.engage and (refusal := engage_refusal(combatant, target)):
            raise InvalidCommand(_sentence(refusal)) from None


def repeat_refusals(encounter: Encounter, combatants: list, previous: dict) -> dict[int, str]:
    """Why "same as last round" would be refused now, by combatant, for those of `previous` (last round's
    declarations by combatant) it would not be accepted for: the page offers it exactly where `declare`
    takes it. The round is rebuilt once for them all."""
    by_id = {combatant.pk: combatant for combatant in combatants}
    refused: dict[int, str] = {}
    state = None
    for combatant_id, declaration in previous.items():
        combatant = by_id.get(combatant_id)
        if combatant is None:
            continue
        try:
            state = rebuild(encounter, combatants, []) if state is None else state
            repeated_row(encounter, combatant, declaration, combatants, state)
        except InvalidCommand as error:
            refused[combatant_id] = str(error)
    return refused


def last_round_declaration(encounter: Encounter, combatant_id: int) -> Declaration | None:
    """What the combatant declared in the round before this one, if anything (one a round: ordered by its
    key, not by the model's order, which joins the combatants)."""
    return (
        Declaration.objects.filter(
            encounter=encounter, combatant_id=combatant_id, round_number=encounter.round_number - 1
        )
        .order_by("pk")
        .first()
    )


def declare_as_before(
    user, encounter_id: int, combatant_id: int, expected_version: int | None, *, seen: Seen | None = None
) -> Declaration:
    """Declare what the combatant declared last round, in one tap (`as_before`) [ours]. The page's version
    is checked, so a second tap of the same button does nothing twice. `seen`: the combatants the view
    read (`read_table`), else read here."""
    encounter = Encounter.objects.filter(pk=encounter_id).only("round_number").first()
    previous = last_round_declaration(encounter, combatant_id) if encounter else None
    if previous is None:
        raise InvalidCommand("There is no declaration from last round to repeat.")
    if seen is None:
        combatants = list(Combatant.objects.filter(encounter_id=encounter_id).select_related("character"))
    else:
        combatants = seen.combatants
    try:
        values = as_before(previous, combatants)
        return declare(user, encounter_id, combatant_id, values, expected_version, seen=seen)
    except InvalidCommand:
        declarer = next((each for each in combatants if each.pk == combatant_id), None)
        if declarer is not None:
            _refused_for_a_dropped_target(declarer, previous, combatants)
        raise


@dataclass
class Repeated:
    """What "every NPC not declared yet: same as last round" did: the NPCs it declared for, and why it
    left out each of the others (a sentence each, the NPC named)."""

    declared: list[Declaration]
    left_out: list[str]

    @property
    def words(self) -> str:
        return repeated_words([row.combatant.character.name for row in self.declared], self.left_out)


def declare_npcs_as_before(user, encounter_id: int, expected_version: int) -> Repeated:
    """The storyguide's one tap: every NPC not yet declared this round declares what it declared last
    round (`as_before`) [ours], where `declare` would take it; one that cannot act (ArM3 p177), declared
    nothing last round or whose repeat the check refuses is left out, with why. One command on the page's
    version (a second tap does nothing twice); refused, with every reason, when it declares for nobody."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_declare(read.table))
        previous = declarations_in(encounter, encounter.round_number - 1)
        log = EventLog(encounter, user)
        declared, left_out, state = [], [], None
        for npc in read.combatants:
            if not npc.character.is_npc or npc.pk in read.declarations:
                continue
            name, unable = npc.character.name, unable_to_act(npc.character)
            if unable:
                left_out.append(f"{name} is {unable} and cannot act")
                continue
            if npc.pk not in previous:
                left_out.append(f"{name} declared nothing last round")
                continue
            try:
                state = rebuild(encounter, read.combatants, []) if state is None else state
                row = repeated_row(encounter, npc, previous[npc.pk], read.combatants, state)
            except InvalidCommand as error:
                left_out.append(named(name, str(error)))
                continue
            row.declared_by = user
            row.save()
            read.declarations[npc.pk] = row
            declared.append(row)
            append_declared(log, row, by_storyguide=True)
        done = Repeated(declared, left_out)
        if not declared:
            raise InvalidCommand(done.words)
        log.save(read=read)
    return done


def named(name: str, reason: str) -> str:
    """A refusal as a sentence about `name`: as it is when it names them first, else after their name."""
    reason = reason.rstrip(".")
    return reason if reason.startswith(name) else f"{name}: {reason[:1].lower()}{reason[1:]}"


def summary(row: Declaration) -> dict:
    """What a declaration says, in words for the log (targets as combatant ids)."""
    return {
        "action": row.action,
        "action_label": row.get_action_display(),
        "weapon": row.weapon.name if row.weapon_id else "",
        "engage": [str(target) for target in row.engage],
        "range": row.range,
        "on_success": row.on_success,
        "movement": row.movement,
        "flags": [flag for flag in ("mounted", "charging", "high_ground", "routing") if getattr(row, flag)],
        "spell": row.spell_name,
    }


def _check_with_engine(encounter: Encounter, row: Declaration, combatants: list, state=None) -> None:
    state = rebuild(encounter, combatants, []) if state is None else state
    start = snapshots(encounter)
    try:
        check_declaration(state, declaration_of(row, start[str(row.combatant_id)]))
    except RulesError as error:
        raise InvalidCommand(_sentence(str(error))) from None
    except KeyError:
        raise InvalidCommand(
            "That combatant joined after the round began; wait for the next round."
        ) from None


def _sentence(message: str) -> str:
    message = message.strip()
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", ")")) else ".")


def close_declarations(user, encounter_id: int, expected_version: int) -> list[Event]:
    """Close declarations and run the Movement phase: Initiative Totals (rolled by the server,
    or the faces typed in where the saga plays physical dice), acting order, engagements."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_ars_magica(encounter)
        require_storyguide_of(user, encounter)
        read = read_table(encounter)
        obey(can_close_declarations(read.table))
        combatants, declarations = read.combatants, read.declared()
        names = {str(c.pk): c.character.name for c in combatants}
        physical = encounter.saga.physical_dice
        typed = {str(row.combatant_id): row.dice for row in declarations}
        if physical:
            missing = sorted(
                row.combatant.character.name for row in declarations if not row.dice.get("initiative")
            )
            if missing:
                raise InvalidCommand(
                    f"Waiting for typed {PURPOSE_LABELS['initiative']} dice from: {', '.join(missing)}."
                )
        state = rebuild(encounter, combatants, [])
        start = snapshots(encounter)
        box = recording_box(physical, typed, names)
        try:
            state = engine_declare(
                state, [declaration_of(row, start[str(row.combatant_id)]) for row in declarations]
            )
            state, result = movement_phase(state, box, options_from_json({}))
        except RulesError as error:
            raise InvalidCommand(_sentence(str(error))) from None
        faces = plain_faces(box.faces)
        round_log = dict(encounter.round_log)
        round_log["phases"] = [{"phase": "movement", "dice": faces, "options": {}}]
        encounter.round_log = round_log
        encounter.pending = {}
        log = EventLog(encounter, user)
        encounter.phase = "movement"  # the events belong to the Movement phase
        data = result.to_dict()
        log.append(
            Kind.MOVEMENT,
            {
                "initiative": data["initiative"],
                "engagements": data["engagements"],
                "escapes": data["escapes"],
                # NPCs' declarations stay in their storyguide-only `declared` events: everyone sees this one.
                "declarations": [
                    {"combatant": str(row.combatant_id), **summary(row)}
                    for row in declarations
                    if not row.combatant.character.is_npc
                ],
                "names": names,
                "dice": faces,
            },
        )
        encounter.phase = Phase.FIRST_MISSILE
        pass_quiet_phases(encounter, log, state)
        events = log.save("round_log", "phase", "pending", read=read)
    return events
