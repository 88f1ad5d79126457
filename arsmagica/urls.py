"""Ars Magica's URLs: the player page, declarations, the round's commands, time passing."""

from django.urls import path

from . import recovery_views, views

urlpatterns = [
    path("sagas/<id:saga_id>/time/", recovery_views.saga_time, name="saga_time"),
    path("sagas/<id:saga_id>/time/pass/", recovery_views.saga_pass_time, name="saga_pass_time"),
    path("sagas/<id:saga_id>/time/sleep/", recovery_views.saga_sleep, name="saga_sleep"),
    path("sagas/<id:saga_id>/time/exertion/", recovery_views.saga_exertion, name="saga_exertion"),
    path("encounters/<id:encounter_id>/play/", views.encounter_play, name="encounter_play"),
    path("encounters/<id:encounter_id>/declarations/", views.my_declarations, name="my_declarations"),
    path("encounters/<id:encounter_id>/declare/<id:combatant_id>/", views.declare, name="declare"),
    path(
        "encounters/<id:encounter_id>/declare/<id:combatant_id>/form/",
        views.declaration_form,
        name="declaration_form",
    ),
    path(
        "encounters/<id:encounter_id>/declare/<id:combatant_id>/as-before/",
        views.declare_as_before,
        name="declare_as_before",
    ),
    path(
        "encounters/<id:encounter_id>/declare-npcs/as-before/",
        views.declare_npcs_as_before,
        name="declare_npcs_as_before",
    ),
    path("encounters/<id:encounter_id>/open/", views.open_declarations, name="open_declarations"),
    path("encounters/<id:encounter_id>/close/", views.close_declarations, name="close_declarations"),
    path("encounters/<id:encounter_id>/preview/", views.preview_phase, name="preview_phase"),
    path("encounters/<id:encounter_id>/confirm/", views.confirm_phase, name="confirm_phase"),
    path("encounters/<id:encounter_id>/end-round/", views.end_round, name="end_round"),
    path("encounters/<id:encounter_id>/undo/", views.undo_phase, name="undo_phase"),
    path("encounters/<id:encounter_id>/correct/", views.correct, name="correct"),
    path("encounters/<id:encounter_id>/time/pass/", recovery_views.encounter_pass_time, name="pass_time"),
    path("encounters/<id:encounter_id>/time/sleep/", recovery_views.encounter_sleep, name="sleep_night"),
    path("encounters/<id:encounter_id>/time/exertion/", recovery_views.encounter_exertion, name="exertion"),
]
