"""The model's total: what every machine this run ran, printed at its end (the soak's measured figures)."""

from .harness import TOTAL, ran


def pytest_terminal_summary(terminalreporter):
    """After the run: the examples, steps and commands of every machine run, added up."""
    if TOTAL:
        terminalreporter.write_line(f"model, in all: {ran(TOTAL)}")
