"""`table(KEY: 0 -> 1, 1 -> 2, 2..3 -> 4, else 8)`: a schedule looked up by a whole number. Its errors name the
entry at fault, the interpreter and the compiled checker (a C array) look up the same values, and the rule book
prints it as a table of keys over values."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import dsl
from dsl.book.figures import node_text
from dsl.book.model import book
from dsl.book.render import render_books
from dsl.cases.samples import random_cases
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter

# Hong Kong's half-spicy (半辣) schedule by faan, capped at 10 faan: a spec writes it as one table.
HALF_SPICY = """
    fan 平 1: shape == standard
    fan 对 1 each: count(pungs)
    settle:
        let 底 = table(total:
            0 -> 1, 1 -> 2, 2 -> 4, 3 -> 8, 4 -> 16, 5 -> 24, 6 -> 32,
            7..8 → 48, 9 -> 64,
            else 96)
        self_drawn: each loser pays 底
        discard: discarder pays 2 * 底
"""
# three chows of 万 and a pung of 白 (1 + 1: total 2) / four pungs and a pair (1 + 4 = 5)
CHOWS = {"hand": "123m456m789m555z1p", "win": "1p"}
PUNGS = {"hand": "111m222m333m555z1p", "win": "1p"}


def payments(result: dict) -> list[int]:
    return result["payments"]


def position(path: Path, needle: str, after: str = "each loser pays") -> tuple[int, int]:
    """(line, column) of the text's first occurrence after `after` in the file, counted from 1 as diagnostics
    count."""
    text = path.read_text(encoding="utf-8")
    at = text.index(needle, text.index(after))
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def test_the_table_gives_the_value_of_the_row_holding_the_key(spec_of):
    checker = Interpreter(spec_of(HALF_SPICY))
    # 平 1 + 对 1 (the pung of 白) = 2: 2 -> 4, so each loser pays 4 on a self-draw, the discarder 2 × 4 = 8.
    assert payments(checker.evaluate(CHOWS | {"self_drawn": True})) == [12, -4, -4, -4]
    assert payments(checker.evaluate(CHOWS | {"discarder": 1})) == [8, -8, 0, 0]
    # 平 1 (a standard shape) + 对 ×4 = 5: 5 -> 24.
    assert payments(checker.evaluate(PUNGS | {"self_drawn": True})) == [72, -24, -24, -24]


def test_a_range_and_else_cover_their_keys(spec_of):
    spec = spec_of(HALF_SPICY)
    table = spec.settlement.bindings[0].expr
    # 7..8 -> 48 holds both ends; 10 and above, and any key below 0, take `else`.
    assert [table.lookup(k) for k in (6, 7, 8, 9, 10, 500, -3)] == [32, 48, 48, 64, 96, 96, 96]


def test_a_table_is_a_number_wherever_one_may_stand(spec_of):
    spec = spec_of("""
        option 全辣 "Full spicy" = false
        fan 平 (table(count(chows): 3 -> 2, 4 -> 3, else 0)): shape == standard
        settle:
            self_drawn: each loser pays table(total: 0..1 -> 1, else 2) * (2 if 全辣 else 1)
            discard: discarder pays table(loser.dealer: 1 -> 10, else 5)
    """)
    checker = Interpreter(spec)
    chows = checker.evaluate(CHOWS | {"self_drawn": True})
    assert chows["total"] == 2  # three chows: 平 is worth 2
    assert payments(chows) == [6, -2, -2, -2]
    assert payments(checker.evaluate(CHOWS | {"self_drawn": True, "options": {"全辣": True}})) == [12, -4, -4, -4]
    # the discarder is the dealer (seat 0 deals by default, the winner sits at seat 1)
    assert payments(checker.evaluate(CHOWS | {"seat": 1, "discarder": 0})) == [-10, 10, 0, 0]


ERRORS = [
    # (the table, what the error says, the text it points at)
    ("table(total: 0 -> 1, 0 -> 2, else 3)", "key 0 is not above key 0", "0 -> 2"),
    ("table(total: 2 -> 1, 1 -> 2, else 3)", "key 1 is not above key 2", "1 -> 2"),
    ("table(total: 0..4 -> 1, 3 -> 2, else 3)", "key 3 is not above key 4", "3 -> 2"),
    ("table(total: 4..2 -> 1, else 3)", "runs backwards", "4..2 -> 1"),
    ("table(total: 0 -> 1, 1 -> 2)", "ends with `else VALUE`", "1 -> 2"),
    ("table(total: else 3, 0 -> 1)", "`else` is the last entry", "else 3"),
    ("table(total: 0 -> 1 / 2, else 3)", "a value of a table is a whole number, not 1/2", "1 / 2"),
    ("table(total: 0 -> total, else 3)", "a value of a table is a whole number written with numbers alone",
     "total, else"),
    ("table(total: 0 -> true, else 3)", "whole number written with numbers alone", "true"),
    ("table(total: 0 -> 1, else 2 ^ 200)", "beyond 128 bits", "2 ^ 200"),
    ("table(total: 0 -> 1, 5000 -> 2, else 3)", "more than 4,096 apart", "table("),
    ("table(shape: 0 -> 1, else 2)", "the key of a table must be", "shape"),
]


@pytest.mark.parametrize(("table", "message", "at"), ERRORS, ids=[e[1] for e in ERRORS])
def test_an_error_names_the_entry_at_fault_with_its_position(write_spec, table, message, at):
    path = write_spec(f"fan 平 1: true\nsettle:\n    self_drawn: each loser pays {table}\n")
    with pytest.raises(SpecError, match=message) as caught:
        load_spec(str(path))
    span = caught.value.diagnostics[0].span
    assert (span.line, span.column) == position(path, at)


def test_a_table_without_its_key_is_a_syntax_error_with_its_position(write_spec):
    path = write_spec("fan 平 1: true\nsettle:\n    self_drawn: each loser pays table(0 -> 1, else 2)\n")
    with pytest.raises(SpecError, match="unexpected") as caught:
        load_spec(str(path))
    span = caught.value.diagnostics[0].span
    assert (span.line, span.column) == position(path, "-> 1")


def test_the_compiled_array_looks_up_what_the_interpreter_does(write_spec):
    dealer = "    loser fan 庄 (table(total - 3: -2 -> 7, 0..1 -> 2, 4 -> 2 ^ 60, else 1)): loser.dealer\n"
    path = write_spec(HALF_SPICY.replace("    settle:", dealer + "    settle:"), name="tables")
    spec = load_spec(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # falling back to the interpreter would make the comparison pointless
        compiled = dsl.load(str(path))
    interpreter = Interpreter(spec)
    cases = random_cases(spec, 1500, seed=11)
    assert [compiled.evaluate(c) for c in cases] == [interpreter.evaluate(c) for c in cases]
    totals = {r.get("total") for r in map(interpreter.evaluate, cases) if r.get("winning")}
    assert {1, 2, 3, 4, 5} <= totals  # the cases reach the rows, the ranges and `else`


def test_the_book_prints_a_table_of_keys_over_values(spec_of, tmp_path):
    files = render_books([book(spec_of(HALF_SPICY))], tmp_path, shared=False)
    html = files[tmp_path / "tiny.html"]
    keys = "".join(f'<td class="num">{k}</td>' for k in ["0", "1", "2", "3", "4", "5", "6", "7–8", "9", "other"])
    values = "".join(f'<td class="num">{v}</td>' for v in [1, 2, 4, 8, 16, 24, 32, 48, 64, 96])
    assert f"<tr><th>the winner&#39;s fan total</th>{keys}</tr>" in html and f"<tr><th>底</th>{values}</tr>" in html
    markdown = files[tmp_path / "tiny.md"]
    assert "| the winner's fan total | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7–8 | 9 | other |" in markdown
    assert "| 底 | 1 | 2 | 4 | 8 | 16 | 24 | 32 | 48 | 64 | 96 |" in markdown
    assert "the value the table below gives for the winner&#39;s fan total" in html


def test_a_value_options_change_shows_each_alternative(spec_of, tmp_path):
    spec = spec_of("""
        option 大三元八番 "大三元 worth 8" = false
        fan 大三元 (8 if 大三元八番 else 13): count(pungs) == 3
        fan 平 (1 if opened else 2): true
    """)
    files = render_books([book(spec)], tmp_path, shared=False)
    html = files[tmp_path / "tiny.html"]
    assert '<td class="num">8 if 大三元八番, else 13</td>' in html
    assert node_text(spec.pattern("大三元")) == "大三元 8 if 大三元八番, else 13"  # the exclusion graph's label
    assert '<td class="num">computed</td>' in html  # 平's value depends on the hand, not on an option
