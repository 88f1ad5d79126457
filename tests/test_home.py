def test_home_page_says_what_covenant_is(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Covenant" in response.content
    assert b"htmx" in response.content  # htmx is served by django-htmx, never a CDN
