"""The control panel asks the rules that the commands obey (ArM3 p163): a button the command would refuse
is disabled, with the refusal's words beside it."""

import re

import pytest

from arsmagica import services
from arsmagica.models import Phase
from arsmagica.rules.table import STEPS
from combat.errors import InvalidCommand, WrongPhase

from .test_table_ux import control_panel, section

pytestmark = pytest.mark.django_db


def button(controls, testid):
    return re.search(rf'<button [^>]*data-testid="{testid}"[^>]*>', controls).group(0)


def boris_attacks(table):
    values = {"weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, values)


def test_closing_with_nobody_declared_is_disabled_and_says_why(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    controls = section(control_panel(client, table), "sg-controls")
    assert " disabled" in button(controls, "close-declarations")
    assert '<small class="refusal muted" data-testid="refusal">Nobody has declared yet.</small>' in controls
    with pytest.raises(InvalidCommand, match="^Nobody has declared yet.$"):
        services.close_declarations(table.storyguide, table.encounter.pk, table.v)


def test_closing_is_offered_once_someone_has_declared(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    boris_attacks(table)
    controls = section(control_panel(client, table), "sg-controls")
    assert " disabled" not in button(controls, "close-declarations")
    assert 'data-testid="refusal"' not in controls
    assert "Close declarations, roll Initiative (1/5 declared)" in controls


def test_one_side_alone_cannot_start_the_fight(client, table):
    for bandit in table.bandits:
        services.remove_combatant(table.storyguide, table.encounter.pk, table.v, bandit.pk)
    controls = section(control_panel(client, table), "sg-controls")
    assert " disabled" in button(controls, "open-declarations")
    assert ">A fight needs combatants on at least two sides.</small>" in controls
    with pytest.raises(InvalidCommand, match="^A fight needs combatants on at least two sides.$"):
        services.open_declarations(table.storyguide, table.encounter.pk, table.v)


def test_mid_round_nobody_joins_or_leaves(client, table):
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    assert 'data-testid="remove-' in control_panel(client, table)
    boris_attacks(table)
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    page = control_panel(client, table)
    assert 'data-testid="remove-' not in page and 'data-testid="time-panel"' not in page
    with pytest.raises(WrongPhase, match="^Combatants join or leave while declarations are open"):
        services.remove_combatant(table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk)


def test_the_rules_name_the_steps_as_the_table_keeps_them():
    assert list(STEPS.items()) == list(Phase.choices)
