"""Not found, not allowed, server error: Covenant's own pages (DEBUG off), in the site's frame, plainly."""

from django.test import RequestFactory
from django.views.defaults import server_error


def test_a_saga_that_is_not_there_is_a_plain_not_found_page(as_player):
    response = as_player.get("/sagas/999999/")
    assert response.status_code == 404
    assert [t.name for t in response.templates][:2] == ["404.html", "base.html"]
    assert b"<h1>Not found</h1>" in response.content and b'<html lang="en">' in response.content


def test_a_player_opening_the_storyguides_form_is_told_why(saga, as_player):
    response = as_player.get(f"/sagas/{saga.pk}/npcs/new/")
    assert response.status_code == 403
    assert b"<h1>Not allowed</h1>" in response.content
    assert b"Only the storyguide can do that." in response.content


def test_a_server_error_is_a_page_in_the_sites_frame(db):
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"<h1>Something went wrong</h1>" in response.content and b'<html lang="en">' in response.content


def test_a_server_error_page_needs_no_database_and_no_request_context(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = server_error(RequestFactory().get("/"))
    assert b'href="/"' in response.content  # the way back: the front page


def test_a_form_sent_with_a_stale_token_is_the_sites_own_page(saga, player):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    response = browser.post(f"/sagas/{saga.pk}/characters/new/", {"csrfmiddlewaretoken": "stale"})
    assert response.status_code == 403
    assert [t.name for t in response.templates][:2] == ["403_csrf.html", "base.html"]
    assert b"<h1>This form has expired</h1>" in response.content
    assert b"alice" in response.content  # the person's own header: drawn with the request
