#!/usr/bin/env bash
# Installs what the suite needs (Chromium, Redis, PostgreSQL) when missing, starts Redis and
# PostgreSQL on loopback in a temporary directory, runs ruff, the rules engines' tests under coverage and
# the rest of the suite against them, and stops the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

need=()
command -v chromium >/dev/null || need+=(chromium)
command -v redis-server >/dev/null || need+=(redis-server)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "make test needs these Debian packages: ${need[*]} (run as root, or: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "Installing ${need[*]} from Debian's packages..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

# The servers' files in memory where there is room (a tmpfs /dev/shm of 2 GB or more): a browser test's
# database is emptied after it (a TRUNCATE of every table, new files each time), which on a disk waits on I/O.
shm_free=$(df --output=avail -k /dev/shm 2>/dev/null | tail -n 1 || echo 0)
if [ "${shm_free:-0}" -ge 2097152 ]; then base=/dev/shm; else base=/tmp; fi
work=$(mktemp -d "$base/covenant-test.XXXXXX")
chmod 755 "$work"
pg_port=${PG_PORT:-55432}
redis_port=${REDIS_PORT:-56379}

run_pg() {  # PostgreSQL refuses to run as root: run its tools as the postgres user then.
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop() {
  run_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

mkdir -p "$work/pg" "$work/redis"
[ "$(id -u)" -eq 0 ] && chown postgres "$work/pg"
run_pg "$pg_bin/initdb" -D "$work/pg" -U covenant --auth=trust -E UTF8 >/dev/null
run_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $work/pg -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
  --daemonize yes --pidfile "$work/redis.pid" --dir "$work/redis" >/dev/null
for _ in $(seq 50); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.1
done

export DATABASE_URL="postgres://covenant@127.0.0.1:$pg_port/covenant"
export REDIS_URL="redis://127.0.0.1:$redis_port/0"
export COVENANT_CHROMIUM=${COVENANT_CHROMIUM:-$(command -v chromium)}
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U covenant covenant

echo "== ruff"
$BIN/ruff check .
status=0
# The rules engines' branch coverage, from their own tests: pure functions, measured in one process (a
# quarter of a minute, beside the rest, its report printed at the end). The rest of the suite runs without
# the tracer, which made Python-heavy tests half as slow again (docs/performance.md, "The test suite").
rm -f .coverage .coverage.*
$BIN/coverage run -m pytest -q -p no:cacheprovider tests/rules >"$work/rules.log" 2>&1 &
rules=$!
# Two pytest-xdist workers (TEST_WORKERS=N for another count), each taking whole test files in the order
# pytest-django gives them (the slow few-test files before the many quick ones at the end, which even out
# the two workers' finish): each has its own test database (test_covenant_gw0, ...), Redis database
# (tests/settings.py) and Daphne. Much of the suite waits on browsers, servers and sockets, so two pay even
# on two cores.
workers=${TEST_WORKERS:-2}
echo "== pytest on PostgreSQL ($DATABASE_URL) and Redis ($REDIS_URL), $workers workers, tests/rules apart"
$BIN/pytest -n "$workers" --dist loadfile --no-loadscope-reorder --ignore=tests/rules "$@" 2>&1 \
  | tee "$work/suite.log" || status=$?
echo "== tests/rules under coverage, and the rules engines' branch coverage (combat/rules, arsmagica/rules, d6/rules)"
wait $rules || status=$((status == 0 ? 1 : status))
cat "$work/rules.log"
$BIN/coverage combine -q 2>/dev/null || true
$BIN/coverage report --fail-under=95 || status=$((status == 0 ? 1 : status))
# What failed, again, last: a CI log shows its end, and the suite's own summary is above the coverage.
if [ "$status" -ne 0 ]; then
  echo "== what failed (the suite's summary, then the rules')"
  grep -hE '^(FAILED|ERROR) ' "$work/suite.log" "$work/rules.log" || echo "no test failed: see the output above"
fi
exit $status
