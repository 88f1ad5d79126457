"""Websocket routes."""

from django.urls import path

from .consumers import EncounterConsumer

websocket_urlpatterns = [
    path("ws/encounters/<id:encounter_id>/", EncounterConsumer.as_asgi()),
]
