"""The site's select and input templates (templates/django/forms/widgets/: options and attributes
written in, not a template included for each) write what Django's own write."""

from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer

from config.settings import BASE_DIR


class Selects(forms.Form):
    """A select of each kind a form can make: plain, grouped, several at once, disabled, with help text."""

    plain = forms.ChoiceField(
        choices=[("", "Pick one"), ("a", "A & B"), ("b", '<b>"bold"</b>')], required=False
    )
    number = forms.TypedChoiceField(choices=[(1, "One"), (2, "Two")], coerce=int, help_text="Help & more")
    grouped = forms.ChoiceField(choices=[("Near", [("x", "X"), ("y", "Y")]), ("z", "Z")])
    several = forms.MultipleChoiceField(choices=[("1", "1"), ("2", "2"), ("3", "3")])
    disabled = forms.ChoiceField(choices=[("q", "Q")], disabled=True)


def test_the_site_renders_selects_and_inputs_with_its_own_templates():
    for name in ("select.html", "input.html"):
        template = get_default_renderer().get_template(f"django/forms/widgets/{name}")
        assert template.origin.name == str(BASE_DIR / "templates/django/forms/widgets" / name)


def test_its_selects_write_what_django_writes():
    for data in (
        None,
        {"plain": "b", "number": "2", "grouped": "y", "several": ["1", "3"], "disabled": "q"},
        {"plain": "nope", "number": "9", "grouped": "", "several": ["7"]},
    ):
        ours = [str(field) for field in bound(Selects, data, get_default_renderer())]
        djangos = [str(field) for field in bound(Selects, data, DjangoTemplates())]
        assert ours == djangos
        assert all("<option" in html for html in ours)


class Inputs(forms.Form):
    """An input of each type the site's forms use, with the attributes a form gives them."""

    count = forms.IntegerField(min_value=-3, max_value=9, help_text="How many")
    name = forms.CharField(max_length=20, required=False)
    flag = forms.BooleanField(required=False)
    kept = forms.CharField(widget=forms.HiddenInput, initial="k")
    fixed = forms.IntegerField(disabled=True, initial=4)


def test_its_inputs_write_what_django_writes():
    for data in (None, {"count": "12", "name": 'Bo "the" <b>', "flag": "on", "kept": "x"}, {"count": "x"}):
        ours = [str(field) for field in bound(Inputs, data, get_default_renderer())]
        djangos = [str(field) for field in bound(Inputs, data, DjangoTemplates())]
        assert ours == djangos
        assert all("<input" in html for html in ours)


def bound(form_class, data: dict | None, renderer) -> forms.Form:
    form = form_class(data, renderer=renderer)
    if data is not None:
        form.is_valid()
    return form
