"""Tests that hold every rule system to the same contract (each kind's sentence and payload, the set-up
panels' sides, a plain post's answer, NPC templates, dice in words): the Ars Magica fight and the d6 table
of their own packages, side by side."""

from tests.arsmagica.conftest import saga, scripted_dice, table  # noqa: F401 (the fixtures)
from tests.d6.conftest import d6_saga  # noqa: F401 (the fixture)
