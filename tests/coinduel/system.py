"""The coin duel as the table core sees it: registered only in the test settings."""

from combat import systems

from . import KEY


class CoinDuel(systems.RuleSystem):
    key, label = KEY, "Coin duel"
    page, log, archive = ".services.Page", ".events.Log", ".events.Archive"
    commands = ".services.COMMANDS"
