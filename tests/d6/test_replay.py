"""The replay of a d6 encounter, folded from its log alone, is the table as it stood: a fight and a chase
played through the services on seeded dice, the live rows read after every command, and the replay at
each of those steps compared with them; players replay what the live frames showed them (d6 seed)."""

import itertools

import pytest

from campaign.models import NpcRolls
from combat import services as combat_services
from combat import systems
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Combatant, Event
from combat.rules.dice import RandomDice
from d6 import services
from d6.models import Fight
from d6.services import dice as dice_module
from d6.sheet import sheet_of
from tests.audience_places import line_of, pushed

pytestmark = pytest.mark.django_db

STREETS = [("Market streets", "Running"), ("The river", "Swimming")]


def live_facts(encounter) -> dict:
    """The table now, from the rows the live pages render: sheets, the fight's rows, the latest chase's."""
    encounter.refresh_from_db()
    fatigue = {
        str(c.pk): sheet_of(c.character).fatigue for c in encounter.combatants.select_related("character")
    }
    fight = Fight.objects.filter(encounter=encounter).first()
    order = [str(f.combatant_id) for f in fight.fighters.order_by("position")] if fight else []
    chase = encounter.d6_chases.order_by("-number").first()
    return {
        "status": encounter.status,
        "round": encounter.round_number,
        "fatigue": fatigue,
        "order": order,
        "turn": order[fight.turn] if fight else None,
        "chase": None
        if chase is None
        else {
            "terrain": chase.stretches[-1]["name"],
            "exchanges": chase.exchanges,
            "outcome": chase.outcome,
            "runners": {str(r.combatant_id): (r.role, r.distance, r.status) for r in chase.runners.all()},
        },
    }


def replayed(encounter, upto: int) -> dict:
    events = list(Event.objects.filter(encounter=encounter, seq__lte=upto).order_by("seq"))
    return systems.of(encounter.saga).replay.state_at(events).facts()


@pytest.fixture
def seeded(monkeypatch):
    """The server's dice, seeded: each command's dice draw from the next seed."""
    seeds = itertools.count(1220)
    monkeypatch.setattr(dice_module, "server_dice", lambda: RandomDice(next(seeds)))


def play(table) -> list[tuple[int, dict]]:
    """A fight of two rounds (attacks, defences, a breather), then a chase to its end with a change of
    terrain; the live facts after every command, with the step they end at."""
    recorded = []
    encounter = table.encounter
    sg = table.storyguide

    def record():
        last = Event.objects.filter(encounter=encounter).order_by("-seq").values_list("seq", flat=True)[0]
        recorded.append((last, live_facts(encounter)))

    record()
    services.start_fight(sg, encounter.pk, table.v)
    record()
    for turn in range(8):
        fight = Fight.objects.get(encounter=encounter)
        fighters = list(fight.fighters.order_by("position"))
        current = fighters[fight.turn]
        if turn == 3:
            services.take_breather(sg, encounter.pk, table.v)
            record()
        else:
            target = fighters[(fight.turn + 1) % len(fighters)]
            attack = services.roll(
                sg, encounter.pk, table.v, current.combatant_id, "attribute:strength",
                value=3, target_id=target.combatant_id,
            )  # fmt: skip
            record()
            if attack["defence_needed"]:
                services.roll(sg, encounter.pk, table.v, target.combatant_id, "attribute:dexterity")
                record()
        services.end_turn(sg, encounter.pk, table.v)
        record()
    chasers = [(table.bandits[0].pk, 3), (table.bandits[1].pk, 4)]
    services.start_chase(sg, encounter.pk, table.v, table.marta.pk, chasers, STREETS, escape_distance=8)
    record()
    for number in range(1, 30):
        if number == 2:
            services.offer_terrain(sg, encounter.pk, table.v, [STREETS[1]])
            record()
            services.choose_terrain(table.alice, encounter.pk, table.v, STREETS[1][0])
            record()
        services.exchange(sg, encounter.pk, table.v)
        record()
        if encounter.d6_chases.get().outcome != "ongoing":
            break
    combat_services.end_encounter(sg, encounter.pk, table.v)
    record()
    return recorded


def test_the_replay_at_every_step_is_the_table_as_it_stood(table, seeded):
    recorded = play(table)
    facts = [f for _, f in recorded]
    assert any(f["chase"] and f["chase"]["exchanges"] > 1 for f in facts)
    assert facts[-2]["chase"]["outcome"] != "ongoing" and facts[-1]["status"] == "ended"
    assert len({tuple(f["fatigue"].values()) for f in facts}) > 2  # fatigue moved on the track
    assert len({f["round"] for f in facts}) >= 3
    for seq, live in recorded:
        assert replayed(table.encounter, seq) == live, f"step {seq}"


def test_the_replay_page_draws_the_chase_at_a_step(table, seeded, client):
    play(table)
    start = Event.objects.get(encounter=table.encounter, kind="d6_chase_started")
    client.force_login(table.bob)
    html = client.get(f"/encounters/{table.encounter.pk}/replay/", {"seq": start.seq}).content.decode()
    bandit = table.bandits[0].pk
    assert f'data-testid="replay-runner-{bandit}" data-distance="3"' in html
    assert "3 squares behind Marta" in html and 'data-testid="replay-chase"' in html
    assert f'data-testid="replay-fatigue-{table.marta.pk}"' in html


@pytest.mark.parametrize("npc_rolls", [NpcRolls.RESULTS, NpcRolls.TOTALS])
def test_a_players_replay_shows_each_step_as_the_live_frame_showed_it(table, seeded, client, npc_rolls):
    """Each step of a player's replay is the line the players' live frame carried: an NPC's dice and
    scores (and at the default setting its results' numbers) stay behind the screen. At that setting the
    one difference is the player's own defence against an NPC's attack, whose replay keeps the number it
    had to meet, which the frame every player is sent leaves out (issue 35, item 10)."""
    table.saga.npc_rolls = npc_rolls
    table.saga.save()
    play(table)
    encounter = table.refresh()
    frames = {audience: pushed(encounter, audience) for audience in (PLAYERS, STORYGUIDE)}
    assert frames[PLAYERS] != frames[STORYGUIDE]
    npcs = {str(c.pk) for c in table.bandits}
    own_defences = 0
    for event in encounter.events.order_by("seq"):
        for audience, user in ((PLAYERS, table.alice), (PLAYERS, table.bob), (STORYGUIDE, table.storyguide)):
            client.force_login(user)
            html = client.get(f"/encounters/{encounter.pk}/replay/", {"seq": event.seq}).content.decode()
            line, framed = line_of(html, event.seq), line_of(frames[audience], event.seq)
            p = event.payload
            mine = (
                audience == PLAYERS
                and npc_rolls == NpcRolls.RESULTS
                and p.get("defends_against") in npcs
                and Combatant.objects.filter(pk=p["combatant"], character__owner=user).exists()
            )
            if mine:
                own_defences += 1
                versus = f"vs <b>{p['value']}</b>"
                assert versus in line and versus not in framed, (user, event.seq)
            else:
                assert line == framed, (audience, user, event.seq)
    assert own_defences or npc_rolls != NpcRolls.RESULTS  # the play has a player defend against an NPC


def test_the_d6_charts_draw_the_fatigue_track_and_the_hits(table, seeded, client):
    play(table)
    events = Event.objects.filter(encounter=table.encounter, kind="d6_roll")
    hits = [e for e in events if e.payload["target"] and not e.payload["defending"] and e.payload["success"]]
    client.force_login(table.alice)
    html = client.get(f"/encounters/{table.encounter.pk}/charts/").content.decode()
    assert 'data-testid="chart-fatigue-encounter"' in html
    assert 'data-testid="chart-body-encounter"' not in html
    assert html.count('class="mark mark-hit"') == len(hits)
    saga = client.get(f"/sagas/{table.saga.pk}/charts/")
    assert saga.status_code == 200 and 'data-testid="chart-numbers-table"' in saga.content.decode()


def test_the_d6_timeline_has_no_lane_for_an_undo_it_cannot_make(table, seeded, client):
    """Issue 35, item 9: a system without an undo (`UNDO_KINDS` empty) draws no Undos lane."""
    play(table)
    client.force_login(table.storyguide)
    html = client.get(f"/encounters/{table.encounter.pk}/charts/").content.decode()
    assert ">Corrections</text>" in html and ">Undos</text>" not in html and "mark-undo" not in html
    assert "Timeline of hits, wounds, botches and corrections" in html
