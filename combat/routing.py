"""Websocket routes."""

from django.urls import path, re_path

from .consumers import EncounterConsumer, SagaConsumer, UnknownPath

websocket_urlpatterns = [
    path("ws/encounters/<id:encounter_id>/", EncounterConsumer.as_asgi()),
    path("ws/sagas/<id:saga_id>/", SagaConsumer.as_asgi()),
    re_path(r"", UnknownPath.as_asgi()),  # last: refuse any other path cleanly, not with a 500
]
