"""Declarations (ArM3 p163) refused with messages a person understands."""

from __future__ import annotations

import pytest
from ars_helpers import BOW, DAGGER, SWORD, attack, fighter

from arsmagica.rules import (
    Action,
    BodyLevel,
    Declaration,
    FatigueLevel,
    Movement,
    Phase,
    Spell,
    SpellKind,
    declare,
    start_fight,
)
from combat.rules.errors import RulesError

FIGHT = start_fight(
    [
        fighter("boris", SWORD, DAGGER, BOW, name="Sir Boris"),
        fighter("bandit", SWORD, name="Bandit"),
        fighter("sleeper", fatigue=FatigueLevel.UNCONSCIOUS, name="Sleeper"),
        fighter("wounded", body=BodyLevel.INCAPACITATED, name="Wounded"),
        fighter("corpse", body=BodyLevel.DEAD, name="Corpse"),
    ]
)
SPELL = Spell(SpellKind.FORMULAIC, 10)

REFUSED = [
    (Declaration("nobody"), "no combatant with id 'nobody'"),
    (attack("boris", "bandit", weapon="axe"), "Sir Boris has no weapon named 'axe'"),
    (attack("boris", "boris"), "Sir Boris cannot engage Sir Boris"),
    (attack("sleeper", "bandit"), "Sleeper is unconscious and cannot act"),
    (attack("wounded", "bandit"), "Wounded is incapacitated and cannot act"),
    (attack("corpse", "bandit"), "Corpse is dead and cannot act"),
    (attack("boris", "corpse"), "cannot engage Corpse, who is dead"),
    (attack("boris", "bandit", routing=True), "routing and cannot attack"),
    (Declaration("boris", Action.ATTACK, engage=("bandit",)), "without naming a weapon"),
    (Declaration("boris", Action.ATTACK, "sword"), "names nobody to engage"),
    (Declaration("boris", Action.OTHER, engage=("bandit",)), "declares other, not attack"),
    (attack("boris", "bandit", "bandit"), "the same opponent twice"),
    (attack("boris", "bandit", weapon="bow"), "bow is a missile weapon: declare missile"),
    (Declaration("boris", Action.MISSILE, "sword", ("bandit",)), "sword is not a missile weapon"),
    (Declaration("boris", Action.MISSILE, "bow", ("bandit", "sleeper")), "one target a shot, not 2"),
    (
        Declaration("boris", Action.MISSILE, "bow", ("bandit",), missile_phase=Phase.MELEE),
        "first_missile or second_missile only",
    ),
    (
        Declaration("boris", Action.MISSILE, "bow", ("bandit",), distance=61),
        "61 paces away, beyond the bow's 60 paces",
    ),
    (Declaration("boris", Action.CAST), "declares a spell but says nothing about it"),
    (
        Declaration("boris", Action.CAST, spell=Spell(SpellKind.FORMULAIC, 10, fast_cast_phase=Phase.MAGIC)),
        "fast-cast only in first_missile, melee or second_missile, not magic",
    ),
    (Declaration("boris", Action.OTHER, spell=SPELL), "describes a spell but declares other"),
    (Declaration("boris", Action.MOVE, routing=True, charging=True), "cannot both rout and charge"),
    (
        Declaration("boris", Action.MOVE, movement=Movement.HORSEBACK),
        "declares a gallop but is not on horseback",
    ),
]


@pytest.mark.parametrize(("declaration", "message"), REFUSED)
def test_impossible_declarations_are_refused_with_a_clear_message(declaration, message):
    with pytest.raises(RulesError, match=message.replace("(", r"\(")):
        declare(FIGHT, [declaration])


def test_one_declaration_per_combatant():
    with pytest.raises(RulesError, match="Sir Boris has two declarations"):
        declare(FIGHT, [Declaration("boris"), Declaration("boris")])


def test_declarations_are_kept_in_the_order_combatants_are_listed():
    state = declare(FIGHT, [Declaration("bandit"), Declaration("boris")])
    assert [item.combatant for item in state.declarations] == ["boris", "bandit"]


def test_declarations_come_only_before_the_movement_phase_is_rolled():
    from dataclasses import replace

    with pytest.raises(RulesError, match="is at the melee phase"):
        declare(replace(FIGHT, phase=Phase.MELEE), [])


def test_a_galloping_rider_and_a_fair_shot_are_accepted():
    state = declare(
        FIGHT,
        [
            Declaration(
                "boris",
                Action.MISSILE,
                "bow",
                ("bandit",),
                distance=60,
                mounted=True,
                movement=Movement.HORSEBACK,
            ),
            Declaration(
                "bandit", Action.CAST, spell=Spell(SpellKind.FORMULAIC, 5, fast_cast_phase=Phase.MELEE)
            ),
        ],
    )
    assert len(state.declarations) == 2


def test_the_round_waits_only_for_those_who_can_act():
    """ "0/6 declared" with two dead bandits was wrong: the dead, the incapacitated and the unconscious have
    nothing to declare (ArM3 p177), so they count on neither side of "N/M declared"."""
    from arsmagica.rules.declarations import declarations_awaited

    people = [(True, ""), (False, ""), (False, "dead"), (False, "unconscious"), (True, "incapacitated")]
    assert declarations_awaited(people) == (1, 2)
    assert declarations_awaited([(False, "dead")]) == (0, 0)
    assert declarations_awaited([]) == (0, 0)
