from django.urls import path

from . import views

urlpatterns = [
    path("encounters/<id:encounter_id>/coin/flip/", views.flip, name="coinduel_flip"),
]
