"""One exception hierarchy for the rules engine."""


class RulesError(ValueError):
    """Input that the rules cannot apply to: the message says what is wrong, for a person."""


class DiceExhausted(RulesError):
    """A scripted source ran out of faces."""


class EncounterFileError(RulesError):
    """A bad encounter file: `where` is the place in the file, as `combatants[1].weapons[0].attack`."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem
