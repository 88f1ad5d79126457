"""Issue 29, bugs 6 and 8: the record names each combatant as the encounter's log named them
(combat.names). A combatant taken out of the fight keeps his name in the past and his row in the saga's
numbers; a renamed one reads the same in the history, history.json, the recap, the print view, the
replay and the charts, for the storyguide and for players."""

import re

import pytest
from django.urls import reverse

from arsmagica import services
from campaign.services import rename_character
from combat.models import Event

from .test_replay import PHASES, seeded  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def play_round(table) -> None:
    """One round: everyone declares, every phase someone acts in is rolled and confirmed, it ends."""
    encounter = table.encounter
    if table.refresh().round_number == 0:  # later rounds open their declarations by themselves
        services.open_declarations(table.storyguide, encounter.pk, table.v)
    table.declare_p168()
    services.close_declarations(table.storyguide, encounter.pk, table.v)
    for phase in PHASES:
        if table.refresh().phase == phase:
            services.preview_phase(table.storyguide, encounter.pk, table.v, phase)
            services.confirm_phase(table.storyguide, encounter.pk, table.v, phase)
    services.end_round(table.storyguide, encounter.pk, table.v)


def attack_by(table, combatant, round_number=1) -> Event:
    """The combatant's first attack of the round."""
    attacks = Event.objects.filter(encounter=table.encounter, kind="attack", round_number=round_number)
    return next(e for e in attacks.order_by("seq") if e.payload["attacker"] == str(combatant.pk))


def views(client, table, user, attack: Event) -> dict[str, str]:
    """Every view of the record, as `user` reads it."""
    client.force_login(user)
    saga, encounter = table.saga.pk, table.encounter.pk
    return {
        "history": client.get(reverse("saga_history", args=[saga])).content.decode(),
        "recap": client.get(reverse("saga_recap", args=[saga])).getvalue().decode(),
        "record": client.get(reverse("encounter_record", args=[encounter])).content.decode(),
        "replay": client.get(reverse("encounter_replay", args=[encounter]), {"seq": attack.seq})
        .content.decode(),
    }


def named_attacks(text: str, defender: str) -> list[str]:
    """Who each attack on `defender` names as its attacker, in a page's HTML or the recap's Markdown."""
    return re.findall(r"(?:<b>|\*\*)([^<*]*)(?:</b>|\*\*) → (?:<b\s*>|\*\*)" + defender, text)


@pytest.fixture
def bandit_left(table, seeded):  # noqa: F811
    """Bandit 2 attacked in round 1 and was taken out of the fight before round 2's declarations."""
    play_round(table)
    services.remove_combatant(table.storyguide, table.encounter.pk, table.v, table.bandits[1].pk)
    table.left, table.bandits = table.bandits[1], [table.bandits[0], table.bandits[2]]
    play_round(table)
    return table


@pytest.mark.parametrize("persona", ["storyguide", "alice"])
def test_a_removed_combatant_keeps_his_name_in_every_view(client, bandit_left, persona):
    table = bandit_left
    attack = attack_by(table, table.left)
    for view, text in views(client, table, getattr(table, persona), attack).items():
        assert "Bandit 2" in named_attacks(text, "Sir Boris"), view
        assert "" not in named_attacks(text, "Sir Boris"), view
    data = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    listed = {c["id"]: c["name"] for c in data["encounters"][0]["combatants"]}
    assert listed[table.left.pk] == "Bandit 2"


@pytest.mark.parametrize("persona", ["storyguide", "alice"])
def test_a_removed_combatant_keeps_his_row_in_the_saga_numbers(client, bandit_left, persona):
    table = bandit_left
    attacks = Event.objects.filter(encounter=table.encounter, kind="attack")
    made = attacks.filter(payload__attacker=str(table.left.pk))
    client.force_login(getattr(table, persona))
    html = client.get(reverse("saga_charts", args=[table.saga.pk])).content.decode()
    row = re.search(r'<th scope="row">Bandit 2</th>(.*?)</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r"<td\s*>(\d+)</td>", row.group(1))
    assert cells[0] == str(made.count()) and made.count() >= 1
    assert cells[-1] == "1"  # he fought in that encounter
    charts = client.get(reverse("encounter_charts", args=[table.encounter.pk])).content.decode()
    assert "Bandit 2" in charts


@pytest.mark.parametrize("persona", ["storyguide", "alice"])
def test_a_rename_reads_the_same_in_every_view(client, table, seeded, persona):  # noqa: F811
    """Renamed between rounds 1 and 2: round 1 names him as he was, round 2 as he is, in every view."""
    play_round(table)
    rename_character(table.bandit_characters[0], "Ragnar the Red", table.storyguide)
    play_round(table)
    first, second = attack_by(table, table.bandits[0], 1), attack_by(table, table.bandits[0], 2)
    for view, text in views(client, table, getattr(table, persona), first).items():
        if view == "replay":  # the step's round alone
            assert named_attacks(text, "Sir Boris") == ["Bandit 1"]
            continue
        assert "Bandit 1" in named_attacks(text, "Sir Boris") and "Ragnar the Red" in named_attacks(
            text, "Sir Boris"
        ), view
        assert "Bandit 1</b> is now called <b>Ragnar the Red" in text or "**Bandit 1** is now called" in text
    replay = client.get(reverse("encounter_replay", args=[table.encounter.pk]), {"seq": second.seq})
    assert named_attacks(replay.content.decode(), "Sir Boris") == ["Ragnar the Red"]
    data = client.get(reverse("saga_history_json", args=[table.saga.pk])).json()
    listed = {c["id"]: c["name"] for c in data["encounters"][0]["combatants"]}
    assert listed[table.bandits[0].pk] == "Ragnar the Red"
    numbers = client.get(reverse("saga_charts", args=[table.saga.pk])).content.decode()
    assert '<th scope="row">Ragnar the Red</th>' in numbers and '<th scope="row">Bandit 1</th>' not in numbers


def test_after_the_encounter_ends_a_rename_leaves_its_record_alone(client, table, seeded):  # noqa: F811
    play_round(table)
    services.end_encounter(table.storyguide, table.encounter.pk, table.v)
    logged = table.refresh().last_seq
    rename_character(table.bandit_characters[0], "Ragnar the Red", table.storyguide)
    assert table.refresh().last_seq == logged
    attack = attack_by(table, table.bandits[0])
    for view, text in views(client, table, table.alice, attack).items():
        assert "Bandit 1" in named_attacks(text, "Sir Boris") and "Ragnar" not in text, view
