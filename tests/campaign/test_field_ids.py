"""The hand-written field templates give the help text and the errors the ids Django 5.2's widgets point at
in aria-describedby (<id>_helptext, <id>_error), also where the help text is hidden from sight (no_hint)."""

import re

from django import forms
from django.template.loader import render_to_string


class Paces(forms.Form):
    paces = forms.IntegerField(min_value=0, help_text="Missile weapons: range in paces.")
    physical = forms.BooleanField(required=False, help_text="Physical rolls fail outright below fatigue.")


def described_and_named(html: str) -> tuple[set, set]:
    described = {name for value in re.findall(r'aria-describedby="([^"]*)"', html) for name in value.split()}
    return described, set(re.findall(r'\sid="([^"]*)"', html))


def test_every_field_template_names_what_aria_describedby_points_at():
    for form in (Paces(), Paces({"paces": "-1"})):
        form.is_valid()
        written = [render_to_string("campaign/_form_fields.html", {"form": form})]
        for no_hint in (False, True):
            for field in form:
                written.append(render_to_string("campaign/_field.html", {"field": field, "no_hint": no_hint}))
        for html in written:
            described, named = described_and_named(html)
            assert described and described <= named, (described - named, html)
    hidden = render_to_string("campaign/_field.html", {"field": Paces()["paces"], "no_hint": True})
    assert '<small id="id_paces_helptext" hidden\n    >Missile weapons: range in paces.</small>' in hidden
    shown = render_to_string("campaign/_field.html", {"field": Paces({"paces": "-1"})["paces"]})
    assert 'class="hint" id="id_paces_helptext"' in shown
    assert '<div id="id_paces_error"><p class="error">' in shown
