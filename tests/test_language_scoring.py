"""combinations(...) in any expression, a spec's unit and cap (the paid amount), traditional-character keywords."""

from __future__ import annotations

import warnings

import pytest
from conftest import tiles

from dsl.book import model, render
from dsl.book.variantdiff import diff
from dsl.cli import main
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter

# 123万 123万 123筒 456筒 + a pair of 中: the chows are read in one way only (112233万 holds no pung).
TWIN_CHOWS = {"hand": "123m123m123p456p7z", "win": "7z"}
# 123万 ×3 can also be read as the pungs 111 222 333万; a chow reading and a pung reading compete.
TRIPLE_CHOWS = {"hand": "123m123m123m456p7z", "win": "7z"}


def fans(result: dict) -> dict[str, tuple[int, int]]:
    return {f["name"]: (f["value"], f["count"]) for f in result["fans"]}


# ---------------------------------------------------------------- combinations anywhere


def test_combinations_in_a_comparison_a_let_and_a_value(spec_of):
    spec = spec_of("""
        let 同顺 = combinations(chows, 2, same(rank))
        fan 双同 2: combinations(chows, 2, same(suit) and same(rank)) >= 1
        fan 顺数 "Runs of a rank" (同顺): 同顺 >= 2
    """)
    # Pairs of chows: 123万-123万 same suit and rank (双同 2); with 123筒 the two 123万 make two more
    # pairs of the same rank, so 同顺 = 3 and 顺数 is worth 3. Total 5.
    result = Interpreter(spec).evaluate(TWIN_CHOWS)
    assert fans(result) == {"双同": (2, 1), "顺数": (3, 1)} and result["total"] == 5


def test_under_the_principles_every_whole_combinations_condition_is_counted_together(spec_of):
    spec = spec_of("""
        principles 套算一次
        fan 一般高 1 each: combinations(chows, 2, same(suit) and same(rank))
        fan 有同 3: combinations(chows, 2, same(rank))
    """)
    # Chow reading 123万 ×3 + 456筒: three pairs of identical chows, each of which 有同's condition holds for too.
    # Counted together, a pair of sets makes the first fan declared it matches (不得相同), and three sets make
    # at most two two-set fans: 一般高 ×2, and no pair is left for 有同. Total 2. The pung reading 111 222 333万
    # has one chow and scores 0, so the chow reading is taken.
    result = Interpreter(spec).evaluate(TRIPLE_CHOWS)
    assert fans(result) == {"一般高": (1, 2)} and result["total"] == 2


def test_under_the_principles_a_combination_fan_without_each_counts_once(spec_of):
    spec = spec_of("""
        principles 套算一次
        fan 有同 3: combinations(chows, 2, same(rank))
    """)
    # 123万 123万 123筒 456筒: three pairs of chows of one rank among three related chows of four, two of which
    # the principles keep; without `each` 有同 counts once: 3.
    result = Interpreter(spec).evaluate({"hand": "123m123m123p456p7z", "win": "7z"})
    assert fans(result) == {"有同": (3, 1)} and result["total"] == 3


def test_combinations_stays_checked_where_it_is_written(spec_of):
    with pytest.raises(SpecError, match="size of a combination"):
        spec_of("fan a 1: combinations(chows, 5, same(suit)) > 0\n")
    with pytest.raises(SpecError, match="combinations are taken from"):
        spec_of("fan a 1: combinations(tiles, 2, same(suit)) > 0\n")


# ---------------------------------------------------------------- unit and cap


CAPPED = """
    unit 台 "tai"
    cap 10 "滿台 Limit"
    fan 底 "Base" 5: true
    fan 自摸 "Self-drawn" 8: self_drawn
    settle:
        self_drawn: each loser pays paid
        discard: discarder pays paid + total
"""


def test_a_cap_adds_what_is_paid_and_keeps_the_total(spec_of):
    checker = Interpreter(spec_of(CAPPED))
    # Self-drawn: 5 + 8 = 13 台, over the cap of 10: paid 10 by each of the three others.
    result = checker.evaluate(TWIN_CHOWS | {"self_drawn": True})
    assert result["total"] == 13 and result["paid"] == 10
    assert result["payments"] == [30, -10, -10, -10]
    # On a discard: 5 台, under the cap, paid 5; the discarder pays paid + total = 10.
    result = checker.evaluate(TWIN_CHOWS)
    assert result["total"] == 5 and result["paid"] == 5 and result["payments"] == [10, 0, 0, -10]


def test_without_a_cap_a_result_has_no_paid_key(spec_of):
    result = Interpreter(spec_of("fan 底 5: true\n")).evaluate(TWIN_CHOWS)
    assert result["total"] == 5 and "paid" not in result


def test_the_unit_names_the_minimum_and_has_a_usual_english(spec_of):
    spec = spec_of('unit 台 "tai"\nminimum 8\nfan 底 5: true\n')
    assert Interpreter(spec).evaluate(TWIN_CHOWS)["reason"] == "5 台 is below the minimum of 8"
    assert spec_of("unit 胡數\nfan 底 5: true\n").unit_english == "hu"
    assert spec_of("fan 底 5: true\n").unit == "番"
    with pytest.raises(SpecError, match="positive"):
        spec_of("cap 0\nfan 底 5: true\n")


# Zung Jung's limit: a plain sum pays at most the cap, but one fan worth more than the cap on its own is
# paid at its value (a listed limit of 480 is paid 480, not 320).
CAP_UNLESS = """
    cap 10 "Limit" unless one fan is more
    fan 大 "Big" 12: self_drawn and not kong_replacement
    fan 底 "Base" 5: true
    fan 順 "Chows" 3 each: count(chows) if kong_replacement else 0
    fan 滿 "Full" 10: kong_replacement
    settle:
        self_drawn: each loser pays paid
        discard: discarder pays paid
"""


def test_a_cap_unless_one_fan_is_more_pays_such_a_hand_its_whole_total(spec_of):
    checker = Interpreter(spec_of(CAP_UNLESS))
    # Self-drawn: 大 12 + 底 5 = 17; 大 alone (12) is more than the cap of 10: all 17 paid, by each other.
    result = checker.evaluate(TWIN_CHOWS | {"self_drawn": True})
    assert result["total"] == 17 and result["paid"] == 17 and result["payments"] == [51, -17, -17, -17]
    # On a discard: 底 5 only, under the cap: paid 5.
    result = checker.evaluate(TWIN_CHOWS)
    assert result["total"] == 5 and result["paid"] == 5 and result["payments"] == [5, 0, 0, -5]


def test_a_fan_counted_several_times_is_worth_its_value_times_its_count(spec_of):
    checker = Interpreter(spec_of(CAP_UNLESS))
    # Won on a kong's replacement tile (a kong declared; the replacement is drawn): 底 5 + 滿 10 + 順 3 × 3 chows
    # (123m 123p 456p) = 24; 順 alone is 9 and 滿 is 10, neither more than the cap: paid 10.
    case = {"hand": "123m123p456p7z", "melds": ["kong 9999m"], "win": "7z", "kong_replacement": True,
            "self_drawn": True}
    result = checker.evaluate(case)
    assert result["total"] == 24 and result["paid"] == 10
    # Four chows (123m 123m 123p 456p): 順 alone is 3 × 4 = 12 > 10, so the whole 5 + 10 + 12 = 27 is paid.
    four = {"hand": "123m123m123p456p7z", "win": "7z"}
    result = Interpreter(spec_of(CAP_UNLESS.replace("kong_replacement", "not self_drawn"))).evaluate(four)
    assert result["total"] == 27 and result["paid"] == 27


def test_the_cap_unless_reads_in_the_book_and_in_the_source(spec_of):
    spec = spec_of(CAP_UNLESS)
    assert spec.cap == 10 and spec.cap_unless_more
    assert model.book(spec).cap == ("A hand pays at most 10 fan (Limit): a larger total is paid as 10, unless one "
                                   "fan alone is worth more than 10 (then the whole total is paid), and a result "
                                   "shows both the total and what is paid.")
    assert not spec_of(CAPPED).cap_unless_more
    with pytest.raises(SpecError):
        spec_of('cap 10 unless one fan\nfan 底 5: true\n')


def test_the_book_states_the_cap_in_a_sentence_and_shows_the_paid_amount(spec_of, tmp_path):
    spec = spec_of(CAPPED + """
    example "Self-drawn over the cap":
        hand 123m 123m 123p 456p 7z
        win 7z, self_drawn
        # 底 5 and 自摸 8 make 13 台; the cap pays 10.
        expect 底 5, 自摸 8, total 13
""")
    book = model.book(spec)
    assert book.cap == ("A hand pays at most 10 tai (滿台 Limit): a larger total is paid as 10, and a result "
                        "shows both the total and what is paid.")
    pages = render.render_books([book], tmp_path)
    markdown = next(text for path, text in pages.items() if path.name == f"{spec.name}.md")
    assert book.cap in markdown and "| 番种 Fan | 台 Value | Points |" in markdown
    assert "| **Paid 实付** (at most the cap) | | **10** |" in markdown
    assert "A hand needs at least" not in markdown  # no minimum: the sentence says so instead
    assert "底 5 and 自摸 8 make 13 台; the cap pays 10." in markdown


def test_mjdsl_score_shows_the_unit_and_the_paid_amount(write_spec, capsys):
    path = write_spec(CAPPED)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the compiled checker answers: no fallback to the interpreter
        code = main(["score", str(path), "123m 123m", "123p", "456p", "7z", "--win", "7z", "--self-drawn"])
    out = capsys.readouterr().out
    # 底 5 + 自摸 8 = 13 台, above the cap of 10: the report gives the total and what is paid, in 台.
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert code == 0 and "total 13 台" in lines and any(line.startswith("paid 10 台") for line in lines), out


# ---------------------------------------------------------------- traditional characters


def test_traditional_keywords_and_principles_mean_the_simplified_ones(spec_of):
    written = """
        principles {principle}
        fan 大 4: suits == 1
            {keyword} 小
        fan 小 1: suits == 1
    """
    traditional = spec_of(written.format(principle="不重複", keyword="不計"))
    simplified = spec_of(written.format(principle="不重复", keyword="不计"))
    assert traditional.principles == simplified.principles == ("不重复",)
    assert traditional.patterns[0].excludes[0].target == "小"
    # One suit: 大 4 counts and excludes 小.
    hand = {"hand": "123m456m789m123m5m", "win": "5m"}
    assert fans(Interpreter(traditional).evaluate(hand)) == {"大": (4, 1)}


def test_a_variant_diff_names_a_changed_unit_cap_and_integer_key(spec_of, write_spec):
    plain = spec_of("fan 底 5: true\n")
    capped = load_spec(str(write_spec('unit 台 "tai"\ncap 10\ncontext n int 0..3 "streak"\nfan 底 5: true\n',
                                      name="capped")))
    rows = {row.name: (row.before, row.after) for section in diff(plain, capped).sections for row in section.rows}
    assert rows["unit"] == ("番", "台") and rows["cap"][1] == "10"
    assert rows["context n"][1] == "streak (0..3)"
    unless = load_spec(str(write_spec('cap 10 "Limit" unless one fan is more\nfan 底 5: true\n', name="unless")))
    rows = {row.name: (row.before, row.after) for section in diff(capped, unless).sections for row in section.rows}
    assert rows["cap"] == ("10", "10 (Limit) unless one fan is more")


COMBINATIONS_ANYWHERE = 'variant anywhere "组合" "Combinations anywhere"\n' + tiles("mps") + """\
context self_drawn
principles 套算一次
let 同顺 = combinations(chows, 2, same(rank))
fan 一般高 "Pure double chow" 1 each: combinations(chows, 2, same(suit) and same(rank))
fan 有同 "Some double" 3: combinations(chows, 2, same(suit) and same(rank))
fan 三连 "Three runs" 2: combinations(chows, 3, same(suit) and step == 3) + 同顺 >= 2
fan 顺数 "Runs of a rank" (同顺): count(chows) >= 2 and 同顺 > 0
"""


def test_the_compiled_checker_counts_combinations_anywhere_as_the_interpreter(tmp_path, monkeypatch):
    import dsl
    from dsl.cases.samples import random_cases

    monkeypatch.setenv("MJDSL_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "anywhere.mj"
    path.write_text(COMBINATIONS_ANYWHERE, encoding="utf-8")
    spec = load_spec(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # this spec compiles: falling back to the interpreter is a failure
        compiled = dsl.load(str(path))
    interpreter = Interpreter(spec)
    # The hand of the principles test above: the fixed fan counts once, 一般高 twice.
    assert compiled.evaluate(TRIPLE_CHOWS) == interpreter.evaluate(TRIPLE_CHOWS)
    for case in random_cases(spec, 1500, seed=11):
        assert compiled.evaluate(case) == interpreter.evaluate(case), case
