"""The storyguide gives characters to players (issue 35, item 4): a character made for a player who will join,
taken up from the invite or the saga page once, handed over and taken back by the storyguide alone, logged in
the saga's records and in each open encounter the character fights in; the saga page says who plays whom and
the add-to-fight lists name each character's player. (Privacy across a hand-over:
tests/archive/test_hand_over_privacy.py; the invite on a phone: tests/browser/test_invite_character.py.)"""

import html as html_module
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign import services
from campaign.models import Character, Membership
from combat import services as combat
from combat.models import Event, SagaRecord
from tests.concurrency import run_together

from .conftest import client_for, make_user
from .test_characters import arsmagica_data

pytestmark = pytest.mark.django_db

KEY = re.compile(r'name="command_key" value="(\w+)"')


@pytest.fixture
def ada(saga):
    """A player character the storyguide made for a player who will join."""
    return Character.objects.create(saga=saga, name="Ada", owner=None)


def error_beside(html: str, field_id: str) -> str:
    """The error shown under a control (the `_field.html` slot named for its id)."""
    found = re.search(rf'<div id="{field_id}_error">(.*?)</div>', html, re.S)
    assert found, f"no error beside {field_id}"
    return html_module.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


# --- services ----------------------------------------------------------------------------------------


def test_the_storyguide_hands_a_character_over_and_takes_it_back(saga, alice, bob, carol, boris):
    services.hand_over(boris, carol, by=alice)
    assert Character.objects.get(pk=boris.pk).owner == carol
    services.hand_over(boris, alice, by=alice)  # taken back by the storyguide
    assert Character.objects.get(pk=boris.pk).owner == alice
    services.hand_over(boris, None, by=alice)  # left for a player who will join
    assert Character.objects.get(pk=boris.pk).owner is None
    records = SagaRecord.objects.filter(saga=saga, kind="handed_over").order_by("id")
    assert [(r.payload["was"], r.payload["player"]) for r in records] == [
        ("bob", "carol"),
        ("carol", "alice"),
        ("alice", ""),
    ]
    assert all(r.actor == alice and r.payload["character"] == boris.pk for r in records)


@pytest.mark.parametrize("sender", ["bob", "carol", "dave"])
def test_only_the_storyguide_hands_over(saga, boris, sender, request):
    user = request.getfixturevalue(sender)
    with pytest.raises(services.Refused, match="Only the storyguide"):
        services.hand_over(boris, user, by=user)
    assert Character.objects.get(pk=boris.pk).owner.username == "bob"
    assert not SagaRecord.objects.exists()


def test_a_hand_over_goes_only_to_a_member_and_never_makes_an_npc_a_players(saga, alice, boris, dave):
    with pytest.raises(services.Refused, match="dave is not in this saga"):
        services.hand_over(boris, dave, by=alice)
    bandit = Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    with pytest.raises(services.Refused, match="is an NPC"):
        services.hand_over(bandit, dave, by=alice)
    with pytest.raises(services.Refused, match="played by bob already"):
        services.hand_over(boris, boris.owner, by=alice)
    assert not SagaRecord.objects.exists()


def test_a_player_takes_up_a_waiting_character_once(saga, ada, bob, carol):
    services.claim_character(carol, ada.pk)
    assert Character.objects.get(pk=ada.pk).owner == carol
    with pytest.raises(services.Refused, match="carol has just taken Ada: choose another, or make your own"):
        services.claim_character(bob, ada.pk)
    with pytest.raises(services.Refused, match="You play Ada already"):
        services.claim_character(carol, ada.pk)
    assert SagaRecord.objects.filter(kind="handed_over").count() == 1


def test_a_stranger_or_the_storyguide_does_not_take_up_a_character(saga, ada, alice, dave, boris):
    with pytest.raises(services.Refused, match="Join the saga first"):
        services.claim_character(dave, ada.pk)
    with pytest.raises(services.Refused, match="You are the storyguide"):
        services.claim_character(alice, ada.pk)
    with pytest.raises(services.Refused, match="no longer in the saga"):
        services.claim_character(dave, 999_999)
    assert Character.objects.get(pk=ada.pk).owner is None


@pytest.mark.django_db(transaction=True)
def test_of_players_taking_up_one_character_at_once_one_gets_it_and_the_others_are_told():
    storyguide = make_user("sg")
    saga = services.create_saga(storyguide, name="Race", rule_system="arsmagica")
    ada = Character.objects.create(saga=saga, name="Ada")
    players = [make_user(f"p{index}") for index in range(6)]
    for player in players:
        Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)

    def take(index):
        return services.claim_character(players[index], ada.pk).owner.username

    answers = run_together(take, len(players))
    won = [answer for answer in answers if isinstance(answer, str)]
    assert len(won) == 1, answers
    told = [answer for answer in answers if isinstance(answer, services.Refused)]
    assert len(told) == len(players) - 1
    said = f"{won[0]} has just taken Ada: choose another, or make your own."
    assert all(str(answer) == said for answer in told)
    assert Character.objects.get(pk=ada.pk).owner.username == won[0]
    assert SagaRecord.objects.filter(kind="handed_over").count() == 1


def test_a_hand_over_is_logged_in_each_open_encounter_the_character_fights_in(saga, alice, boris, carol):
    fight = combat.create_encounter(alice, saga.pk, "Forest road", "arsmagica")
    combat.add_combatants(alice, fight.pk, fight.version, [boris.pk], "Players")
    done = combat.create_encounter(alice, saga.pk, "Earlier", "arsmagica")
    combat.add_combatants(alice, done.pk, done.version, [boris.pk], "Players")
    done.refresh_from_db()
    combat.end_encounter(alice, done.pk, done.version)
    added = Event.objects.get(encounter=fight, kind="combatant_added")
    assert added.payload["player"] == "bob"  # who played him as he joined
    services.hand_over(boris, carol, by=alice)
    logged = Event.objects.get(encounter=fight, kind="handed_over")
    assert logged.payload == {
        "character": boris.pk,
        "combatant": added.payload["combatant"],
        "name": "Sir Boris",
        "player": "carol",
        "was": "bob",
    }
    assert logged.actor == alice
    assert not Event.objects.filter(encounter=done, kind="handed_over").exists()  # its record stays as it was
    client = client_for(alice)
    history = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
    assert "Sir Boris</b> is now played by <b>carol</b> (was bob’s)." in history


def test_a_hand_over_alone_is_no_history_to_keep(saga, alice, carol, ada):
    services.claim_character(carol, ada.pk)
    assert not services.saga_has_history(saga)
    assert not services.character_in_history(Character.objects.get(pk=ada.pk))
    services.delete_character(ada)


# --- pages --------------------------------------------------------------------------------------------


def test_the_storyguide_makes_a_character_for_a_player_who_will_join(saga, alice):
    client = client_for(alice)
    url = reverse("character_create", args=[saga.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="played-by"' in page
    assert 'value="waiting" checked' in page or re.search(r'value="waiting"[^>]*selected', page)
    data = {**arsmagica_data("Ada"), "played-player": "waiting"}
    answer = client.post(url, data)
    assert answer.status_code == 302
    assert Character.objects.get(name="Ada").owner is None
    bad = client.post(url, {**data, "name": "Cado", "played-player": "nobody"})
    assert bad.status_code == 200
    assert error_beside(bad.content.decode(), "id_played-player") == (
        "Choose one of the saga's members, or a player who will join."
    )
    assert not Character.objects.filter(name="Cado").exists()


def test_a_player_makes_their_own_character_with_no_choice_of_player(saga, bob):
    page = client_for(bob).get(reverse("character_create", args=[saga.pk])).content.decode()
    assert 'data-testid="played-by"' not in page


def test_the_hand_over_form_shows_its_refusal_beside_its_control(saga, alice, bob, boris):
    client = client_for(alice)
    page = client.get(reverse("character_detail", args=[boris.pk])).content.decode()
    assert 'data-testid="hand-over"' in page
    url = reverse("character_hand_over", args=[boris.pk])
    same = client.post(url, {"played-player": str(bob.pk)})
    assert same.status_code == 200
    assert error_beside(same.content.decode(), "id_played-player") == "Sir Boris is played by bob already."
    unknown = client.post(url, {"played-player": "12345"})
    assert unknown.status_code == 200
    assert "Choose one of the saga's members" in error_beside(unknown.content.decode(), "id_played-player")
    moved = client.post(url, {"played-player": "waiting"}, follow=True)
    assert "Sir Boris, waiting for a player." in moved.content.decode()
    assert Character.objects.get(pk=boris.pk).owner is None


def test_a_player_is_not_offered_the_hand_over_and_cannot_post_it(saga, bob, carol, boris):
    client = client_for(bob)
    page = client.get(reverse("character_detail", args=[boris.pk])).content.decode()
    assert 'data-testid="hand-over"' not in page
    answer = client.post(reverse("character_hand_over", args=[boris.pk]), {"played-player": str(carol.pk)})
    assert answer.status_code == 403
    assert Character.objects.get(pk=boris.pk).owner == bob


def test_the_saga_page_says_who_plays_whom(saga, alice, bob, carol, boris, ada):
    mine = Character.objects.create(saga=saga, name="Sir Guide", owner=alice)
    page = client_for(carol).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    row = r'row-title"><a [^>]*>([^<]+)</a></td>\s*<td data-label="Player">([^<]*)</td>'
    rows = dict(re.findall(row, page))
    assert rows == {"Ada": "waiting for a player", "Sir Boris": "bob", mine.name: "alice (storyguide)"}
    members = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index('id="members"') :]))
    assert "bob Player plays Sir Boris" in members
    assert "carol Player no character yet" in members
    assert "alice Storyguide plays Sir Guide" in members


def test_the_add_to_fight_list_names_each_characters_player(saga, alice, boris, ada):
    Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    fight = combat.create_encounter(alice, saga.pk, "Forest road", "arsmagica")
    page = client_for(alice).get(reverse("encounter_page", args=[fight.pk]), follow=True).content.decode()
    assert "Sir Boris, played by bob" in page
    assert "Ada, waiting for a player" in page
    assert "Bandit (NPC)" in page


def test_the_d6_add_to_fight_list_names_each_characters_player(d6_saga, alice, bob):
    Character.objects.create(saga=d6_saga, name="Wren", owner=bob, sheet={"fatigue": 0})
    Character.objects.create(saga=d6_saga, name="Moth", sheet={"fatigue": 0})
    fight = combat.create_encounter(alice, d6_saga.pk, "Alley", "d6fatigue")
    page = client_for(alice).get(reverse("encounter_page", args=[fight.pk]), follow=True).content.decode()
    assert "Wren, played by bob" in page and "Moth, waiting for a player" in page


def test_the_invite_lets_a_joining_player_take_up_a_waiting_character(saga, ada, dave):
    client = client_for(dave)
    url = reverse("join", args=[saga.invite_token])
    page = client.get(url).content.decode()
    assert f'value="{ada.pk}"' in page and 'value="own"' in page
    answer = client.post(url, {"character": str(ada.pk)}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("character_detail", args=[ada.pk])
    assert "you play Ada" in answer.content.decode()
    assert Character.objects.get(pk=ada.pk).owner == dave
    assert Membership.objects.filter(saga=saga, user=dave, role="player").exists()


def test_the_invite_says_when_the_character_was_just_taken_and_joins_no_one(saga, ada, carol, dave):
    client = client_for(dave)
    url = reverse("join", args=[saga.invite_token])
    client.get(url)
    services.claim_character(carol, ada.pk)  # carol was quicker
    answer = client.post(url, {"character": str(ada.pk)})
    assert answer.status_code == 200
    assert error_beside(answer.content.decode(), "id_character") == (
        "carol has just taken Ada: choose another, or make your own."
    )
    assert not Membership.objects.filter(saga=saga, user=dave).exists()  # nothing half-applied
    Character.objects.create(saga=saga, name="Cado")
    nothing = client.post(url, {})
    said = error_beside(nothing.content.decode(), "id_character")
    assert said == "Choose a character to play, or to make your own."
    own = client.post(url, {"character": "own"}, follow=True)
    assert Membership.objects.filter(saga=saga, user=dave).exists()
    assert 'data-testid="first-step"' in own.content.decode()


def test_a_player_who_joined_takes_up_a_character_from_the_saga_page(saga, ada, dave):
    Membership.objects.create(saga=saga, user=dave, role=Membership.Role.PLAYER)
    client = client_for(dave)
    page = client.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="take-form"' in page
    key = KEY.findall(page[page.index('data-testid="take-form"') :])[0]
    url = reverse("saga_take", args=[saga.pk])
    first = client.post(url, {"character": str(ada.pk), "command_key": key})
    again = client.post(url, {"character": str(ada.pk), "command_key": key})  # a double tap: once
    assert first.status_code == again.status_code == 302 and first.url == again.url
    assert Character.objects.get(pk=ada.pk).owner == dave
    assert SagaRecord.objects.filter(kind="handed_over").count() == 1
    own = client.post(url, {"character": "own"})
    assert own.url == reverse("character_create", args=[saga.pk])


def test_a_stranger_cannot_take_up_a_character_from_the_saga_page(saga, ada, dave):
    answer = client_for(dave).post(reverse("saga_take", args=[saga.pk]), {"character": str(ada.pk)})
    assert answer.status_code == 404
    assert Character.objects.get(pk=ada.pk).owner is None


def test_the_invite_of_someone_not_logged_in_names_the_waiting_characters(saga, ada):
    page = Client().get(reverse("join", args=[saga.invite_token])).content.decode()
    assert "characters for players who join: <b>Ada</b>" in page



def test_the_saga_page_says_beside_the_choice_that_the_character_was_just_taken(saga, ada, carol, dave):
    Membership.objects.create(saga=saga, user=dave, role=Membership.Role.PLAYER)
    Character.objects.create(saga=saga, name="Cado")
    services.claim_character(carol, ada.pk)
    answer = client_for(dave).post(reverse("saga_take", args=[saga.pk]), {"character": str(ada.pk)})
    assert answer.status_code == 200
    said = error_beside(answer.content.decode(), "id_character")
    assert said == "carol has just taken Ada: choose another, or make your own."
    assert Character.objects.get(pk=ada.pk).owner == carol


EXPORTS = ("saga_history_json", "saga_archive_json", "saga_recap", "saga_evening", "saga_evening_md")


def test_a_hand_over_outside_any_fight_is_in_the_sagas_history_and_its_exports(saga, alice, bob, carol, ada):
    services.claim_character(carol, ada.pk)
    services.hand_over(Character.objects.get(pk=ada.pk), bob, by=alice)
    for user in (alice, bob, carol):
        client = client_for(user)
        page = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
        assert "<b>Ada</b> is now played by <b>carol</b>." in page
        assert "<b>Ada</b> is now played by <b>bob</b> (was carol’s)." in page
        for name in EXPORTS:
            answer = client.get(reverse(name, args=[saga.pk]))
            assert answer.status_code == 200, (user, name)
        records = client.get(reverse("saga_history_json", args=[saga.pk])).json()["between_encounters"]
        assert [(r["kind"], r["payload"]["player"]) for r in records] == [
            ("handed_over", "carol"),
            ("handed_over", "bob"),
        ]
