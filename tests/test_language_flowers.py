"""Seat flowers: `flowers ... seats 1 2 3 4 1 2 3 4` names each flower's seat (1..4 = 東 南 西 北), and
`own_flower`, an attribute of a tile or group, holds for a flower of the winner's seat; both back ends agree."""

from __future__ import annotations

import warnings

import pytest

import dsl
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter

FLOWERS = ('    flowers f 花 "Flowers" ×1: 春 "Spring", 夏 "Summer", 秋 "Autumn", 冬 "Winter", 梅 "Plum", 蘭 "Orchid", '
           '竹 "Bamboo", 菊 "Chrysanthemum" seats 1 2 3 4 1 2 3 4\n')
SPEC = '''variant seats "正花" "Seat flowers"
tiles:
    suit m 万 "Characters" 1..9 ×4
    suit p 筒 "Dots" 1..9 ×4
    honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"
''' + FLOWERS + '''meld 花牌 "Flower" = one of 花
context self_drawn, seat_wind
fan 平 1: shape == standard
fan 正花 "Own flower" 1 each: count(groups, own_flower)
fan 花 "Flower" 1 each: count(groups, 花牌 and not own_flower)
'''
HAND = {"hand": "123m456m789m555z1p", "win": "1p"}


def fans(result: dict) -> dict[str, int]:
    return {f["name"]: f["count"] for f in result["fans"]}


@pytest.fixture
def spec_path(tmp_path):
    path = tmp_path / "seats.mj"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_a_flower_of_the_winners_seat_is_own(spec_path):
    checker = Interpreter(load_spec(str(spec_path)))
    flowers = {"melds": ["花牌 1f", "花牌 5f", "花牌 2f"]}  # 春 and 梅 are 東's, 夏 南's
    # East (the default seat wind) owns 春 and 梅; 夏 is another seat's flower.
    assert fans(checker.evaluate(HAND | flowers)) == {"平": 1, "正花": 2, "花": 1}
    assert fans(checker.evaluate(HAND | flowers | {"seat_wind": "S"})) == {"平": 1, "正花": 1, "花": 2}
    assert fans(checker.evaluate(HAND | flowers | {"seat_wind": "N"})) == {"平": 1, "花": 3}


def test_the_compiled_checker_reads_the_same_seats(spec_path):
    spec = load_spec(str(spec_path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = dsl.load(str(spec_path))
    interpreter = Interpreter(spec)
    cases = [HAND | {"melds": [f"花牌 {a}f", f"花牌 {b}f"], "seat_wind": wind}
             for a in range(1, 9) for b in range(a + 1, 9) for wind in "ESWN"]
    assert [compiled.evaluate(c) for c in cases] == [interpreter.evaluate(c) for c in cases]
    assert {fans(interpreter.evaluate(c)).get("正花", 0) for c in cases} == {0, 1, 2}


@pytest.mark.parametrize(("change", "message"), [
    (("seats 1 2 3 4 1 2 3 4", "seats 1 2 3 4"), "4 seats for 8 flowers"),
    (("seats 1 2 3 4 1 2 3 4", "seats 1 2 3 4 1 2 3 5"), "seat is 1, 2, 3 or 4"),
    (('中 "Red"', '中 "Red" seats 1 2 3 4 1 2 3'), "only flowers name their seats"),
    ((" seats 1 2 3 4 1 2 3 4", ""), "no flower names its seat"),
])
def test_seats_written_wrong_are_errors_with_their_place(tmp_path, change, message):
    path = tmp_path / "seats.mj"
    text = SPEC.replace(*change)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=message) as caught:
        load_spec(str(path))
    span = caught.value.diagnostics[0].span
    assert span.line in {n for n, line in enumerate(text.splitlines(), start=1)
                         if "seats" in line or "own_flower" in line}
