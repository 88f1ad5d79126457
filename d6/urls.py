from django.urls import path

from . import views

urlpatterns = [
    path("sagas/<id:saga_id>/attributes/", views.saga_attributes, name="saga_d6_attributes"),
    path("sagas/<id:saga_id>/encounters/new-d6/", views.encounter_create, name="d6_encounter_create"),
    path("encounters/<id:encounter_id>/d6/", views.table, name="d6_table"),
    path("encounters/<id:encounter_id>/d6/combatants/", views.add_combatants, name="d6_add_combatants"),
    path(
        "encounters/<id:encounter_id>/d6/combatants/<id:combatant_id>/remove/",
        views.remove_combatant,
        name="d6_remove_combatant",
    ),
    path("encounters/<id:encounter_id>/d6/fight/", views.start_fight, name="d6_start_fight"),
    path("encounters/<id:encounter_id>/d6/roll/", views.roll, name="d6_roll"),
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
]
