"""Covenant's URLs: each app owns its own; each installed rule system brings its pages and commands, under
its own namespace (`combat.commands.system_urls`)."""

from django.contrib import admin
from django.urls import include, path

from combat import systems
from combat.commands import system_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("campaign.web_app")),  # the manifest, the service worker, /favicon.ico
    path("", include("campaign.urls")),
    path("", include("combat.urls")),
    *(system_urls(system) for system in systems.all_systems()),
]
