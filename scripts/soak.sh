#!/usr/bin/env bash
# The model of the table at length (tests/model/, docs/reliability.md): every machine on the "soak" profile,
# its seed printed first so that a failure replays with COVENANT_SOAK_SEED=<seed> make soak.
# COVENANT_SOAK_EXAMPLES examples per machine (default 250, of up to 40 steps each: some 50,000 steps in all).
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${COVENANT_SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
examples=${COVENANT_SOAK_EXAMPLES:-250}
echo "== soak: seed $seed, $examples examples of up to 40 steps per machine (replay: COVENANT_SOAK_SEED=$seed make soak)"
COVENANT_MODEL_PROFILE=soak COVENANT_SOAK_EXAMPLES=$examples \
  .venv/bin/pytest -q -s -p no:cacheprovider tests/model --hypothesis-seed="$seed" "$@"
