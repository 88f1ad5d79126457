"""The d6 fatigue-track system, as the table core sees it: turn-based fights and chases on a grid,
fatigue rising on physical rolls (d6 seed). Like every system, it is its names and its roles, classes of
its own modules named here by path and imported the first time the core asks for them: no Django here."""

from __future__ import annotations

from typing_extensions import override

from combat import systems

from . import KEY
from .rules import encounter_file


class Files(systems.Files):
    """d6 encounter files on the command line (`rules.encounter_file`)."""

    @override
    def resolve(self, data):
        return encounter_file.resolve(data)


class D6Fatigue(systems.RuleSystem):
    key = KEY
    label = "d6 fatigue track"
    short_name = "d6 fatigue-track"
    sheet = ".sheet_forms.Sheet"
    page = ".views.Page"
    log = ".sentences.Log"
    archive = ".archive.Archive"
    replay = ".replay.Replay"
    files = Files
    commands = ".commands.COMMANDS"
