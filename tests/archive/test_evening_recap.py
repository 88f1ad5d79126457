"""The evening's recap (issue 31, item 9): the saga's encounters grouped into evenings, which the storyguide
can regroup; a few sentences per encounter made from its log, and the levels each character ended on; the
storyguide's version and the players', as a page and as Markdown."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arsmagica import services as ars
from combat.archive.evenings import EARLIER, LATER, evenings
from combat.models import Encounter, Event
from combat.services.evenings import CANNOT_MOVE, regroup
from tests.test_migrations import p168_declared

pytestmark = pytest.mark.django_db


def evening_md(saga, user, **query) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("saga_evening_md", args=[saga.pk]), query)
    assert response.status_code == 200 and response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return response.content.decode()


def encounter_at(saga, name: str, when) -> Encounter:
    """An encounter whose log was written at `when` (its first event of a round an hour later)."""
    encounter = Encounter.objects.create(saga=saga, seat_holder=saga.storyguide, name=name)
    Event.objects.create(encounter=encounter, seq=1, kind="encounter_created", payload={"name": name})
    Event.objects.create(encounter=encounter, seq=2, kind="encounter_ended", round_number=1, payload={})
    Event.objects.filter(encounter=encounter, seq=1).update(created_at=when)
    Event.objects.filter(encounter=encounter, seq=2).update(created_at=when + timedelta(hours=1))
    return encounter


def grouped(saga) -> list[list[str]]:
    return [[encounter.name for encounter in evening.encounters] for evening in evenings(saga)]


def test_evenings_part_where_more_than_six_hours_pass_and_the_storyguide_regroups(ars):
    saga, now = ars.saga, timezone.now()
    encounter_at(saga, "The ford", now + timedelta(hours=2))  # the same evening: within six hours of the road
    later = encounter_at(saga, "The mill", now + timedelta(days=7))
    assert grouped(saga) == [["Forest road", "The ford"], ["The mill"]]
    ford = saga.encounters.get(name="The ford")
    assert regroup(ars.storyguide, saga.pk, ford.pk, LATER) is None  # the last of an evening, to the next
    assert grouped(saga) == [["Forest road"], ["The ford", "The mill"]]
    assert regroup(ars.storyguide, saga.pk, ford.pk, EARLIER) is None  # and back
    assert grouped(saga) == [["Forest road", "The ford"], ["The mill"]]
    assert regroup(ars.storyguide, saga.pk, later.pk, EARLIER) is None
    assert grouped(saga) == [["Forest road", "The ford", "The mill"]]
    # Only an evening's first goes back, its last forward: refused, nothing changed.
    assert regroup(ars.storyguide, saga.pk, ars.encounter.pk, EARLIER) == CANNOT_MOVE
    assert regroup(ars.storyguide, saga.pk, ford.pk, LATER) == CANNOT_MOVE
    assert regroup(ars.storyguide, saga.pk, "nonsense", LATER) == CANNOT_MOVE
    assert grouped(saga) == [["Forest road", "The ford", "The mill"]]
    with pytest.raises(PermissionDenied):
        regroup(ars.alice, saga.pk, later.pk, LATER)


def test_regrouping_through_the_page_is_the_storyguides(ars, client):
    saga = ars.saga
    encounter_at(saga, "The mill", timezone.now() + timedelta(days=7))
    url = reverse("saga_evening_regroup", args=[saga.pk])
    move = {"encounter": ars.encounter.pk, "direction": LATER, "evening": 1}
    client.force_login(ars.alice)
    assert client.post(url, move).status_code == 403
    client.force_login(ars.outsider)
    assert client.post(url, move).status_code == 404
    client.force_login(ars.storyguide)
    page = client.get(reverse("saga_evening", args=[saga.pk]), {"evening": 1}).content.decode()
    assert f'data-testid="move-later-{ars.encounter.pk}"' in page
    assert client.post(url, move).status_code == 302
    assert grouped(saga) == [["Forest road", "The mill"]]
    refused = client.post(url, {**move, "direction": EARLIER}, follow=True).content.decode()
    assert "cannot move there" in refused and grouped(saga) == [["Forest road", "The mill"]]


def test_the_ars_magica_evening_in_sentences(ars):
    text = evening_md(ars.saga, ars.storyguide)
    assert text.startswith(f"# Test saga: the evening of {timezone.localdate():%-d %B %Y}\n")
    assert "Brother Anselm and Sir Boris (Companions) fought Bandit 1, Bandit 2 and Bandit 3 (Bandits), " \
        "over 1 round." in text  # fmt: skip
    assert "Attacks landed: Sir Boris 3 of 3, Bandit 1 1 of 1 and Bandit 2 1 of 1." in text
    assert "Wounds taken: Bandit 1 (1), Bandit 2 (1) and Bandit 3 (1)." in text
    assert "Best roll: Bandit 1’s Initiative, 23 (R1 · Movement)." in text
    assert "Worst roll: Bandit 2’s Fatigue roll, 3 (R1 · Fatigue)." in text
    assert "The storyguide corrected Brother Anselm in round 1 (“An old wound”)." in text
    assert "| Sir Boris | Companions | Winded | Unhurt |" in text  # as the fight ended, not as he stands now
    assert "fell" not in text and "botch" not in text.casefold() and "undid" not in text


def test_a_fall_a_botch_and_an_undo_counted_once(db, monkeypatch):
    table = p168_declared(monkeypatch)
    sg, encounter_id = table.storyguide, table.encounter.pk
    ars.preview_phase(sg, encounter_id, table.v, "melee")
    ars.confirm_phase(sg, encounter_id, table.v, "melee")
    ars.undo_phase(sg, encounter_id, table.v, "Bandit 3 was never in reach")
    ars.confirm_phase(sg, encounter_id, table.v, "melee")  # the same dice, confirmed again
    bandit = table.bandits[0]
    ars.correct(sg, encounter_id, table.v, bandit.pk, {"body_level": "dead"}, "Finished off")
    ars.end_encounter(sg, encounter_id, table.v)
    attack = Event.objects.filter(encounter=table.encounter, kind="attack", payload__attacker=str(bandit.pk))
    botched = attack.order_by("-seq").first()  # the standing one: the undone one never counts
    botched.payload["attack_roll"] = {**botched.payload["attack_roll"], "botches": 1}
    botched.save()
    text = evening_md(table.saga, sg)
    assert "Attacks landed: Sir Boris 3 of 3, Bandit 1 1 of 1 and Bandit 2 1 of 1." in text  # once, not twice
    assert "Bandit 1 fell." in text
    assert "A botch: Bandit 1 botched an attack in round 1." in text
    assert text.count("The storyguide undid") == 1
    assert "The storyguide undid R1 · Melee (“Bandit 3 was never in reach”)." in text
    assert "The storyguide corrected Bandit 1 in round 1 (“Finished off”)." in text
    assert "| Bandit 1 | Bandits | Fresh | Dead |" in text


def test_the_d6_evening_in_sentences(d6):
    text = evening_md(d6.saga, d6.alice)
    assert "Brother Anselm and Marta (Companions) fought Bandit 1 and Bandit 2 (Bandits); " \
        "the fight goes on (round 1)." in text  # fmt: skip
    assert "Attacks landed: Marta 1 of 1." in text
    assert "Best roll: Marta’s initiative, 8 (Round 1 · Initiative)." in text
    assert "Worst roll: Brother Anselm’s initiative, 2 (Round 1 · Initiative)." in text
    assert "| Marta | Companions | 4 |" in text
    assert "botch" not in text.casefold() and "corrected" not in text and "undid" not in text


def test_the_players_version_leaves_out_storyguide_only_lines(ars):
    """A storyguide-only entry (planted: an attack's total no one else saw) tells the storyguide's version
    alone; the players' version, a player's or the storyguide's preview of it, never reads it."""
    secret = Event.objects.filter(encounter=ars.encounter, kind="attack").first()
    secret.payload["attack_total"] = 6543210
    secret.storyguide_only = True
    secret.save()
    assert "6543210" in evening_md(ars.saga, ars.storyguide)
    for text in (evening_md(ars.saga, ars.alice), evening_md(ars.saga, ars.storyguide, version="players")):
        assert "6543210" not in text and "The players’ version" in text
        assert "preview" not in text


def test_the_page_and_the_download_are_for_members(ars, client):
    for user in (ars.storyguide, ars.alice):
        client.force_login(user)
        page = client.get(reverse("saga_evening", args=[ars.saga.pk]))
        assert page.status_code == 200 and "css/print.css" in page.content.decode()
        assert "Sir Boris 3 of 3" in page.content.decode()
        assert client.get(reverse("saga_evening_md", args=[ars.saga.pk])).status_code == 200
        assert client.get(reverse("saga_evening", args=[ars.saga.pk]), {"evening": 2}).status_code == 404
        assert client.get(reverse("saga_evening", args=[ars.saga.pk]), {"evening": "x"}).status_code == 404
    client.force_login(ars.outsider)
    assert client.get(reverse("saga_evening", args=[ars.saga.pk])).status_code == 404
    assert client.get(reverse("saga_evening_md", args=[ars.saga.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("saga_evening", args=[ars.saga.pk])).status_code == 302  # to log in


def test_the_history_links_the_evening_and_the_whole_log(ars, client):
    client.force_login(ars.alice)
    history = client.get(reverse("saga_history", args=[ars.saga.pk])).content.decode()
    assert "Whole log (Markdown)" in history and reverse("saga_recap", args=[ars.saga.pk]) in history
    assert reverse("saga_evening", args=[ars.saga.pk]) in history
    saga_page = client.get(reverse("saga_detail", args=[ars.saga.pk])).content.decode()
    assert reverse("saga_evening", args=[ars.saga.pk]) in saga_page


def test_a_saga_with_nothing_played_has_an_empty_recap(ars, client):
    ars.saga.encounters.all().delete()
    client.force_login(ars.alice)
    page = client.get(reverse("saga_evening", args=[ars.saga.pk]))
    assert page.status_code == 200 and 'data-testid="evening-empty"' in page.content.decode()
    assert evening_md(ars.saga, ars.alice).endswith("\nNothing was played.\n")
