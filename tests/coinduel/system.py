"""The coin duel as the table core sees it: registered only in the test settings."""

from combat.systems import RuleSystem

from . import KEY


class CoinDuel(RuleSystem):
    key = KEY
    label = "Coin duel"
