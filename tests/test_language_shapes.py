"""A spec's own shapes: `shape NAME "English": CONDITION`, a win without sets (八仙過海, 七搶一)."""

from __future__ import annotations

import pytest
from conftest import SEASONS, tiles

from dsl.book import model, render
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter

FLOWERS = 'variant flowery "花牌" "Flowers"\n' + tiles("mp", SEASONS) + """\
meld flower "Flower" = one of 花
melds chow, pung
shapes standard
context self_drawn
shape 四花齊 "Four Flowers": count(groups, 花) == 4
fan 四花齊 "Four Flowers" 8: shape == 四花齊
fan 平 1: shape == standard
fan 花 1 each: count(groups, 花)
settle:
    self_drawn: each loser pays total
    discard: discarder pays total
"""
ALL_FLOWERS = ["flower 1f", "flower 2f", "flower 3f", "flower 4f"]
# Thirteen tiles that form no sets and no pair, then 北 on seat 3's discard.
LOOSE = {"hand": "1m3m5m7m9m1p3p5p7p9p1z2z3z", "win": "4z"}


def fans(result: dict) -> dict[str, tuple[int, int]]:
    return {f["name"]: (f["value"], f["count"]) for f in result["fans"]}


@pytest.fixture
def flowery(write_spec):
    def make(extra: str = ""):
        return load_spec(str(write_spec(FLOWERS + extra, tiny=False)))

    return make


def test_a_hand_without_sets_wins_in_the_spec_s_own_shape(flowery):
    checker = Interpreter(flowery())
    # The four flowers are laid aside (the hand keeps 13 tiles): 四花齊 8 and 花 1 ×4 = 12, paid by seat 3.
    result = checker.evaluate(LOOSE | {"melds": ALL_FLOWERS})
    assert result["winning"] and fans(result) == {"四花齊": (8, 1), "花": (1, 4)} and result["total"] == 12
    assert result["payments"] == [12, 0, 0, -12]


def test_the_shape_needs_its_condition(flowery):
    # Three flowers: neither a standard hand nor 四花齊; the reason names both shapes.
    result = Interpreter(flowery()).evaluate(LOOSE | {"melds": ALL_FLOWERS[:3]})
    assert result["winning"] is False and "standard" in result["reason"] and "四花齊" in result["reason"]


def test_the_own_shape_competes_with_the_standard_reading(flowery):
    # 123 456 789万 123筒 + 白白 with four flowers: standard 平 1 + 花 4 = 5, or 四花齊 8 + 花 4 = 12.
    hand = {"hand": "123m456m789m123p5z", "win": "5z", "melds": ALL_FLOWERS}
    result = Interpreter(flowery()).evaluate(hand)
    assert fans(result) == {"四花齊": (8, 1), "花": (1, 4)}
    # Without the flowers only the standard reading is left: 平 1.
    assert fans(Interpreter(flowery()).evaluate(hand | {"melds": []})) == {"平": (1, 1)}


def test_naming_the_shape_in_shapes_is_allowed_and_changes_nothing(write_spec):
    listed = load_spec(str(write_spec(FLOWERS.replace("shapes standard", "shapes standard, 四花齊"), tiny=False)))
    assert [s.name for s in listed.shapes] == ["standard"] and [s.name for s in listed.shape_rules] == ["四花齊"]
    assert fans(Interpreter(listed).evaluate(LOOSE | {"melds": ALL_FLOWERS}))["四花齊"] == (8, 1)


def test_a_shape_may_not_take_a_built_in_name_and_its_condition_is_a_condition(write_spec):
    with pytest.raises(SpecError, match="built-in name"):
        load_spec(str(write_spec(FLOWERS.replace("shape 四花齊", "shape standard"), tiny=False)))
    with pytest.raises(SpecError, match="condition of a shape must be"):
        load_spec(str(write_spec(FLOWERS + 'shape 風 "Wind": win\n', tiny=False)))


def test_the_book_lists_the_shape_with_its_condition(flowery, tmp_path):
    book = model.book(flowery())
    assert [(s.name, s.english, s.rule) for s in book.own_shapes] == [
        ("四花齊", "Four Flowers", "count(groups, 花) == 4")]
    assert "四花齊" in [entry.names.zh for entry in book.shapes]
    markdown = next(text for path, text in render.render_books([book], tmp_path).items() if path.suffix == ".md"
                    and path.stem == "flowery")
    assert "| 四花齊 Four Flowers |" in markdown


# ---------------------------------------------------------------- a flower as the winning tile

WON_ON_A_FLOWER = """\
fan 花和 "Won on a flower" 2: win in 花
fan 花張 "Flowers among the tiles" 100 each: count(tiles, 花)
"""


def test_the_fourth_flower_drawn_wins_laid_aside_with_the_others(flowery):
    checker = Interpreter(flowery(WON_ON_A_FLOWER))
    # Three flowers laid aside, 13 tiles held (the usual count: the flower is replaced), 冬 drawn: it is
    # laid aside too, so 花 counts 4 groups and the shape holds; it is no tile of the hand (花張 0).
    # 四花齊 8 + 花 1 ×4 + 花和 2 = 14, self-drawn: each of the three others pays 14.
    result = checker.evaluate({"hand": LOOSE["hand"], "win": "4f", "self_drawn": True, "melds": ALL_FLOWERS[:3]})
    assert fans(result) == {"四花齊": (8, 1), "花": (1, 4), "花和": (2, 1)} and result["total"] == 14
    assert result["payments"] == [42, -14, -14, -14]


def test_a_flower_robbed_from_another_player_is_paid_by_that_player(flowery):
    checker = Interpreter(flowery(WON_ON_A_FLOWER))
    case = {"hand": LOOSE["hand"], "win": "1f", "discarder": 2, "melds": ALL_FLOWERS[1:]}
    result = checker.evaluate(case)
    assert result["total"] == 14 and result["payments"] == [14, 0, -14, 0]


def test_a_winning_flower_forms_no_standard_hand(flowery):
    # 123 456 789万 123筒 5z would wait on 白; a flower completes nothing, and two flowers before it
    # make three, not 四花齊.
    result = Interpreter(flowery()).evaluate({"hand": "123m456m789m123p5z", "win": "3f", "self_drawn": True,
                                              "melds": ALL_FLOWERS[:2]})
    assert result["winning"] is False and "四花齊" in result["reason"]


@pytest.mark.parametrize(("case", "fragment"), [
    ({"hand": LOOSE["hand"] + "5m", "win": "4f", "melds": ALL_FLOWERS[:3]}, "must have 13"),  # no extra tile
    ({"hand": LOOSE["hand"], "win": "4f", "melds": ALL_FLOWERS}, "2 copies of 4f"),
    ({"hand": LOOSE["hand"], "win": "4f4f", "melds": ALL_FLOWERS[:3]}, "'win' is one tile"),
])
def test_a_winning_flower_keeps_the_case_rules(flowery, case, fragment):
    result = Interpreter(flowery()).evaluate(case)
    assert result["ok"] is False and fragment in result["error"], result


def test_a_flower_wins_only_under_a_spec_s_own_shape_and_laid_aside(write_spec):
    without_shape = FLOWERS.replace('shape 四花齊 "Four Flowers": count(groups, 花) == 4\n', "").replace(
        'fan 四花齊 "Four Flowers" 8: shape == 四花齊\n', "")
    not_aside = FLOWERS.replace('meld flower "Flower" = one of 花\n', "")
    case = {"hand": LOOSE["hand"], "win": "4f", "self_drawn": True}
    for text, fragment in [(without_shape, "has no shape of its own"), (not_aside, "no meld kind of flowery lays")]:
        result = Interpreter(load_spec(str(write_spec(text, tiny=False)))).evaluate(case)
        assert result["ok"] is False and "winning tile 4f is a flower" in result["error"], result
        assert fragment in result["error"]

