"""Absurd spec text gives a diagnostic with file:line:col, never a traceback or a hang: bad string
escapes, files that are not UTF-8, header values out of range, numbers too large, deep expressions."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.book import model
from dsl.compiled import codegen
from dsl.frontend.parser import MAX_NESTING
from dsl.frontend.resolve import check
from dsl.interp.interpreter import Interpreter
from dsl.paths import SPECS_DIR

HEAD = 'variant t "T" "T"\nextends sichuan\n'


def only_error(path: Path) -> tuple[str, int, int, str]:
    """The one error of a spec file: (path, line, column, message)."""
    spec, diagnostics = check(str(path))
    assert spec is None and len(diagnostics) == 1, [d.render() for d in diagnostics]
    d = diagnostics[0]
    assert d.severity == "error" and d.span is not None
    return d.span.path, d.span.line, d.span.column, d.message


@pytest.mark.parametrize(("string", "message"), [
    (r'"\N{NOPE}"', "unknown Unicode character name"),
    (r'"\x4"', r"truncated \xXX escape"),
    (r'"\q"', r"invalid escape sequence '\q'"),
    (r'"\U00110000"', "illegal Unicode character"),
    (r'"\ud800"', r"the escape \ud800 is half of a surrogate pair"),
    (r'"ok \udfff"', r"the escape \udfff is half of a surrogate pair"),
])
def test_bad_string_escapes_are_diagnostics(tmp_path, string, message):
    spec = tmp_path / "t.mj"
    spec.write_text(HEAD + f"doc {string}\n", encoding="utf-8")
    path, line, column, text = only_error(spec)
    assert (line, column) == (3, 5)  # the string starts after `doc `
    assert message in text


def test_a_good_escape_still_reads(tmp_path):
    spec_file = tmp_path / "t.mj"
    spec_file.write_text(HEAD + 'doc "caf\\u00e9 \\N{BLACK STAR}"\n', encoding="utf-8")
    spec, diagnostics = check(str(spec_file))
    assert spec is not None and spec.doc == "café ★"


def test_a_file_that_is_not_utf8_is_a_diagnostic_at_the_bad_byte(tmp_path):
    spec = tmp_path / "t.mj"
    spec.write_bytes(HEAD.encode() + b'doc "ab\xffc"\n')
    _, line, column, message = only_error(spec)
    assert (line, column) == (3, 8)  # d o c space quote a b: the bad byte is the 8th character of line 3
    assert "not UTF-8: byte 0xff" in message


def test_a_directory_is_not_a_spec(tmp_path):
    (tmp_path / "d.mj").mkdir()
    spec, diagnostics = check(str(tmp_path / "d.mj"))
    assert spec is None and "cannot read" in diagnostics[0].message


@pytest.mark.parametrize(("line", "rule"), [
    ("players 0", "a table seats 2, 3 or 4 players"),
    ("players 1", "a table seats 2, 3 or 4 players"),
    ("players 99", "a table seats 2, 3 or 4 players"),
    ("hand 0 tiles", "sets of three and a pair"),
    ("hand 13 tiles", "sets of three and a pair"),
    ("hand 1000000 tiles", "sets of three and a pair"),
])
def test_header_values_out_of_range(tmp_path, line, rule):
    spec = tmp_path / "t.mj"
    spec.write_text(HEAD + line + "\n", encoding="utf-8")
    _, number, column, message = only_error(spec)
    assert (number, column) == (3, 1) and rule in message


@pytest.mark.parametrize("line", ["players 3", "hand 17 tiles", "hand 14 tiles"])
def test_header_values_in_range(tmp_path, line):
    spec = tmp_path / "t.mj"
    spec.write_text(HEAD + line + "\n", encoding="utf-8")
    assert check(str(spec))[0] is not None


@pytest.mark.parametrize(("group", "message"), [
    ('suit m 万 "Characters" 1..9 ×100000', "a tile has 1 to 8 copies"),
    ('suit m 万 "Characters" 1..9 ×0', "a tile has 1 to 8 copies"),
    ('suit m 万 "Characters" 1..1000000 ×4', "ranks of a suit run within 0..9"),
    ('suit m 万 "Characters" 1..' + "9" * 5000 + " ×4", "a number of 5000 digits is too large"),
])
def test_absurd_tile_sets(tmp_path, group, message):
    spec = tmp_path / "t.mj"
    spec.write_text(f'variant t "T" "T"\ntiles:\n    {group}\n', encoding="utf-8")
    _, line, _, text = only_error(spec)
    assert line == 3 and message in text


def test_a_huge_fan_value_is_a_diagnostic(tmp_path):
    spec = tmp_path / "t.mj"
    spec.write_text(HEAD + f'fan 新 "New" {"9" * 5000}: self_drawn\n', encoding="utf-8")
    _, line, column, message = only_error(spec)
    assert (line, column) == (3, 13) and "5000 digits" in message  # `fan 新 "New" ` is 12 characters


def fan_with(condition: str) -> str:
    return HEAD + f'fan 新 "New" 1: {condition}\n'


@pytest.mark.parametrize("condition", [
    " + ".join(["1"] * 5000) + " > 2",  # a long chain nests to the left
    "not " * 5000 + "self_drawn",
    "max(" * 3000 + "1" + ", 1)" * 3000 + " > 0",
    "- " * 5000 + "1 < 0",
])
def test_deep_expressions_are_diagnostics(tmp_path, condition):
    spec = tmp_path / "t.mj"
    spec.write_text(fan_with(condition), encoding="utf-8")
    _, line, column, message = only_error(spec)
    assert line == 3 and column >= 15 and f"more than {MAX_NESTING} levels" in message


def test_an_expression_just_within_the_limit_goes_through_every_stage(tmp_path):
    # the fan line sits 4 levels below the top of the file and `and` adds one: the chain and the nots
    # each take MAX_NESTING - 10 levels, close to the limit
    depth = MAX_NESTING - 10
    spec_file = tmp_path / "t.mj"
    spec_file.write_text(fan_with(" + ".join(["1"] * depth) + " > 2 and " + "not " * depth + "self_drawn"),
                         encoding="utf-8")
    spec, diagnostics = check(str(spec_file))
    assert spec is not None, [d.render() for d in diagnostics]
    result = Interpreter(spec).evaluate({"hand": "123m456m789m11p23p", "win": "4p", "self_drawn": True})
    # 90 ones sum past 2, and an even number of nots leaves self_drawn as it is: the fan counts
    assert result["ok"] and "新" in [f["name"] for f in result["fans"]]
    assert "evaluate = CHECKER.evaluate" in codegen.generate(spec)
    assert model.book(spec).spec is spec


def test_a_huge_exponent_fails_fast_instead_of_computing_for_ever(tmp_path):
    text = (SPECS_DIR / "sichuan.mj").read_text(encoding="utf-8")
    assert "let value = 2 ^ (total - 1)" in text
    spec_file = tmp_path / "pw.mj"
    spec_file.write_text(text.replace("variant sichuan ", "variant pw ", 1)
                         .replace("let value = 2 ^ (total - 1)", "let value = 2 ^ (total + 999999999999)"),
                         encoding="utf-8")
    spec, _ = check(str(spec_file))
    assert spec is not None
    result = Interpreter(spec).evaluate({"hand": "123m456m789m11p23p", "win": "4p"})
    # refused before computing: 2 ^ 1000000000000 itself would never finish
    assert result["ok"] is False and "2 ^ 1000000000000 is beyond 128 bits" in result["error"]


def test_roundup_to_a_step_of_zero_is_a_diagnostic(tmp_path):
    # found by fuzzing: the spec checked, then every hand failed while scoring
    text = (SPECS_DIR / "riichi.mj").read_text(encoding="utf-8")
    assert "副露平和符, 10)" in text
    spec_file = tmp_path / "r.mj"
    spec_file.write_text(text.replace("variant riichi ", "variant r ", 1).replace("副露平和符, 10)", "副露平和符, 0)"),
                         encoding="utf-8")
    _, line, column, message = only_error(spec_file)
    source_line = spec_file.read_text(encoding="utf-8").splitlines()[line - 1]
    assert source_line[column - 1:].startswith("0)") and "positive STEP" in message
