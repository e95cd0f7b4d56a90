"""The random 国标 hands of mcr_hands.py are valid cases with consistent context, and pymahjonggb wins them."""

from __future__ import annotations

from collections import Counter

import pytest
import references
from mcr_hands import pymahjonggb_call, pymahjonggb_fans, random_case, split_tiles

SEEDS = range(10000)
SCORED = range(3000)  # pymahjonggb is the slow part


def meld_tiles(case: dict) -> list[str]:
    return [t for meld in case["melds"] for t in split_tiles(meld.split()[1])]


@pytest.mark.parametrize("seed", SEEDS[:: len(SEEDS) // 10])
def test_same_seed_same_case(seed):
    assert random_case(seed) == random_case(seed)


def test_cases_are_valid_and_consistent():
    for seed in SEEDS:
        _, case = random_case(seed)
        hand, win, melded = split_tiles(case["hand"]), case["win"], meld_tiles(case)
        assert len(hand) == 13 - 3 * len(case["melds"]), case
        assert max(Counter(hand + melded + [win]).values()) <= 4, case
        if case["kong_replacement"]:
            assert case["self_drawn"] and any("kong" in m for m in case["melds"]), case
        if case["robbing_kong"]:
            assert not case["self_drawn"] and win not in hand + melded, case
        if case["fourth_tile"]:
            assert win not in hand, case
        if melded.count(win) == 3:  # the winning tile is then the last one
            assert case["fourth_tile"], case
        assert sum(case[k] for k in ("last_tile", "kong_replacement", "robbing_kong")) <= 1, case


def test_pymahjonggb_wins_every_hand():
    references.extra("MahjongGB", "pymahjonggb")
    for seed in SCORED:
        _, case = random_case(seed)
        try:
            pymahjonggb_fans(case)
        except TypeError as exc:
            pytest.fail(f"seed {seed}: {exc}: {case} -> {pymahjonggb_call(case)}")


def test_pymahjonggb_codes():
    case = {"hand": "123m456p789s5z", "win": "5z", "melds": ["concealed_kong 7777z"], "seat_wind": "N",
            "round_wind": "S", "flowers": 2, "self_drawn": True, "kong_replacement": True}
    assert pymahjonggb_call(case) == {
        "pack": (("GANG", "J1", 0),), "hand": ("W1", "W2", "W3", "B4", "B5", "B6", "T7", "T8", "T9", "J3"),
        "winTile": "J3", "flowerCount": 2, "isSelfDrawn": True, "is4thTile": False, "isAboutKong": True,
        "isWallLast": False, "seatWind": 3, "prevalentWind": 1}


@pytest.mark.parametrize(("case", "fan"), [
    ({"hand": "223344666888s6z", "win": "6z"}, "绿一色"),  # 6z 发 is green
    ({"hand": "123345888p456s5z", "win": "5z"}, "推不倒"),  # 5z 白 is reversible
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["pung 777z"]}, "箭刻"),
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["pung 444z"], "seat_wind": "N"}, "门风刻"),
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["pung 222z"], "round_wind": "S"}, "圈风刻"),
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["chow 789m"]}, "清龙"),  # a chow names its middle tile
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["concealed_kong 9999s"]}, "暗杠"),
    ({"hand": "123456m234p5s", "win": "5s", "melds": ["added_kong 9999s"]}, "明杠"),
])
def test_pymahjonggb_reads_our_notation(case, fan):
    references.extra("MahjongGB", "pymahjonggb")
    assert fan in pymahjonggb_fans(case)
