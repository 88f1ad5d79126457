"""The d6 table's URLs; set-up (a new encounter, combatants in and out) is the core's (combat/urls.py)."""

from django.http import HttpResponsePermanentRedirect
from django.urls import path, reverse

from combat import views as core

from . import views


def moved(name: str, view):
    """An old d6 URL of the core's view `name`: a GET goes there for good (301); a post, from a page
    opened before the move, is answered by the core's view itself, so its form still works."""

    def old_url(request, **kwargs):
        if request.method == "GET":  # a HEAD too (config/head.py)
            return HttpResponsePermanentRedirect(reverse(name, kwargs=kwargs))
        return view(request, **kwargs)

    return old_url


urlpatterns = [
    path("sagas/<id:saga_id>/attributes/", views.saga_attributes, name="saga_d6_attributes"),
    path("encounters/<id:encounter_id>/d6/", views.table, name="d6_table"),
    path("encounters/<id:encounter_id>/d6/fight/", views.start_fight, name="d6_start_fight"),
    path("encounters/<id:encounter_id>/d6/roll/", views.roll, name="d6_roll"),
    path("encounters/<id:encounter_id>/d6/to-meet/", views.to_meet, name="d6_to_meet"),
    path("encounters/<id:encounter_id>/d6/cluster/", views.cluster, name="d6_cluster"),
    path("encounters/<id:encounter_id>/d6/value/", views.set_value, name="d6_set_value"),
    path("encounters/<id:encounter_id>/d6/breather/", views.breather, name="d6_breather"),
    path("encounters/<id:encounter_id>/d6/end-turn/", views.end_turn, name="d6_end_turn"),
    path("encounters/<id:encounter_id>/d6/chase/", views.start_chase, name="d6_start_chase"),
    path("encounters/<id:encounter_id>/d6/chase/exchange/", views.exchange, name="d6_exchange"),
    path("encounters/<id:encounter_id>/d6/chase/offer/", views.offer_terrain, name="d6_offer_terrain"),
    path("encounters/<id:encounter_id>/d6/chase/choose/", views.choose_terrain, name="d6_choose_terrain"),
    path("encounters/<id:encounter_id>/d6/chase/faces/", views.chase_faces, name="d6_chase_faces"),
    path("encounters/<id:encounter_id>/d6/chase/at-target/", views.at_target, name="d6_at_target"),
    path(
        "encounters/<id:encounter_id>/d6/chase/breather/", views.runner_breather, name="d6_runner_breather"
    ),
    # Before the core's set-up views served every system, d6 had its own, here:
    path("sagas/<id:saga_id>/encounters/new-d6/", moved("encounter_create", core.encounter_create)),
    path("encounters/<id:encounter_id>/d6/combatants/", moved("add_combatants", core.add_combatants)),
    path(
        "encounters/<id:encounter_id>/d6/combatants/<id:combatant_id>/remove/",
        moved("remove_combatant", core.remove_combatant),
    ),
]
