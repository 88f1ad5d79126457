"""The coin duel's commands, each declared once (its service, its `can_*`), and the panel offering them."""

from typing_extensions import override

from combat import commands, systems
from combat.audience import STORYGUIDE
from combat.models import Encounter
from combat.rules.dice import Dice, RandomDice
from combat.services.log import obey, storyguide_command

from . import rules
from .events import Flip, Won


def duel_of(encounter: Encounter) -> tuple[rules.Duel, dict[str, str]]:
    """The duel as the rules see it, rebuilt from the encounter's rows and its last flip."""
    names = {str(c.pk): c.character.name for c in encounter.combatants.select_related("character")}
    last = encounter.events.filter(kind=Flip.name).order_by("-seq").first()
    won = encounter.events.filter(kind=Won.name).first()
    hits = dict(last.payload["hits"]) if last else {}
    return rules.Duel(tuple(names), hits, won and won.payload["winner"], encounter.status), names


def flip(user, encounter_id: int, expected_version: int, dice: Dice | None = None) -> rules.Duel:
    """One turn: both duellists flip; three hits win and end the encounter."""
    with storyguide_command(user, encounter_id, expected_version, "round_number", "status") as log:
        duel, names = duel_of(log.encounter)
        obey(rules.can_flip(duel))
        duel, faces = rules.play_turn(duel, dice or RandomDice())
        turn = log.encounter.round_number = log.encounter.round_number + 1
        log.encounter.status = Encounter.Status.ENDED if duel.winner else Encounter.Status.RUNNING
        log.append(Flip.name, {"turn": turn, "faces": faces, "hits": duel.hits, "names": names})
        if duel.winner:
            log.append(Won.name, {"winner": duel.winner, "name": names[duel.winner]})
    return duel


def concede(user, encounter_id: int, expected_version: int, duellist: str) -> rules.Duel:
    """A duellist yields: the other wins, and the encounter ends."""
    with storyguide_command(user, encounter_id, expected_version, "status") as log:
        duel, names = duel_of(log.encounter)
        obey(rules.can_concede(duel, duellist))
        duel = rules.concede(duel, duellist)
        log.append(Won.name, {"winner": duel.winner, "name": names[duel.winner]})
        log.encounter.status = Encounter.Status.ENDED
    return duel


COMMANDS = (
    commands.Command(flip, rules.can_flip),
    commands.Command(concede, rules.can_concede, form=commands.fields("duellist")),
)


class Page(systems.Page):
    FRAME_TEMPLATE = "coinduel/_panels.html"

    @override
    def state_context(self, encounter, audience: str, facts=None) -> dict:
        """The duel's panel: who has how many hits, and the storyguide's Flip (never once it is over)."""
        duel, names = duel_of(encounter)
        return {
            "flips_offered": audience == STORYGUIDE and encounter.status != Encounter.Status.ENDED,
            "duellists": [(who, names[who], duel.hits.get(who, 0)) for who in duel.duellists],
            "refusals": commands.refusals(COMMANDS, duel),
        }
