"""Integer context keys (`context NAME int LOW..HIGH "..."`), `next hand sets NAME = ...` in `round:`, and the
other players' melds (`other_melds`) as a source of a hand's conditions."""

from __future__ import annotations

import pytest

from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler

STREAK = """
    context 連莊 int 0..8 "the dealer's wins in a row (連莊)"
    fan 平 1: true
    fan 拉莊 "Dealer streak" (2 * 連莊 + 1): 連莊 > 0
    settle:
        self_drawn: each loser pays total
        discard: discarder pays total
    round:
        next hand sets 連莊 = 連莊 + 1 if dealer_won or drawn else 0
"""
HAND = {"hand": "123m456m789m123p5z", "win": "5z"}  # three chows of 万, 123筒 and a pair of 白


def fans(result: dict) -> dict[str, int]:
    return {f["name"]: f["value"] * f["count"] for f in result["fans"]}


def test_an_integer_key_is_read_from_the_case_and_used_in_expressions(spec_of):
    checker = Interpreter(spec_of(STREAK))
    # 連莊 3: 拉莊 is worth 2 × 3 + 1 = 7, with 平 1 the total is 8.
    result = checker.evaluate(HAND | {"連莊": 3})
    assert fans(result) == {"平": 1, "拉莊": 7} and result["total"] == 8
    # Left out, the key is the low end of its range, 0: no 拉莊.
    assert fans(checker.evaluate(HAND)) == {"平": 1}
    # The high end is allowed: 2 × 8 + 1 = 17.
    assert fans(checker.evaluate(HAND | {"連莊": 8}))["拉莊"] == 17


@pytest.mark.parametrize("value", [9, -1, True, "3", 2.5, None])
def test_a_value_out_of_range_or_not_a_whole_number_is_an_error_naming_the_key(spec_of, value):
    result = Interpreter(spec_of(STREAK)).evaluate(HAND | {"連莊": value})
    assert result["ok"] is False and "'連莊'" in result["error"] and "0 to 8" in result["error"]


def test_a_case_leaving_out_a_key_whose_range_starts_above_zero_has_the_low_end(spec_of):
    spec = spec_of("""
        context 台數 int 2..5 "base tai"
        fan 底 (台數): true
    """)
    assert fans(Interpreter(spec).evaluate(HAND)) == {"底": 2}
    assert Interpreter(spec).evaluate(HAND | {"台數": 1})["ok"] is False


def test_an_empty_range_and_a_builtin_name_are_spec_errors(spec_of):
    with pytest.raises(SpecError, match="empty"):
        spec_of('context n int 5..2 "backwards"\nfan a 1: n > 0\n')
    with pytest.raises(SpecError, match="built-in context key"):
        spec_of('context honba int 0..9 "a built-in name"\nfan a 1: true\n')


# ---------------------------------------------------------------- next hand sets


def _round(spec, streak: int, events: list) -> dict:
    return RoundSettler(spec, Interpreter(spec)).settle({"dealer": 0, "context": {"連莊": streak}, "events": events})


def _win(seat: int, **more) -> dict:
    return {"win": HAND | {"seat": seat} | more}


def test_the_dealer_winning_adds_one_and_another_winner_resets_it(spec_of):
    spec = spec_of(STREAK)
    # The dealer (seat 0) wins self-drawn with 連莊 2: next hand 2 + 1 = 3.
    result = _round(spec, 2, [_win(0, self_drawn=True)])
    assert result["ok"] and result["next_context"] == {"連莊": 3}
    # 拉莊 2 × 2 + 1 = 5, 平 1: total 6 from each of the three others.
    assert result["payments"] == [18, -6, -6, -6]
    # Seat 1 wins on the dealer's discard: the streak ends, 0.
    assert _round(spec, 2, [_win(1, discarder=0)])["next_context"] == {"連莊": 0}


def test_an_exhaustive_draw_keeps_the_dealer_and_adds_one(spec_of):
    # Four final hands that can be on the table together (no tile more than four times).
    hands = {"0": "1112223334445m", "1": "1112223334445p", "2": "5556667778889m", "3": "5556667778889p"}
    result = _round(spec_of(STREAK), 4, [{"draw": {seat: {"hand": hand} for seat, hand in hands.items()}}])
    assert result["ok"], result
    assert result["next_context"] == {"連莊": 5} and result["payments"] == [0, 0, 0, 0]


def test_a_value_leaving_the_range_is_an_error_not_a_silent_clamp(spec_of):
    result = _round(spec_of(STREAK), 8, [_win(0, self_drawn=True)])
    assert result["ok"] is False and "連莊" in result["error"] and "0..8" in result["error"]


def test_next_hand_sets_needs_an_integer_key_and_a_number(spec_of):
    with pytest.raises(SpecError, match="not an integer context key"):
        spec_of("round:\n    next hand sets self_drawn = 1\nfan a 1: true\n")
    with pytest.raises(SpecError, match="must be number"):
        spec_of('context n int 0..3 "n"\nfan a 1: true\nround:\n    next hand sets n = dealer_won\n')
    with pytest.raises(SpecError, match="unknown name"):
        spec_of('context n int 0..3 "n"\nfan a 1: true\nround:\n    next hand sets n = total\n')


# ---------------------------------------------------------------- other_melds


TABLE = """
    melds chow, pung, concealed_kong
    context first_turn, other_melds
    fan 平 1: shape == standard
    fan 天 "Untouched table" 10: first_turn and count(other_melds) == 0
    fan 暗 "Others' concealed kongs" 2 each: count(other_melds, kong and concealed)
    fan 字 "Others' honor melds" 1 each: sum(other_melds, 1 if 字 else 0)
"""


def test_other_melds_are_the_melds_of_every_other_seat(spec_of):
    checker = Interpreter(spec_of(TABLE))
    first = HAND | {"first_turn": True}
    # Nothing shown at the table: 平 1 + 天 10.
    assert fans(checker.evaluate(first)) == {"平": 1, "天": 10}
    # An empty list of melds shows nothing either.
    assert fans(checker.evaluate(first | {"other_melds": {"2": []}})) == {"平": 1, "天": 10}
    # Seat 2 konged four 东 concealed, seat 3 claimed 123筒 and a pung of 中: no 天; 暗 2 for the one concealed
    # kong; 字 1 for each meld all of honors, the 东 kong and the 中 pung: 2. 平 1 + 2 + 2 = 5.
    shown = first | {"other_melds": {"2": ["concealed_kong 1111z"], "3": ["chow 123p", "pung 777z"]}}
    assert fans(checker.evaluate(shown)) == {"平": 1, "暗": 2, "字": 2}


def test_other_melds_as_a_source_needs_the_context_key(write_spec):
    path = write_spec("fan 平 1: shape == standard\nfan 天 10: count(other_melds) == 0\n")
    with pytest.raises(SpecError, match="declare it with `context other_melds`") as caught:
        load_spec(str(path))
    assert f"{path}:" in str(caught.value)
