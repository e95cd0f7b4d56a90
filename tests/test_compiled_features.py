"""The compiled checkers on a spec's unit, cap (and `unless one fan is more`), `paid`, integer context keys
and own shapes: the same answers as the interpreter, worked out by hand for a few cases and compared on
random ones."""

from __future__ import annotations

import pytest
from conftest import SEASONS, tiles
from parity import answer, compile_text

from dsl.cases.samples import random_cases
from dsl.compiled import codegen
from dsl.frontend.resolve import load_spec

NEWER = 'variant newer "新" "Newer features"\n' + tiles("mp", SEASONS) + """\
meld flower "Flower" = one of 花
melds chow, pung, kong
shapes standard, seven_pairs
context self_drawn, seat_wind, seat, dealer, discarder
context 連莊 int 0..5 "the dealer's wins in a row"
context 底台 int 2..4 "the base"
unit 台 "tai"
cap 12 "滿台 Limit" unless one fan is more
minimum 2
shape 四花齊 "Four Flowers": count(groups, 花) == 4
fan 四花齊 "Four Flowers" 16: shape == 四花齊
fan 平 "Plain" 1: shape == standard
fan 對 "Pairs" 4: shape == seven_pairs
fan 花 "Flower" 1 each: count(groups, 花)
fan 自摸 "Self-drawn" 1: self_drawn
fan 清 "One suit" 8: suits == 1 and all(tiles, numbered)
fan 莊 "Streak" (2 * 連莊 + 底台): 連莊 > 0
fan 刻 "Pungs" 3 each: count(pungs)
score:
    let shown = paid * 10 + total
settle:
    self_drawn: each loser pays paid
    discard: discarder pays paid + 連莊
"""

PLAIN_CAP = 'variant plaincap "封顶" "A plain cap"\n' + tiles("m") + """\
melds chow, pung
context self_drawn
cap 5
fan 平 "Plain" 1: shape == standard
fan 刻 "Pungs" 2 each: count(pungs)
fan 大 "Big" 9: count(pungs) == 4
settle:
    self_drawn: each loser pays paid
    discard: discarder pays paid
"""

FLOWERS = ["flower 1f", "flower 2f", "flower 3f", "flower 4f"]


@pytest.fixture(scope="module")
def compile_spec(tmp_path_factory):
    """(compiled checker, interpreter) of a spec text, compiled into a cache of this module's own."""
    folder = tmp_path_factory.mktemp("features")
    made: dict[str, tuple] = {}

    def make(text: str):
        if text not in made:
            made[text] = compile_text(text, folder)
        return made[text]

    return make


def test_zungjung_s_cap_reaches_its_checker():
    code = codegen.generate(load_spec("zungjung"))
    assert "t.has_cap = True" in code and "t.cap = 320" in code and "t.cap_unless_more = True" in code


def test_own_shape_unit_cap_and_integer_keys_by_hand(compile_spec):
    compiled, interpreter = compile_spec(NEWER)
    # Four flowers and any 13 tiles, self-drawn by the dealer (seat 0): 四花齊 16 + 花 1 × 4 + 自摸 1 = 21;
    # 四花齊 alone (16) is more than the cap of 12: the whole 21 is paid, by each of the three others.
    case = {"hand": "1m3m5m7m9m1p3p5p7p9p1z2z3z", "win": "4z", "self_drawn": True, "melds": FLOWERS}
    result = compiled.evaluate(case)
    fans = {f["name"]: f["value"] * f["count"] for f in result["fans"]}
    assert fans == {"四花齊": 16, "花": 4, "自摸": 1} and result["total"] == 21 and result["paid"] == 21
    assert result["shown"] == 21 * 10 + 21 and result["payments"] == [63, -21, -21, -21]
    # 123 456 789万 111万 + 99万 wait: a pung of 1万, all 万. On seat 3's discard (the seat before the
    # winner, seat 0): 平 1 + 清 8 + 刻 3 + 莊 (2 × 5 + 4 = 14) = 26. 莊 alone, 14, is more than 12: paid 26,
    # the discarder adds 連莊 5.
    hand = {"hand": "111m123m456m789m9m", "win": "9m", "連莊": 5, "底台": 4}
    result = compiled.evaluate(hand)
    fans = {f["name"]: f["value"] * f["count"] for f in result["fans"]}
    assert fans == {"平": 1, "清": 8, "刻": 3, "莊": 14} and result["paid"] == 26
    assert result["payments"] == [31, 0, 0, -31]
    # 連莊 1, 底台 left out (its low end, 2): 莊 is 2 × 1 + 2 = 4; total 1 + 8 + 3 + 4 = 16, no fan above 12:
    # paid 12, and 12 + 1 from the discarder.
    result = compiled.evaluate({"hand": hand["hand"], "win": "9m", "連莊": 1})
    assert result["total"] == 16 and result["paid"] == 12 and result["payments"] == [13, 0, 0, -13]
    # Out of range: the same error as the interpreter's, naming the key.
    for value in (6, -1, True, "2"):
        error = compiled.evaluate(hand | {"連莊": value})
        assert error["ok"] is False and "'連莊'" in error["error"] and "0 to 5" in error["error"]
        assert error == interpreter.evaluate(hand | {"連莊": value})
    # 123 456 789万 123筒 + 白 pair: 平 1 alone, below the minimum of 2; the reason names the unit.
    result = compiled.evaluate({"hand": "123m456m789m123p5z", "win": "5z"})
    assert result == {"ok": True, "winning": False, "fans": [{"name": "平", "en": "Plain", "value": 1, "count": 1}],
                      "total": 1, "reason": "1 台 is below the minimum of 2"}


def test_seven_pairs_with_a_flower_laid_aside(compile_spec):
    compiled, interpreter = compile_spec(NEWER)
    # 22 5555 99万 22 44 55筒 with 春 laid aside: seven pairs (four of a kind is two), the flower no set.
    # 對 4 + 花 1 = 5 台 on seat 3's discard: paid 5 by the discarder.
    case = {"hand": "2255559m224455p", "win": "9m", "melds": ["flower 1f"]}
    result = compiled.evaluate(case)
    assert {f["name"]: f["value"] * f["count"] for f in result["fans"]} == {"對": 4, "花": 1}
    assert result["paid"] == 5 and result["payments"] == [5, 0, 0, -5]
    assert compiled.waits(case) == ["9m"] == interpreter.waits(case)


def test_a_plain_cap_pays_at_most_the_cap(compile_spec):
    compiled, interpreter = compile_spec(PLAIN_CAP)
    # 111 222 333 444万 + 55万: 平 1 + 刻 2 × 4 + 大 9 = 18; 大 alone is more than 5, but a plain cap pays 5.
    result = compiled.evaluate({"hand": "1112223334445m", "win": "5m", "self_drawn": True})
    assert result["total"] == 18 and result["paid"] == 5 and result["payments"] == [15, -5, -5, -5]
    # 123 456 789万 123万 + 東 pair: 平 1, under the cap: paid 1.
    result = compiled.evaluate({"hand": "123m456m789m123m1z", "win": "1z"})
    assert result["total"] == 1 and result["paid"] == 1
    for case in random_cases(interpreter.spec, 1000, seed=11):
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case


def test_random_cases_match_the_interpreter(compile_spec):
    compiled, interpreter = compile_spec(NEWER)
    cases = random_cases(interpreter.spec, 3000, seed=12)
    shapes = 0
    for case in cases:
        expected = answer(interpreter.evaluate, case)
        assert answer(compiled.evaluate, case) == expected, case
        shapes += "四花齊" in expected
    assert shapes > 10, "the random cases should reach the spec's own shape"
    for case in cases[:300]:
        assert answer(compiled.waits, case) == answer(interpreter.waits, case), case


def test_a_flower_won_on_is_answered_as_the_interpreter_answers(compile_spec):
    compiled, interpreter = compile_spec(NEWER)
    # 春 夏 秋 laid aside, 冬 drawn and laid aside too: 四花齊 16 + 花 1 × 4 + 自摸 1 = 21, one fan above the
    # cap: the whole 21 from each of the three others.
    case = {"hand": "1m3m5m7m9m1p3p5p7p9p1z2z3z", "win": "4f", "self_drawn": True, "melds": FLOWERS[:3]}
    result = compiled.evaluate(case)
    assert result["total"] == 21 and result["paid"] == 21 and result["payments"] == [63, -21, -21, -21]
    assert result == interpreter.evaluate(case)
    # Two flowers before it make three, no 四花齊, and a flower completes no standard hand.
    case = {"hand": "123m456m789m123p5z", "win": "3f", "self_drawn": True, "melds": FLOWERS[:2]}
    assert compiled.evaluate(case)["winning"] is False
    assert compiled.evaluate(case) == interpreter.evaluate(case)


COUNTED_TOGETHER = 'variant together "套算" "Counted together"\n' + tiles("mp") + """\
melds chow, pung
principles 套算一次
fan 一般高 "Pure double chow" 1 each: combinations(chows, 2, same(suit) and same(rank))
fan 有同 "Same rank" 3: combinations(chows, 2, same(rank))
fan 三同 "Three of a rank" 8: combinations(chows, 3, same(rank))
"""


def test_a_combination_fan_without_each_counts_once_in_both_checkers(compile_spec):
    compiled, interpreter = compile_spec(COUNTED_TOGETHER)
    # 123万 123万 123筒 456筒: 123万 123万 123筒 are three chows of one rank, 三同 8; its own pairs (一般高, 有同) are
    # not counted with it, and 456筒 makes no fan with any of them: 8.
    case = {"hand": "123m123m123p456p7z", "win": "7z"}
    result = compiled.evaluate(case)
    assert {f["name"]: f["count"] for f in result["fans"]} == {"三同": 1} and result["total"] == 8
    assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case)
    # 123万 123筒 456万 456筒: no three of a rank; pairs 123万-123筒 and 456万-456筒 make 有同 twice, counted once.
    case = {"hand": "123m123p456m456p7z", "win": "7z"}
    result = compiled.evaluate(case)
    assert {f["name"]: f["count"] for f in result["fans"]} == {"有同": 1} and result["total"] == 3
    assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case)
