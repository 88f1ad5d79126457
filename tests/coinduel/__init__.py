"""The coin duel: the smallest rule system, registered only in the test settings (system.py)."""

# The key a saga stores for its rule system: here, below everything, so any module may name it.
KEY = "coinduel"
