"""Parsing: every construct becomes the right syntax node, with its position."""

from __future__ import annotations

import pytest

from dsl.frontend import ast
from dsl.frontend.parser import parse
from dsl.frontend.source import Source, SpecError


def parse_text(text: str) -> ast.Module:
    return parse(Source("t.mj", text))


def test_pattern_forms_and_positions():
    module = parse_text(
        'variant t "甲"\n'
        'fan 根 "Root" 1 each: count(kinds, copies == 4)\n'
        'fan 大 "Big" 88:\n'
        '    count(pungs, 风) == 4\n'
        '    不计 根 ×1, 小\n'
        '    alias 大大\n'
        'fan 算 (2 if self_drawn else 1): true\n'
    )
    root, big, computed = module.decls[1:]
    assert (root.value.kind, root.value.amount) == ("each", 1)
    assert big.value == ast.Value("fixed", amount=88)
    assert [(e.target.text, e.times) for e in big.excludes] == [("根", 1), ("小", None)]
    assert [a.text for a in big.aliases] == ["大大"]
    assert (big.excludes[0].target.span.line, big.excludes[0].target.span.column) == (5, 8)
    assert computed.value.kind == "computed"
    assert isinstance(computed.value.expr, ast.Conditional)


def test_operator_precedence():
    module = parse_text('variant t "甲"\nfan a 1: 1 + 2 * 3 ^ 2 == 19 and not false or true\n')
    expr = module.decls[1].condition
    assert expr.op == "or"
    left = expr.left
    assert left.op == "and"
    comparison = left.left
    assert comparison.op == "==" and comparison.left.op == "+"
    assert comparison.left.right.op == "*" and comparison.left.right.right.op == "^"


def test_example_block():
    module = parse_text(
        'variant t "甲"\n'
        'example "one":\n'
        '    hand 123m 456m\n'
        '    melds pung 777p, kong 8888s\n'
        '    other 2: chow 123s\n'
        '    win 5m, self_drawn, seat_wind S\n'
        '    with discarder 2\n'
        '    expect 平胡 1, 根 1 ×2, total 3\n'
        '    payments -1 -1 3 -1\n'
    )
    example = module.decls[1]
    assert example.hand == "123m456m"
    assert [(m.kind, m.tiles) for m in example.melds] == [("pung", "777p"), ("kong", "8888s")]
    assert example.others[0][0].number == 2 and example.others[0][0].span.column == 11
    assert example.win == "5m"
    assert [(n.text, v) for n, v in example.context] == [("self_drawn", True), ("seat_wind", "S"), ("discarder", 2)]
    assert [(f.name.text, f.value, f.count) for f in example.fans] == [("平胡", 1, 1), ("根", 1, 2)]
    assert example.total == 3 and example.payments.amounts == (-1, -1, 3, -1)


def test_settle_block():
    module = parse_text(
        'variant t "甲"\n'
        'settle:\n'
        '    let share = 2 ^ min(total + loser_total, 21)\n'
        '    self_drawn: each loser pays share\n'
        '    discard: discarder pays sum(losers, share); each other pays 0\n'
    )
    settle = module.decls[1]
    assert [b.name.text for b in settle.bindings] == ["share"]
    discard = settle.rules[1]
    assert [(p.each, p.payer.text) for p in discard.payments] == [(False, "discarder"), (True, "other")]


@pytest.mark.parametrize(("text", "line", "column", "fragment"), [
    ('variant t "甲"\nfan a 1: suits ==\n', 2, 18, "end of line"),
    ('variant t "甲"\nfan a 1: suits == 1，\n', 2, 20, "full-width"),
    ('variant t "甲"\nfan a 1 suits\n', 2, 9, "unexpected 'suits'"),
    ('variant t "甲"\ntiles:\n  suit m 万 "C" 1..9 ×4\n    suit p 筒 "D" 1..9 ×4\n', 4, 5, "indentation"),
    ('variant t "甲"\nfan a 1:\n    true\n  不计 b\n', 4, 1, "indented 2 spaces"),
])
def test_syntax_errors_have_positions(text, line, column, fragment):
    with pytest.raises(SpecError) as info:
        parse_text(text)
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.span.line, diagnostic.span.column) == (line, column)
    assert fragment in diagnostic.message
