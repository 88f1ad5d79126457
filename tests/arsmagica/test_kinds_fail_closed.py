"""An Ars Magica kind shows players its payload only where it says what they see or that it holds no secret:
a kind added without either shows them nothing of its own (issue 36, item 4: the interface fails closed)."""

from types import SimpleNamespace

from arsmagica.events import EVENT_KINDS, ArsKind


def test_a_new_kind_that_forgets_what_players_see_shows_them_nothing_of_its_own():
    class Forgotten(ArsKind):
        name = "forgotten"

    written = SimpleNamespace(kind="forgotten", payload={"combatant": "9", "roll": {"faces": [10, 7]}})
    assert Forgotten().for_players(written, set(), set(), "results") == {}


def test_every_kind_says_what_players_see_or_that_it_holds_no_secret():
    for kind in EVENT_KINDS:
        says = kind.for_players is not ArsKind.for_players or not kind.secret
        assert says, f"{kind.name} leaves what players see of it to the default"
