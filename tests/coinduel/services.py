"""The coin duel's one command, in the core's command frame: flip the coins of a turn."""

from __future__ import annotations

from django.db import transaction

from combat.models import Encounter
from combat.rules.dice import Dice, RandomDice
from combat.services.log import EventLog, lock_encounter, obey, require_storyguide_of

from . import rules
from .events import Kind


def duel_of(encounter: Encounter) -> tuple[rules.Duel, dict[str, str]]:
    """The duel as the rules see it, rebuilt from the encounter's rows and its last flip."""
    combatants = list(encounter.combatants.select_related("character"))
    names = {str(c.pk): c.character.name for c in combatants}
    last = encounter.events.filter(kind=Kind.FLIP).order_by("-seq").first()
    won = encounter.events.filter(kind=Kind.WON).first()
    hits = dict(last.payload["hits"]) if last else {}
    winner = won.payload["winner"] if won else None
    return rules.Duel(tuple(names), hits, winner, encounter.status), names


def flip(user, encounter_id: int, expected_version: int, dice: Dice | None = None) -> rules.Duel:
    """One turn: both duellists flip; three hits win and end the encounter."""
    with transaction.atomic():
        encounter = lock_encounter(encounter_id, expected_version)
        require_storyguide_of(user, encounter)
        duel, names = duel_of(encounter)
        obey(rules.can_flip(duel))
        duel, faces = rules.play_turn(duel, dice or RandomDice())
        encounter.round_number += 1
        encounter.status = Encounter.Status.RUNNING
        log = EventLog(encounter, user)
        log.append(
            Kind.FLIP, {"turn": encounter.round_number, "faces": faces, "hits": duel.hits, "names": names}
        )
        if duel.winner:
            log.append(Kind.WON, {"winner": duel.winner, "name": names[duel.winner]})
            encounter.status = Encounter.Status.ENDED
        log.save("round_number", "status")
    return duel
