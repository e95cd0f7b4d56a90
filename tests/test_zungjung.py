"""Zung Jung (specs/zungjung.mj) against the rules of its text, on random winning hands.

The spec's worked examples pin single hands; these tests check, on every random winning hand, the
rules that hold for all of them: one pattern per series, a limit hand counts alone, the chicken hand
only without any pattern, and the Formal Competition Payoff Scheme (the winner collects three times
the value; above the par the discarder pays for the two others).
"""

from __future__ import annotations

import warnings

import pytest

import dsl
from dsl.cases.samples import random_cases
from dsl.frontend.resolve import load_spec

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
