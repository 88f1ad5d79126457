"""Ars Magica 3rd edition combat, as the table core sees it: the six-phase round, fatigue and body
levels, stress dice and botches (ArM3 p163-p177). Its roles are classes of its own modules, named here by
path and imported the first time the core asks for them, so this module imports nothing of Django's."""

from __future__ import annotations

from typing_extensions import override

from combat import systems

from . import KEY
from .rules import encounter_file


class Files(systems.Files):
    """Ars Magica's encounter files on the command line (`rules.encounter_file`)."""

    @override
    def resolve(self, data):
        return encounter_file.resolve(data)


class ArsMagica(systems.RuleSystem):
    key = KEY
    label = "Ars Magica 3rd edition"
    short_name = "Ars Magica"
    sheet = ".sheet_forms.Sheet"
    page = ".views.Page"
    log = ".sentences.Log"
    archive = ".archive.Archive"
    replay = ".replay.Replay"
    files = Files
    commands = ".commands.COMMANDS"
