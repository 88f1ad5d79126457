"""The words of the Ars Magica pages, made in Python (ArM3 p163): buttons, roll breakdowns, log lines."""

from arsmagica.presenters import close_declarations_label, end_round_label
from arsmagica.rules.table import Refusal
from arsmagica.templatetags.arsmagica_tags import disabled_by


def test_the_close_button_counts_who_has_declared():
    assert close_declarations_label(2, 5) == "Close declarations, roll Initiative (2/5 declared)"


def test_the_end_button_names_this_round_and_the_next():
    assert end_round_label(1) == "End round 1, open round 2"


def test_a_refused_command_has_its_button_disabled():
    assert disabled_by(Refusal("Nobody has declared yet.")) == " disabled"
    assert disabled_by(None) == ""
