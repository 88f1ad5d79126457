"""The coin duel as the table core sees it: registered only in the test settings."""

from typing_extensions import override

from combat import systems

from . import KEY, rules


class Files(systems.Files):
    @override
    def resolve(self, data: dict) -> dict:
        """An encounter file played out by the rules (`rules.resolve`)."""
        return rules.resolve(data)


class CoinDuel(systems.RuleSystem):
    key = KEY
    label = "Coin duel"
    sheet = ".sheet_forms.Sheet"
    page = ".views.Page"
    log = ".events.Log"
    archive = ".events.Archive"
    files = Files
