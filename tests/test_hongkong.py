"""Hong Kong Old Style (specs/hongkong.mj): hands worked by hand from the published rules, answered the same by the
interpreter and the compiled checker. Half-spicy schedule: 3 faan 8, 6 32, 7 48, 9 96, 13 384 (a loser's share)."""

from __future__ import annotations

import warnings

import pytest

import dsl
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter

FOUR_CHOWS = {"hand": "123m456m789m234m5z", "win": "5z", "seat_wind": "S"}


@pytest.fixture(scope="module", params=["interpreter", "compiled"])
def checker(request):
    if request.param == "interpreter":
        return Interpreter(load_spec("hongkong"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return dsl.load("hongkong")


def test_three_faan_are_needed_without_the_flowers(checker):
    # 平糊 1 + 門前清 1 = 2, and 無花 1 does not count toward the minimum: no win.
    result = checker.evaluate({"hand": "123m456p789s234s5z", "win": "5z", "seat_wind": "S", "discarder": 0})
    assert result["ok"] and not result["winning"]


def test_a_discard_is_paid_twice_by_the_discarder_or_three_times_with_full_payment(checker):
    # 平糊 1, 混一色 3 (萬 with a 中 pair), 門前清 1, 無花 1 = 6 faan: 32 a share.
    assert checker.evaluate(FOUR_CHOWS | {"discarder": 2})["payments"] == [0, 64, -64, 0]
    full = FOUR_CHOWS | {"discarder": 2, "options": {"全銃": True}}
    assert checker.evaluate(full)["payments"] == [0, 96, -96, 0]


def test_a_self_draw_is_paid_by_every_loser(checker):
    # 自摸 1 more: 7 faan, 48 from each of the others.
    assert checker.evaluate(FOUR_CHOWS | {"self_drawn": True})["payments"] == [-48, 144, -48, -48]


def test_a_limit_hand_counts_alone_and_the_feeder_pays_for_all(checker):
    # 大三元 (pungs of 中 發 白) is 13 faan alone: 384 a share; seat 1 fed the third dragon pung (包).
    case = {"melds": ["pung 555z", "pung 666z", "pung 777z"], "hand": "123m9m", "win": "9m",
            "self_drawn": True, "seat_wind": "N"}
    result = checker.evaluate(case)
    assert [f["name"] for f in result["fans"]] == ["大三元"] and result["payments"] == [-384, -384, -384, 1152]
    assert checker.evaluate(case | {"包家": 1})["payments"] == [0, -1152, 0, 1152]


def test_a_total_above_the_limit_is_paid_as_13(checker):
    # 清一色 7, 對對糊 3, 自摸 1, 槓上開花 1, 海底撈月 1, 無花 1 = 14, paid as 13: 384 each.
    result = checker.evaluate({"melds": ["kong 1111p"], "hand": "222p444p666p9p", "win": "9p", "self_drawn": True,
                               "kong_replacement": True, "last_tile": True})
    assert result["total"] == 14 and result["paid"] == 13 and result["payments"] == [1152, -384, -384, -384]


def test_seat_flowers_follow_the_winners_seat(checker):
    # 春 (1f) and 梅 (5f) are East's; 夏 (2f) is South's. East holding all three: 正花 ×2.
    case = {"melds": ["花牌 1f", "花牌 5f", "花牌 2f"], "hand": "123s456s789s234s5s", "win": "5s", "discarder": 1}
    fans = {f["name"]: f["count"] for f in checker.evaluate(case)["fans"]}
    assert fans["正花"] == 2
    south = {f["name"]: f["count"] for f in checker.evaluate(case | {"seat_wind": "S", "discarder": 0})["fans"]}
    assert south["正花"] == 1
