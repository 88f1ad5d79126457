"""Ars Magica 3rd edition combat, as the table core sees it: the six-phase round, fatigue and body
levels, stress dice and botches (ArM3 p163-p177). Its roles are played by its modules under the names
`combat.systems.RuleSystem` reads (sheet_forms, panels, views, services, presenters, archive, replay,
rules.encounter_file); imports nothing of Django's."""

from __future__ import annotations

from combat.systems import RuleSystem

from . import KEY


class ArsMagica(RuleSystem):
    key = KEY
    label = "Ars Magica 3rd edition"
    short_name = "Ars Magica"
