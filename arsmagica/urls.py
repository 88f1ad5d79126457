"""Ars Magica's own URLs beyond its commands' (arsmagica/commands.py), under its namespace (`arsmagica:`):
the player page, declarations, time passing on the saga page; and the old paths of everything that sat at
the site's root with bare names before 2026-11-29, which a page opened before then still posts to."""

from django.urls import path

from combat.commands import commands_of, moved
from combat.systems import get

from . import KEY, recovery_views, views

ENCOUNTER, SAGA = "encounters/<id:encounter_id>/arsmagica/", "sagas/<id:saga_id>/arsmagica/"

urlpatterns = [
    path(SAGA + "time/", recovery_views.saga_time, name="saga_time"),
    path(SAGA + "time/pass/", recovery_views.saga_pass_time, name="saga_pass_time"),
    path(SAGA + "time/sleep/", recovery_views.saga_sleep, name="saga_sleep"),
    path(SAGA + "time/exertion/", recovery_views.saga_exertion, name="saga_exertion"),
    path(ENCOUNTER + "play/", views.encounter_play, name="play"),
    path(ENCOUNTER + "declarations/", views.my_declarations, name="my_declarations"),
    path(ENCOUNTER + "declare/<id:combatant_id>/", views.declare, name="declare"),
    path(ENCOUNTER + "declare/<id:combatant_id>/form/", views.declaration_form, name="declaration_form"),
    path(
        ENCOUNTER + "declare/<id:combatant_id>/as-before/", views.declare_as_before, name="declare_as_before"
    ),
    path(ENCOUNTER + "declare-npcs/as-before/", views.declare_npcs_as_before, name="declare_npcs_as_before"),
]


def _old_paths() -> list:
    """Each old path, answered by the view that moved (a GET sent on with a 301, a post done)."""
    views_by_name = {pattern.name: pattern.callback for pattern in urlpatterns}
    views_by_name.update({c.name: c.view(KEY) for c in commands_of(get(KEY))})
    old = {
        "sagas/<id:saga_id>/time/": "saga_time",
        "sagas/<id:saga_id>/time/pass/": "saga_pass_time",
        "sagas/<id:saga_id>/time/sleep/": "saga_sleep",
        "sagas/<id:saga_id>/time/exertion/": "saga_exertion",
        "encounters/<id:encounter_id>/play/": "play",
        "encounters/<id:encounter_id>/declarations/": "my_declarations",
        "encounters/<id:encounter_id>/declare/<id:combatant_id>/": "declare",
        "encounters/<id:encounter_id>/declare/<id:combatant_id>/form/": "declaration_form",
        "encounters/<id:encounter_id>/declare/<id:combatant_id>/as-before/": "declare_as_before",
        "encounters/<id:encounter_id>/declare-npcs/as-before/": "declare_npcs_as_before",
        "encounters/<id:encounter_id>/open/": "open_declarations",
        "encounters/<id:encounter_id>/close/": "close_declarations",
        "encounters/<id:encounter_id>/preview/": "preview_phase",
        "encounters/<id:encounter_id>/confirm/": "confirm_phase",
        "encounters/<id:encounter_id>/end-round/": "end_round",
        "encounters/<id:encounter_id>/undo/": "undo_phase",
        "encounters/<id:encounter_id>/correct/": "correct",
        "encounters/<id:encounter_id>/time/pass/": "pass_time",
        "encounters/<id:encounter_id>/time/sleep/": "sleep_night",
        "encounters/<id:encounter_id>/time/exertion/": "exertion",
    }
    return [path(route, moved(f"arsmagica:{name}", views_by_name[name])) for route, name in old.items()]


urlpatterns += _old_paths()
