"""The state panels of an encounter page, built from rows in a fixed number of queries.

The same context renders the full page and the fragments pushed after every command.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, Prefetch

from campaign.models import Character, Weapon

from .audience import STORYGUIDE
from .models import Combatant, Declaration, Encounter, Event
from .odds import odds_context
from .services.dice import PURPOSE_LABELS
from .services.sheets import fatigue_state_of, level_penalties

# The dice each phase asks for, where the saga types physical dice in.
PHASE_PURPOSES = {
    "first_missile": ("missile", "combat"),
    "melee": ("combat",),
    "second_missile": ("missile_second", "combat"),
    "magic": ("magic",),
    "fatigue": ("fatigue",),
}


@dataclass
class Card:
    """One combatant as a card: levels with their penalties, advantage, declared or not."""

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

    @property
    def penalty(self) -> int:
        return self.fatigue_penalty + self.wound_penalty

    @property
    def long_term(self) -> int:
        """Fatigue levels lost to long-term exertion: back only with food and sleep (ArM3 p177)."""
        return sum(1 for exertion in fatigue_state_of(self.character).lost if exertion.value == "long_term")


def combatants_of(encounter: Encounter) -> list[Combatant]:
    return list(
        encounter.combatants.select_related("character", "character__owner").prefetch_related(
            Prefetch("character__weapons", queryset=Weapon.objects.order_by("id"))
        )
    )


def state_context(encounter: Encounter, audience: str) -> dict:
    """Everything the panels show; `audience` decides what is hidden from players."""
    if encounter.saga.is_d6:  # the d6 fatigue system's panels (d6table)
        from d6table.panels import state_context as d6_state_context

        return d6_state_context(encounter, audience)
    combatants = combatants_of(encounter)
    declarations = {
        declaration.combatant_id: declaration
        for declaration in Declaration.objects.filter(
            encounter=encounter, round_number=encounter.round_number
        ).select_related("weapon")
    }
    cards = []
    for combatant in combatants:
        fatigue_penalty, wound_penalty = level_penalties(combatant.character)
        declaration = declarations.get(combatant.pk)
        cards.append(Card(combatant, fatigue_penalty, wound_penalty, declaration is not None, declaration))
    movement = (
        Event.objects.filter(
            encounter=encounter, round_number=encounter.round_number, kind=Event.Kind.MOVEMENT
        )
        .order_by("-seq")
        .first()
        if encounter.round_number
        else None
    )
    names = {str(combatant.pk): combatant.character.name for combatant in combatants}
    sides: dict[str, list[Card]] = {}
    for card in cards:
        sides.setdefault(card.combatant.side, []).append(card)
    return {
        "encounter": encounter,
        "audience": audience,
        "is_storyguide": audience == STORYGUIDE,
        "cards": cards,
        "sides": sides,
        "names": names,
        "movement": movement.payload if movement else None,
        "declaring": encounter.phase == Encounter.Phase.DECLARING,
        "declared_count": sum(card.declared for card in cards),
        "pending": encounter.pending or None,
        "phase_track": phase_track(),
        "on_success_choices": Declaration.OnSuccess.choices,
        "phase_purposes": [(p, PURPOSE_LABELS[p]) for p in PHASE_PURPOSES.get(encounter.phase, ())],
        "last_seq": last_seq(encounter),
        "time_people": [card.character for card in cards],
        **(setup_context(encounter, cards) if audience == STORYGUIDE else {}),
        **(odds_context(encounter.pending) if audience == STORYGUIDE and encounter.pending else {}),
        "option_rows": option_rows(encounter, cards, movement.payload if movement else None)
        if audience == STORYGUIDE and encounter.pending
        else [],
    }


def option_rows(encounter: Encounter, cards: list[Card], movement: dict | None) -> list[dict]:
    """The preview's options per combatant; in the Fatigue phase, who rolls because they fought hand
    to hand, and who the storyguide may call on for other strenuous things (ArM3 p168)."""
    pending = encounter.pending or {}
    options = pending.get("options", {})
    engaged = {str(pair[key]) for pair in (movement or {}).get("engagements", []) for key in ("a", "b")}
    extra = {str(cid) for cid in options.get("extra_fatigue_rollers", [])}
    fatigue = pending.get("phase") == Encounter.Phase.FATIGUE
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
    """The storyguide's "add to the fight" form and correction form, kept current by every push."""
    from .forms import AddCombatantsForm, CorrectionForm

    in_fight = {card.character.pk for card in cards}
    available = [c for c in Character.objects.filter(saga=encounter.saga_id) if c.pk not in in_fight]
    return {
        "add_form": AddCombatantsForm(available=available),
        "correction_form": CorrectionForm(combatants=[card.combatant for card in cards]),
    }


def last_seq(encounter: Encounter) -> int:
    return Event.objects.filter(encounter=encounter).aggregate(last=Max("seq"))["last"] or 0


def phase_track() -> list[tuple[str, str]]:
    """The steps of a round, for the status bar."""
    return [(value, label) for value, label in Encounter.Phase.choices if value]
