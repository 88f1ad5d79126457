"""Why a command may not happen now: a rule system's `can_*` answers None or a `Refusal`, the reason
in plain words for a person and the kind of no it is. The command frame turns the kind into its
error (`combat.services.log.obey`); a panel prints the reason beside the disabled button."""

from __future__ import annotations

import functools

WRONG_TIME = "wrong_time"  # the table stands elsewhere: not now
BAD_INPUT = "bad_input"  # the command lacks what it needs, or asks for what is not there
NOT_YOURS = "not_yours"  # this person may not
STALE = "stale"  # the page is out of date

KINDS = (WRONG_TIME, BAD_INPUT, NOT_YOURS, STALE)


class Refusal(str):
    """Why a command may not happen now; `kind` says what kind of no (WRONG_TIME by default)."""

    kind: str

    def __new__(cls, text: str, kind: str = WRONG_TIME) -> Refusal:
        if kind not in KINDS:
            raise ValueError(f"a refusal is one of {', '.join(KINDS)}, not {kind!r}")
        refusal = super().__new__(cls, text)
        refusal.kind = kind
        return refusal


ENDED = "ended"  # an encounter's status once it is over (combat.models.Encounter.Status.ENDED)
OVER = "This encounter is over."


def while_open(check):
    """A rule system's `can_*`, refusing first when its table's `status` is ended: ending an encounter
    closes it to every command but the archive's (rename, archive, restore, delete) [ours]."""

    @functools.wraps(check)
    def checked(state, *args, **kwargs):
        if state.status == ENDED:
            return Refusal(OVER)
        return check(state, *args, **kwargs)

    return checked
