"""Every URL pattern, fuzzed: hostile and random values posted and queried as the storyguide, a
player, a stranger and nobody. No answer is a 5xx; a refusal writes nothing; a stranger changes
nothing; nobody changes another saga. The patterns come from Django's resolver and the fields
from the pages' own forms, so a new endpoint is fuzzed without anyone listing it."""

from __future__ import annotations

import logging
import traceback
from unittest import mock
from urllib.parse import urlencode

from django.test import Client
from django.urls import Resolver404, resolve
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from arsmagica.rules import RandomDiceBox
from combat.rules.dice import RandomDice

from .conftest import FUZZ, TALLY
from .endpoints import Endpoint, all_endpoints, read_forms
from .world import World, fingerprint

HOSTILE = [
    "٣",  # an Arabic-Indic three: not a 3 here
    "²",
    "３",
    "9" * 5000,  # past Python's 4,300-digit limit
    str(10**20),
    str(2**63),
    str(-(2**64)),
    "1_000",
    " 7 ",
    "1e3",
    "0x1f",
    "NaN",
    "-1",
    "0",
    "",
    "a\x00b",
    "\x00",
    "line\x1bbreak\x07",
    "x" * 5000,
    "<script>alert(1)</script>",
    "🎲",
    "1 2 3",
    "٣ ٣",
    "1 " * 20000,
    "on",
    "true",
]
# The sweep puts each of these in every field of every form (the version kept, so it reaches the command).
SWEPT = ["٣", "9" * 5000, str(10**20), "a\x00\x1bb" + "x" * 5000]
HOSTILE_IDS = ["0", str(2**63), str(2**64 + 1), "9" * 30, "9" * 5000]
PERSONAS = ("storyguide", "player", "stranger", "anonymous")

DICE = {
    "d6.services.dice.server_dice": lambda: RandomDice(6),
    "arsmagica.services.dice.server_dice": lambda: RandomDice(3),
    "arsmagica.services.dice.server_box": lambda: RandomDiceBox(3),
}


def _view_name(path: str) -> str | None:
    try:
        return resolve(path.split("?")[0]).view_name
    except Resolver404:
        return None


class FuzzBase(TestCase):
    """The world and what its pages offer, built once; each example is rolled back."""

    @classmethod
    def setUpClass(cls):
        cls._dice = [mock.patch(target, factory) for target, factory in DICE.items()]
        for patch in cls._dice:
            patch.start()
        logging.getLogger("django.request").setLevel(logging.CRITICAL)
        super().setUpClass()
        cls.strategies()

    @classmethod
    def tearDownClass(cls):
        logging.getLogger("django.request").setLevel(logging.NOTSET)
        super().tearDownClass()
        for patch in cls._dice:
            patch.stop()

    @classmethod
    def setUpTestData(cls):
        cls.world = World()
        cls.endpoints = all_endpoints()
        cls.ids = cls.world.ids()
        cls.saga_ids = [saga.pk for saga in cls.world.sagas]
        cls.forms: dict[str, list[tuple[str, list]]] = {}
        cls.names: set[str] = {"expected_version"}
        cls.values: set[str] = set()
        for persona in ("storyguide", "player"):
            client = cls.client_for(persona)
            for endpoint in cls.endpoints:
                for path in cls.real_paths(endpoint):
                    cls.harvest(client.get(path))

    @classmethod
    def strategies(cls) -> None:
        """What the examples draw from: built once, outside the per-test copies of the test data."""
        offered = sorted(cls.values | {str(i) for ids in cls.ids.values() for i in ids})
        cls.field_names = st.sampled_from(sorted(cls.names)) | st.text(max_size=20)
        cls.field_values = st.one_of(
            st.sampled_from(HOSTILE),
            st.sampled_from(offered),
            st.text(st.characters(exclude_categories=("Cs",)), max_size=40),
            st.integers(min_value=-(10**30), max_value=10**30).map(str),
        )
        cls.endpoint_choice = st.sampled_from(cls.endpoints)
        cls.keyword_values = {
            key: st.sampled_from(cls.ids.get(key, []) + HOSTILE_IDS)
            | st.from_regex(r"[0-9]{1,25}", fullmatch=True)
            for endpoint in cls.endpoints
            for key in endpoint.keywords
        }

    @classmethod
    def client_for(cls, persona: str) -> Client:
        client = Client(raise_request_exception=False)
        user = {
            "storyguide": cls.world.storyguide,
            "player": cls.world.player,
            "stranger": cls.world.stranger,
        }.get(persona)
        if user is not None:
            client.force_login(user)
        return client

    @classmethod
    def real_paths(cls, endpoint: Endpoint) -> list[str]:
        """The endpoint with each real id in turn (all of a keyword's ids share its position)."""
        if not endpoint.keywords:
            return [endpoint.path({})]
        if not all(key in cls.ids for key in endpoint.keywords):
            return []
        count = max(len(cls.ids[key]) for key in endpoint.keywords)
        return list(
            dict.fromkeys(
                endpoint.path({key: cls.ids[key][i % len(cls.ids[key])] for key in endpoint.keywords})
                for i in range(count)
            )
        )

    @classmethod
    def harvest(cls, response) -> None:
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            return
        forms = read_forms(response.content.decode())
        cls.names |= forms.names
        cls.values |= forms.values
        for target, fields in forms.forms:
            name = _view_name(target) if target else None
            if name:
                cls.forms.setdefault(name, []).append((target, list(fields)))

    def send(self, persona: str, method: str, path: str, body: list[tuple[str, str]], exempt: bool):
        """One request, checked against the rules; the answer's status."""
        client = self.client_for(persona)
        before = fingerprint(self.saga_ids) if method == "POST" else None
        with self.captureOnCommitCallbacks(execute=True):
            if method == "GET":
                response = client.get(path, body)
            else:
                response = client.post(
                    path, urlencode(body), content_type="application/x-www-form-urlencoded"
                )
        TALLY["http"] += 1
        status = response.status_code
        if status >= 500:
            TALLY["http_5xx"] += 1
            trace = "".join(traceback.format_exception(*response.exc_info)) if response.exc_info else ""
            raise AssertionError(
                f"{method} {path[:200]} as {persona} answered {status}\n{body!r:.600}\n{trace}"
            )
        if before is None:  # GET only reads; its status is the check
            return status
        after = fingerprint(self.saga_ids)
        if status >= 400:
            assert after == before, f"{method} {path} as {persona} was refused ({status}) but wrote"
        if persona in ("stranger", "anonymous") and not exempt:
            assert after == before, f"{method} {path} as a {persona} changed a saga"
        if not exempt:
            other = self.world.other_saga.pk
            assert after[other] == before[other], f"{method} {path} changed another saga"
        return status


# The invite link is how a stranger becomes a member: joining is its one allowed change.
JOINING = {"join"}


class HttpFuzz(FuzzBase):
    """Random requests to random endpoints, starting from the forms the pages draw."""

    @FUZZ
    @given(data=st.data())
    def test_no_input_answers_5xx_writes_when_refused_or_lets_a_stranger_in(self, data):
        endpoint = data.draw(self.endpoint_choice, label="endpoint")
        persona = data.draw(st.sampled_from(PERSONAS), label="persona")
        method = data.draw(st.sampled_from(["POST", "POST", "GET"]), label="method")
        harvested = self.forms.get(endpoint.name, [])
        if harvested and data.draw(st.booleans(), label="from its page"):
            path, body = harvested[data.draw(st.integers(0, len(harvested) - 1), label="form")]
        else:
            values = {key: data.draw(self.keyword_values[key], label=key) for key in endpoint.keywords}
            path, body = endpoint.path(values), []
        body = list(body)
        for _ in range(data.draw(st.integers(0, 4), label="changes")):
            name = data.draw(self.field_names, label="field")
            value = data.draw(self.field_values, label="value")
            if data.draw(st.booleans(), label="replace"):
                body = [(key, old) for key, old in body if key != name]
            body.append((name, value))
        self.send(persona, method, path, body, exempt=endpoint.name in JOINING)


class EndpointSweep(FuzzBase):
    """Every endpoint, every persona, every hostile value in every field its page draws: no luck needed."""

    def test_every_endpoint_answers_every_hostile_value_without_a_5xx(self):
        swept = 0
        for endpoint in self.endpoints:
            exempt = endpoint.name in JOINING
            real = self.real_paths(endpoint)[:1]
            hostile = [endpoint.path({key: bad for key in endpoint.keywords}) for bad in HOSTILE_IDS[2:3]]
            for persona in PERSONAS:
                for path in real:
                    self.send(persona, "GET", path, [], exempt)
            for path in real:  # every query parameter any page names, with hostile values
                self.send("storyguide", "GET", path, [(name, "²") for name in sorted(self.names)], exempt)
                self.send(
                    "storyguide", "GET", path, [("encounter", "٣"), ("kind", "a\x00b"), ("next", "٣")], exempt
                )
            for path in dict.fromkeys(hostile):
                self.send("storyguide", "GET", path, [], exempt)
            for path, fields in self.forms.get(endpoint.name, [])[:1] or [((real or hostile)[0], [])]:
                names = [name for name, _ in fields] or sorted(self.names)
                self.send("storyguide", "POST", path, fields, exempt)
                for bad in SWEPT:
                    body = [(name, bad if name != "expected_version" else value) for name, value in fields]
                    body += [(name, bad) for name in names if name not in dict(fields)]
                    self.send("storyguide", "POST", path, body, exempt)
                self.send("player", "POST", path, fields, exempt)
                self.send("stranger", "POST", path, fields, exempt)
            swept += 1
        assert swept == len(self.endpoints) > 40
