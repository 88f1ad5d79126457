"""The Ars Magica round's commands run on Ars Magica encounters only."""

from __future__ import annotations

from combat.errors import InvalidCommand

from .. import KEY


def require_ars_magica(encounter) -> None:
    """A stray post from another system's table starts no Ars Magica round."""
    if encounter.saga.rule_system != KEY:
        raise InvalidCommand("This encounter plays the d6 fatigue system: run it from its d6 table.")
