"""Issue 35, item 2: every URL pattern that answers GET answers HEAD, with the same status and no body
(config/head.py). The patterns come from Django's resolver, walked recursively, and each is filled with
real arguments from a saga of each rule system (an Ars Magica round and set-up, a d6 fight and chase, a
coin duel, an ended encounter, a saga none of ours is in) and the admin's rows; a pattern this test cannot
fill fails it, so a new URL cannot slip past."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from arsmagica.services import recovery
from arsmagica.sheet import new_sheet
from campaign import resets
from campaign import services as campaign_services
from campaign.models import Character, Membership
from combat import services as core
from combat.models import Combatant, Encounter
from tests.fuzz.endpoints import Endpoint, all_endpoints
from tests.fuzz.world import World

pytestmark = pytest.mark.django_db

ADMIN_MODEL = re.compile(r"^admin/(?P<app>\w+)/(?P<model>\w+)/\{(?:object_id|id)\}/")


class Places:
    """The fuzz world, a coin duel, an ended encounter, a reset link, and a row of each admin model."""

    def __init__(self) -> None:
        self.world = world = World()
        users = get_user_model().objects
        self.host = users.create_superuser("host", password="a-long-host-password")
        storyguide = world.storyguide
        duel_saga = _coin_duel_saga(storyguide, world.player)
        duel = core.create_encounter(storyguide, duel_saga.pk, "Duel at dawn", "coinduel")
        duellists = list(Character.objects.filter(saga=duel_saga).values_list("pk", flat=True))
        core.add_combatants(storyguide, duel.pk, _version(duel), duellists, "Duellists")
        ended = core.create_encounter(storyguide, world.ars_saga.pk, "Over", "arsmagica")
        core.end_encounter(storyguide, ended.pk, _version(ended))
        _, self.reset_token = resets.make(world.ars_saga, storyguide, world.player)
        traveller = Character.objects.create(
            saga=world.ars_saga, name="Old Tom", is_npc=True, sheet=new_sheet()
        )
        recovery.record_exertion(storyguide, traveller.pk, 1, "a day's march", saga_id=world.ars_saga.pk)
        Group.objects.create(name="hosts")
        AccessAttempt.objects.create(username="x", ip_address="127.0.0.1", failures_since_start=1)
        AccessLog.objects.create(username="x", ip_address="127.0.0.1")
        AccessFailureLog.objects.create(username="x", ip_address="127.0.0.1")

        self.sagas = [*world.sagas, duel_saga]
        self.encounters = list(Encounter.objects.order_by("pk"))
        self.characters = list(Character.objects.order_by("pk"))

    def paths(self, endpoint: Endpoint) -> list[str]:
        """The endpoint filled with real arguments; AssertionError when this test cannot fill it."""
        keys = set(endpoint.keywords)
        fill = endpoint.path
        admin_model = ADMIN_MODEL.match(endpoint.template)
        if admin_model:
            model = apps.get_model(admin_model["app"], admin_model["model"])
            first = model.objects.order_by("pk").first()
            assert first is not None, f"no {model.__name__} row to fill {endpoint.template}"
            return [fill({key: first.pk for key in keys})]
        if not keys:
            return [fill({})]
        if keys == {"content_type_id", "object_id"}:  # the admin's "view on site"
            saga = self.world.ars_saga
            kind = ContentType.objects.get_for_model(saga)
            return [fill({"content_type_id": kind.pk, "object_id": saga.pk})]
        if keys == {"app_label"}:
            labels = sorted({model._meta.app_label for model in admin.site._registry})
            return [fill({"app_label": label}) for label in labels]
        if keys == {"url"}:  # the admin's catch-all
            return [fill({"url": "no-such-page/"})]
        if keys == {"uidb64", "token"}:
            player = self.world.player
            uid = urlsafe_base64_encode(force_bytes(player.pk))
            return [fill({"uidb64": uid, "token": default_token_generator.make_token(player)})]
        if keys == {"token"} and endpoint.name == "reset_password":
            return [fill({"token": self.reset_token})]
        if keys == {"token"} and endpoint.name == "join":
            return [fill({"token": saga.invite_token}) for saga in self.sagas]
        if keys == {"saga_id"}:
            return [fill({"saga_id": saga.pk}) for saga in self.sagas]
        if keys == {"saga_id", "change"}:  # the lead's changes of the troupe (POST only)
            return [fill({"saga_id": self.world.ars_saga.pk, "change": "make"})]
        if keys == {"saga_id", "user_id"}:
            return [fill({"saga_id": self.world.ars_saga.pk, "user_id": self.world.player.pk})]
        if keys == {"character_id"}:
            return [fill({"character_id": character.pk}) for character in self.characters]
        if keys == {"encounter_id"}:
            return [fill({"encounter_id": encounter.pk}) for encounter in self.encounters]
        if keys == {"encounter_id", "combatant_id"}:
            return [
                fill({"encounter_id": c.encounter_id, "combatant_id": c.pk})
                for c in _first_combatant_of_each_encounter()
            ]
        raise AssertionError(
            f"{endpoint.name} ({endpoint.template}): tests/test_head.py does not know how to fill "
            f"{sorted(keys)}; teach Places.paths"
        )


def _version(encounter: Encounter) -> int:
    return Encounter.objects.get(pk=encounter.pk).version


def _coin_duel_saga(storyguide, player):
    """A saga of the tests' coin duel, with the player's Ada and the storyguide's Bruno."""
    saga = campaign_services.create_saga(storyguide, name="At dawn", rule_system="coinduel")
    Membership.objects.create(saga=saga, user=player, role=Membership.Role.PLAYER)
    Character.objects.create(saga=saga, owner=player, name="Ada")
    Character.objects.create(saga=saga, name="Bruno", is_npc=True)
    return saga


def _first_combatant_of_each_encounter() -> list[Combatant]:
    seen: dict[int, Combatant] = {}
    for combatant in Combatant.objects.order_by("pk"):
        seen.setdefault(combatant.encounter_id, combatant)
    return list(seen.values())


def _signed_in(user) -> dict[str, str]:
    """The session cookie of someone signed in (nobody's: none)."""
    if user is None:
        return {}
    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value}


def _ask(method: str, path: str, cookies: dict[str, str]):
    """One request from a fresh browser with these cookies: nothing one answer set reaches the next."""
    client = Client(raise_request_exception=False)
    for name, value in cookies.items():
        client.cookies[name] = value
    return client.generic(method, path)


def _personas(endpoint: Endpoint, number: int) -> tuple[str, ...]:
    """Who asks for the endpoint's `number`th path: the host at the admin, with a player and nobody; at the
    game, the storyguide and the player for every path (our sagas and another's), and a stranger and
    nobody for the first too (their answers do not depend on which saga it is)."""
    if endpoint.name.startswith("admin:"):
        return ("host", "player", "nobody")
    return ("storyguide", "player", "stranger", "nobody") if number == 0 else ("storyguide", "player")


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_every_pattern_answers_head_as_it_answers_get():
    places = Places()
    world = places.world
    people = {
        "storyguide": world.storyguide,
        "player": world.player,
        "stranger": world.stranger,
        "nobody": None,
        "host": places.host,
    }
    cookies = {name: _signed_in(user) for name, user in people.items()}
    endpoints = all_endpoints()
    differences, asked, unfilled = [], 0, []
    for endpoint in endpoints:
        try:
            paths = places.paths(endpoint)
        except AssertionError as why:
            unfilled.append(str(why))
            continue
        for number, path in enumerate(paths):
            for persona in _personas(endpoint, number):
                got = _ask("GET", path, cookies[persona])
                head = _ask("HEAD", path, cookies[persona])
                asked += 1
                body = _body(head)
                if head.status_code != got.status_code or body:
                    differences.append(
                        f"{path} as {persona}: GET {got.status_code}, "
                        f"HEAD {head.status_code} with {len(body)} bytes"
                    )
                if got.status_code == 200 and "Content-Length" in got:
                    assert head["Content-Length"] == got["Content-Length"], path
    assert not unfilled, "\n".join(unfilled)
    assert not differences, "\n".join(differences)
    print(f"{len(endpoints)} patterns, {asked} paths and people asked with GET and HEAD")
    assert len(endpoints) > 150 and asked > 700  # the walk reached the whole URLconf


def test_a_pattern_with_arguments_this_test_cannot_fill_fails_it():
    new = Endpoint("scroll", "sagas/{saga_id}/scrolls/{scroll_id}/", ("saga_id", "scroll_id"))
    unknown = r"scroll .* does not know how to fill \['saga_id', 'scroll_id'\]"
    with pytest.raises(AssertionError, match=unknown):
        Places.__new__(Places).paths(new)
