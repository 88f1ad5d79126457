"""A d6 character's sheet through the campaign's pages: made with its fatigue from the base, its errors
beside their fields, edited, seen as the table would by others, in the saga's attribute order, and its
fatigue kept while a chase runs."""

import pytest

from campaign.models import Character
from d6.services.sheet import stamina_base
from d6.sheet import sheet_of as d6_sheet


def d6_data(name="Ysolde", abilities=(), fatigue="", **attributes):
    data = {"name": name, "fatigue": str(fatigue), "notes": ""}
    for attribute in ["strength", "dexterity", "stamina", "intelligence", "perception", "charisma"]:
        data[f"attr_{attribute}"] = str(attributes.get(attribute, 0))
    data["abilities-TOTAL_FORMS"] = str(len(abilities))
    data["abilities-INITIAL_FORMS"] = "0"
    for index, ability in enumerate(abilities):
        for key, value in ability.items():
            if value is not False:
                data[f"abilities-{index}-{key}"] = "on" if value is True else str(value)
    return data


# d6 sheets


def test_the_second_player_creates_a_d6_character_starting_at_base_fatigue(
    d6_saga, second_player, as_second_player
):
    url = f"/sagas/{d6_saga.pk}/characters/new/"
    page = as_second_player.get(url).content.decode()
    assert "Charisma" in page and "Base fatigue" in page
    response = as_second_player.post(
        url,
        d6_data(
            "Ysolde",
            strength=2,
            stamina=1,
            dexterity=3,
            abilities=[
                {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True},
                {"name": "Lore", "attribute": "intelligence", "consistency": -1, "physical": False},
            ],
        ),
    )
    ysolde = Character.objects.get(name="Ysolde")
    assert response.status_code == 302
    assert ysolde.owner == second_player
    assert d6_sheet(ysolde).attributes["stamina"] == 1 and d6_sheet(ysolde).attributes["dexterity"] == 3
    assert d6_sheet(ysolde).fatigue == 3  # base fatigue = 4 - Stamina
    assert d6_sheet(ysolde).abilities == [
        {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True},
        {"name": "Lore", "attribute": "intelligence", "consistency": -1, "physical": False},
    ]
    sheet = as_second_player.get(f"/characters/{ysolde.pk}/").content.decode()
    assert "(base 3)" in sheet and "Running" in sheet


def test_base_fatigue_is_at_least_one(d6_saga, as_second_player):
    as_second_player.post(f"/sagas/{d6_saga.pk}/characters/new/", d6_data("Hulk", stamina=5))
    hulk = Character.objects.get()
    assert d6_sheet(hulk).fatigue == 1 and stamina_base(hulk) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (d6_data(fatigue=21), "Fatigue runs from 1 to 20."),
        (d6_data(fatigue=0), "Fatigue runs from 1 to 20."),
        (d6_data(name=""), "Every character needs a name."),
        (d6_data(strength=99), "Strength cannot be above 40."),
        (
            d6_data(abilities=[{"name": "Swim", "attribute": "stamina", "consistency": 11}]),
            "Consistency runs from -10 to 10.",
        ),
        (d6_data(abilities=[{"name": "Swim", "attribute": "luck", "consistency": 0}]), "Select a valid"),
        (d6_data(abilities=[{"name": "", "attribute": "stamina", "consistency": 2}]), "Give the ability a"),
    ],
)
def test_d6_sheet_errors_are_shown_and_nothing_is_saved(d6_saga, as_second_player, data, message):
    response = as_second_player.post(f"/sagas/{d6_saga.pk}/characters/new/", data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Character.objects.exists()


def test_d6_edit_keeps_current_fatigue_and_removes_an_ability(d6_saga, second_player, as_second_player):
    ysolde = Character.objects.create(
        saga=d6_saga,
        owner=second_player,
        name="Ysolde",
        sheet={
            "fatigue": 7,
            "attributes": {"stamina": 1},
            "abilities": [{"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True}],
        },
    )
    page = as_second_player.get(f"/characters/{ysolde.pk}/edit/").content.decode()
    assert 'value="Running"' in page and 'value="7"' in page
    data = d6_data(
        "Ysolde",
        fatigue=7,
        stamina=1,
        abilities=[
            {"name": "Running", "attribute": "stamina", "consistency": 1, "physical": True, "DELETE": True},
        ],
    )
    data["abilities-INITIAL_FORMS"] = "1"
    assert as_second_player.post(f"/characters/{ysolde.pk}/edit/", data).status_code == 302
    ysolde.refresh_from_db()
    assert d6_sheet(ysolde).fatigue == 7 and d6_sheet(ysolde).abilities == []


def test_others_see_a_d6_character_only_as_the_table_would(d6_saga, second_player, as_player):
    ysolde = Character.objects.create(
        saga=d6_saga,
        owner=second_player,
        name="Ysolde",
        sheet={"fatigue": 5, "attributes": {"strength": 3, "stamina": 1}},
    )
    response = as_player.get(f"/characters/{ysolde.pk}/")
    page = response.content.decode()
    assert response.status_code == 200 and response.context["full"] is False
    assert "Ysolde" in page and "Fatigue" in page
    assert "Strength" not in page and "base" not in page


def test_d6_sheet_shows_the_sagas_attributes_in_order(d6_saga, second_player, as_second_player):
    d6_saga.options = {"attributes": ["strength", "dexterity", "stamina", "wits"]}
    d6_saga.save()
    ysolde = Character.objects.create(
        saga=d6_saga, owner=second_player, name="Ysolde", sheet={"attributes": {"wits": 2, "luck": 1}}
    )
    response = as_second_player.get(f"/characters/{ysolde.pk}/")
    assert response.context["attribute_rows"] == [
        ("strength", 0),
        ("dexterity", 0),
        ("stamina", 0),
        ("wits", 2),
        ("luck", 1),
    ]


def _in_a_fight(character, status="running"):
    from combat.models import Combatant, Encounter

    encounter = Encounter.objects.create(
        saga=character.saga, seat_holder=character.saga.storyguide, name="Forest road", status=status
    )
    Combatant.objects.create(encounter=encounter, character=character, side="Companions")
    return encounter


def test_in_a_chase_the_d6_sheet_cannot_lower_fatigue(d6_saga, second_player, as_second_player):
    ysolde = Character.objects.create(
        saga=d6_saga, owner=second_player, name="Ysolde", sheet={"fatigue": 9, "attributes": {"stamina": 1}}
    )
    _in_a_fight(ysolde)
    data = d6_data("Ysolde", fatigue=3, stamina=1)
    assert as_second_player.post(f"/characters/{ysolde.pk}/edit/", data).status_code == 302
    ysolde.refresh_from_db()
    assert d6_sheet(ysolde).fatigue == 9
