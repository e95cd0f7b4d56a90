"""Every `example` of every bundled spec: the rule books' worked hands, run as tests."""

from __future__ import annotations

from functools import cache

import pytest

from dsl.examples import check_example
from dsl.interpreter import Interpreter
from dsl.paths import bundled_specs
from dsl.resolve import load_spec

CASES = [(name, i) for name in bundled_specs() for i in range(len(load_spec(name).examples))]


@cache
def checker(name: str) -> Interpreter:
    return Interpreter(load_spec(name))


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_spec_example(name, index):
    example = checker(name).spec.examples[index]
    outcome = check_example(example, checker(name).evaluate(example.case_dict()))
    assert outcome.passed, outcome.render()


@pytest.mark.parametrize("name", bundled_specs())
def test_spec_checks_clean(name):
    from dsl.resolve import check
    spec, diagnostics = check(name)
    assert spec is not None, "\n".join(d.render() for d in diagnostics)
    assert [d.render() for d in diagnostics] == []


@pytest.mark.parametrize("name", ["sichuan", "shenyang"])
def test_spec_has_enough_examples(name):
    if name not in bundled_specs():
        pytest.fail(f"spec {name} is missing")
    assert len(load_spec(name).examples) >= 15
