"""国标: the published reference hands (../shared/reference/mcr_cases.jsonl), scored by pymahjonggb 1.4.0."""

from __future__ import annotations

import pytest
import references
from mcr_hands import fans_of, mismatch, our_name

import dsl

CASES = references.records("mcr_cases.jsonl")

pytestmark = pytest.mark.skipif(not CASES, reason=references.missing("mcr_cases.jsonl"))


@pytest.fixture(scope="module")
def checker() -> dsl.Interpreter:
    return dsl.load("mcr")


@pytest.mark.parametrize("reference", CASES, ids=[c["id"] for c in CASES])
def test_reference_hand(checker, reference):
    expected = {our_name(name): fan for name, fan in fans_of(reference["expected"]["fans"]).items()}
    result = checker.evaluate(reference["case"])
    why = mismatch(result, expected)
    assert why is None, f"{reference['id']} ({reference['source']}): {why}\n  case {reference['case']}\n  ours {result}"
