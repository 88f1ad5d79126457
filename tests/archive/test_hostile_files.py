"""A bad or hostile archive is refused with the field's JSON path, and nothing at all is written."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaign.models import Character, Membership, Saga
from combat.archive.checks import Refused
from combat.archive.importer import import_saga
from combat.archive.reading_file import parsed
from combat.models import Combatant, Encounter, Event, SagaRecord

from .conftest import archive_data

pytestmark = pytest.mark.django_db

MODELS = (get_user_model(), Saga, Membership, Character, Encounter, Combatant, Event, SagaRecord)


def written() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in MODELS)


def event_of(data, kind):
    events = data["encounters"][0]["events"]
    return next(index for index, event in enumerate(events) if event["kind"] == kind)


def attacker_wrong(data):
    index = event_of(data, "attack")
    data["encounters"][0]["events"][index]["payload"]["attacker"] = 12
    return f"encounters[0].events[{index}].payload.attacker"


def an_attack_on_a_stranger(data):
    index = event_of(data, "attack")
    data["encounters"][0]["events"][index]["payload"]["defender"] = "9999"  # the right type, nobody here
    return f"encounters[0].events[{index}].payload.defender"


def a_declaration_by_a_stranger(data):
    index = event_of(data, "declared")
    data["encounters"][0]["events"][index]["payload"]["combatant"] = "4242"
    return f"encounters[0].events[{index}].payload.combatant"


def seq_gap(data):
    data["encounters"][0]["events"][3]["seq"] = 5
    return "encounters[0].events[3].seq"


def kind_of_another_system(data):
    data["encounters"][0]["events"][2]["kind"] = "d6_roll"
    return "encounters[0].events[2].kind"


def model_not_the_systems(data):
    data["system_rows"]["auth.user"] = [{"id": 1, "username": "root", "is_superuser": True}]
    return "system_rows.auth.user"


def declaration_of_a_stranger(data):
    data["system_rows"]["arsmagica.declaration"][1]["combatant"] = 999
    return "system_rows.arsmagica.declaration[1].combatant"


def weapon_with_a_bad_range(data):
    data["system_rows"]["arsmagica.weapon"][0]["optimum_range"] = "orbit"
    return "system_rows.arsmagica.weapon[0].optimum_range"


def a_players_archive(data):
    data["audience"] = "players"
    return "audience"


def an_extra_key(data):
    data["encounters"][0]["combatants"][0]["is_superuser"] = True
    return "encounters[0].combatants[0].is_superuser"


def a_bad_username(data):
    data["members"][1]["username"] = "bad name; drop table"
    return "members[1].username"


def a_character_twice(data):
    data["characters"][1]["id"] = data["characters"][0]["id"]
    return "characters[1].id"


def a_record_without_its_kind(data):
    data["records"][1]["kind"] = "teleport"
    return "records[1].kind"


def a_huge_name(data):
    data["saga"]["name"] = "x" * 10_000
    return "saga.name"


def a_time_without_offset(data):
    data["encounters"][0]["events"][0]["created_at"] = "2026-11-24T10:00:00"
    return "encounters[0].events[0].created_at"


def another_version(data):
    data["version"] = 3
    return "version"


def an_unknown_system(data):
    data["saga"]["rule_system"] = "gurps"
    return "saga.rule_system"


def a_copy_of_nobody(data):
    data["characters"][1]["stamped_from"] = 4242
    return "characters[1].stamped_from"


def a_copy_of_itself(data):
    data["characters"][1]["stamped_from"] = data["characters"][1]["id"]
    return "characters[1].stamped_from"


@pytest.mark.parametrize(
    "spoil",
    [
        a_copy_of_nobody,
        a_copy_of_itself,
        attacker_wrong,
        an_attack_on_a_stranger,
        a_declaration_by_a_stranger,
        seq_gap,
        kind_of_another_system,
        model_not_the_systems,
        declaration_of_a_stranger,
        weapon_with_a_bad_range,
        a_players_archive,
        an_extra_key,
        a_bad_username,
        a_character_twice,
        a_record_without_its_kind,
        a_huge_name,
        a_time_without_offset,
        another_version,
        an_unknown_system,
    ],
)
def test_a_spoiled_file_is_refused_at_its_path(ars_archive, spoil):
    data = ars_archive
    path = spoil(data)
    before = written()
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == path
    assert written() == before


def test_rows_that_clash_in_the_database_roll_everything_back(d6):
    data = archive_data(d6.saga, d6.storyguide)
    d6.saga.delete()
    fighters = data["system_rows"]["d6table.fighter"]
    fighters[1]["combatant"] = fighters[0]["combatant"]  # one combatant, two places in the fight
    data["members"].append({"username": "newcomer", "role": "player"})
    before = written()
    with pytest.raises(Refused) as refusal:
        import_saga(data)
    assert refusal.value.path == "system_rows"
    assert written() == before and not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("raw", [b"", b"not json", b"[" * 100_000, b'{"format": 1}', b"[]"])
def test_what_is_not_an_archive_is_refused(db, raw):
    with pytest.raises(Refused):
        import_saga(parsed(raw))


def test_the_command_says_the_path_and_exits_2(ars_archive, tmp_path):
    data = ars_archive
    path = seq_gap(data)
    spoiled = tmp_path / "saga.json"
    spoiled.write_text(json.dumps(data))
    with pytest.raises(CommandError) as error:
        call_command("import_saga", str(spoiled))
    assert error.value.returncode == 2 and path in str(error.value)


def test_an_upload_makes_the_uploader_the_storyguide(client, ars_archive):
    raw = json.dumps(ars_archive).encode()
    newcomer = get_user_model().objects.create_user(username="newcomer")
    client.force_login(newcomer)
    response = client.post(reverse("saga_import"), {"archive": _upload(raw)})
    saga = Saga.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("saga_detail", args=[saga.pk])
    assert (
        saga.storyguide == newcomer and Membership.objects.get(saga=saga, user=newcomer).role == "storyguide"
    )
    assert not get_user_model().objects.filter(username="sg").exists()
    assert Event.objects.filter(encounter__saga=saga, actor=newcomer).exists()


def test_a_refused_upload_shows_the_path_and_writes_nothing(client, ars_archive):
    data = ars_archive
    path = attacker_wrong(data)
    client.force_login(get_user_model().objects.create_user(username="uploader"))
    before = written()
    response = client.post(reverse("saga_import"), {"archive": _upload(json.dumps(data).encode())})
    assert response.status_code == 400 and path in response.content.decode()
    assert written() == before


def test_the_upload_is_posted_only(client, db):
    client.force_login(get_user_model().objects.create_user(username="uploader"))
    assert client.get(reverse("saga_import")).status_code == 405


def _upload(raw: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("saga.json", raw, content_type="application/json")


def test_an_upload_makes_no_account_and_matches_only_people_already_here(client, ars_archive):
    """The sagas page's upload matches the file's people to accounts already here and makes none: the
    unmatched are left out, named on the page, their characters without an owner."""
    members = [m["username"] for m in ars_archive["members"] if m["role"] != "storyguide"]
    matched, *unmatched = members
    User = get_user_model()
    known = User.objects.create_user(username=matched)
    uploader = User.objects.create_user(username="uploader")
    client.force_login(uploader)
    response = client.post(reverse("saga_import"), {"archive": _upload(json.dumps(ars_archive).encode())})
    saga = Saga.objects.get()
    assert response.status_code == 302
    assert set(User.objects.values_list("username", flat=True)) == {matched, "uploader"}
    assert set(Membership.objects.filter(saga=saga).values_list("user__username", "role")) == {
        ("uploader", "storyguide"),
        (matched, "player"),
    }
    owners = {c["name"]: c["owner"] for c in ars_archive["characters"]}
    for character in Character.objects.filter(saga=saga):
        wanted = owners[character.name]
        assert character.owner == (known if wanted == matched else uploader if wanted == "sg" else None)
    page = client.get(reverse("saga_list")).content.decode()
    assert unmatched and all(name in page for name in unmatched) and "Not matched to anyone here" in page
    assert "no account is made for anyone else" in page  # said beside the upload, before it


def test_the_hosts_command_makes_the_accounts_the_file_names(ars_archive):
    saga = import_saga(ars_archive)
    names = {m["username"] for m in ars_archive["members"]}
    assert names <= set(get_user_model().objects.values_list("username", flat=True)) and saga.unmatched == []


def test_ids_in_json_that_are_no_numbers_are_kept_as_they_are(ars_archive):
    movement = event_of(ars_archive, "movement")
    payload = ars_archive["encounters"][0]["events"][movement]["payload"]
    payload["names"]["somebody"] = "Nobody"
    payload["dice"]["99999999999999999999999"] = {"initiative": [1]}
    saga = import_saga(ars_archive)
    imported = Event.objects.get(encounter__saga=saga, kind="movement").payload
    assert imported["names"]["somebody"] == "Nobody"
    assert "99999999999999999999999" in imported["dice"]
