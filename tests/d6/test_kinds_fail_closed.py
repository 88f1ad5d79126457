"""A d6 kind shows players its payload only where it says what they see (`_shown`) or that it holds no
secret: a kind added without either shows them nothing of its own (issue 36, item 4: the interface fails
closed, in d6 as in the core)."""

from types import SimpleNamespace

from d6.events import EVENT_KINDS, D6Kind


def test_a_new_kind_that_forgets_what_players_see_shows_them_nothing_of_its_own():
    class Forgotten(D6Kind):
        name = "forgotten"

    written = SimpleNamespace(kind="forgotten", payload={"combatant": "9", "result": 17, "value": 20})
    assert Forgotten().for_players(written, set(), set(), "results") == {}


def test_every_kind_says_what_players_see_or_that_it_holds_no_secret():
    for kind in EVENT_KINDS:
        says = kind._shown is not D6Kind._shown or not kind.secret
        assert says, f"{kind.name} leaves what players see of it to the default"
