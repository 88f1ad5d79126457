from django.apps import AppConfig


class CoinDuelConfig(AppConfig):
    """A toy rule system that lives in the tests: two sides flip coins, heads hits, three hits win."""

    name = "tests.coinduel"
    label = "coinduel"
    verbose_name = "Coin duel"
