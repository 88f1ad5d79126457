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
from tests.coinduel import KEY as COIN_DUEL
from tests.concurrency import run_together
from tests.personas import client_for, make_user

from .conftest import character_form

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


def test_the_storyguide_hands_a_character_over_and_takes_it_back(
    saga, storyguide, player, second_player, boris
):
    services.hand_over(boris, second_player, by=storyguide)
    assert Character.objects.get(pk=boris.pk).owner == second_player
    services.hand_over(boris, storyguide, by=storyguide)  # taken back by the storyguide
    assert Character.objects.get(pk=boris.pk).owner == storyguide
    services.hand_over(boris, None, by=storyguide)  # left for a player who will join
    assert Character.objects.get(pk=boris.pk).owner is None
    records = SagaRecord.objects.filter(saga=saga, kind="handed_over").order_by("id")
    assert [(r.payload["was"], r.payload["player"]) for r in records] == [
        ("alice", "bob"),
        ("bob", "sg"),
        ("sg", ""),
    ]
    assert all(r.actor == storyguide and r.payload["character"] == boris.pk for r in records)


@pytest.mark.parametrize("sender", ["player", "second_player", "stranger"])
def test_only_the_storyguide_hands_over(saga, boris, sender, request):
    user = request.getfixturevalue(sender)
    with pytest.raises(services.Refused, match="Only the storyguide"):
        services.hand_over(boris, user, by=user)
    assert Character.objects.get(pk=boris.pk).owner.username == "alice"
    assert not SagaRecord.objects.exists()


def test_a_hand_over_goes_only_to_a_member_and_never_makes_an_npc_a_players(
    saga, storyguide, boris, stranger
):
    with pytest.raises(services.Refused, match="charlie is not in this saga"):
        services.hand_over(boris, stranger, by=storyguide)
    bandit = Character.objects.create(saga=saga, name="Bandit", is_npc=True)
    with pytest.raises(services.Refused, match="is an NPC"):
        services.hand_over(bandit, stranger, by=storyguide)
    with pytest.raises(services.Refused, match="played by alice already"):
        services.hand_over(boris, boris.owner, by=storyguide)
    assert not SagaRecord.objects.exists()


def test_a_player_takes_up_a_waiting_character_once(saga, ada, player, second_player):
    services.claim_character(second_player, ada.pk)
    assert Character.objects.get(pk=ada.pk).owner == second_player
    with pytest.raises(services.Refused, match="bob has just taken Ada: choose another, or make your own"):
        services.claim_character(player, ada.pk)
    with pytest.raises(services.Refused, match="You play Ada already"):
        services.claim_character(second_player, ada.pk)
    assert SagaRecord.objects.filter(kind="handed_over").count() == 1


def test_a_stranger_or_the_storyguide_does_not_take_up_a_character(saga, ada, storyguide, stranger, boris):
    with pytest.raises(services.Refused, match="Join the saga first"):
        services.claim_character(stranger, ada.pk)
    with pytest.raises(services.Refused, match="You are the storyguide"):
        services.claim_character(storyguide, ada.pk)
    with pytest.raises(services.Refused, match="no longer in the saga"):
        services.claim_character(stranger, 999_999)
    assert Character.objects.get(pk=ada.pk).owner is None


@pytest.mark.django_db(transaction=True)
def test_of_players_taking_up_one_character_at_once_one_gets_it_and_the_others_are_told():
    storyguide = make_user("sg")
    saga = services.create_saga(storyguide, name="Race", rule_system=COIN_DUEL)
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


def test_a_hand_over_is_logged_in_each_open_encounter_the_character_fights_in(
    saga, storyguide, boris, second_player
):
    fight = combat.create_encounter(storyguide, saga.pk, "Forest road", COIN_DUEL)
    combat.add_combatants(storyguide, fight.pk, fight.version, [boris.pk], "Players")
    done = combat.create_encounter(storyguide, saga.pk, "Earlier", COIN_DUEL)
    combat.add_combatants(storyguide, done.pk, done.version, [boris.pk], "Players")
    done.refresh_from_db()
    combat.end_encounter(storyguide, done.pk, done.version)
    added = Event.objects.get(encounter=fight, kind="combatant_added")
    assert added.payload["player"] == "alice"  # who played him as he joined
    services.hand_over(boris, second_player, by=storyguide)
    logged = Event.objects.get(encounter=fight, kind="handed_over")
    assert logged.payload == {
        "character": boris.pk,
        "combatant": added.payload["combatant"],
        "name": "Sir Boris",
        "player": "bob",
        "was": "alice",
    }
    assert logged.actor == storyguide
    assert not Event.objects.filter(encounter=done, kind="handed_over").exists()  # its record stays as it was
    client = client_for(storyguide)
    history = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
    assert "Sir Boris</b> is now played by <b>bob</b> (was alice’s)." in history


def test_a_hand_over_alone_is_no_history_to_keep(saga, storyguide, second_player, ada):
    services.claim_character(second_player, ada.pk)
    assert not services.saga_has_history(saga)
    assert not services.character_in_history(Character.objects.get(pk=ada.pk))
    services.delete_character(ada)


# --- pages --------------------------------------------------------------------------------------------


def test_the_storyguide_makes_a_character_for_a_player_who_will_join(saga, storyguide):
    client = client_for(storyguide)
    url = reverse("character_create", args=[saga.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="played-by"' in page
    assert 'value="waiting" checked' in page or re.search(r'value="waiting"[^>]*selected', page)
    data = {**character_form("Ada"), "played-player": "waiting"}
    answer = client.post(url, data)
    assert answer.status_code == 302
    assert Character.objects.get(name="Ada").owner is None
    bad = client.post(url, {**data, "name": "Cado", "played-player": "nobody"})
    assert bad.status_code == 200
    assert error_beside(bad.content.decode(), "id_played-player") == (
        "Choose one of the saga's members, or a player who will join."
    )
    assert not Character.objects.filter(name="Cado").exists()


def test_a_player_makes_their_own_character_with_no_choice_of_player(saga, player):
    page = client_for(player).get(reverse("character_create", args=[saga.pk])).content.decode()
    assert 'data-testid="played-by"' not in page


def test_the_hand_over_form_shows_its_refusal_beside_its_control(saga, storyguide, player, boris):
    client = client_for(storyguide)
    page = client.get(reverse("character_detail", args=[boris.pk])).content.decode()
    assert 'data-testid="hand-over"' in page
    url = reverse("character_hand_over", args=[boris.pk])
    same = client.post(url, {"played-player": str(player.pk)})
    assert same.status_code == 200
    assert error_beside(same.content.decode(), "id_played-player") == "Sir Boris is played by alice already."
    unknown = client.post(url, {"played-player": "12345"})
    assert unknown.status_code == 200
    assert "Choose one of the saga's members" in error_beside(unknown.content.decode(), "id_played-player")
    moved = client.post(url, {"played-player": "waiting"}, follow=True)
    assert "Sir Boris, waiting for a player." in moved.content.decode()
    assert Character.objects.get(pk=boris.pk).owner is None


def test_a_player_is_not_offered_the_hand_over_and_cannot_post_it(saga, player, second_player, boris):
    client = client_for(player)
    page = client.get(reverse("character_detail", args=[boris.pk])).content.decode()
    assert 'data-testid="hand-over"' not in page
    answer = client.post(
        reverse("character_hand_over", args=[boris.pk]), {"played-player": str(second_player.pk)}
    )
    assert answer.status_code == 403
    assert Character.objects.get(pk=boris.pk).owner == player


def test_the_saga_page_says_who_plays_whom(saga, storyguide, player, second_player, boris, ada):
    mine = Character.objects.create(saga=saga, name="Sir Guide", owner=storyguide)
    page = client_for(second_player).get(reverse("saga_detail", args=[saga.pk])).content.decode()
    row = r'row-title"><a [^>]*>([^<]+)</a></td>\s*<td data-label="Player">([^<]*)</td>'
    rows = dict(re.findall(row, page))
    assert rows == {"Ada": "waiting for a player", "Sir Boris": "alice", mine.name: "sg (storyguide)"}
    members = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index('id="members"') :]))
    assert "alice Player plays Sir Boris" in members
    assert "bob Player no character yet" in members
    assert "sg Storyguide plays Sir Guide" in members


def test_the_invite_lets_a_joining_player_take_up_a_waiting_character(saga, ada, stranger):
    client = client_for(stranger)
    url = reverse("join", args=[saga.invite_token])
    page = client.get(url).content.decode()
    assert f'value="{ada.pk}"' in page and 'value="own"' in page
    answer = client.post(url, {"character": str(ada.pk)}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("character_detail", args=[ada.pk])
    assert "you play Ada" in answer.content.decode()
    assert Character.objects.get(pk=ada.pk).owner == stranger
    assert Membership.objects.filter(saga=saga, user=stranger, role="player").exists()


def test_the_invite_says_when_the_character_was_just_taken_and_joins_no_one(
    saga, ada, second_player, stranger
):
    client = client_for(stranger)
    url = reverse("join", args=[saga.invite_token])
    client.get(url)
    services.claim_character(second_player, ada.pk)  # the second player was quicker
    answer = client.post(url, {"character": str(ada.pk)})
    assert answer.status_code == 200
    assert error_beside(answer.content.decode(), "id_character") == (
        "bob has just taken Ada: choose another, or make your own."
    )
    assert not Membership.objects.filter(saga=saga, user=stranger).exists()  # nothing half-applied
    Character.objects.create(saga=saga, name="Cado")
    nothing = client.post(url, {})
    said = error_beside(nothing.content.decode(), "id_character")
    assert said == "Choose a character to play, or to make your own."
    own = client.post(url, {"character": "own"}, follow=True)
    assert Membership.objects.filter(saga=saga, user=stranger).exists()
    assert 'data-testid="first-step"' in own.content.decode()


def test_a_player_who_joined_takes_up_a_character_from_the_saga_page(saga, ada, stranger):
    Membership.objects.create(saga=saga, user=stranger, role=Membership.Role.PLAYER)
    client = client_for(stranger)
    page = client.get(reverse("saga_detail", args=[saga.pk])).content.decode()
    assert 'data-testid="take-form"' in page
    key = KEY.findall(page[page.index('data-testid="take-form"') :])[0]
    url = reverse("saga_take", args=[saga.pk])
    first = client.post(url, {"character": str(ada.pk), "command_key": key})
    again = client.post(url, {"character": str(ada.pk), "command_key": key})  # a double tap: once
    assert first.status_code == again.status_code == 302 and first.url == again.url
    assert Character.objects.get(pk=ada.pk).owner == stranger
    assert SagaRecord.objects.filter(kind="handed_over").count() == 1
    own = client.post(url, {"character": "own"})
    assert own.url == reverse("character_create", args=[saga.pk])


def test_a_stranger_cannot_take_up_a_character_from_the_saga_page(saga, ada, stranger):
    answer = client_for(stranger).post(reverse("saga_take", args=[saga.pk]), {"character": str(ada.pk)})
    assert answer.status_code == 404
    assert Character.objects.get(pk=ada.pk).owner is None


def test_the_invite_of_someone_not_logged_in_names_the_waiting_characters(saga, ada):
    page = Client().get(reverse("join", args=[saga.invite_token])).content.decode()
    assert "characters for players who join: <b>Ada</b>" in page


def test_the_saga_page_says_beside_the_choice_that_the_character_was_just_taken(
    saga, ada, second_player, stranger
):
    Membership.objects.create(saga=saga, user=stranger, role=Membership.Role.PLAYER)
    Character.objects.create(saga=saga, name="Cado")
    services.claim_character(second_player, ada.pk)
    answer = client_for(stranger).post(reverse("saga_take", args=[saga.pk]), {"character": str(ada.pk)})
    assert answer.status_code == 200
    said = error_beside(answer.content.decode(), "id_character")
    assert said == "bob has just taken Ada: choose another, or make your own."
    assert Character.objects.get(pk=ada.pk).owner == second_player


EXPORTS = ("saga_history_json", "saga_archive_json", "saga_recap", "saga_evening", "saga_evening_md")


def test_a_hand_over_outside_any_fight_is_in_the_sagas_history_and_its_exports(
    saga, storyguide, player, second_player, ada
):
    services.claim_character(second_player, ada.pk)
    services.hand_over(Character.objects.get(pk=ada.pk), player, by=storyguide)
    for user in (storyguide, player, second_player):
        client = client_for(user)
        page = client.get(reverse("saga_history", args=[saga.pk])).content.decode()
        assert "<b>Ada</b> is now played by <b>bob</b>." in page
        assert "<b>Ada</b> is now played by <b>alice</b> (was bob’s)." in page
        for name in EXPORTS:
            answer = client.get(reverse(name, args=[saga.pk]))
            assert answer.status_code == 200, (user, name)
        records = client.get(reverse("saga_history_json", args=[saga.pk])).json()["between_encounters"]
        assert [(r["kind"], r["payload"]["player"]) for r in records] == [
            ("handed_over", "bob"),
            ("handed_over", "alice"),
        ]
