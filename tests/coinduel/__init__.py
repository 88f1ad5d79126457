"""The coin duel: the smallest rule system, registered only in the test settings (system.py)."""

KEY = "coinduel"  # the key its sagas store: here, so that any of its modules may name it
