"""Reference semantics on small specs whose answers are worked out by hand in each test."""

from __future__ import annotations

from dsl.interp.interpreter import Interpreter

SETTLE = """
        settle:
            let value = 2 ^ (total - 1)
            self_drawn: each loser pays value
            discard: discarder pays value; each other pays 1
"""


def fans(result):
    return {f["name"]: (f["value"], f["count"]) for f in result["fans"]}


def test_exclusions_exclusive_groups_and_partial(spec_of):
    spec = spec_of("""
        shapes standard, seven_pairs
        fan 平 1: shape == standard
        fan 碰 2: shape == standard and count(chows) == 0
        fan 清 3: suits == 1 and not any(tiles, 字)
        fan 清碰 4: 清 and 碰
        fan 七对 3: shape == seven_pairs
        fan 龙 5: 七对 and count(kinds, copies == 4) >= 1
            不计 根 ×1
        exclusive 基本 "largest only": 平, 碰, 清, 清碰, 七对, 龙
        fan 根 1 each: count(kinds, copies == 4 and not konged)
        fan 自摸 1: self_drawn
    """ + SETTLE)
    checker = Interpreter(spec)
    # 111 222 333m 444m 55m: all pungs in one suit -> 清碰 4 beats 碰 2, 清 3 and 平 1; no quads, no 根.
    r = checker.evaluate({"hand": "1112223334445m", "win": "5m"})
    assert fans(r) == {"清碰": (4, 1)} and r["total"] == 4
    # 11112233445566m: seven pairs with four 1m -> 龙 5; the quad is its own 根, reduced by one -> no 根.
    # The same tiles read as 11 + 123 123 + 456 456 give 清 3 (+ 根 1 for the four 1m) = 4 < 5.
    r = checker.evaluate({"hand": "1111223344556m", "win": "6m", "self_drawn": True})
    assert fans(r) == {"龙": (5, 1), "自摸": (1, 1)} and r["total"] == 6
    # self-drawn: each of three losers pays 2^(6-1) = 32
    assert r["payments"] == [96, -32, -32, -32]


def test_per_occurrence_and_discard_payments(spec_of):
    spec = spec_of("""
        fan 平 1: true
        fan 根 1 each: count(kinds, copies == 4 and not konged)
    """ + SETTLE)
    # 111m 123m 222p 234p 77z: four 1m and four 2p held, none declared -> 根 ×2; total 1 + 2 = 3.
    # Seat 2 wins on seat 1's discard: the discarder pays 2^(3-1) = 4, each other loser pays 1.
    r = Interpreter(spec).evaluate({"hand": "1111m23m2222p34p7z", "win": "7z", "seat": 2})
    assert fans(r) == {"平": (1, 1), "根": (1, 2)} and r["total"] == 3
    assert r["payments"] == [-1, -4, 6, -1]
    # Declaring the 1m as a kong makes it no longer a 根.
    r = Interpreter(spec).evaluate({"hand": "23m2222p34p7z1m", "win": "7z", "seat": 2, "melds": ["kong 1111m"]})
    assert r["ok"] is False  # 1m is now five copies: four in the kong and one in hand
    r = Interpreter(spec).evaluate({"hand": "23m4m2222p34p7z", "win": "7z", "seat": 2, "melds": ["kong 1111m"]})
    assert fans(r) == {"平": (1, 1), "根": (1, 1)}


def test_requirement_reason_and_minimum(spec_of):
    spec = spec_of("""
        require 缺一门 "Missing a suit": suits <= 1
        minimum 3 excluding 花
        fan 平 1: true
        fan 对 2: count(chows) == 0
        fan 花 1 each: 0
    """)
    checker = Interpreter(spec)
    # two suits -> requirement fails, with its name in the reason
    r = checker.evaluate({"hand": "123m456m789m123p7z", "win": "7z"})
    assert r == {"ok": True, "winning": False, "reason": "requirement 缺一门 (Missing a suit) is not met"}
    # one suit, chows: 平 1 < 3 -> below the minimum; all pungs: 平 1 + 对 2 = 3 wins
    r = checker.evaluate({"hand": "123456789m123m7z", "win": "7z"})
    assert r["winning"] is False and "below the minimum of 3" in r["reason"]
    r = checker.evaluate({"hand": "111333555777m7z", "win": "7z"})
    assert r["winning"] is True and r["total"] == 3


def test_best_decomposition_wins(spec_of):
    spec = spec_of("""
        fan 碰碰 6: count(chows) == 0
        fan 一般高 1: count(chows) == 3
    """)
    # 111222333m 456p 77z: three pungs (碰碰 needs four, so 0) or three identical chows (一般高 1).
    # 111222333m 444p 77z: as pungs 碰碰 6; as chows 1 -> the pung reading is best.
    checker = Interpreter(spec)
    assert checker.evaluate({"hand": "111222333m444p7z", "win": "7z"})["total"] == 6


def test_loser_fans_and_sum_over_losers(spec_of):
    spec = spec_of("""
        context other_melds
        fan 胡 0: true
        loser fan 坐庄 1: is_dealer or loser.dealer
        loser fan 点炮 1: self_drawn or loser.discarder
        loser fan 闭门 1: not loser.opened
        loser fan 三家闭 2: count(losers, not opened) == 3
            不计 闭门
        settle:
            let share = 2 ^ min(total + loser_total, 4)
            self_drawn: each loser pays share
            discard: discarder pays sum(losers, share)
    """)
    checker = Interpreter(spec)
    # Winner seat 2 (not dealer), seat 1 discards; seat 3 has opened.
    # Shares: seat 0 (dealer): 坐庄 1 + 闭门 1 = 2 -> 4; seat 1: 点炮 1 + 闭门 1 = 2 -> 4; seat 3: 0 -> 1.
    # 点炮包: seat 1 pays 4 + 4 + 1 = 9.
    case = {"hand": "123m456m789m123p7z", "win": "7z", "seat": 2, "discarder": 1,
            "other_melds": {"3": ["pung 111p"]}}
    r = checker.evaluate(case)
    assert r["payments"] == [0, -9, 9, 0]
    assert {s["seat"]: s["total"] for s in r["shares"]} == {0: 2, 1: 2, 3: 0}
    # Nobody opened: 三家闭 2 on every share instead of 闭门. Self-drawn by seat 2:
    # seat 0: 坐庄 1 + 点炮 1 + 三家闭 2 = 4 -> 16 (the cap is 4 fan); seats 1 and 3: 1 + 2 = 3 -> 8.
    r = checker.evaluate({"hand": "123m456m789m123p7z", "win": "7z", "seat": 2, "self_drawn": True})
    assert r["payments"] == [-16, -8, 32, -8]


def test_waits(spec_of):
    checker = Interpreter(spec_of("fan 平 1: true\nfan 单 1: waits == 1\n"))
    assert checker.waits({"hand": "1112345678999m"}) == [f"{r}m" for r in range(1, 10)]
    r = checker.evaluate({"hand": "123m456m789m123p7z"})
    assert r["winning"] is False and r["waits"] == ["7z"]
    assert fans(checker.evaluate({"hand": "123m456m789m123p7z", "win": "7z"})) == {"平": (1, 1), "单": (1, 1)}
    assert checker.is_winning({"hand": "123m456m789m123p7z", "win": "7z"})
    assert not checker.is_winning({"hand": "123m456m789m123p7z", "win": "6z"})


def test_unexercised_exclusions_warn_only_for_edges_no_example_shows(spec_of):
    from dsl.book.examples import run_examples, unexercised_exclusions
    spec = spec_of("""
        fan 清 3: suits == 1 and not any(tiles, 字)
            不计 缺
        fan 缺 1: suits <= 1
        fan 大 5: count(pungs) == 4
            不计 自
        fan 自 1: self_drawn
        example "a one-suit hand: 缺 holds beside 清, so that edge is shown":
            hand 123456789m 123m 7m
            win 7m
            expect 清 3
        example "all pungs on a discard: 自 never holds beside 大":
            hand 111m 222m 333p 444p 5p
            win 5p
            expect 大 5
    """)
    checker = Interpreter(spec)
    assert all(outcome.passed for outcome in run_examples(spec, checker))
    warnings = unexercised_exclusions(spec, checker)
    assert [w.message for w in warnings] == [
        "不计 自 is never implied: no example where 大 counts also holds 自"]


def test_minimum_from_an_option(spec_of):
    spec = spec_of("""
        option 起和 "fan needed to win" = 3
        minimum 起和
        fan 平 1: true
        fan 对 2: count(chows) == 0
    """)
    checker = Interpreter(spec)
    pungs = {"hand": "111333555777m7z", "win": "7z"}  # 平 1 + 对 2 = 3
    assert checker.evaluate(pungs)["winning"] is True
    assert checker.evaluate({**pungs, "options": {"起和": 4}})["reason"] == "3 fan is below the minimum of 4"


def test_examples_may_set_options(spec_of):
    from dsl.book.examples import run_examples
    spec = spec_of("""
        option 起和 "fan needed to win" = 1
        minimum 起和
        fan 平 1: true
        example "a 1-fan hand wins by default":
            hand 123m456m789m123p7z
            win 7z
            expect 平 1
        example "and not when the table plays 2 fan minimum":
            hand 123m456m789m123p7z
            win 7z
            options 起和 2
            expect no win "below the minimum of 2"
    """)
    assert spec.examples[1].case_dict()["options"] == {"起和": 2}
    assert all(outcome.passed for outcome in run_examples(spec, Interpreter(spec)))


def test_example_options_are_checked(spec_of):
    import pytest

    from dsl.frontend.source import SpecError
    with pytest.raises(SpecError, match="unknown option '起胡'"):
        spec_of('option 起和 "x" = 1\nexample "e":\n    hand 1m\n    options 起胡 2\n')
    with pytest.raises(SpecError, match="takes a value like 1"):
        spec_of('option 起和 "x" = 1\nexample "e":\n    hand 1m\n    options 起和 true\n')
