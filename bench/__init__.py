"""Benchmarks that print figures (`engine.py`, `fanout.py`); never part of the pass/fail suite, except
the fan-out's correctness check that `tests/combat/test_fanout_check.py` runs."""
