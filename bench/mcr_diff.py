"""Score N random winning 国标 hands with specs/mcr.mj and with pymahjonggb, and count the disagreements.

    python bench/mcr_diff.py 1000000 [--start 0] [--jobs 4] [--examples 20]

Hand i is random_case(start + i) of tests/mcr_hands.py, so a reported seed reproduces its hand. Prints a
progress count, then the disagreements by fan ('-name': pymahjonggb counts it and we do not, or not as
often; '+name': the reverse) and by shape, and the first examples. Exits 1 when any hand disagrees.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

# The generator and the comparison are shared with the tests, which are not an installed package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mcr_hands import Disagreement, compare_seeds, fan_diff  # noqa: E402

PROGRESS_EVERY = 10_000


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="how many hands")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--examples", type=int, default=20, help="how many disagreements to print in full")
    return parser.parse_args()


def summary(found: list[Disagreement], n: int, seconds: float, examples: int) -> str:
    by_fan = Counter(item for d in found for item in fan_diff(d.ours, d.expected))
    by_shape = Counter(d.shape for d in found)
    lines = [f"{len(found)} of {n} hands disagree ({seconds:.0f} s, {n / max(seconds, 1e-9):.0f} hands/s)"]
    if found:
        lines.append("by fan:   " + ", ".join(f"{name} {count}" for name, count in by_fan.most_common()))
        lines.append("by shape: " + ", ".join(f"{shape} {count}" for shape, count in by_shape.most_common()))
        lines += [d.report() for d in found[:examples]]
    return "\n".join(lines)


def main() -> int:
    args = arguments()
    found: list[Disagreement] = []
    started = time.monotonic()
    seeds = range(args.start, args.start + args.n)
    for done, disagreement in enumerate(compare_seeds(seeds, args.jobs), start=1):
        if disagreement is not None:
            found.append(disagreement)
        if done % PROGRESS_EVERY == 0 or done == args.n:
            print(f"\r{done}/{args.n} hands, {len(found)} disagree", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(summary(found, args.n, time.monotonic() - started, args.examples))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
