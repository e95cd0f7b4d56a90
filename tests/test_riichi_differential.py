"""Riichi: our spec against the `mahjong` package on random hands (generator in riichi_hands.py).

Per hand: the same han, the same fu (yakuman aside, whose fu nobody pays for), each seat's payment
and the pot; a hand the package refuses (no yaku, not complete, flags that cannot go together) must
not win here either. RIICHI_DIFF_N sets the number of hands (default 20000); they run on every core.
Every worked example of specs/riichi.mj is also scored by the package.
"""

from __future__ import annotations

import functools
import os
import random
import warnings
from concurrent.futures import ProcessPoolExecutor

import pytest
from riichi_hands import expected, mismatch, parse, random_case

import dsl
from dsl.paths import SPECS_DIR
from dsl.resolve import load_spec

pytest.importorskip("mahjong")
pytestmark = pytest.mark.skipif(not (SPECS_DIR / "riichi.mj").exists(), reason="specs/riichi.mj is not written yet")

N = int(os.environ.get("RIICHI_DIFF_N", "20000"))
CHUNK = 500
SHOWN = 20


@functools.cache
def checker():
    with warnings.catch_warnings():  # the interpreter stands in while no compiled checker is built
        warnings.simplefilter("ignore")
        return dsl.load("riichi")


def compare_seeds(start: int, count: int) -> list[str]:
    """Reports of the hands among seeds start..start+count-1 on which we and the package disagree."""
    reports = []
    for seed in range(start, start + count):
        case = random_case(random.Random(seed))
        why = mismatch(checker().evaluate(case), expected(case))
        if why is not None:
            reports.append(f"seed {seed}: {why}\n  case {case}")
    return reports


def test_random_hands_score_as_the_package():
    starts = range(0, N, CHUNK)
    counts = [min(CHUNK, N - s) for s in starts]
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        reports = [r for chunk in pool.map(compare_seeds, starts, counts) for r in chunk]
    assert not reports, f"{len(reports)} of {N} hands disagree; the first {SHOWN}:\n" + "\n".join(reports[:SHOWN])


EXAMPLES = [e for e in load_spec("riichi").examples if e.error is None] if (SPECS_DIR / "riichi.mj").exists() else []


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.title for e in EXAMPLES])
def test_worked_example_scores_as_the_package(example):
    case = example.case_dict()
    why = mismatch(checker().evaluate(case), expected(case))
    assert why is None, f"{example.title}: {why}\n  case {case}"


def _sanma_only(case: dict) -> bool:
    """What three-player riichi decides alone: the package plays 北 as nuki dora, not as a yakuhai,
    and checks neither that 2m-8m are out of the set nor that no one sits north."""
    tiles = case.get("hand", "") + "".join(m.split()[1] for m in case.get("melds", ())) + case.get("win", "")
    held = [t.kind for t in parse(tiles)]
    return 30 in held or any(1 <= k <= 7 for k in held) or case.get("seat_wind") == "N"


SANMA = [e for e in load_spec("sanma").examples if e.error is None] if (SPECS_DIR / "sanma.mj").exists() else []


@pytest.mark.parametrize("example", SANMA, ids=[e.title for e in SANMA])
def test_three_player_example_scores_as_the_package(example):
    case = example.case_dict()
    if _sanma_only(case):
        pytest.skip("a three-player rule the package does not play")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = dsl.load("sanma").evaluate(case)
    why = mismatch(ours, expected(case, players=3))
    assert why is None, f"{example.title}: {why}\n  case {case}"
