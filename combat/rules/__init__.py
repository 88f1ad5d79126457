"""Covenant's rules engine: pure Python, no Django, every die passed in."""
