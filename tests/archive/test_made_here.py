"""An imported or duplicated saga says what it is (issue 35, item 5): its name ("… (imported 29 Nov)",
"… (copy 29 Nov)", unique among its storyguide's sagas) and its date, the day it was made here, on My sagas
and in the admin; every other row keeps the file's dates."""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from campaign.models import Saga
from campaign.services import create_saga, made_here_name
from combat.archive.importer import duplicate_saga, import_saga
from combat.models import Event

from .conftest import archive_data

pytestmark = pytest.mark.django_db

NOV_29 = datetime.date(2026, 11, 29)


def test_a_name_says_imported_or_copy_and_the_day_and_is_unique_among_the_storyguides_sagas():
    guide = get_user_model().objects.create_user("sg")
    other = get_user_model().objects.create_user("other")
    assert made_here_name("Forest", guide, "imported", NOV_29) == "Forest (imported 29 Nov)"
    create_saga(guide, name="Forest (imported 29 Nov)", rule_system="arsmagica")
    create_saga(other, name="Forest (copy 29 Nov)", rule_system="arsmagica")  # another storyguide's
    assert made_here_name("Forest", guide, "imported", NOV_29) == "Forest (imported 29 Nov, 2)"
    assert made_here_name("Forest", guide, "copy", NOV_29) == "Forest (copy 29 Nov)"
    # a copy of a copy, or of an import, is marked once, not "(copy 29 Nov) (copy 29 Nov)"
    again = made_here_name("Forest (imported 29 Nov)", guide, "imported", NOV_29)
    assert again == "Forest (imported 29 Nov, 2)"
    assert made_here_name("Forest (copy 3 Dec, 4)", guide, "copy", NOV_29) == "Forest (copy 29 Nov)"
    longest = "x" * Saga._meta.get_field("name").max_length
    made = made_here_name(longest, guide, "imported", NOV_29)
    assert len(made) == len(longest) and made.endswith(" (imported 29 Nov)")


def test_an_import_is_made_today_and_its_rows_keep_the_files_dates(ars):
    table = ars
    data = archive_data(table.saga, table.storyguide)
    first, second = (import_saga(json.loads(json.dumps(data)), storyguide=table.storyguide) for _ in range(2))
    today = timezone.localdate()
    assert first.name == f"Test saga (imported {today.day} {today:%b})"
    assert second.name == f"Test saga (imported {today.day} {today:%b}, 2)"
    assert first.created_at > table.saga.created_at
    assert timezone.localdate(first.created_at) == today
    dates = [
        sorted(Event.objects.filter(encounter__saga=saga).values_list("created_at", flat=True))
        for saga in (first, table.saga)
    ]
    assert dates[0] == dates[1]


def test_my_sagas_and_the_admin_tell_the_original_its_import_and_its_copy_apart(ars, client):
    table = ars
    Saga.objects.filter(pk=table.saga.pk).update(created_at=timezone.now() - datetime.timedelta(days=400))
    imported = import_saga(archive_data(table.saga, table.storyguide), storyguide=table.storyguide)
    copy = duplicate_saga(table.saga, table.storyguide)
    client.force_login(table.storyguide)
    page = client.get(reverse("saga_list")).content.decode()
    original = timezone.localdate(Saga.objects.get(pk=table.saga.pk).created_at)
    today = timezone.localdate()
    for saga, day in ((table.saga, original), (imported, today), (copy, today)):
        card = page[page.index(f">{saga.name}</a>") :]
        shown = card[:400]
        assert "made <time datetime=" in shown and f">{day.day} {day:%b} {day.year}</time>" in shown
    host = get_user_model().objects.create_superuser("host", password="a-long-host-password")
    client.force_login(host)
    admin = client.get(reverse("admin:campaign_saga_changelist")).content.decode()
    assert all(saga.name in admin for saga in (table.saga, imported, copy))


def test_the_upload_names_its_saga_imported(ars, client):
    table = ars
    client.force_login(table.storyguide)
    raw = json.dumps(archive_data(table.saga, table.storyguide)).encode()
    answer = client.post(
        reverse("saga_import"), {"archive": SimpleUploadedFile("archive.json", raw)}, follow=True
    )
    today = timezone.localdate()
    assert f"“Test saga (imported {today.day} {today:%b})” is imported" in answer.content.decode()
