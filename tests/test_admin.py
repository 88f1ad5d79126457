"""The host's view at /admin/: every list and page answers a superuser; the logs cannot be changed there."""

import io
import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from arsmagica.models import Weapon
from arsmagica.services import recovery
from arsmagica.sheet import new_sheet
from campaign.models import Character, Membership, Saga
from combat.models import Combatant, Encounter, Event, SagaRecord

# (model, may the host add one there?)
REGISTERED = [
    (get_user_model(), True),
    (Saga, False),
    (Membership, True),
    (Character, False),
    (Encounter, False),
    (Event, False),
    (SagaRecord, False),
    (Weapon, False),
]


@pytest.fixture
def host(db, settings):
    """A superuser's client, with both demo sagas and a record of time passing in the first."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))
    call_command("load_demo_d6", stdout=open("/dev/null", "w"))
    saga = Saga.objects.get(name="Sir Boris and the bandits")
    traveller = Character.objects.create(saga=saga, name="Old Tom", is_npc=True, sheet=new_sheet())
    recovery.record_exertion(saga.storyguide, traveller.pk, 1, "a day's march", saga_id=saga.pk)
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("host", password="a-long-host-password"))
    return client


def url(model, view: str, *args) -> str:
    """The admin's address of a model's view."""
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def no_inline_rows(prefix: str) -> dict:
    """An inline's management form, for a post that leaves its rows as they are."""
    return {f"{prefix}-{key}": value for key, value in (("TOTAL_FORMS", 0), ("INITIAL_FORMS", 0))}


@pytest.mark.parametrize(("model", "addable"), REGISTERED, ids=lambda v: getattr(v, "__name__", str(v)))
def test_each_list_and_page_answers_a_superuser(host, model, addable):
    assert model.objects.exists()
    for obj in model.objects.all():
        assert host.get(url(model, "change", obj.pk)).status_code == 200
    assert host.get(url(model, "changelist")).status_code == 200
    assert host.get(url(model, "changelist"), {"q": "Boris"}).status_code == 200
    assert host.get(url(model, "add")).status_code == (200 if addable else 403)


def test_the_searches_and_filters_find_their_rows(host):
    page = host.get(url(Character, "changelist"), {"q": "Marta", "is_npc__exact": "0"}).content.decode()
    assert "Marta the Huntress" in page and "Brother Anselm" not in page
    page = host.get(url(Event, "changelist"), {"kind": "encounter_created"}).content.decode()
    assert "Ambush on the forest road" in page and "Thief in the market" in page


@pytest.mark.parametrize("model", [Event, SagaRecord])
def test_the_log_cannot_be_changed_or_deleted(host, model):
    row = model.objects.first()
    before = list(model.objects.values())
    page = host.get(url(model, "change", row.pk)).content.decode()
    assert 'name="_save"' not in page and "deletelink" not in page
    assert host.post(url(model, "change", row.pk), {"kind": "edited", "payload": "{}"}).status_code == 403
    assert host.post(url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    answer = host.post(url(model, "changelist"), {"action": "delete_selected", "_selected_action": [row.pk]})
    assert answer.status_code in (200, 302)  # no such action: the list again, nothing deleted
    assert list(model.objects.values()) == before


@pytest.fixture
def console():
    """What the server's console handler (config/settings.py's LOGGING) writes, as text."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    written = io.StringIO()
    before = handler.setStream(written)
    try:
        yield written
    finally:
        handler.setStream(before)


@pytest.mark.parametrize("model", [Event, SagaRecord])
def test_a_refused_write_is_one_line_in_the_log_without_a_traceback(host, model, console):
    """Issue 35, item 3: Django logs PermissionDenied with its exception; config/log_filters.py keeps the
    line and drops the traceback, and Django's "django" logger no longer prints it a second time under
    DEBUG (it passes its records up to the root's console handler only)."""
    row = model.objects.first()
    assert host.post(url(model, "change", row.pk), {"kind": "edited"}).status_code == 403
    assert host.post(url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    assert console.getvalue().splitlines() == [
        f"Forbidden (Permission denied): {url(model, 'change', row.pk)}",
        f"Forbidden (Permission denied): {url(model, 'delete', row.pk)}",
    ]
    assert logging.getLogger("django").handlers == [] and logging.getLogger("django").propagate


def test_a_host_header_the_server_was_not_given_is_one_line_in_the_log(db, console):
    """A 400 for a Host not in ALLOWED_HOSTS (django.security.DisallowedHost, logged with its exception):
    once, and without the traceback."""
    assert Client().get("/accounts/login/", HTTP_HOST="elsewhere.example").status_code == 400
    assert console.getvalue().splitlines() == [
        "Invalid HTTP_HOST header: 'elsewhere.example'. "
        "You may need to add 'elsewhere.example' to ALLOWED_HOSTS."
    ]


def test_an_encounter_and_its_saga_are_not_deleted_with_their_log(host):
    encounter = Encounter.objects.get(name="Ambush on the forest road")
    events = Event.objects.filter(encounter=encounter).count()
    assert host.post(url(Encounter, "delete", encounter.pk), {"post": "yes"}).status_code == 403
    saga = encounter.saga
    page = host.get(url(Saga, "delete", saga.pk)).content.decode()
    assert "permission to delete the following types of objects" in page and "<li>encounter</li>" in page
    assert host.post(url(Saga, "delete", saga.pk), {"post": "yes"}).status_code == 403
    assert Saga.objects.filter(pk=saga.pk).exists()
    assert Event.objects.filter(encounter=encounter).count() == events
    assert Combatant.objects.filter(encounter=encounter).count() == 6


def test_an_encounters_state_is_read_not_edited(host):
    encounter = Encounter.objects.get(name="Ambush on the forest road")
    form = {
        "name": "The forest road",
        "archived_at_0": "",
        "archived_at_1": "",
        **no_inline_rows("combatants"),
    }
    answer = host.post(
        url(Encounter, "change", encounter.pk), {**form, "round_number": "9", "status": "ended"}
    )
    assert answer.status_code == 302
    encounter.refresh_from_db()
    assert (encounter.name, encounter.round_number, encounter.status) == ("The forest road", 0, "preparing")


def test_a_character_in_the_history_is_not_deleted_and_an_owner_must_play_in_the_saga(host):
    boris = Character.objects.get(name="Sir Boris")
    assert host.post(url(Character, "delete", boris.pk), {"post": "yes"}).status_code == 403
    assert Character.objects.filter(pk=boris.pk).exists()
    outsider = get_user_model().objects.create_user("outsider")
    answer = host.post(
        url(Character, "change", boris.pk), {"name": "Sir Boris", "owner": outsider.pk, "notes": ""}
    )
    assert "outsider is not in Sir Boris and the bandits: add a membership first." in answer.content.decode()
    boris.refresh_from_db()
    assert boris.owner.username == "player1"


def test_the_host_adds_a_player_and_cannot_take_out_the_storyguide(host):
    saga = Saga.objects.get(name="Sir Boris and the bandits")
    newcomer = get_user_model().objects.create_user("newcomer")
    answer = host.post(url(Membership, "add"), {"saga": saga.pk, "user": newcomer.pk, "role": "storyguide"})
    assert answer.status_code == 302
    assert Membership.objects.get(saga=saga, user=newcomer).role == Membership.Role.PLAYER
    storyguides = Membership.objects.get(saga=saga, role=Membership.Role.STORYGUIDE)
    assert host.post(url(Membership, "delete", storyguides.pk), {"post": "yes"}).status_code == 403
    assert Membership.objects.filter(pk=storyguides.pk).exists()


def test_a_name_changed_here_is_logged_as_the_site_logs_it(host):
    """A rename in the admin reaches the record of each open encounter the character fights in
    (combat.names), as the sheet's rename does: the history does not name him two ways."""
    boris = Character.objects.get(name="Sir Boris")
    encounter = Encounter.objects.get(name="Ambush on the forest road")
    form = {"name": "Sir Boris the Bold", "owner": boris.owner.pk, "notes": boris.notes}
    assert host.post(url(Character, "change", boris.pk), form).status_code == 302
    renamed = encounter.events.get(kind="combatant_renamed")
    assert renamed.payload["name"] == "Sir Boris the Bold" and renamed.payload["was"] == "Sir Boris"
    assert renamed.actor.is_superuser
