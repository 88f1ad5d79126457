"""Not found, not allowed, server error: Covenant's own pages (DEBUG off), in the site's frame, plainly."""

from django.test import RequestFactory
from django.views.defaults import server_error


def test_a_saga_that_is_not_there_is_a_plain_not_found_page(as_bob):
    response = as_bob.get("/sagas/999999/")
    assert response.status_code == 404
    assert [t.name for t in response.templates][:2] == ["404.html", "base.html"]
    assert b"<h1>Not found</h1>" in response.content and b'<html lang="en">' in response.content


def test_a_player_opening_the_storyguides_form_is_told_why(saga, as_bob):
    response = as_bob.get(f"/sagas/{saga.pk}/npcs/new/")
    assert response.status_code == 403
    assert b"<h1>Not allowed</h1>" in response.content
    assert b"Only the storyguide can do that." in response.content


def test_a_server_error_is_a_page_in_the_sites_frame(db):
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"<h1>Something went wrong</h1>" in response.content and b'<html lang="en">' in response.content
