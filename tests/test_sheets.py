"""One definition per sheet field: each rule system declares its sheet once (`arsmagica.sheet`,
`d6.sheet`); the form, the sheet page, the engine's snapshot and the demo are made from it, the
encounter-file readers are checked against it here, and the core's Character holds no field of it."""

from io import StringIO

import pytest
from django.core.management import call_command

from arsmagica import sheet as ars
from arsmagica.rules import encounter_reader
from arsmagica.services import sheets as ars_services
from arsmagica.sheet_forms import ArsMagicaCharacterForm
from campaign.models import Character
from combat.rules.errors import EncounterFileError
from d6 import sheet as d6
from d6.rules import encounter_file as d6_reader

# The encounter files and the engine name Dodge Defense `dodge` (docs/encounter-files.md).
ARS_FILE_NAMES = {"dodge_defense": "dodge"}


@pytest.mark.parametrize("system", [ars, d6], ids=["arsmagica", "d6"])
def test_the_core_character_keeps_no_column_of_a_sheet(system):
    columns = {field.name for field in Character._meta.get_fields()}
    assert not columns & {field.name for field in system.FIELDS}
    assert "sheet" in columns


def test_the_ars_magica_form_has_a_field_per_declared_score_with_its_label_and_bounds():
    form = ArsMagicaCharacterForm()
    for score in ars.SCORES:
        field = form.fields[score.name]
        assert (field.label, field.help_text) == (score.label, score.help)
        assert (field.min_value, field.max_value) == (score.minimum, score.maximum)
    assert [bound.name for bound in form.scores()] == [score.name for score in ars.SCORES]


def test_the_ars_magica_file_reader_and_the_engine_read_the_declared_scores():
    declared = [ARS_FILE_NAMES.get(score.name, score.name) for score in ars.SCORES]
    assert list(encounter_reader._SCORES) == declared
    assert set(ars_services.SHEET_FIELDS) == set(declared) - {"dodge"}


def test_the_d6_file_reader_reads_the_declared_fields_and_nothing_else():
    character = {"id": "wren", **d6.new_sheet(attributes={"stamina": 1}, fatigue=3)}
    character["abilities"] = [{"name": "Running", "attribute": "stamina", "consistency": 1}]
    d6_reader._read_characters([character])
    with pytest.raises(EncounterFileError, match="luck"):
        d6_reader._read_characters([{**character, "luck": 2}])


def test_a_sheet_saved_before_a_field_existed_reads_it_at_its_default():
    character = Character(sheet={"soak": 5})
    view = ars.sheet_of(character)
    assert (view.soak, view.quickness, view.fatigue_level, view.fatigue_state) == (5, 0, "fresh", {})
    assert d6.sheet_of(Character(sheet={})).fatigue == 1
    with pytest.raises(AttributeError):
        view.luck  # noqa: B018 - an undeclared field is not on the sheet


def test_writing_an_undeclared_field_is_refused():
    character = Character(sheet={})
    ars.write(character, soak=4)
    assert character.sheet["soak"] == 4 and set(character.sheet) == {field.name for field in ars.FIELDS}
    with pytest.raises(KeyError, match="luck"):
        ars.write(character, luck=3)


@pytest.mark.django_db
def test_the_demo_sheets_are_made_from_the_declaration():
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo_d6", stdout=StringIO())
    for character in Character.objects.select_related("saga"):
        system = ars if character.saga.rule_system == "arsmagica" else d6
        assert set(character.sheet) == {field.name for field in system.FIELDS}, character.name
