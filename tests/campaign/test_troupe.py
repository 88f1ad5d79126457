"""A saga's troupe (issue 38, item 1): its lead makes members its storyguides and passes the lead on; no one
else does. A saga of one storyguide is the troupe of one: its creator, its lead."""

import html as html_module
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from campaign import access, services
from campaign.access import is_a_storyguide, is_lead, require_lead
from campaign.models import Character, Membership, ResetLink, fighter_label, storyguide_ids
from campaign.sent_once import fresh_key
from combat.audience import PLAYERS, STORYGUIDE
from combat.models import Encounter, Event, SagaRecord
from combat.saga_live import current_frame, place_of
from combat.services.setup import create_encounter
from tests.campaign.conftest import character_form
from tests.coinduel import KEY
from tests.personas import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def saga(storyguide, player, second_player):
    saga = services.create_saga(storyguide, name="Troupe", rule_system=KEY)
    for user in (player, second_player):
        Membership.objects.create(saga=saga, user=user, role=Membership.Role.PLAYER)
    return saga


def test_the_creator_is_the_troupe_of_one(saga, storyguide, player, stranger):
    assert is_lead(storyguide, saga) and is_a_storyguide(storyguide, saga)
    assert not hasattr(access, "is_storyguide") and not hasattr(access, "require_storyguide")  # asked by name
    for other in (player, stranger):
        assert not is_lead(other, saga) and not is_a_storyguide(other, saga)


def test_the_lead_makes_a_member_one_of_the_storyguides(saga, storyguide, player):
    services.make_storyguide(saga, player, by=storyguide)
    assert is_a_storyguide(player, saga) and not is_lead(player, saga)
    with pytest.raises(services.Refused, match="already"):
        services.make_storyguide(saga, player, by=storyguide)


def test_only_the_lead_chooses_the_storyguides_and_only_among_members(
    saga, storyguide, player, second_player, stranger
):
    services.make_storyguide(saga, player, by=storyguide)
    with pytest.raises(services.Refused, match="lead"):
        services.make_storyguide(saga, second_player, by=player)  # a storyguide, not the lead
    with pytest.raises(services.Refused, match="invite them first"):
        services.make_storyguide(saga, stranger, by=storyguide)
    assert not is_a_storyguide(second_player, saga) and not is_a_storyguide(stranger, saga)


def test_the_lead_passes_it_to_another_storyguide_and_stays_one(saga, storyguide, player, second_player):
    with pytest.raises(services.Refused, match="make them one first"):
        services.pass_lead(saga, player, by=storyguide)
    services.make_storyguide(saga, player, by=storyguide)
    with pytest.raises(services.Refused, match="lead"):
        services.pass_lead(saga, player, by=player)
    services.pass_lead(saga, player, by=storyguide)
    saga.refresh_from_db()
    assert is_lead(player, saga) and not is_lead(storyguide, saga) and is_a_storyguide(storyguide, saga)
    with pytest.raises(services.Refused, match="lead"):  # the one before chooses no more
        services.make_storyguide(saga, second_player, by=storyguide)
    services.make_storyguide(saga, second_player, by=player)
    with pytest.raises(services.Refused, match="yours already"):
        services.pass_lead(saga, player, by=player)


def test_only_the_lead_may_open_what_is_the_leads(saga, storyguide, player):
    """`require_lead`: 403 for another storyguide, the saga itself for the lead."""
    services.make_storyguide(saga, player, by=storyguide)
    assert require_lead(storyguide, saga.pk) == saga
    with pytest.raises(PermissionDenied):
        require_lead(player, saga.pk)


def records(saga) -> list[tuple[str, dict]]:
    """The saga's records, oldest first: (kind, payload)."""
    return [(r.kind, r.payload) for r in SagaRecord.objects.filter(saga=saga).order_by("pk")]


def test_each_change_of_the_troupe_is_recorded_for_the_members(saga, storyguide, player):
    services.make_storyguide(saga, player, by=storyguide)
    services.pass_lead(saga, player, by=storyguide)
    services.remove_storyguide(saga, storyguide, by=player)
    assert records(saga) == [
        ("storyguide_made", {"by": "sg", "storyguide": "alice"}),
        ("lead_passed", {"was": "sg", "to": "alice"}),
        ("storyguide_removed", {"by": "alice", "storyguide": "sg", "seats": []}),
    ]
    saga.refresh_from_db()
    assert not is_a_storyguide(storyguide, saga)
    assert Membership.objects.get(saga=saga, user=storyguide).role == Membership.Role.PLAYER


def test_only_the_lead_makes_a_storyguide_a_player_again_and_never_themselves(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    before = records(saga)
    with pytest.raises(services.Refused, match="lead storyguide can choose"):
        services.remove_storyguide(saga, storyguide, by=player)
    with pytest.raises(services.Refused, match="pass the lead to another storyguide first"):
        services.remove_storyguide(saga, storyguide, by=storyguide)
    with pytest.raises(services.Refused, match="bob is not one of the saga's storyguides"):
        services.remove_storyguide(saga, second_player, by=storyguide)
    assert records(saga) == before and is_a_storyguide(player, saga)


def test_the_seats_a_removed_storyguide_held_pass_to_the_lead_logged_an_ended_ones_too(
    saga, storyguide, player
):
    services.make_storyguide(saga, player, by=storyguide)
    running, ended, leads = (
        create_encounter(user, saga.pk, name, KEY)
        for user, name in ((player, "Ambush"), (player, "The ford"), (storyguide, "The lead's"))
    )
    Encounter.objects.filter(pk=ended.pk).update(status=Encounter.Status.ENDED)
    services.remove_storyguide(saga, player, by=storyguide)
    held = dict(Encounter.objects.values_list("name", "seat_holder__username"))
    assert held == {"Ambush": "sg", "The ford": "sg", "The lead's": "sg"}
    handed = Event.objects.get(encounter=running, kind="seat_handed_over")
    assert handed.payload == {"by": "sg", "was": "alice", "to": "sg", "reason": "alice is a player again"}
    assert handed.actor == storyguide
    after_the_end = Event.objects.get(encounter=ended, kind="seat_handed_over")
    assert after_the_end.payload == handed.payload
    removed = {"by": "sg", "storyguide": "alice", "seats": ["Ambush", "The ford"]}
    assert records(saga)[-1] == ("storyguide_removed", removed)
    assert not Event.objects.filter(encounter=leads, kind="seat_handed_over").exists()


# --- the saga page: the troupe listed, and the lead's forms -------------------------------------------------

KEY_FIELD = re.compile(r'name="command_key" value="(\w+)"')


def error_beside(html: str, field_id: str) -> str:
    """The error shown under a control (the `_field.html` slot named for its id)."""
    found = re.search(rf'<div id="{field_id}_error">(.*?)</div>', html, re.S)
    assert found, f"no error beside {field_id}"
    return html_module.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def post(client, saga, change: str, member, key: str | None = None):
    """The lead's form for `change` (make, lead, player) sent with `member` chosen, and its one-time key."""
    data = {f"{change}-member": str(member.pk) if member is not None else ""}
    if key:
        data["command_key"] = key
    return client.post(reverse("saga_troupe", args=[saga.pk, change]), data)


def test_the_saga_page_lists_the_storyguides_the_lead_marked_and_who_runs_each_encounter(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    ambush = create_encounter(player, saga.pk, "Ambush", KEY)
    page = client_for(second_player).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    troupe = re.search(r'<section id="troupe".*?</section>', page, re.S).group(0)
    lead_marked = r'data-testid="storyguide-sg">sg\s*<span class="tag" data-testid="lead-mark">lead'
    assert re.search(lead_marked, troupe)
    assert re.search(r'data-testid="storyguide-alice">alice\s*<span class="muted">runs Ambush', troupe)
    assert f'data-testid="seat-{ambush.pk}">· run by alice' in page
    assert "sg makes <b>alice</b> one of the saga’s storyguides." in troupe
    assert 'data-testid="troupe-changes"' not in page  # the lead's forms are the lead's
    assert 'data-testid="new-encounter-form"' not in page  # a player starts no encounter
    mine = client_for(player).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert "you are one of its storyguides" in mine and 'data-testid="new-encounter-form"' in mine


def test_the_lead_makes_passes_and_removes_from_the_page_each_once(saga, storyguide, player):
    lead = client_for(storyguide)
    page = lead.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="troupe-changes"' in page and "you are the storyguide" in page
    key = KEY_FIELD.search(page[page.index('data-testid="make-storyguide-form"'):]).group(1)
    for _ in range(2):  # a double submit: applied once, the second answered with where the first led
        response = post(lead, saga, "make", player, key)
        assert response.status_code == 302 and response.url == reverse("saga_detail", args=[saga.pk])
    assert [kind for kind, _ in records(saga)] == ["storyguide_made"]
    assert is_a_storyguide(player, saga)
    assert post(lead, saga, "lead", player).status_code == 302
    saga.refresh_from_db()
    assert is_lead(player, saga)
    assert post(client_for(player), saga, "player", storyguide).status_code == 302
    assert not Membership.objects.filter(saga=saga, user=storyguide, role="storyguide").exists()


def test_a_refused_change_is_said_beside_its_choice_and_changes_nothing(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    before = records(saga)
    refused = [
        (client_for(player), "make", second_player, "Only the saga's lead storyguide can choose"),
        (client_for(storyguide), "make", player, "alice is one of the saga's storyguides already."),
        (client_for(storyguide), "player", storyguide, "The lead stays a storyguide: pass the lead"),
        (client_for(storyguide), "lead", second_player, "bob is not one of the saga's storyguides"),
        (client_for(storyguide), "player", None, "Choose a member of the saga."),
    ]
    for client, change, member, said in refused:
        response = post(client, saga, change, member)
        assert response.status_code == 200
        assert error_beside(response.content.decode(), f"id_{change}-member").startswith(said)
    assert records(saga) == before
    assert client_for(storyguide).post(reverse("saga_troupe", args=[saga.pk, "crown"])).status_code == 404


def test_a_player_reads_each_change_of_the_troupe_in_the_sagas_history(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    services.pass_lead(saga, player, by=storyguide)
    services.remove_storyguide(saga, storyguide, by=player)
    history = client_for(second_player).get(reverse("saga_history", args=[saga.pk]))
    said = html_module.unescape(re.sub(r"<[^>]+>", "", history.content.decode()))
    for line in (
        "sg makes alice one of the saga’s storyguides.",
        "sg passes the saga’s lead to alice.",
        "alice makes sg a player again.",
    ):
        assert line in said


# --- what each storyguide prepares, what stays the lead's, and an encounter's housekeeping ------------------


def test_a_storyguide_who_is_not_the_lead_makes_and_edits_an_npc_and_stamps_copies(saga, storyguide, player):
    services.make_storyguide(saga, player, by=storyguide)
    alice = client_for(player)
    page = alice.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="saga-npcs"' in page and reverse("npc_create", args=[saga.pk]) in page
    made = alice.post(reverse("npc_create", args=[saga.pk]), character_form("Wolf"))
    assert made.status_code == 302
    wolf = Character.objects.get(saga=saga, name="Wolf", is_npc=True)
    edited = alice.post(reverse("character_edit", args=[wolf.pk]), character_form("Wolf", notes="Grey"))
    assert edited.status_code == 302
    renamed = alice.post(reverse("character_rename", args=[wolf.pk]), {"name": "Old wolf"})
    assert renamed.status_code == 302
    sheet = alice.get(reverse("character_detail", args=[wolf.pk])).content.decode()
    assert "Grey" in sheet and 'data-testid="manage-character"' in sheet and 'id="stamp"' in sheet
    stamped = alice.post(reverse("npc_stamp", args=[wolf.pk]), {"count": "2", "base_name": "Wolf"})
    assert stamped.status_code == 302
    assert Character.objects.filter(saga=saga, stamped_from=wolf).count() == 2
    page = alice.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="npc-templates"' in page and "Old wolf" in page


def test_a_storyguide_who_is_not_the_lead_makes_a_character_for_a_player_and_gives_one(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    alice = client_for(player)
    data = {**character_form("Ada"), "played-player": str(second_player.pk)}
    assert alice.post(reverse("character_create", args=[saga.pk]), data).status_code == 302
    ada = Character.objects.get(saga=saga, name="Ada")
    assert ada.owner == second_player and not ada.is_npc
    cado = Character.objects.create(saga=saga, owner=player, name="Cado")
    sheet = alice.get(reverse("character_detail", args=[cado.pk])).content.decode()
    assert 'data-testid="hand-over"' in sheet
    assert "alice (storyguide)" in sheet and "sg (lead storyguide)" in sheet
    to_bob = {"played-player": str(second_player.pk)}
    given = alice.post(reverse("character_hand_over", args=[cado.pk]), to_bob)
    assert given.status_code == 302
    cado.refresh_from_db()
    assert cado.owner == second_player
    # A player still gives no character, and reads no one else's full sheet.
    bob = client_for(second_player)
    waiting = {"played-player": "waiting"}
    assert bob.post(reverse("character_hand_over", args=[ada.pk]), waiting).status_code == 403
    assert bob.post(reverse("npc_create", args=[saga.pk]), character_form("Grog")).status_code == 403


def test_a_storyguides_own_character_reads_played_by_a_storyguide_and_my_sagas_says_their_place(
    saga, storyguide, player
):
    services.make_storyguide(saga, player, by=storyguide)
    cado = Character.objects.create(saga=saga, owner=player, name="Cado")
    assert fighter_label(cado, storyguide_ids(saga)) == "Cado, played by alice (storyguide)"
    mine = client_for(player).get(reverse("saga_list")).content.decode()
    guided = mine[mine.index("As storyguide"):mine.index("As player")]
    assert saga.name in guided and "you are one of its storyguides" in guided
    leads = client_for(storyguide).get(reverse("saga_list")).content.decode()
    assert "you lead it" in leads[leads.index("As storyguide"):leads.index("As player")]


def test_only_the_lead_renames_deletes_archives_and_restores_the_saga_and_keeps_its_settings(
    saga, storyguide, player
):
    services.make_storyguide(saga, player, by=storyguide)
    alice = client_for(player)
    page = alice.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    leads = ('data-testid="manage-saga"', 'id="invite"', 'id="npc-rolls"', 'data-testid="saga-duplicate"')
    assert not [mark for mark in leads if mark in page]
    assert alice.get(reverse("saga_manage", args=[saga.pk])).status_code == 403
    refused = [
        ("saga_rename", {"name": "Mine now"}),
        ("saga_delete", {"typed_name": saga.name}),
        ("saga_restore", {}),
        ("invite_regenerate", {}),
        ("saga_npc_rolls", {"npc_rolls": "results"}),
    ]
    for name, data in refused:
        assert alice.post(reverse(name, args=[saga.pk]), data).status_code == 403, name
    saga.refresh_from_db()
    assert saga.name == "Troupe" and saga.archived_at is None
    lead = client_for(storyguide)
    assert lead.post(reverse("saga_rename", args=[saga.pk]), {"name": "The troupe"}).status_code == 302
    saga.refresh_from_db()
    assert saga.name == "The troupe"


def test_a_storyguide_renames_and_deletes_an_encounter_whose_seat_they_hold_but_not_anothers(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    theirs = create_encounter(player, saga.pk, "Ambush", KEY)
    leads = create_encounter(storyguide, saga.pk, "The ford", KEY)
    alice = client_for(player)
    assert alice.get(reverse("encounter_manage", args=[theirs.pk])).status_code == 200
    assert alice.post(reverse("encounter_rename", args=[theirs.pk]), {"name": "At dusk"}).status_code == 302
    assert Encounter.objects.get(pk=theirs.pk).name == "At dusk"
    told = alice.get(reverse("encounter_manage", args=[leads.pk]))  # the link every storyguide's frame has
    said = html_module.unescape(told.content.decode())
    assert told.status_code == 200 and 'data-testid="manage-refused"' in said
    assert "sg holds this encounter's seat: only they or the saga's lead can do that." in said
    assert 'data-testid="rename-form"' not in said and 'data-testid="delete-form"' not in said
    assert client_for(second_player).get(reverse("encounter_manage", args=[leads.pk])).status_code == 403
    assert alice.post(reverse("encounter_rename", args=[leads.pk]), {"name": "Mine"}).status_code == 403
    assert alice.post(reverse("encounter_delete", args=[leads.pk]), {"confirm": "on"}).status_code == 403
    assert Encounter.objects.get(pk=leads.pk).name == "The ford"
    assert alice.post(reverse("encounter_delete", args=[theirs.pk]), {"confirm": "on"}).status_code == 302
    assert not Encounter.objects.filter(pk=theirs.pk).exists()
    # The lead tidies any encounter of the saga, whoever holds its seat.
    another = create_encounter(player, saga.pk, "Night watch", KEY)
    lead = client_for(storyguide)
    renamed = lead.post(reverse("encounter_rename", args=[another.pk]), {"name": "Dawn watch"})
    assert renamed.status_code == 302
    assert lead.post(reverse("encounter_delete", args=[another.pk]), {"confirm": "on"}).status_code == 302
    assert not Encounter.objects.filter(pk=another.pk).exists()


def test_every_storyguide_is_the_saga_pages_storyguides_audience_and_the_lead_has_a_place_of_their_own(
    saga, storyguide, player, second_player
):
    services.make_storyguide(saga, player, by=storyguide)
    places = {u.get_username(): place_of(u, saga.pk)[:2] for u in (storyguide, player, second_player)}
    assert places == {
        "sg": (STORYGUIDE, "lead"), "alice": (STORYGUIDE, "storyguide"), "bob": (PLAYERS, "player")
    }
    Character.objects.create(saga=saga, name="Wolf", is_npc=True)
    assert "Wolf" in current_frame(saga.pk, STORYGUIDE) and "Wolf" not in current_frame(saga.pk, PLAYERS)


def test_a_storyguide_who_is_not_the_lead_makes_a_players_password_link_but_never_a_storyguides(
    saga, storyguide, player, second_player, stranger
):
    services.make_storyguide(saga, player, by=storyguide)
    alice = client_for(player)
    page = alice.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="reset-link-bob"' in page
    made = alice.post(reverse("reset_link", args=[saga.pk, second_player.pk]), {"command_key": fresh_key()})
    assert made.status_code == 302 and ResetLink.objects.filter(user=second_player, made_by=player).exists()
    assert alice.get(reverse("reset_link", args=[saga.pk, storyguide.pk])).status_code == 404  # the lead
    # Bob, a storyguide (not the lead) of another saga, is refused: a link would hand over that place too.
    other = services.create_saga(stranger, name="Elsewhere", rule_system=KEY)
    Membership.objects.create(saga=other, user=second_player, role=Membership.Role.PLAYER)
    services.make_storyguide(other, second_player, by=stranger)
    refused = alice.post(made.url, {"command_key": fresh_key()})
    assert refused.status_code == 422 and "bob is a storyguide of another saga" in refused.content.decode()
    assert ResetLink.objects.filter(user=second_player).count() == 1


def test_every_storyguide_lists_the_archived_encounters_and_tidies_only_those_whose_seat_they_hold(
    saga, storyguide, player
):
    services.make_storyguide(saga, player, by=storyguide)
    theirs = create_encounter(player, saga.pk, "Ambush", KEY)
    leads = create_encounter(storyguide, saga.pk, "The ford", KEY)
    Encounter.objects.filter(pk__in=[theirs.pk, leads.pk]).update(archived_at=timezone.now())
    page = client_for(player).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert f'data-testid="archived-encounter-{leads.pk}"' in page
    assert f'data-testid="restore-encounter-{theirs.pk}"' in page
    assert f'data-testid="restore-encounter-{leads.pk}"' not in page
    assert client_for(player).post(reverse("encounter_restore", args=[leads.pk])).status_code == 403
    assert client_for(player).post(reverse("encounter_restore", args=[theirs.pk])).status_code == 302
    page = client_for(storyguide).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert f'data-testid="restore-encounter-{leads.pk}"' in page
    assert Encounter.objects.get(pk=leads.pk).archived_at is not None
