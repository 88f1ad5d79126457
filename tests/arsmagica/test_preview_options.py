"""Issue 35, item 13: the preview's options open by themselves when one holds something other than its default
(a stress roll's one botch die, ArM3 p163; no modifier; nobody else called to a Fatigue roll, ArM3 p168)."""

from arsmagica.panels import options_changed


def row(botch_dice="", modifier="", called=False) -> dict:
    return {"botch_dice": botch_dice, "modifier": modifier, "called": called}


def test_the_defaults_left_blank_or_typed_again_are_no_change():
    assert not options_changed([])
    assert not options_changed([row(), row(botch_dice=1), row(modifier=0)])


def test_any_other_value_is_a_change():
    assert options_changed([row(), row(botch_dice=2)])
    assert options_changed([row(botch_dice=0)])  # no botch die at all
    assert options_changed([row(modifier=-3)])
    assert options_changed([row(called=True)])
