"""Benchmarks that print figures (docs/performance.md); they never fail on a figure. `make test` runs each
at its smallest size to see that it still runs (tests/test_benches.py), and the fan-out's correctness
check (tests/test_fanout.py); `make bench` runs them at their real sizes."""
