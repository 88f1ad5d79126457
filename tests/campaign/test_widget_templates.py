"""The site's select template (campaign/templates/django/forms/widgets/select.html: options and their
attributes in one loop, not a template included for each) writes what Django's own writes."""

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


def written(form_data: dict | None, renderer) -> list[str]:
    form = Selects(form_data, renderer=renderer)
    if form_data is not None:
        form.is_valid()
    return [str(field) for field in form]


def test_the_site_renders_selects_with_its_own_template():
    template = get_default_renderer().get_template("django/forms/widgets/select.html")
    assert template.origin.name == str(BASE_DIR / "campaign/templates/django/forms/widgets/select.html")


def test_its_selects_write_what_django_writes():
    for data in (
        None,
        {"plain": "b", "number": "2", "grouped": "y", "several": ["1", "3"], "disabled": "q"},
        {"plain": "nope", "number": "9", "grouped": "", "several": ["7"]},
    ):
        ours = written(data, get_default_renderer())
        djangos = written(data, DjangoTemplates())
        assert ours == djangos
        assert all("<option" in html for html in ours)
