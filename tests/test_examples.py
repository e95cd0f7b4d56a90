"""Every `example` of every bundled spec: the rule books' worked hands, run as tests."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from dsl.book.examples import check_example, chosen_reading, run_examples
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs

CASES = [(name, i) for name in bundled_specs() for i in range(len(load_spec(name).examples))]


@cache
def checker(name: str) -> Interpreter:
    return Interpreter(load_spec(name))


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_spec_example(name, index):
    interpreter = checker(name)
    example = interpreter.spec.examples[index]
    outcome = check_example(example, interpreter.evaluate(example.case_dict()), chosen_reading(interpreter, example))
    assert outcome.passed, outcome.render()


@pytest.mark.parametrize("name", bundled_specs())
def test_spec_checks_clean(name):
    from dsl.frontend.resolve import check
    spec, diagnostics = check(name)
    assert spec is not None, "\n".join(d.render() for d in diagnostics)
    assert [d.render() for d in diagnostics] == []


@pytest.mark.parametrize("name", ["sichuan", "shenyang"])
def test_spec_has_enough_examples(name):
    if name not in bundled_specs():
        pytest.fail(f"spec {name} is missing")
    assert len(load_spec(name).examples) >= 15


ROUNDS = [(name, i) for name in bundled_specs() for i in range(len(load_spec(name).round_examples))]


@pytest.mark.parametrize(("name", "index"), ROUNDS, ids=[f"{n}-round-{i}" for n, i in ROUNDS])
def test_spec_worked_round(name, index):
    spec = checker(name).spec
    outcome = run_examples(replace(spec, examples=(), round_examples=(spec.round_examples[index],)),
                           checker(name))[0]
    assert outcome.passed, outcome.render()
    assert sum(outcome.result["payments"]) == 0


@pytest.mark.parametrize("name", ["sichuan", "shenyang", "wuhan"])
def test_spec_has_enough_worked_rounds(name):
    assert len(load_spec(name).round_examples) >= 20


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_payments_balance(name, index):
    result = checker(name).evaluate(checker(name).spec.examples[index].case_dict())
    if result.get("winning") and "payments" in result:
        assert sum(result["payments"]) == 0, result  # the pot (riichi sticks) is reported apart
