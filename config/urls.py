"""Covenant's URLs: each app owns its own; each installed rule system brings its pages and commands."""

from django.contrib import admin
from django.urls import include, path

from combat import systems

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("campaign.web_app")),  # the manifest, the service worker, /favicon.ico
    path("", include("campaign.urls")),
    path("", include("combat.urls")),
    *(path("", include(system.urls)) for system in systems.all_systems() if system.urls),
]
