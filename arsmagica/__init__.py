"""Ars Magica 3rd edition combat, a rule system of the table core (arsmagica/system.py)."""

# The key a saga stores for its rule system: here, below everything, so any module may name it.
KEY = "arsmagica"
