"""Zung Jung (specs/zungjung.mj) against the rules of its text, on random winning hands.

The spec's worked examples pin single hands; these tests check, on every random winning hand, the
rules that hold for all of them: one pattern per series, a limit hand counts alone, the chicken hand
only without any pattern, and the Formal Competition Payoff Scheme (the winner collects three times
the value; above the par the discarder pays for the two others). A few hands the v3.3 pattern list
decides by what was held before the win or declared before it (2.2, 9.4) are scored by both back
ends.
"""

from __future__ import annotations

import warnings

import pytest

import dsl
from dsl.cases.samples import random_cases
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter

HANDS = 3000
WINDS = ("E", "S", "W", "N")
LIMIT = 320
PAR = 25  # the par of the Formal Competition Payoff Scheme

# The series of the List of Patterns: patterns numbered alike up to the last number (2.1.1 and 2.1.2
# are the series 2.1). 3.1 Value Honor is the one pattern that counts once per set.
SERIES = {
    "2.1": {"混一色", "清一色"},
    "3.2": {"小三元", "大三元"},
    "3.3": {"小三風", "大三風", "小四喜", "大四喜"},
    "4.2": {"二暗刻", "三暗刻", "四暗刻"},
    "4.3": {"一槓", "二槓", "三槓", "四槓"},
    "5.1": {"一般高", "兩般高", "一色三同順", "一色四同順"},
    "6.2": {"三色小同刻", "三色同刻"},
    "7.2": {"三連刻", "四連刻"},
    "8.1": {"混全帶么", "純全帶么", "混么九", "清么九"},
    "9.1": {"海底撈月", "河底撈魚"},
    "9.4": {"天和", "地和"},
}
# Patterns listed at 320 points or more: each is a limit hand of its own.
LIMIT_PATTERNS = {"九蓮寶燈": 480, "四槓": 480, "一色四同順": 480, "大四喜": 400, "清么九": 400,
                  "小四喜": 320, "字一色": 320}


@pytest.fixture(scope="module")
def wins() -> list[tuple[dict, dict]]:
    """(case, result) of every winning hand among random winning cases, scored by the compiled checker."""
    spec = load_spec("zungjung")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing or stale checker is a failure, not a fallback
        checker = dsl.load("zungjung")
    cases = random_cases(spec, HANDS, seed=7, kinds={"winning": 1.0})
    scored = [(case, checker.evaluate(case)) for case in cases]
    return [(case, result) for case, result in scored if result.get("winning")]


def test_enough_winning_hands(wins):
    assert len(wins) > HANDS // 2


def test_one_pattern_per_series(wins):
    for case, result in wins:
        names = {fan["name"] for fan in result["fans"]}
        for series, members in SERIES.items():
            assert len(names & members) <= 1, (series, case, result)


def test_only_value_honor_counts_more_than_once(wins):
    for case, result in wins:
        assert all(fan["count"] == 1 for fan in result["fans"] if fan["name"] != "番牌"), (case, result)


def test_a_limit_hand_counts_alone_at_its_listed_value(wins):
    for case, result in wins:
        limits = [fan for fan in result["fans"] if fan["name"] in LIMIT_PATTERNS]
        if limits:
            assert len(result["fans"]) == 1, (case, result)
            assert result["total"] == LIMIT_PATTERNS[limits[0]["name"]], (case, result)


def test_chicken_hand_only_without_any_pattern(wins):
    for case, result in wins:
        names = [fan["name"] for fan in result["fans"]]
        if "雞和" in names:
            assert names == ["雞和"] and result["total"] == 1, (case, result)
        assert names, (case, result)


def value(result: dict) -> int:
    """What the hand is paid: a listed limit stands, a sum of patterns is worth 320 at most."""
    if any(fan["name"] in LIMIT_PATTERNS for fan in result["fans"]):
        return result["total"]
    return min(result["total"], LIMIT)


def expected_payments(case: dict, worth: int) -> list[int]:
    """The Formal Competition Payoff Scheme (or the Uniform one), worked out from the case's seats."""
    dealer = case.get("dealer", 0)
    winner = case.get("seat", (dealer + WINDS.index(case.get("seat_wind", "E"))) % 4)
    par = case.get("options", {}).get("par", PAR)
    uniform = case.get("options", {}).get("uniform", False)
    payments = [-worth] * 4
    if not case.get("self_drawn") and not uniform and worth > par:
        discarder = case.get("discarder", (winner - 1) % 4)
        payments = [-par] * 4
        payments[discarder] = -(3 * worth - 2 * par)
    payments[winner] = 3 * worth
    return payments


def test_winner_collects_three_times_the_value(wins):
    for case, result in wins:
        assert result["paid"] == value(result), (case, result)
        assert result["payments"] == expected_payments(case, value(result)), (case, result)
        assert sum(result["payments"]) == 0


# Hands the v3.3 pattern list decides by the hand before the win, with their patterns worked out from the
# list (the spec's examples of the same hands explain each reading). Seat 0 deals.
HELD_BEFORE_THE_WIN = [
    # 2.2: "1112345678999" held, any tile of the suit wins: Nine Gates, a listed limit of 480 counted alone.
    ({"hand": "1112345678999m", "win": "5m", "self_drawn": True}, {"九蓮寶燈": 480}, [1440, -480, -480, -480]),
    # 1111234678999 held, 5萬 drawn: the fourteen tiles are 1112345678999 plus a 1, but what was held is not
    # a nine-way wait. 111 123 456 789 99萬: 2.1.2 Pure One-Suit 80 + 7.1 Nine-Tile Straight 40 + 1.2
    # Concealed Hand 5 = 125, self-drawn by the dealer: 125 from each.
    ({"hand": "1111234678999m", "win": "5m", "self_drawn": True}, {"清一色": 80, "一氣通貫": 40, "門前清": 5},
     [375, -125, -125, -125]),
    # 1122345678999 held, seat 1 wins the dealer's 1萬: 111 22 345 678 999萬, Pure One-Suit 80 + Concealed Hand
    # 5 = 85 (the 111 the discard completes is not concealed: one concealed triplet, no 4.2). Above the par
    # of 25: the dealer pays 3 × 85 − 2 × 25 = 205, the two others 25.
    ({"hand": "1122345678999m", "win": "1m", "seat_wind": "S"}, {"清一色": 80, "門前清": 5}, [-205, 255, -25, -25]),
    # 9.4.1 is "invalid if East has made a concealed kong": the dealer konges 1111萬 on the first turn and
    # draws the 北 that pairs as the replacement. 9.2 Win on Kong 10 + 4.3.1 One Kong 5 + Concealed Hand 5
    # (a concealed kong keeps it) = 20, not 175 with Blessing of Heaven 155.
    ({"melds": ["concealed_kong 1111m"], "hand": "123p456p789s4z", "win": "4z", "self_drawn": True,
      "first_turn": True, "kong_replacement": True}, {"嶺上開花": 10, "一槓": 5, "門前清": 5}, [60, -20, -20, -20]),
    # 9.4.2, likewise: the dealer konged four 中 before its first discard, which seat 1 wins on. 1.1 All
    # Sequences 5 + Concealed Hand 5 = 10 (not 165 with Blessing of Earth), 10 from each.
    ({"hand": "123m456m789p234s5s", "win": "5s", "first_turn": True, "seat_wind": "S",
      "other_melds": {"0": ["concealed_kong 7777z"]}}, {"平和": 5, "門前清": 5}, [-10, 30, -10, -10]),
]


@pytest.fixture(scope="module", params=["compiled", "interpreter"])
def back_end(request):
    """dsl.load's compiled checker (a missing or stale one fails) and the reference interpreter."""
    if request.param == "interpreter":
        return Interpreter(load_spec("zungjung"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return dsl.load("zungjung")


@pytest.mark.parametrize(("case", "patterns", "payments"), HELD_BEFORE_THE_WIN)
def test_patterns_of_the_hand_before_the_win(back_end, case, patterns, payments):
    result = back_end.evaluate(case)
    assert {fan["name"]: fan["value"] * fan["count"] for fan in result["fans"]} == patterns, result
    assert result["total"] == sum(patterns.values())
    assert result["payments"] == payments
