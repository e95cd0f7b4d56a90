"""国标: our spec against the pymahjonggb engine on random winning hands (generator in mcr_hands.py).

Per hand: the same fan multiset (花牌 included) and total, or an equal-total reading among our
"alternatives"; `winning` iff the total without flowers reaches 8 (pymahjonggb does not apply the
minimum, so below it we compare the fans and total we still report). MCR_DIFF_N sets the number of
hands (default 20000); they run on every core.
"""

from __future__ import annotations

import os

import references
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcr_hands import compare_seed, compare_seeds

references.extra("MahjongGB", "pymahjonggb")

N = int(os.environ.get("MCR_DIFF_N", "20000"))
SHOWN = 20


def test_random_hands_score_as_pymahjonggb():
    shown: list[str] = []
    failures = 0
    for disagreement in compare_seeds(range(N), os.cpu_count() or 1):
        if disagreement is not None:
            failures += 1
            print(disagreement.report())
            if len(shown) < SHOWN:
                shown.append(disagreement.report())
    assert failures == 0, f"{failures} of {N} hands disagree; the first {len(shown)}:\n" + "\n".join(shown)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_hypothesis_seeds_score_as_pymahjonggb(seed):
    disagreement = compare_seed(seed)
    assert disagreement is None, disagreement.report()
