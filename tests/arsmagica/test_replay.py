"""The replay of an Ars Magica encounter, folded from its log alone, is the table as it stood: a whole
fight played through the services on seeded dice, the live rows read after every command, and the
replay at each of those steps compared with them; players replay what the live frames showed them."""

import itertools

import pytest

from arsmagica import services
from arsmagica.models import Declaration
from arsmagica.rules import RandomDiceBox
from arsmagica.services import dice as dice_module
from arsmagica.services.round import rebuild
from arsmagica.services.table import combatants_of
from arsmagica.sheet import carried, sheet_of
from campaign.models import NpcRolls
from combat import systems
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Event
from combat.undo import taken_back
from tests.audience_places import line_of, pushed

pytestmark = pytest.mark.django_db

PHASES = ("first_missile", "melee", "second_missile", "magic", "fatigue")


def live_facts(encounter) -> dict:
    """The table now, from the rows the live pages render: sheets, carried advantage, the round's log."""
    encounter.refresh_from_db()
    combatants = combatants_of(encounter)
    fighters = {
        str(c.pk): (
            sheet_of(c.character).fatigue_level,
            sheet_of(c.character).body_level,
            carried(c).advantage_attack,
            carried(c).advantage_defense,
        )
        for c in combatants
    }
    order, engagements = [], []
    if encounter.phase not in ("", "declaring") and encounter.round_log.get("phases"):
        declarations = list(
            Declaration.objects.filter(
                encounter=encounter, round_number=encounter.round_number
            ).select_related("weapon")
        )
        state = rebuild(encounter, combatants, declarations)
        order = [row.combatant for row in state.initiative]
        engagements = sorted((e.a, e.b, e.range.value) for e in state.engagements)
    return {
        "status": encounter.status,
        "round": encounter.round_number,
        "phase": encounter.phase,
        "fighters": fighters,
        "order": order,
        "engagements": engagements,
    }


def replayed(encounter, upto: int | None = None) -> dict:
    events = list(Event.objects.filter(encounter=encounter).order_by("seq"))
    if upto is not None:
        events = [e for e in events if e.seq <= upto]
    return systems.of(encounter.saga).replay.state_at(events).facts()


@pytest.fixture
def seeded(monkeypatch):
    """The server's dice, seeded: each roll of a command draws from the next seed."""
    seeds = itertools.count(1220)
    monkeypatch.setattr(dice_module, "server_box", lambda: RandomDiceBox(next(seeds)))


def play_a_fight(table) -> list[tuple[int, dict]]:
    """Three rounds with every phase someone acts in (the empty ones pass by themselves), a correction,
    advantage, rest between rounds, a combatant who leaves before the fight, a phase undone; the live
    facts after every command, with the step they end at."""
    recorded = []
    encounter = table.encounter

    def record():
        last = Event.objects.filter(encounter=encounter).order_by("-seq").values_list("seq", flat=True)[0]
        recorded.append((last, live_facts(encounter)))

    record()
    services.remove_combatant(table.storyguide, encounter.pk, table.v, table.anselm.pk)
    record()
    services.correct(
        table.storyguide, encounter.pk, table.v, table.boris.pk, {"fatigue_level": "winded"}, "A long ride"
    )
    record()
    services.open_declarations(table.storyguide, encounter.pk, table.v)
    record()
    ids = table.ids()
    for round_number in range(1, 4):
        table.declare_p168()
        record()
        services.close_declarations(table.storyguide, encounter.pk, table.v)
        record()
        for phase in PHASES:
            if table.refresh().phase != phase:  # nobody acts in it: it passed by itself
                continue
            services.preview_phase(table.storyguide, encounter.pk, table.v, phase)
            record()
            options = None
            if phase == "melee" and round_number == 1:
                options = {"on_success": {f"{ids['boris']}:{ids['bandit1']}": "advantage_attack"}}
            services.confirm_phase(table.storyguide, encounter.pk, table.v, phase, options)
            record()
            if phase == "melee" and round_number == 3:  # taken back, then rolled and confirmed again
                services.undo_phase(table.storyguide, encounter.pk, table.v, "Wrong target")
                record()
                services.preview_phase(table.storyguide, encounter.pk, table.v, phase)
                record()
                services.confirm_phase(table.storyguide, encounter.pk, table.v, phase)
                record()
        if round_number == 2:
            services.correct(
                table.storyguide,
                encounter.pk,
                table.v,
                table.bandits[0].pk,
                {"body_level": "heavy_wounds", "advantage_defense": 2},
                "He fell on the rocks",
            )
            record()
            services.pass_time(table.storyguide, 5, encounter_id=encounter.pk, expected_version=table.v)
            record()
        services.end_round(table.storyguide, encounter.pk, table.v)
        record()
    services.record_exertion(
        table.storyguide,
        table.boris_character.pk,
        1,
        "a sprint",
        encounter_id=encounter.pk,
        expected_version=table.v,
    )
    record()
    services.end_encounter(table.storyguide, encounter.pk, table.v)
    record()
    return recorded


def test_the_replay_at_every_step_is_the_table_as_it_stood(table, seeded):
    recorded = play_a_fight(table)
    assert len(recorded) > 30
    changed = {facts["phase"] for _, facts in recorded}
    assert {"declaring", "melee", "round_over"} <= changed
    assert any(facts["order"] for _, facts in recorded) and any(facts["engagements"] for _, facts in recorded)
    assert any(f[2] or f[3] for _, facts in recorded for f in facts["fighters"].values())  # advantage
    for seq, facts in recorded:
        assert replayed(table.encounter, seq) == facts, f"step {seq}"


def test_every_step_of_the_replay_page_answers_and_highlights_its_event(table, seeded, client):
    play_a_fight(table)
    client.force_login(table.storyguide)
    seqs = list(Event.objects.filter(encounter=table.encounter).values_list("seq", flat=True))
    for seq in seqs:
        response = client.get(f"/encounters/{table.encounter.pk}/replay/", {"seq": seq})
        assert response.status_code == 200
        html = response.content.decode()
        assert f'data-seq="{seq}"' in html and 'data-testid="replay-current"' in html
        current = html.split('data-testid="replay-current"', 1)[1]
        assert f'data-testid="event-{seq}"' in current.split("</ol>", 1)[0]


def test_a_step_number_that_is_not_one_is_answered_where_the_user_is(table, client):
    client.force_login(table.storyguide)
    url = f"/encounters/{table.encounter.pk}/replay/"
    response = client.get(url, {"seq": "abc"})
    assert response.status_code == 200 and "is not a step number" in response.content.decode()
    response = client.get(url, {"seq": "999999"})
    assert "this is the latest" in response.content.decode()
    assert client.get(url, {"seq": "1"}).status_code == 200
    client.force_login(table.outsider)
    assert client.get(url).status_code == 404


def test_old_logs_without_starting_levels_replay_what_they_hold(table, seeded):
    """Events written before `levels` and `start` were kept: levels read "not in the log" until set."""
    play_a_fight(table)
    events = list(Event.objects.filter(encounter=table.encounter).order_by("seq"))
    for event in events:
        event.payload = {k: v for k, v in event.payload.items() if k not in ("levels", "start")}
    system = systems.of(table.saga)
    first = system.replay.state_at(events[:3])
    assert {f.fatigue_level for f in first.fighters.values()} == {None}
    context = system.replay.replay_context(first)
    assert {row["fatigue"] for row in context["rows"]} == {"not in the log"}
    last = system.replay.state_at(events).facts()
    assert last["status"] == "ended"


# --- players replay what the live frames showed them ----------------------------------------------


def replay_page(client, user, encounter, seq) -> str:
    client.force_login(user)
    response = client.get(f"/encounters/{encounter.pk}/replay/", {"seq": seq})
    assert response.status_code == 200
    return response.content.decode()


def test_a_players_replay_shows_each_step_as_the_live_frame_showed_it(table, seeded, client):
    """At the saga's default setting (an NPC's results only), each step of a player's replay is the line the
    players' live frame carried, and the acting order keeps the NPCs' Initiative Totals behind the screen."""
    assert table.saga.npc_rolls == NpcRolls.RESULTS
    play_a_fight(table)
    encounter = table.refresh()
    frames = {audience: pushed(encounter, audience) for audience in (PLAYERS, STORYGUIDE)}
    hidden = list(encounter.events.filter(storyguide_only=True).values_list("seq", flat=True))
    assert hidden
    undone = taken_back(systems.of(table.saga), list(encounter.events.order_by("seq")))
    assert undone  # round 3's first Melee
    for event in encounter.events.order_by("seq"):
        for audience, user in ((PLAYERS, table.alice), (STORYGUIDE, table.storyguide)):
            html = replay_page(client, user, encounter, event.seq)
            if event.storyguide_only and audience == PLAYERS:
                assert f'id="event-{event.seq}"' not in html  # the step before it, as the table saw it
                continue
            line = line_of(html, event.seq)
            if event.seq in undone:  # marked taken back, as a frame through the undo marks it (log_lines)
                assert 'class="undone-note"' in line and "Wrong target" in line
            assert line == line_of(frames[audience], event.seq), (audience, event.seq)
    movement = encounter.events.filter(kind="movement").order_by("seq").first()
    npcs = {str(b.pk) for b in table.bandits}
    storyguide_html = replay_page(client, table.storyguide, encounter, movement.seq)
    player_html = replay_page(client, table.alice, encounter, movement.seq)
    for row in movement.payload["initiative"]:
        testid = f'data-testid="replay-initiative-{row["combatant"]}"'
        assert testid in storyguide_html
        assert (testid in player_html) == (row["combatant"] not in npcs)


def test_at_everything_players_replay_the_npcs_initiative_too(table, seeded, client):
    table.saga.npc_rolls = NpcRolls.EVERYTHING
    table.saga.save()
    play_a_fight(table)
    movement = table.encounter.events.filter(kind="movement").order_by("seq").first()
    player_html = replay_page(client, table.alice, table.refresh(), movement.seq)
    for row in movement.payload["initiative"]:
        assert f'data-testid="replay-initiative-{row["combatant"]}"' in player_html


def test_a_rule_system_without_a_fold_replays_its_log_alone(client):
    """The coin duel (tests/coinduel) brings no replay members: its replay steps through the log, its
    charts have the timeline and no level track."""
    from tests.coinduel.test_coin_duel import HEADS, TAILS, Duel

    duel = Duel()
    duel.create()
    for faces in ((HEADS, TAILS), (TAILS, HEADS)):
        duel.flip(*faces)
    client.force_login(duel.player)
    response = client.get(f"/encounters/{duel.encounter.pk}/replay/", {"seq": 4})
    html = response.content.decode()
    assert response.status_code == 200 and 'data-testid="replay-current"' in html and 'data-seq="4"' in html
    assert 'data-testid="replay-table"' not in html
    charts = client.get(f"/encounters/{duel.encounter.pk}/charts/").content.decode()
    assert 'data-testid="chart-timeline"' in charts and "chart-fatigue" not in charts
