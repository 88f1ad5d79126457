"""Covenant's URLs: each app owns its own."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("campaign.urls")),
    path("", include("combat.urls")),
    path("", include("arsmagica.urls")),
    path("", include("d6.urls")),
]
