"""CI's short share of the fuzzing in tests/fuzz_long.py (the long run: `python -m tests.fuzz_long`):
mutated bundled specs give a clean diagnostic or a valid spec, never an exception; hostile JSON lines
each get one result line, the stream goes on, and no traceback appears."""

from __future__ import annotations

import json

import pytest
from fuzz_long import (
    MUTATIONS,
    _mutate_once,
    base_cases,
    base_rounds,
    file_outcome,
    hostile_lines,
    mutate,
    spec_outcome,
    spec_texts,
    stream_problems,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import run

from dsl.frontend.resolve import load_spec
from dsl.paths import SPECS_DIR

TEXTS = spec_texts()
SMALL = ("sichuan", "shenyang", "gaoyou", "sanma")  # the quicker specs carry the mutations in CI


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_unmutated_specs_are_valid(name):
    assert spec_outcome(TEXTS[name], str(SPECS_DIR / f"{name}.mj")) == "valid"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SMALL), st.randoms(use_true_random=False))
def test_mutated_specs_never_crash(name, rng):
    spec_outcome(mutate(TEXTS[name], rng), str(SPECS_DIR / f"{name}.mj"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["escape", "number", "range", "deep"]), st.randoms(use_true_random=False))
def test_escape_number_range_and_depth_mutations_never_crash(kind, rng):
    assert kind in MUTATIONS
    spec_outcome(_mutate_once(TEXTS["sichuan"], rng, kind), str(SPECS_DIR / "sichuan.mj"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=1, max_size=4), st.integers(0, len(TEXTS["sichuan"].encode())))
def test_spec_bytes_that_are_not_utf8_never_crash(tmp_path_factory, junk, at):
    data = TEXTS["sichuan"].encode()
    folder = tmp_path_factory.mktemp("bytes")
    assert file_outcome(data[:at] + junk + data[at:], folder, "sichuan") in ("error", "valid")


@pytest.mark.parametrize("command", ["score", "settle"])
@pytest.mark.parametrize("name", ["sichuan", "riichi"])
def test_hostile_lines_in_process(capsys, command, name, seed=7):
    import random

    spec = load_spec(name)
    bases = base_cases(spec) if command == "score" else base_rounds(spec)
    lines = hostile_lines(bases, random.Random(seed), 300)
    code, out, err = run(capsys, command, name, "--jsonl", stdin=b"\n".join(lines) + b"\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and "Traceback" not in err
    assert len(results) == len(lines)
    assert all(r["ok"] in (True, False) and "internal error" not in r.get("error", "") for r in results)
    assert any(r["ok"] for r in results)  # the untouched lines among them are still answered


def test_hostile_lines_through_a_real_pipe():
    import random

    spec = load_spec("wuhan")
    assert stream_problems("wuhan", "score", hostile_lines(base_cases(spec), random.Random(3), 200)) == []
