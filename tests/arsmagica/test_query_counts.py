"""The pages and pushed frames read a fixed number of rows, however many fight: guards beside the
control panel's (test_views.test_the_control_panel_does_not_query_in_a_loop)."""

import re
from unittest.mock import patch

import pytest
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arsmagica import services
from arsmagica.models import Declaration, Weapon
from campaign.models import Character
from combat.audience import AUDIENCES, STORYGUIDE
from combat.live import render_frame
from combat.models import Combatant

from .conftest import P168_FACES

pytestmark = pytest.mark.django_db


@pytest.fixture
def crowded(table, scripted_dice):
    """Mid-Melee of p168, then eight more bandits (rows added directly, as in test_views)."""
    scripted_dice(table, P168_FACES)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    table.declare_p168()
    services.close_declarations(table.storyguide, table.encounter.pk, table.v)
    services.preview_phase(table.storyguide, table.encounter.pk, table.v, "melee")  # First Missile passed
    for n in range(8):
        character = Character.objects.create(saga=table.saga, name=f"Extra {n}", is_npc=True)
        Weapon.objects.create(character=character, name="Club")
        Combatant.objects.create(encounter=table.encounter, character=character, side="Bandits", order=10 + n)
    return table


@pytest.fixture
def crowded_declaring(table):
    """Declarations open, eight more bandits in the fight (rows added directly, as above)."""
    for n in range(8):
        character = Character.objects.create(saga=table.saga, name=f"Extra {n}", is_npc=True)
        Weapon.objects.create(character=character, name="Club")
        Combatant.objects.create(encounter=table.encounter, character=character, side="Bandits", order=10 + n)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    return table


def test_frames_for_both_audiences_render_in_a_few_queries(crowded, django_assert_max_num_queries):
    encounter = crowded.refresh()
    events = list(encounter.events.order_by("seq"))
    for audience in AUDIENCES:
        with django_assert_max_num_queries(8):
            render_frame(encounter, events, audience, 1, events[-1].seq, replay=True)


@pytest.mark.parametrize("extras, forms", [(0, 3), (8, 0)])
def test_the_storyguide_frame_with_the_npc_declarations_renders_in_a_few_queries(
    table, django_assert_max_num_queries, extras, forms
):
    """While declarations are open the storyguide's frames carry the "Declare for NPCs" entries, in a few
    queries however many fight. Up to OPEN_AT_ONCE NPCs their entries come open with their forms; beyond,
    and for the players' characters, an entry is closed and its form is fetched when it is opened."""
    for n in range(extras):
        character = Character.objects.create(saga=table.saga, name=f"Extra {n}", is_npc=True)
        Weapon.objects.create(character=character, name="Club")
        Combatant.objects.create(encounter=table.encounter, character=character, side="Bandits", order=10 + n)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    with django_assert_max_num_queries(8):
        html = render_frame(encounter, events, STORYGUIDE, 1, events[-1].seq, replay=True)
    assert html.count('<details id="declare-') == 5 + extras
    assert html.count('data-testid="declare-form-') == forms
    assert html.count('data-testid="declare-loading-') == 5 + extras - forms
    assert html.count("data-open-loads") == 5 + extras - forms


@pytest.mark.parametrize(
    "persona, url_name, on",
    [
        ("alice", "arsmagica:play", "encounter"),
        ("alice", "arsmagica:my_declarations", "encounter"),
        ("storyguide", "arsmagica:my_declarations", "encounter"),
        ("alice", "saga_history", "saga"),
        ("storyguide", "saga_history_json", "saga"),
    ],
)
def test_pages_render_in_a_few_queries(client, crowded, django_assert_max_num_queries, persona, url_name, on):
    client.force_login(getattr(crowded, persona))
    target = crowded.encounter if on == "encounter" else crowded.saga
    with django_assert_max_num_queries(12):
        assert client.get(reverse(url_name, args=[target.pk])).status_code == 200


def test_a_push_reads_the_table_once_for_both_audiences(crowded, django_assert_max_num_queries):
    """Issue 11: the players' and the storyguide's frames of one push share one read of the table
    (combatants, weapons, declarations, Movement): a correction's whole push, both frames and the saga
    page's check included, stays within a few queries."""
    from combat.live import broadcast

    services.correct(
        crowded.storyguide, crowded.encounter.pk, crowded.v, crowded.boris.pk, {"advantage_attack": 2}, "Why"
    )
    last = crowded.refresh().events.order_by("-seq").first().seq
    with django_assert_max_num_queries(12) as captured:
        broadcast(crowded.encounter.pk, last, last)
    reads = [q["sql"] for q in captured.captured_queries]
    combatant_reads = [sql for sql in reads if sql.startswith('SELECT "combat_combatant"."id", ')]
    assert len(combatant_reads) == 1


@pytest.mark.django_db(transaction=True)
def test_a_command_the_saga_page_does_not_show_reads_nothing_for_it(crowded, django_assert_max_num_queries):
    """A correction of carried advantage changes nothing on the saga page: its push (run at commit, as in
    a request) does not even read the saga's members and characters. A correction of a level does (the
    saga page lists levels)."""

    def push_reads(changes) -> list[str]:
        with django_assert_max_num_queries(40) as captured:
            sg, boris = crowded.storyguide, crowded.boris.pk
            services.correct(sg, crowded.encounter.pk, crowded.v, boris, changes, "Why")
        return [q["sql"] for q in captured.captured_queries]

    assert not any('FROM "campaign_membership"' in sql for sql in push_reads({"advantage_attack": 4}))
    assert any('FROM "campaign_membership"' in sql for sql in push_reads({"body_level": "light_wounds"}))


def test_a_declaration_pushes_only_its_own_entry_of_the_npc_panel(table, django_assert_max_num_queries):
    """Issue 11: while declarations are open, a player's declaration does not push the storyguide's whole
    "Declare for NPCs" panel (a form per combatant) again: only that combatant's entry and the "every NPC"
    button, each swapped in by its id."""
    for n in range(8):
        character = Character.objects.create(saga=table.saga, name=f"Extra {n}", is_npc=True)
        Weapon.objects.create(character=character, name="Club")
        Combatant.objects.create(encounter=table.encounter, character=character, side="Bandits", order=10 + n)
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, boris)
    encounter = table.refresh()
    declared = list(encounter.events.order_by("-seq")[:1])
    with django_assert_max_num_queries(8):
        html = render_frame(encounter, declared, STORYGUIDE, declared[0].seq, declared[0].seq)
    assert 'id="my-declarations"' not in html
    assert html.count('<details id="declare-') == 1
    assert re.search(rf'<details id="declare-{table.boris.pk}"[^>]*hx-swap-oob="true"', html)
    assert f'data-testid="declared-mark-{table.boris.pk}"' in html
    assert 'id="npcs-as-before-slot" hx-swap-oob="true"' in html
    whole = render_frame(encounter, declared, STORYGUIDE, 1, declared[0].seq, replay=True)
    assert 'id="my-declarations"' in whole and whole.count('<details id="declare-') == 13


def test_a_correction_pushes_its_own_card_and_a_declaration_none(table):
    """Issue 11: a frame carries the combatant cards its events changed, each swapped in by its id, when
    they can say which: a correction its combatant's card; a declaration none (nor the acting order or the
    engagements, which neither changes). Who has declared comes with a declaration, not with a correction.
    Any other event, and a replay, push the panels whole."""
    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    services.declare(table.alice, table.encounter.pk, table.boris.pk, boris)
    services.correct(
        table.storyguide, table.encounter.pk, table.v, table.anselm.pk, {"advantage_attack": 3}, "Why"
    )
    encounter = table.refresh()
    events = list(encounter.events.order_by("seq"))
    declared, corrected = events[-2], events[-1]
    for audience in AUDIENCES:
        html = render_frame(encounter, [corrected], audience, corrected.seq, corrected.seq)
        assert html.count('<article id="combatant-') == 1
        assert re.search(rf'<article id="combatant-{table.anselm.pk}"[^>]*hx-swap-oob="true"', html)
        assert 'id="combatants"' not in html and 'id="acting-order"' not in html
        assert 'id="engagements"' not in html and 'id="declaration-status"' not in html
        html = render_frame(encounter, [declared], audience, declared.seq, declared.seq)
        assert '<article id="combatant-' not in html and 'id="acting-order"' not in html
        assert f'id="declared-{table.boris.pk}" data-testid="declared-{table.boris.pk}" class="done"' in html
        whole = render_frame(encounter, events, audience, 1, corrected.seq, replay=True)
        assert whole.count('<article id="combatant-') == 5 and 'id="acting-order"' in whole
        assert 'id="declaration-status"' in whole


@pytest.mark.django_db(transaction=True)
def test_a_command_reads_its_table_once_and_hands_it_to_the_push(crowded, django_assert_max_num_queries):
    """Issue 11: a correction reads the combatants (with their characters) and the round's declarations
    once, under its lock, and the corrected character's weapons alone, for its card (the only one its
    frames draw); its push renders both frames from those same rows as the command left them: the
    corrected advantage is in the frames though the push reads no combatant or declaration again, nor
    Movement (a frame of cards alone shows neither the acting order, the engagements nor the storyguide's
    open preview, which it leaves as it is)."""
    from combat.live import FRAME_TYPE

    sent = []

    def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent.append(message["html"])

    layer = get_channel_layer()
    with patch.object(layer, "group_send", side_effect=_async(group_send)):
        with django_assert_max_num_queries(12) as captured:
            sg, boris = crowded.storyguide, crowded.boris.pk
            services.correct(sg, crowded.encounter.pk, crowded.v, boris, {"advantage_attack": 7}, "Why")
    reads = [q["sql"] for q in captured.captured_queries]
    assert len([sql for sql in reads if sql.startswith('SELECT "combat_combatant"."id", ')]) == 1
    weapons = [sql for sql in reads if 'FROM "campaign_weapon"' in sql]
    assert len(weapons) == 1 and " IN (" not in weapons[0]
    assert len([sql for sql in reads if 'FROM "combat_declaration"' in sql]) == 1
    assert not [sql for sql in reads if 'FROM "combat_event"' in sql and "'movement'" in sql]
    assert len(sent) == 2
    assert all("Attack +7" in html for html in sent)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("declarer", ["alice", "storyguide"])
def test_a_declaration_reads_the_declarers_weapons_alone(crowded_declaring, declarer):
    """Issue 11: a declaration draws no card, so it reads no one's weapons but the declarer's (to check the
    weapon is on their sheet), and its push draws the storyguide's entry for an NPC from those same rows."""
    table, npc = crowded_declaring, crowded_declaring.bandits[0]
    who = table.boris if declarer == "alice" else npc
    values = {"action": "attack", "weapon_id": table.weapon(who), "engage": [table.anselm.pk]}
    with patch.object(get_channel_layer(), "group_send", side_effect=_async(lambda group, message: None)):
        with CaptureQueriesContext(connection) as captured:
            services.declare(getattr(table, declarer), table.encounter.pk, who.pk, values)
    weapons = [q["sql"] for q in captured.captured_queries if 'FROM "campaign_weapon"' in q["sql"]]
    assert len(weapons) == 1 and " IN (" not in weapons[0]


@pytest.mark.django_db(transaction=True)
def test_a_declaration_posted_from_its_form_reads_no_one_elses_weapons(client, crowded_declaring):
    """The view draws one form back (the declarer's), so neither it nor the service reads the other
    combatants' weapons."""
    table = crowded_declaring
    client.force_login(table.alice)
    url, data = table.boris_attack_form()
    with patch.object(get_channel_layer(), "group_send", side_effect=_async(lambda group, message: None)):
        with CaptureQueriesContext(connection) as captured:
            assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    weapons = [q["sql"] for q in captured.captured_queries if 'FROM "campaign_weapon"' in q["sql"]]
    assert weapons and all(" IN (" not in sql for sql in weapons)


def _async(function):
    async def call(*args, **kwargs):
        return function(*args, **kwargs)

    return call


@pytest.mark.django_db(transaction=True)
def test_a_push_renders_the_declarations_as_the_command_left_them(table, django_assert_max_num_queries):
    """Issue 11: a command hands the round's declarations it read to the push: a declaration's frames show
    it declared without reading the declarations again, and a correction's card-only frames read neither
    the declarations nor Movement (which they do not show)."""
    from combat.live import FRAME_TYPE

    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    sent = []

    def group_send(group, message):
        if message["type"] == FRAME_TYPE:
            sent.append(message["html"])

    boris = {"action": "attack", "weapon_id": table.weapon(table.boris), "engage": [table.bandits[0].pk]}
    with patch.object(get_channel_layer(), "group_send", side_effect=_async(group_send)):
        with django_assert_max_num_queries(30) as declaring:
            services.declare(table.alice, table.encounter.pk, table.boris.pk, boris)
        with django_assert_max_num_queries(30) as correcting:
            services.correct(
                table.storyguide, table.encounter.pk, table.v, table.anselm.pk, {"advantage_attack": 3}, "Why"
            )
    for captured in (declaring, correcting):
        reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
        this_round = '"combat_declaration"."round_number" = 1'
        assert len([sql for sql in reads if 'FROM "combat_declaration"' in sql and this_round in sql]) == 1
        assert not [sql for sql in reads if "'movement'" in sql]
    declared_frames, corrected_frames = sent[:2], sent[2:]
    done = f'id="declared-{table.boris.pk}" data-testid="declared-{table.boris.pk}" class="done"'
    assert all(done in html for html in declared_frames)
    assert len(corrected_frames) == 2 and all("Attack +3" in html for html in corrected_frames)


def _element(html: str, tag: str, element_id: str) -> str:
    """The element `<tag id="element_id" …>` to its matching closing tag, without its out-of-band mark (a
    pushed frame swaps a part in by its id; a whole one carries it inside its panel)."""
    start = html.find(f'<{tag} id="{element_id}"')
    assert start >= 0, f"{element_id} is not there"
    depth = 0
    for found in re.finditer(rf"<{tag}\b|</{tag}>", html[start:]):
        depth += 1 if found.group(0) != f"</{tag}>" else -1
        if depth == 0:
            return html[start : start + found.end()].replace(' hx-swap-oob="true"', "")
    raise AssertionError(f"{element_id} is not closed")


@pytest.mark.parametrize(
    "who, changes",
    [
        ("bandit", {"body_level": "incapacitated"}),
        ("bandit", {"body_level": "dead"}),
        ("boris", {"fatigue_level": "unconscious"}),
    ],
)
def test_a_correction_that_withdraws_a_declaration_pushes_who_has_declared(
    table, who, changes, django_capture_on_commit_callbacks
):
    """A correction while declarations are open that leaves a combatant who has declared unable to act
    withdraws the declaration (ArM3 p177); its push shows it gone, as the page would after a reload: who
    has declared, who cannot act and the count of those who can for both audiences, and for the storyguide
    the close button's count and the combatant's entry of "Declare for NPCs" (no longer declared), each as a
    fresh read renders them."""
    from combat.live import replay_frame

    services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    corrected, target, declarer = table.bandits[0], table.boris, table.storyguide
    if who == "boris":  # a player's character: the storyguide's entry of it is closed
        corrected, target, declarer = table.boris, table.bandits[0], table.alice
    values = {"action": "attack", "weapon_id": table.weapon(corrected), "engage": [target.pk]}
    services.declare(declarer, table.encounter.pk, corrected.pk, values)
    sent = {}

    def group_send(group, message):
        if message["type"] == "encounter.frame":
            sent[group] = message["html"]

    with patch.object(get_channel_layer(), "group_send", side_effect=_async(group_send)):
        with django_capture_on_commit_callbacks(execute=True):
            services.correct(table.storyguide, table.encounter.pk, table.v, corrected.pk, changes, "Clubbed")
    assert not Declaration.objects.filter(encounter=table.encounter).exists()
    for audience in AUDIENCES:
        pushed = sent[f"encounter-{table.encounter.pk}-{audience}"]
        fresh = replay_frame(table.encounter.pk, audience, 0)[0]
        status = _element(pushed, "section", "declaration-status")
        assert status == _element(fresh, "section", "declaration-status")
        assert 'data-testid="declared-count">0 / 4<' in status  # the round does not wait for the one down
        assert f'id="declared-{corrected.pk}" data-testid="declared-{corrected.pk}" class="unable"' in status
        if audience == STORYGUIDE:
            assert _element(pushed, "section", "sg-controls") == _element(fresh, "section", "sg-controls")
            entry = _element(pushed, "details", f"declare-{corrected.pk}")
            assert entry == _element(fresh, "details", f"declare-{corrected.pk}")
            assert f'data-testid="declared-mark-{corrected.pk}"' not in entry
            npcs_as_before = _element(pushed, "div", "npcs-as-before-slot")
            assert npcs_as_before == _element(fresh, "div", "npcs-as-before-slot")


@pytest.mark.parametrize("opened", [False, True], ids=["declarations closed", "declarations open"])
def test_a_correction_of_levels_pushes_only_what_the_storyguides_page_has(table, opened):
    """A correction of a level pushes the storyguide's entry of "Declare for NPCs" and the "every NPC" button
    only while the panel shows them: with declarations closed the panel says so instead, and htmx logged a
    missing target (#npcs-as-before-slot, #declare-N) for each. Every element a frame swaps in by its id is
    on the page, as a fresh read renders it."""
    from combat.live import replay_frame

    if opened:
        services.open_declarations(table.storyguide, table.encounter.pk, table.v)
    changes = {"body_level": "light_wounds"}
    services.correct(table.storyguide, table.encounter.pk, table.v, table.bandits[0].pk, changes, "Clubbed")
    encounter = table.refresh()
    corrected = encounter.events.order_by("-seq").first()
    pushed = render_frame(encounter, [corrected], STORYGUIDE, corrected.seq, corrected.seq)
    fresh = replay_frame(encounter.pk, STORYGUIDE, 0)[0]
    targets = re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="true"', pushed)
    assert f"combatant-{table.bandits[0].pk}" in targets
    assert ("npcs-as-before-slot" in targets) is opened
    assert [target for target in targets if f'id="{target}"' not in fresh] == []
