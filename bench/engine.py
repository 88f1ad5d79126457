"""Rounds per second of the Ars Magica engine for a 10- and a 100-combatant melee round.

Run: `.venv/bin/python bench/engine.py` (one core, no Django; `--seconds`, `--repeat`).
Each round is a whole `resolve_round`: declarations checked, Initiative, engagement
contests, both missile phases, Melee, Magic and Fatigue, with random dice. The same
workload every run; the best of the runs is printed first, then each run (the machine
is shared, so the spread matters). `make test` runs it for a tenth of a second (tests/test_benches.py).

To compare two versions of the engine on the shared machine, whose speed changes by the minute, interleave
them in one process so that both see the same load: import each tree's `combat` package under its own name
(a worktree of the older one, `git worktree add /tmp/wt-before REV`), then alternate blocks of rounds (100
rounds of 10 combatants, 10 of 100) until each version has spent 6 s of CPU time per size, and give the
ratio of their rates.
"""

from __future__ import annotations

import argparse
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arsmagica.rules import (  # noqa: E402
    Action,
    CombatantState,
    Declaration,
    RandomDiceBox,
    Range,
    Sheet,
    Weapon,
    resolve_round,
    start_fight,
)

SWORD = Weapon("sword", 3, 8, 6, 6, Range.REACH)
DAGGER = Weapon("dagger", 2, 6, 3, 4, Range.TOUCH)
SPEAR = Weapon("spear", 4, 7, 5, 7, Range.LONG)
WEAPONS = (SWORD, DAGGER, SPEAR)


def melee_of(size: int):
    """Two sides of size/2; each fighter engages the one opposite, every third also the next."""
    half = size // 2
    combatants = []
    for index in range(size):
        weapon = WEAPONS[index % 3]
        sheet = Sheet(f"c{index}", f"Fighter {index}", (weapon,), quickness=index % 3, brawling=3,
                      soak=30, dodge=2, combat_fatigue=20, stamina=1)  # fmt: skip
        combatants.append(CombatantState.start(sheet))
    declarations = []
    for index in range(size):
        side, slot = divmod(index, half)
        other = (1 - side) * half
        targets = [f"c{other + slot}"]
        if slot % 3 == 0:
            targets.append(f"c{other + (slot + 1) % half}")
        weapon = WEAPONS[index % 3]
        declarations.append(Declaration(f"c{index}", Action.ATTACK, weapon.name, tuple(targets)))
    return start_fight(combatants), declarations


def rounds_per_second(size: int, seconds: float, repeat: int) -> tuple[list[float], int, int]:
    """The rate of each of `repeat` runs of `seconds` of CPU time, one after another."""
    state, declarations = melee_of(size)
    box = RandomDiceBox(size)
    _, sample = resolve_round(state, declarations, box)
    attacks = sum(len(phase.attacks) for phase in sample.phases)
    rates = []
    for _ in range(repeat):
        rounds = 0
        start = time.process_time()  # CPU time of this process: one core, whatever else runs
        deadline = start + seconds
        while time.process_time() < deadline:
            for _ in range(10):
                resolve_round(state, declarations, box)
            rounds += 10
        rates.append(rounds / (time.process_time() - start))
    return rates, attacks, len(sample.phases[0].engagements)


def _calibration() -> float:
    """Microseconds for `sum(range(1000))`, to compare machines (about 9 on a recent desktop)."""
    best = min(timeit.repeat("sum(range(1000))", number=2000, repeat=5))
    return best / 2000 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per run (default 3)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (default 3)")
    args = parser.parse_args()
    print(
        f"Python {sys.version.split()[0]}, one core, {args.repeat} runs of {args.seconds:g} s "
        "of CPU time per size"
    )
    print(f"calibration: sum(range(1000)) takes {_calibration():.1f} us on this machine")
    for size in (10, 100):
        rates, attacks, engagements = rounds_per_second(size, args.seconds, args.repeat)
        runs = ", ".join(f"{rate:,.0f}" for rate in rates)
        print(
            f"{size:>3} combatants ({engagements} engagements, {attacks} attacks a round): "
            f"{max(rates):,.0f} rounds/s (best; runs: {runs})"
        )


if __name__ == "__main__":
    main()
