"""The d6 fatigue-track system, a rule system of the table core (d6/system.py)."""

# The key a saga stores for its rule system: here, below everything, so any module may name it.
KEY = "d6fatigue"
