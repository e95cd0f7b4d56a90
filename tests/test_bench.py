"""The benchmark's independent mix (bench/mix.py): each kind in its share and what its name says, every hand
physically possible, both engines scoring each as a win; and a smoke run of bench/bench.py. No timings are
asserted: they depend on the machine."""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
import references

import dsl

# The benchmark's modules are scripts beside bench.py, not an installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import engines  # noqa: E402
import mix  # noqa: E402

import bench  # noqa: E402

HANDS = 1_500
SHARE_TOLERANCE = 0.01
ORPHANS = {"1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"}


def tiles(text: str) -> list[str]:
    """'1230m5z' -> ['1m', '2m', '3m', '5m', '5z']: a red five (0) is a five."""
    return [("5" if d == "0" else d) + s for digits, s in re.findall(r"(\d+)([mpsz])", text) for d in digits]


def meld_tiles(case: dict) -> list[str]:
    return [t for meld in case.get("melds", []) for t in tiles(meld.split()[1])]


@functools.cache
def checker(spec: str) -> dsl.Checker:
    return dsl.load(spec)


@functools.cache
def built(spec: str, keep_name: str) -> tuple[mix.Mix, int]:
    """A mix of HANDS hands kept by `keep_name` (ours, or ours and the engine), and how many `keep` refused."""
    refused = 0

    def keep(case: dict) -> bool:
        nonlocal refused
        ours = checker(spec).is_winning(case)
        if keep_name == "both":
            engine = engines.engine_for(spec)
            assert engine is not None
            arguments = engine.convert(case)
            ours = ours and arguments is not None and engine.wins(arguments)
        refused += not ours
        return ours

    return mix.make_mix(spec, HANDS, 7, keep), refused


# ---------------------------------------------------------------- 国标


@pytest.fixture(scope="module")
def mcr() -> mix.Mix:
    references.extra("MahjongGB", "pymahjonggb")
    return built("mcr", "both")[0]


def test_mcr_kinds_in_their_shares(mcr):
    assert_shares(mcr, mix.MCR_SHARES)


def test_mcr_dropped_hands_are_counted(mcr):
    assert len(mcr.hands) == HANDS
    assert sum(mcr.dropped.values()) == built("mcr", "both")[1]
    assert mcr.dropped["regular"] > 0  # a random regular hand is often below 8 fan: the count is not idle


def test_mcr_same_seed_same_mix():
    first = mix.make_mix("mcr", 50, 3, lambda case: True)
    assert first.hands == mix.make_mix("mcr", 50, 3, lambda case: True).hands
    assert first.hands != mix.make_mix("mcr", 50, 4, lambda case: True).hands


def test_mcr_hands_are_physically_possible(mcr):
    for hand in mcr.hands:
        case = hand.case
        concealed, win, melded = tiles(case["hand"]), tiles(case["win"]), meld_tiles(case)
        kongs = sum(m.split()[0].endswith("kong") for m in case.get("melds", []))
        assert len(win) == 1, case
        assert len(concealed) == 13 - 3 * len(case.get("melds", [])), case
        assert len(concealed + win + melded) == 14 + kongs, case
        assert max(Counter(concealed + win + melded).values()) <= 4, case
        assert all(meld_is_a_set(m) for m in case.get("melds", [])), case
        assert_mcr_flags(case, kongs, win[0] in concealed + melded)


def meld_is_a_set(meld: str) -> bool:
    kind, text = meld.split()
    ts = sorted(tiles(text))
    if kind == "chow":
        ranks = [int(t[0]) for t in ts]
        return len({t[1] for t in ts}) == 1 and ts[0][1] != "z" and ranks == list(range(ranks[0], ranks[0] + 3))
    return len(set(ts)) == 1 and len(ts) == (3 if kind == "pung" else 4)


def assert_mcr_flags(case: dict, kongs: int, win_shown: bool) -> None:
    if case["kong_replacement"]:
        assert case["self_drawn"] and kongs, case
    if case["robbing_kong"]:
        assert not case["self_drawn"] and not win_shown, case
    if case["fourth_tile"]:
        assert tiles(case["win"])[0] not in tiles(case["hand"]), case
    assert sum(case[k] for k in ("last_tile", "kong_replacement", "robbing_kong")) <= 1, case
    assert 0 <= case["flowers"] <= 8 and case["seat_wind"] in "ESWN" and case["round_wind"] in "ESWN", case


def test_mcr_kinds_are_what_they_say(mcr):
    for hand in mcr.hands:
        every = tiles(hand.case["hand"]) + tiles(hand.case["win"]) + meld_tiles(hand.case)
        count = Counter(every)
        melds = hand.case.get("melds", [])
        if hand.kind == "seven pairs":
            assert not melds and all(n % 2 == 0 for n in count.values()), hand
        elif hand.kind == "thirteen orphans":
            assert set(every) == ORPHANS and len(every) == 14, hand
        elif hand.kind == "honors and knitted":
            assert len(set(every)) == 14 and is_knitted({t for t in every if t[1] != "z"}), hand
        elif hand.kind == "knitted straight":
            assert any(straight <= set(every) for straight in knitted_straights()), hand
        elif hand.kind == "full flush":
            assert not melds and len({t[1] for t in every}) == 1 and every[0][1] != "z", hand


def knitted_straights() -> list[set[str]]:
    """The six knitted straights: 147, 258 and 369 in three different suits."""
    return [{f"{r}{s}" for s, ranks in zip(suits, ("147", "258", "369"), strict=True) for r in ranks}
            for suits in itertools.permutations("mps")]


def is_knitted(numbered: set[str]) -> bool:
    """Whether the numbered tiles lie in one knitted straight: each suit keeps one rank class (147, 258, 369)
    and no two suits the same one."""
    classes = {s: {(int(t[0]) - 1) % 3 for t in numbered if t[1] == s} for s in "mps"}
    return all(len(c) <= 1 for c in classes.values()) and len(set().union(*classes.values())) == sum(
        len(c) for c in classes.values())


def test_mcr_both_engines_win_every_hand(mcr):
    from mcr_hands import pymahjonggb_fans

    for hand in mcr.hands:
        result = checker("mcr").evaluate(hand.case)
        assert result["ok"] and result["winning"], (hand, result)
        fans = pymahjonggb_fans(hand.case)  # the tests' own bridge, not the bench's conversion
        assert sum(v * n for name, (v, n) in fans.items() if name != "花牌") >= 8, (hand, fans)


# ---------------------------------------------------------------- riichi


@pytest.fixture(scope="module")
def riichi() -> mix.Mix:
    """Kept by our checker alone: the riichienv test below asks the engine too, where it is installed."""
    return built("riichi", "ours")[0]


def test_riichi_kinds_in_their_shares(riichi):
    assert_shares(riichi, mix.RIICHI_SHARES)


def test_riichi_hands_are_physically_possible(riichi):
    for hand in riichi.hands:
        case = hand.case
        concealed, win = tiles(case["hand"]), tiles(case["win"])
        indicators = tiles(case.get("dora", "")) + tiles(case.get("ura", ""))
        assert "melds" not in case and len(concealed) == 13 and len(win) == 1, case
        assert max(Counter(concealed + win + indicators).values()) <= 4, case
        reds = Counter(s for digits, s in re.findall(r"(\d+)([mpsz])", case["hand"] + case["win"]) for d in digits
                       if d == "0")
        assert max(reds.values(), default=0) <= 1, case
        assert 1 <= len(tiles(case["dora"])) <= 5, case
        riichi_declared = case.get("riichi") or case.get("double_riichi")
        assert riichi_declared or not (case.get("ippatsu") or "ura" in case), case
        if case.get("robbing_kong"):
            assert not case["self_drawn"] and win[0] not in concealed and not case.get("last_tile"), case


def test_riichi_both_engines_win_every_hand(riichi):
    engine = engines.riichienv_engine()
    if engine is None:
        pytest.skip("riichienv is not installed (a bench-only dependency: pip install riichienv)")
    for hand in riichi.hands:
        assert checker("riichi").evaluate(hand.case)["winning"], hand
    both = built("riichi", "both")[0]
    for hand in both.hands:
        assert engine.wins(engine.convert(hand.case)), hand
    assert_shares(both, mix.RIICHI_SHARES)


# ---------------------------------------------------------------- shares and the smoke run


def assert_shares(made: mix.Mix, shares: dict[str, float]) -> None:
    counts = Counter(h.kind for h in made.hands)
    assert set(counts) == set(shares)
    for kind, share in shares.items():
        assert abs(counts[kind] / len(made.hands) - share) <= SHARE_TOLERANCE, (kind, counts)


def test_quick_run_prints_every_table(capsys):
    references.extra("MahjongGB", "pymahjonggb")
    bench.main(["--quick", "--hands", "60", "mcr", "sichuan"])
    out = capsys.readouterr().out
    assert "| mcr | independent | 60 |" in out and "| sichuan | sampler |" in out
    for kind in mix.MCR_SHARES:
        assert f"| mcr | {kind} |" in out
    assert "refused, per call" in out and "(floor 200 ns)" in out
