"""d6's own URLs beyond its commands' (d6/commands.py), under its namespace (`d6:`): the table, the
defence's number to meet, the saga's attribute names; and the old paths of what moved, which a page opened
before still posts to. Set-up (a new encounter, combatants in and out) is the core's (combat/urls.py)."""

from django.urls import path

from combat import views as core
from combat.commands import moved

from . import views

urlpatterns = [
    path("sagas/<id:saga_id>/d6/attributes/", views.saga_attributes, name="attributes"),
    path("encounters/<id:encounter_id>/d6/", views.table, name="table"),
    path("encounters/<id:encounter_id>/d6/to-meet/", views.to_meet, name="to_meet"),
    # The saga's attributes sat beside its other pages until 2026-11-29:
    path("sagas/<id:saga_id>/attributes/", moved("d6:attributes", views.saga_attributes)),
    # Before the core's set-up views served every system, d6 had its own, here:
    path("sagas/<id:saga_id>/encounters/new-d6/", moved("encounter_create", core.encounter_create)),
    path("encounters/<id:encounter_id>/d6/combatants/", moved("add_combatants", core.add_combatants)),
    path(
        "encounters/<id:encounter_id>/d6/combatants/<id:combatant_id>/remove/",
        moved("remove_combatant", core.remove_combatant),
    ),
]
