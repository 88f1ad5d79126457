"""An htmx command from someone whose session has ended: HX-Redirect to the login page, back to the page."""

from django.test import Client
from django.urls import reverse


def test_an_anonymous_htmx_command_is_sent_to_the_login_page_with_the_page_to_come_back_to(db):
    response = Client().post(
        reverse("arsmagica:open_declarations", args=[7]),
        {"expected_version": "1"},
        headers={"HX-Request": "true", "HX-Current-URL": "http://table.example/encounters/7/?tab=log"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=/encounters/7/%3Ftab%3Dlog"


def test_an_anonymous_htmx_fetch_without_a_current_url_comes_back_home(db):
    response = Client().get(reverse("arsmagica:my_declarations", args=[7]), headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == "/accounts/login/?next=/"


def test_a_plain_request_is_still_redirected_as_before(db):
    response = Client().post(reverse("arsmagica:open_declarations", args=[7]), {"expected_version": "1"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert "HX-Redirect" not in response
