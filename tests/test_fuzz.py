"""Random mutations of the bundled specs give a clean diagnostic or a valid spec, never an exception."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl.interpreter import Interpreter
from dsl.parser import parse
from dsl.paths import SPECS_DIR, bundled_specs
from dsl.resolve import resolve, warnings
from dsl.source import Source, SpecError

TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
STRAYS = ["，", "：", "（", "）", "、", "。", "“", "”", "×", "..", "\t", "\n", "    ", '"', "#", "不计", "fan", "each",
          "碰碰和", "清一色", "根", "suits", "(", ")", ":", "=", "0", "99999999999999999999", "-1", "_", "é"]
TEXTS = {name: (SPECS_DIR / f"{name}.mj").read_text(encoding="utf-8") for name in bundled_specs()}


def mutate(text: str, data) -> str:
    tokens = TOKEN.findall(text)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(tokens) - 1))
        kind = data.draw(st.sampled_from(["delete", "swap", "stray", "rename", "duplicate"]))
        if kind == "delete":
            del tokens[i]
        elif kind == "swap" and i + 2 < len(tokens):
            tokens[i], tokens[i + 2] = tokens[i + 2], tokens[i]
        elif kind == "stray":
            tokens.insert(i, data.draw(st.sampled_from(STRAYS)))
        elif kind == "rename" and tokens[i].strip():
            tokens[i] = tokens[i][:-1] + data.draw(st.sampled_from(["胡", "和", "x", "9", "对"]))
        else:
            tokens.insert(i, tokens[i])
    return "".join(tokens)


def outcome(text: str, path: str) -> str:
    source = Source(path, text)
    try:
        spec = resolve(parse(source), source)
    except SpecError as exc:
        for d in exc.diagnostics:
            assert d.severity == "error" and d.message
            if d.span is not None:
                assert d.span.line >= 1 and d.span.column >= 1
                assert d.render().count("\n") >= 2  # message, source line, caret
        return "error"
    warnings(spec)
    checker = Interpreter(spec)
    for example in spec.examples[:3]:
        result = checker.evaluate(example.case_dict())
        assert result["ok"] in (True, False)
    return "valid"


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_unmutated_specs_are_valid(name):
    assert outcome(TEXTS[name], str(SPECS_DIR / f"{name}.mj")) == "valid"


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(TEXTS)), st.data())
def test_mutated_specs_never_crash(name, data):
    outcome(mutate(TEXTS[name], data), str(SPECS_DIR / f"{name}.mj"))
