"""An Ars Magica character's sheet through the campaign's pages (ArM3 p163-p177): made and edited by its
player with weapons, by the storyguide, seen whole by its player and as the table would by others, NPCs and
their stamped copies, levels kept while a fight runs."""

import pytest

from arsmagica.models import Weapon
from arsmagica.sheet import sheet_of as ars_sheet
from campaign.models import Character

SCORES = [
    "quickness",
    "stamina",
    "finesse",
    "athletics",
    "ride",
    "brawling",
    "soak",
    "dodge_defense",
    "combat_fatigue",
    "encumbrance",
]


def arsmagica_data(name="Brother Anselm", weapons=(), initial_weapons=0, **scores):
    data = {"name": name, "fatigue_level": "fresh", "body_level": "unhurt", "notes": ""}
    data.update({score: "0" for score in SCORES})
    data.update({key: str(value) for key, value in scores.items()})
    data["weapons-TOTAL_FORMS"] = str(len(weapons))
    data["weapons-INITIAL_FORMS"] = str(initial_weapons)
    for index, weapon in enumerate(weapons):
        row = {"initiative": 0, "attack": 0, "defense": 0, "damage": 0, "optimum_range": "reach", **weapon}
        for key, value in row.items():
            if value is not None and value is not False:
                data[f"weapons-{index}-{key}"] = "on" if value is True else str(value)
    return data


# Ars Magica sheets


def test_the_player_creates_a_character_with_a_sword_and_a_bow(saga, player, as_player):
    url = f"/sagas/{saga.pk}/characters/new/"
    page = as_player.get(url)
    assert page.status_code == 200
    assert "Initiative Total = stress die + Initiative + modifiers" in page.content.decode()
    response = as_player.post(
        url,
        arsmagica_data(
            "Sir Boris",
            quickness=1,
            soak=8,
            encumbrance=-2,
            weapons=[
                {"name": "Long sword", "initiative": 6, "attack": 8, "defense": 5, "damage": 9},
                {"name": "Short bow", "attack": 5, "damage": 6, "missile": True, "paces": 30, "twice": True},
            ],
        ),
    )
    boris = Character.objects.get(name="Sir Boris")
    assert response.status_code == 302 and response.url == f"/characters/{boris.pk}/"
    assert (boris.owner, boris.is_npc, boris.saga, ars_sheet(boris).soak, ars_sheet(boris).encumbrance) == (
        player,
        False,
        saga,
        8,
        -2,
    )
    assert list(boris.weapons.values_list("name", "initiative", "missile", "paces", "twice")) == [
        ("Long sword", 6, False, None, False),
        ("Short bow", 0, True, 30, True),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (arsmagica_data(name=""), "Every character needs a name."),
        (arsmagica_data(encumbrance=2), "Encumbrance is 0 or negative"),
        (arsmagica_data(soak=41), "Soak cannot be above 40."),
        (arsmagica_data(quickness=-11), "Quickness cannot be below -10."),
        (arsmagica_data(ride="two"), "Ride must be a whole number."),
        (arsmagica_data(weapons=[{"name": "Sling", "missile": True}]), "A missile weapon needs its range"),
        (arsmagica_data(weapons=[{"name": "", "attack": 3}]), "Give the weapon a name."),
        (arsmagica_data(weapons=[{"name": "Axe", "twice": True}]), "Only a missile weapon can fire in both"),
    ],
)
def test_sheet_errors_are_shown_in_plain_words_and_nothing_is_saved(saga, as_player, data, message):
    response = as_player.post(f"/sagas/{saga.pk}/characters/new/", data)
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert "Some entries need fixing" in page
    assert not Character.objects.exists()
    assert not Weapon.objects.exists()


def test_an_untouched_blank_weapon_row_is_ignored(saga, as_player):
    data = arsmagica_data("Grog")
    data.update(
        {
            "weapons-TOTAL_FORMS": "1",
            "weapons-0-initiative": "0",
            "weapons-0-attack": "0",
            "weapons-0-defense": "0",
            "weapons-0-damage": "0",
            "weapons-0-optimum_range": "reach",
        }
    )
    assert as_player.post(f"/sagas/{saga.pk}/characters/new/", data).status_code == 302
    assert Character.objects.get().weapons.count() == 0


def test_the_player_edits_boris_changing_and_removing_weapons(boris, as_player):
    sword = boris.weapons.get()
    data = arsmagica_data(
        "Sir Boris the Bold",
        soak=9,
        initial_weapons=1,
        weapons=[
            {"id": sword.pk, "name": "Long sword", "attack": 9, "DELETE": True},
            {
                "name": "Mace",
                "initiative": 3,
                "attack": 7,
                "defense": 4,
                "damage": 8,
                "optimum_range": "touch",
            },
        ],
    )
    page = as_player.get(f"/characters/{boris.pk}/edit/")
    assert page.status_code == 200 and 'name="weapons-0-DELETE"' in page.content.decode()
    response = as_player.post(f"/characters/{boris.pk}/edit/", data)
    assert response.status_code == 302
    boris.refresh_from_db()
    assert (boris.name, ars_sheet(boris).soak) == ("Sir Boris the Bold", 9)
    assert list(boris.weapons.values_list("name", "optimum_range")) == [("Mace", "touch")]


def test_the_storyguide_edits_any_sheet(boris, player, as_storyguide):
    data = arsmagica_data("Sir Boris", body_level="light_wounds", initial_weapons=0)
    assert as_storyguide.post(f"/characters/{boris.pk}/edit/", data).status_code == 302
    boris.refresh_from_db()
    assert ars_sheet(boris).body_level == "light_wounds"
    assert boris.owner == player  # the storyguide's edit does not take the character over


@pytest.mark.parametrize(("who", "status"), [("as_second_player", 403), ("as_stranger", 404)])
def test_others_cannot_edit_boris(boris, request, who, status):
    client = request.getfixturevalue(who)
    assert client.get(f"/characters/{boris.pk}/edit/").status_code == status
    assert client.post(f"/characters/{boris.pk}/edit/", arsmagica_data("Stolen")).status_code == status
    boris.refresh_from_db()
    assert boris.name == "Sir Boris"


def test_outsiders_cannot_create_characters_in_a_saga(saga, as_stranger):
    assert as_stranger.get(f"/sagas/{saga.pk}/characters/new/").status_code == 404
    assert as_stranger.post(f"/sagas/{saga.pk}/characters/new/", arsmagica_data()).status_code == 404
    assert not Character.objects.exists()


def test_character_views_refuse_other_methods(boris, as_player):
    assert as_player.delete(f"/characters/{boris.pk}/").status_code == 405
    assert as_player.put(f"/characters/{boris.pk}/edit/").status_code == 405


# Who sees what


def test_the_player_sees_the_full_sheet_another_player_what_the_table_sees(
    boris, as_player, as_second_player, as_storyguide, as_stranger
):
    full = as_player.get(f"/characters/{boris.pk}/").content.decode()
    assert "Long sword" in full and "Soak" in full and "Edit sheet" in full
    assert "Long sword" in as_storyguide.get(f"/characters/{boris.pk}/").content.decode()
    response = as_second_player.get(f"/characters/{boris.pk}/")
    table = response.content.decode()
    assert response.status_code == 200 and response.context["full"] is False
    assert "Sir Boris" in table and "Unhurt" in table and "Fresh" in table
    assert "Long sword" not in table and "Soak" not in table and "Edit sheet" not in table
    assert as_stranger.get(f"/characters/{boris.pk}/").status_code == 404
    assert as_stranger.get("/characters/999999/").status_code == 404


def test_players_see_npcs_only_as_the_table_would(bandit, as_player):
    page = as_player.get(f"/characters/{bandit.pk}/").content.decode()
    assert "Bandit" in page and "Short bow" not in page and "Stamp" not in page


# NPCs and stamping


def test_the_storyguide_creates_an_npc_without_an_owner(saga, as_storyguide):
    assert as_storyguide.get(f"/sagas/{saga.pk}/npcs/new/").status_code == 200
    response = as_storyguide.post(f"/sagas/{saga.pk}/npcs/new/", arsmagica_data("Wolf", soak=5))
    wolf = Character.objects.get(name="Wolf")
    assert response.status_code == 302
    assert wolf.is_npc and wolf.owner is None and ars_sheet(wolf).soak == 5


@pytest.mark.parametrize(("who", "status"), [("as_player", 403), ("as_stranger", 404)])
def test_only_the_storyguide_creates_npcs(saga, request, who, status):
    client = request.getfixturevalue(who)
    assert client.get(f"/sagas/{saga.pk}/npcs/new/").status_code == status
    assert client.post(f"/sagas/{saga.pk}/npcs/new/", arsmagica_data("Wolf")).status_code == status
    assert not Character.objects.exists()


def test_the_storyguide_stamps_four_bandits(bandit, as_storyguide):
    assert "Stamp copies" in as_storyguide.get(f"/characters/{bandit.pk}/").content.decode()
    response = as_storyguide.post(f"/characters/{bandit.pk}/stamp/", {"count": "4", "base_name": "Bandit"})
    assert response.status_code == 302 and response.url == f"/sagas/{bandit.saga_id}/"
    names = list(Character.objects.filter(is_npc=True).exclude(pk=bandit.pk).values_list("name", flat=True))
    assert names == ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]
    assert Weapon.objects.filter(character__name="Bandit 4").count() == 2


def test_stamping_too_many_says_so(bandit, as_storyguide):
    response = as_storyguide.post(f"/characters/{bandit.pk}/stamp/", {"count": "500"})
    assert response.status_code == 400
    assert "Stamp at most 50 copies at a time." in response.content.decode()
    assert Character.objects.count() == 1


@pytest.mark.parametrize(("who", "status"), [("as_player", 403), ("as_stranger", 404)])
def test_only_the_storyguide_stamps(bandit, request, who, status):
    response = request.getfixturevalue(who).post(f"/characters/{bandit.pk}/stamp/", {"count": "4"})
    assert response.status_code == status
    assert Character.objects.count() == 1


def test_player_characters_are_not_stamped(boris, as_storyguide):
    assert as_storyguide.post(f"/characters/{boris.pk}/stamp/", {"count": "2"}).status_code == 404
    assert as_storyguide.get(f"/characters/{boris.pk}/stamp/").status_code == 405
    assert Character.objects.count() == 1


def _in_a_fight(character, status="running"):
    from combat.models import Combatant, Encounter

    encounter = Encounter.objects.create(
        saga=character.saga, seat_holder=character.saga.storyguide, name="Forest road", status=status
    )
    Combatant.objects.create(encounter=encounter, character=character, side="Companions")
    return encounter


def test_in_a_fight_the_sheet_cannot_change_body_and_fatigue_levels(boris, as_player, as_storyguide):
    _in_a_fight(boris)
    page = as_player.get(f"/characters/{boris.pk}/edit/").content.decode()
    assert "corrects it from the encounter page" in page
    for client in (as_player, as_storyguide):  # the storyguide corrects from the encounter, with a reason
        data = arsmagica_data("Sir Boris", soak=7, fatigue_level="fresh", body_level="unhurt")
        data["body_level"], data["fatigue_level"] = "dead", "dazed"
        assert client.post(f"/characters/{boris.pk}/edit/", data).status_code == 302
    boris.refresh_from_db()
    assert (ars_sheet(boris).body_level, ars_sheet(boris).fatigue_level, ars_sheet(boris).soak) == (
        "unhurt",
        "fresh",
        7,
    )


def test_after_the_fight_the_sheet_sets_levels_again(boris, as_player):
    _in_a_fight(boris, status="ended")
    data = arsmagica_data("Sir Boris", body_level="light_wounds")
    assert as_player.post(f"/characters/{boris.pk}/edit/", data).status_code == 302
    boris.refresh_from_db()
    assert ars_sheet(boris).body_level == "light_wounds"
