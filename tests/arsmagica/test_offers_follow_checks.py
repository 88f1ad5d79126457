"""What the page offers is what would be accepted (issue 35, item 7): "Same as last round" is offered only
where `declare` takes it, and says why not elsewhere; a dead combatant is in no target list (`can_engage`);
the storyguide's "every NPC not declared yet" declares whom it can and says, for each one it left out, why."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration
from arsmagica.panels import state_context
from arsmagica.rules import BodyLevel, can_engage
from combat.errors import InvalidCommand
from combat.live import render_frame
from combat.models import Event
from tests.personas import login

from .test_flow import into_round_two

pytestmark = pytest.mark.django_db


def struck(table, combatant, level="dead"):
    """The storyguide corrects a combatant's Body level while round 2's declarations are open."""
    change = {"body_level": level}
    services.correct(table.storyguide, table.encounter.pk, table.v, combatant.pk, change, "Struck down")


def targets_offered(html: str, combatant) -> set[str]:
    """The Engage / target boxes of one combatant's declaration form: the combatant ids it offers."""
    return set(re.findall(rf'name="c{combatant.pk}-engage" value="(\d+)"', html))


def test_can_engage_refuses_the_dead_and_oneself_and_nobody_else():
    dead = can_engage("Bandit 1", "Sir Boris", BodyLevel.DEAD)
    assert dead == "Bandit 1 cannot engage Sir Boris, who is dead"
    assert can_engage("Bandit 1", "Bandit 1", BodyLevel.UNHURT, itself=True).kind == "bad_input"
    assert can_engage("Bandit 1", "Sir Boris", BodyLevel.INCAPACITATED) is None  # helpless, not beyond reach


def test_a_dead_combatant_is_in_no_target_list(table, scripted_dice):
    into_round_two(table, scripted_dice)
    struck(table, table.bandits[0])
    boris_form = login(Client(), table.alice).get(
        reverse("arsmagica:my_declarations", args=[table.encounter.pk])
    )
    offered = targets_offered(boris_form.content.decode(), table.boris)
    alive = (table.anselm, table.bandits[1], table.bandits[2])
    assert offered == {str(other.pk) for other in alive}  # not Bandit 1, who is dead, nor Sir Boris himself
    page = login(Client(), table.storyguide).get(reverse("encounter_page", args=[table.encounter.pk]))
    html = page.content.decode()
    for bandit in table.bandits[1:]:
        assert str(table.bandits[0].pk) not in targets_offered(html, bandit)
        assert str(table.boris.pk) in targets_offered(html, bandit)


def test_same_as_last_round_is_offered_without_its_dead_target_or_not_at_all(table, scripted_dice):
    """Sir Boris engaged all three bandits: with Bandit 1 dead his repeat engages the other two, and is
    offered. The bandits engaged Sir Boris alone: with him dead theirs is not offered, and says why; the
    service refuses it with the same words (it answered 422 after offering it, the evening before)."""
    into_round_two(table, scripted_dice)
    struck(table, table.bandits[0])
    panel = login(Client(), table.alice).get(reverse("arsmagica:my_declarations", args=[table.encounter.pk]))
    button = re.search(rf'<button[^>]*data-testid="as-before-{table.boris.pk}"[^>]*>', panel.content.decode())
    assert button and "disabled" not in button.group(0)
    row = services.declare_as_before(table.alice, table.encounter.pk, table.boris.pk, table.v)
    assert row.engage == [table.bandits[1].pk, table.bandits[2].pk]

    struck(table, table.boris)
    context = state_context(table.refresh(), "storyguide")
    entries = {entry["combatant"].pk: entry for entry in context["entries"]}
    why = "Bandit 2 cannot engage Sir Boris, who is dead."
    assert entries[table.bandits[1].pk]["repeat_refusal"] == why
    html = login(Client(), table.storyguide).get(reverse("encounter_page", args=[table.encounter.pk]))
    html = html.content.decode()
    assert re.search(rf'data-testid="as-before-{table.bandits[1].pk}" disabled', html)
    assert f'data-testid="as-before-why-{table.bandits[1].pk}">{why}</p>' in html
    assert 'data-testid="npcs-as-before"' not in html  # nobody it would declare for: not offered
    with pytest.raises(InvalidCommand, match=re.escape(why)):
        services.declare_as_before(table.storyguide, table.encounter.pk, table.bandits[1].pk, table.v)


def test_every_npc_as_last_round_says_whom_it_declared_for_and_why_it_left_out_the_others(
    client, table, scripted_dice
):
    into_round_two(table, scripted_dice)
    struck(table, table.bandits[0])
    login(client, table.storyguide)
    url = reverse("arsmagica:declare_npcs_as_before", args=[table.encounter.pk])
    version = table.v
    answer = client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    said = (
        "Same as last round for 2 of 3 NPCs not declared yet: Bandit 2, Bandit 3. "
        "Left out: Bandit 1 is dead and cannot act."
    )
    assert f'data-testid="npcs-as-before-report">{said}</p>' in answer.content.decode()
    declared = set(Declaration.objects.filter(round_number=2).values_list("combatant_id", flat=True))
    assert declared == {table.bandits[1].pk, table.bandits[2].pk}
    assert table.v == version + 1  # one command: one version, one push
    assert Event.objects.filter(kind="declared", round_number=2).count() == 2


def test_every_npc_as_last_round_refused_for_all_says_why_for_each(client, table, scripted_dice):
    into_round_two(table, scripted_dice)
    struck(table, table.boris)
    version = table.v
    login(client, table.storyguide)
    url = reverse("arsmagica:declare_npcs_as_before", args=[table.encounter.pk])
    answer = client.post(url, {"expected_version": version}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422
    said = "Same as last round for 0 of 3 NPCs not declared yet. Left out: " + "; ".join(
        f"Bandit {n} cannot engage Sir Boris, who is dead" for n in (1, 2, 3)
    )
    assert said + "." in answer.content.decode()
    assert not Declaration.objects.filter(round_number=2).exists() and table.v == version


def test_a_death_corrected_in_pushes_every_npc_s_entry_again(table, scripted_dice):
    """The frame of a correction that kills Sir Boris carries the storyguide's whole "Declare for NPCs":
    each bandit's target list loses him, and their "same as last round" is refused, at once."""
    into_round_two(table, scripted_dice)
    struck(table, table.boris)
    encounter = table.refresh()
    correction = encounter.events.get(seq=encounter.last_seq)
    frame = render_frame(encounter, [correction], "storyguide", correction.seq, correction.seq)
    assert 'id="my-declarations"' in frame
    for bandit in table.bandits:
        assert str(table.boris.pk) not in targets_offered(frame, bandit)
        assert f'data-testid="as-before-why-{bandit.pk}"' in frame
    struck(table, table.bandits[0], "light_wounds")  # kills nobody: its entry alone, as before
    encounter = table.refresh()
    correction = encounter.events.get(seq=encounter.last_seq)
    frame = render_frame(encounter, [correction], "storyguide", correction.seq, correction.seq)
    assert 'id="my-declarations"' not in frame
