"""One exception hierarchy for the combat app: every message is written for a person."""


class CombatError(Exception):
    """A command the combat app refuses; `str(error)` says why, for the person who tried."""

    status = 400


class StaleCommand(CombatError):
    """The page was out of date: someone (or a second click) changed the encounter first."""

    status = 409

    def __init__(
        self,
        message: str = "The encounter has moved on since your page was drawn; "
        "nothing was changed. Look again and retry.",
    ) -> None:
        super().__init__(message)


class NotAllowed(CombatError):
    """The person may not do this (not the storyguide, not their character)."""

    status = 403


# An encounter a command cannot reach, whether it was removed or was never theirs: the same words for both
# (who is not in a saga does not learn what it holds).
NOT_OPEN = "This encounter is not open to you: it may have been removed."


class WrongPhase(CombatError):
    """The command does not fit where the round stands."""

    status = 409


class InvalidCommand(CombatError):
    """Bad input: missing or impossible values, typed dice that are not dice."""

    status = 400
