from django.urls import path

from . import views

urlpatterns = [
    path("encounters/<int:encounter_id>/coin/flip/", views.flip, name="coinduel_flip"),
]
