"""Charts drawn on the server as SVG, each with a title, a description and a table beside it: an
encounter's levels round by round and its timeline, a saga's levels and each character's numbers; a
player's charts are drawn from what the player saw (ArM3 p163-p177)."""

import re
from types import SimpleNamespace

import pytest

from campaign.models import NpcRolls
from combat import systems
from combat.archive.charts import tell
from combat.models import Event
from combat.undo import taken_back

from .test_replay import play_a_fight, seeded  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def figures(html: str) -> list[str]:
    return re.findall(r'<figure class="chart-figure".*?</figure>', html, re.S)


def test_every_chart_has_a_title_a_description_and_a_table(table, seeded, client):  # noqa: F811
    play_a_fight(table)
    client.force_login(table.storyguide)
    pages = [
        client.get(f"/encounters/{table.encounter.pk}/charts/"),
        client.get(f"/sagas/{table.saga.pk}/charts/"),
    ]
    for response in pages:
        assert response.status_code == 200
        html = response.content.decode()
        assert len(figures(html)) == 3  # Fatigue, Body, and the timeline or the numbers
        for figure in figures(html):
            assert "<svg" in figure and "<title id=" in figure and "<desc id=" in figure
            assert "<table" in figure and "<caption>" in figure
            assert "style=" not in figure


def test_the_encounter_charts_follow_the_log(table, seeded, client):  # noqa: F811
    play_a_fight(table)
    logged = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    story = tell(systems.of(table.saga), logged)
    assert story.rounds == [0, 1, 2, 3, 4]  # ending round 3 opened round 4
    undone = taken_back(systems.of(table.saga), logged)
    events = [e for e in logged if e.seq not in undone]  # round 3's first Melee counts nowhere
    assert len(events) < len(logged)
    hits = [e for e in events if e.kind == "attack" and e.payload["result"] == "hit"]
    assert len([m for m in story.marks if m["mark"] == "hit"]) == len(hits)
    assert [m["words"] for m in story.marks if m["mark"] == "correction"] == [
        "A long ride",
        "He fell on the rocks",
    ]
    boris = str(table.boris.pk)
    assert story.tally[boris]["attacks"] == len(
        [e for e in events if e.kind == "attack" and e.payload["attacker"] == boris]
    )
    assert story.levels[0][boris]["fatigue"] == 1  # winded before the fight (the correction)
    client.force_login(table.storyguide)
    html = client.get(f"/encounters/{table.encounter.pk}/charts/").content.decode()
    assert 'data-testid="chart-fatigue-encounter-table"' in html and "He fell on the rocks" in html
    assert html.count('class="mark mark-hit"') == len(hits)


def test_the_saga_numbers_count_each_characters_attacks_and_survival(table, seeded, client):  # noqa: F811
    play_a_fight(table)
    client.force_login(table.alice)
    html = client.get(f"/sagas/{table.saga.pk}/charts/").content.decode()
    logged = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    undone = taken_back(systems.of(table.saga), logged)
    events = [e for e in logged if e.kind == "attack" and e.seq not in undone]
    made = len([e for e in events if e.payload["attacker"] == str(table.boris.pk)])
    landed = len(
        [e for e in events if e.payload["attacker"] == str(table.boris.pk) and e.payload["result"] == "hit"]
    )
    row = re.search(r"<th scope=\"row\">Sir Boris</th>(.*?)</tr>", html, re.S).group(1)
    cells = re.findall(r"<td\s*>(\d+)</td>", row)
    assert cells[:2] == [str(made), str(landed)]
    assert cells[-1] == "1"  # fought one encounter
    ended = systems.of(table.saga).replay.state_at(
        list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    )
    alive = ended.fighters[str(table.boris.pk)].body_level != "dead"
    assert cells[-2] == ("1" if alive else "0")  # and survived it, or died in it
    assert "Brother Anselm" not in html  # left before the fight: no numbers of his


def attack(**payload):
    return SimpleNamespace(
        encounter_id=1, kind="attack", seq=3, round_number=1, payload=payload, storyguide_only=False
    )


def test_a_players_timeline_keeps_an_npcs_botch_behind_the_screen_as_the_live_frame_does(table):
    """A bandit's botched attack roll: the storyguide's timeline marks the botch; at the saga's default
    setting the players' version of the attack carries no dice, so their timeline and numbers have none."""
    system = systems.of(table.saga)
    bandit, boris = str(table.bandits[0].pk), str(table.boris.pk)
    event = attack(
        attacker=bandit, defender=boris, result="miss", body_levels_lost=0,
        attack_roll={"faces": [0], "botch_faces": [0], "value": 0, "botches": 1}, attack_total=0,
        defense_roll=None, defense_total=9,
    )  # fmt: skip
    joined = {"combatant": bandit, "name": "Bandit 1", "side": "Bandits", "npc": True}
    added = SimpleNamespace(
        encounter_id=1, kind="combatant_added", seq=1, round_number=0, storyguide_only=False, payload=joined
    )
    sg = tell(system, [added, event])
    assert [m["mark"] for m in sg.marks] == ["botch"] and sg.tally[bandit]["botches"] == 1
    for setting, seen in ((NpcRolls.RESULTS, False), (NpcRolls.EVERYTHING, True)):
        shown = SimpleNamespace(**{**event.__dict__})
        shown.payload = system.log.players_payload(event, set(), {boris}, setting)
        players = tell(system, [added, shown])
        assert bool(players.marks) == seen and (players.tally[bandit]["botches"] == 1) == seen


@pytest.mark.parametrize("who", ["storyguide", "alice"])
def test_the_saga_charts_read_no_payload_key_they_never_use_and_count_the_same(table, seeded, who):  # noqa: F811
    """The keys of `Replay.CHART_UNREAD` are removed in the database (never sent or decoded), and each
    encounter's story is the same as the whole log's, for the storyguide and for a player."""
    from combat.archive.charts import saga_events, saga_stories
    from combat.archive.reading import reader_for
    from combat.archive.replay import reader_events

    play_a_fight(table)
    user = getattr(table, who)
    reader = reader_for(user, table.saga.pk, sheets=False)
    light = [e.payload for e in saga_events(reader) if e.kind == "attack"]
    assert light and all("attack_parts" not in p and "faces" not in p.get("attack_roll", {}) for p in light)
    full = [e.payload for e in reader_events(table.encounter, user)[1] if e.kind == "attack"]
    assert any("attack_parts" in p and "faces" in p.get("attack_roll", {}) for p in full)
    ((_, story),) = saga_stories(reader)
    whole = tell(systems.of(table.saga), reader_events(table.encounter, user)[1])
    for part in ("levels", "tally", "rounds", "survivors", "fought", "ended"):
        assert getattr(story, part) == getattr(whole, part), part
    unstepped = lambda marks: [{k: v for k, v in m.items() if k != "step"} for m in marks]  # noqa: E731
    assert unstepped(story.marks) == unstepped(whole.marks)  # steps count the kinds read
