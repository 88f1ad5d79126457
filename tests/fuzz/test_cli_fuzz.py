"""The command line under hostile files: arbitrary bytes and JSON, and the real examples with
hostile values put in. Every run prints the resolution or exactly one line `error: …` and exits 2;
no traceback, and never more than the output bound. Run in-process through `main()`."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.rules.__main__ import main
from combat.rules.limits import MAX_OUTPUT_CHARS

from .conftest import FUZZ, TALLY

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))
HUGE = "@huge@"  # written into the file as a 5,000-digit number
HOSTILE_VALUES = [HUGE, -(10**20), 10**20, "٣", "\x00", None, True, [], {}, [1] * 20_000, "x" * 10_000, 1.5]


def run(tmp_path: Path, content: bytes) -> tuple[int, str, str]:
    """One run of `python -m combat.rules resolve FILE` in this process: exit code, stdout, stderr."""
    path = tmp_path / "encounter.json"
    path.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["resolve", str(path)])
        except SystemExit as stop:
            code = stop.code
        except BaseException:
            TALLY["cli_traceback"] += 1
            raise
    TALLY["cli"] += 1
    return code, out.getvalue(), err.getvalue()


def assert_answered(code, out: str, err: str) -> None:
    assert len(out) <= MAX_OUTPUT_CHARS + 1
    if code == 0:
        json.loads(out)
    else:
        assert code == 2, err
        assert err.startswith("error: ") and err.count("\n") == 1, err[:300]
        assert "Traceback" not in err


def _leaves(data, path=()):
    """Every place in a JSON document, as a path of keys and indexes."""
    yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from _leaves(value, (*path, key))


def _replace(data, path, value):
    data = copy.deepcopy(data)
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@st.composite
def mutated_examples(draw):
    """A real encounter file with one place given a hostile or random value."""
    data = json.loads(draw(st.sampled_from(EXAMPLES)).read_text())
    path = draw(st.sampled_from(list(_leaves(data))))
    value = draw(st.sampled_from(HOSTILE_VALUES) | st.integers() | st.text(max_size=10))
    return json.dumps(_replace(data, path, value)).replace(f'"{HUGE}"', "9" * 5000).encode()


json_documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=30,
).map(lambda value: json.dumps(value).encode())

CLI = settings(FUZZ, suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture])


@CLI
@given(content=st.one_of(st.binary(max_size=300), json_documents, mutated_examples()))
def test_any_file_is_resolved_or_answered_with_one_line_and_exit_2(tmp_path, content):
    assert_answered(*run(tmp_path, content))


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"\xff\xfe{not utf-8", id="invalid UTF-8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deeply nested JSON"),
        pytest.param(b'{"rules": "arsmagica", "n": ' + b"9" * 5000 + b"}", id="a 5,000-digit integer"),
    ],
)
def test_the_file_reader_refuses_what_is_not_a_sane_json_file(tmp_path, content):
    code, out, err = run(tmp_path, content)
    assert (code, out) == (2, "")
    assert_answered(code, out, err)


def _example(name: str) -> dict:
    return json.loads(next(path for path in EXAMPLES if path.name == name).read_text())


def test_a_stress_die_of_twenty_thousand_ones_is_refused_in_one_line(tmp_path):
    data = _example("sir-boris-at-reach.json")
    rounds = data["rounds"][0]["dice"]
    who = next(iter(rounds))
    rounds[who]["initiative"] = [1] * 20_000
    code, out, err = run(tmp_path, json.dumps(data).encode())
    assert (code, out) == (2, "")
    assert "at most 200 faces" in err


def test_an_unbounded_d6_consistency_is_refused_before_it_writes_megabytes(tmp_path):
    data = _example("d6-fight.json")
    for place in _leaves(data):
        if place and place[-1] == "consistency":
            data = _replace(data, place, 10**7)
    code, out, err = run(tmp_path, json.dumps(data).encode())
    assert (code, out) == (2, "")
    assert "expected -20 to 20, got 10000000" in err
