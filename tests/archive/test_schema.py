"""docs/schemas/saga-archive.schema.json agrees with the archives Covenant writes, for both systems and
both audiences, and refuses what the import refuses at the same place."""

import json
from pathlib import Path

import pytest

from tests.rules.arsmagica import test_ars_schema

from .conftest import archive_data

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "saga-archive.schema.json").read_text())


@pytest.fixture
def problems(monkeypatch):
    monkeypatch.setattr(test_ars_schema, "SCHEMA", SCHEMA)
    return lambda data: test_ars_schema.problems(data, SCHEMA)


def test_every_archive_follows_the_schema(problems, ars, d6):
    for table in (ars, d6):
        for person in (table.storyguide, table.alice):
            data = archive_data(table.saga, person)
            assert data["encounters"][0]["events"]
            assert problems(data) == []


def test_the_schema_refuses_an_undeclared_field(problems, ars):
    data = archive_data(ars.saga, ars.storyguide)
    data["encounters"][0]["events"][0]["hidden"] = True
    data["saga"]["rule_system"] = 7
    assert problems(data) == [
        "$.saga.rule_system: not ['string']",
        "$.encounters[0].events[0].hidden: not allowed",
    ]
