"""The core's URLs: the encounter's page, set-up and end, the saga's history, its archive and replays."""

from django.urls import path

from . import history, manage, views
from .archive import charts, replay
from .archive import views as archive

urlpatterns = [
    path("sagas/import/", archive.saga_import, name="saga_import"),
    path("sagas/<id:saga_id>/duplicate/", archive.saga_duplicate, name="saga_duplicate"),
    path("sagas/<id:saga_id>/encounters/new/", views.encounter_create, name="encounter_create"),
    path("sagas/<id:saga_id>/history/", history.history_page, name="saga_history"),
    path("sagas/<id:saga_id>/history.json", history.history_json, name="saga_history_json"),
    path("sagas/<id:saga_id>/archive.json", archive.archive_json, name="saga_archive_json"),
    path("sagas/<id:saga_id>/charts/", archive.saga_charts, name="saga_charts"),
    path("sagas/<id:saga_id>/recap.md", archive.recap_markdown, name="saga_recap"),
    path("sagas/<id:saga_id>/evening/", archive.evening_page, name="saga_evening"),
    path("sagas/<id:saga_id>/evening.md", archive.evening_markdown, name="saga_evening_md"),
    path("sagas/<id:saga_id>/evening/regroup/", archive.evening_regroup, name="saga_evening_regroup"),
    path("encounters/<id:encounter_id>/record/", archive.encounter_record, name="encounter_record"),
    path("encounters/<id:encounter_id>/replay/", replay.replay_page, name="encounter_replay"),
    path("encounters/<id:encounter_id>/charts/", charts.encounter_charts, name="encounter_charts"),
    path("encounters/<id:encounter_id>/replay/latest/", replay.replay_latest, name="encounter_replay_latest"),
    path("encounters/<id:encounter_id>/", views.encounter_page, name="encounter_page"),
    path("encounters/<id:encounter_id>/combatants/", views.add_combatants, name="add_combatants"),
    path(
        "encounters/<id:encounter_id>/combatants/<id:combatant_id>/remove/",
        views.remove_combatant,
        name="remove_combatant",
    ),
    path("encounters/<id:encounter_id>/end/", views.end_encounter, name="end_encounter"),
    path("encounters/<id:encounter_id>/seat/", views.hand_over_seat, name="hand_over_seat"),
    path("encounters/<id:encounter_id>/manage/", manage.encounter_manage, name="encounter_manage"),
    path("encounters/<id:encounter_id>/rename/", manage.encounter_rename, name="encounter_rename"),
    path("encounters/<id:encounter_id>/delete/", manage.encounter_delete, name="encounter_delete"),
    path("encounters/<id:encounter_id>/restore/", manage.encounter_restore, name="encounter_restore"),
]
