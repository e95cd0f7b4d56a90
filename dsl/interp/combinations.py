"""The accounting principles 套算一次 and 不得相同, for fans made of several sets (一般高, 清龙, 三同刻, ...).

A fan declared as `combinations(SOURCE, K, COND)` looks at K sets of one kind (chows or pungs) at a
time. Counted naively, four chows 123 123 456 456 would give 一般高 twice and 连六 four times. The
principles limit that: a set that already formed a fan with others is combined at most once more,
and never into the same fan again. This module applies the common reading of the principles (the
one of the international competition rules' reference software):

- Four sets forming a four-set fan: that fan alone.
- Otherwise the first three sets (in tile order) forming a three-set fan: that fan, plus at most one
  two-set fan between the fourth set and any of the three (the first such fan in declaration order).
- Otherwise two-set fans, at most one fewer than the sets involved in any of them (four sets: at most
  three; three sets: at most two); when there are more, the fans declared last are dropped first,
  down to one of each kind before any kind is dropped entirely.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from dsl.frontend import ir

Matcher = Callable[[ir.Pattern, tuple], bool]


def combination_counts(patterns: Sequence[ir.Pattern], sets: Sequence, matches: Matcher) -> dict[str, int]:
    """How often each combination pattern counts among `sets` (already in tile order)."""
    by_size: dict[int, list[ir.Pattern]] = {2: [], 3: [], 4: []}
    for p in patterns:
        by_size[p.condition.size].append(p)

    def fan_of(chosen: tuple) -> ir.Pattern | None:
        return next((p for p in by_size[len(chosen)] if matches(p, chosen)), None)

    n = len(sets)
    if n == 4 and (four := fan_of(tuple(sets))) is not None:
        return {four.name: 1}
    if n >= 3:
        for trio in combinations(range(n), 3):
            three = fan_of(tuple(sets[i] for i in trio))
            if three is not None:
                counts = {three.name: 1}
                rest = [i for i in range(n) if i not in trio]
                if rest:
                    extra = _extra_fan(by_size[2], [fan_of((sets[i], sets[rest[0]])) for i in trio])
                    if extra is not None:
                        counts[extra.name] = 1
                return counts
    pairs = list(combinations(range(n), 2))
    fans = [fan_of((sets[i], sets[j])) for i, j in pairs]
    related = {k for (i, j), f in zip(pairs, fans, strict=True) if f is not None for k in (i, j)}
    limit = n - 1 if n == 4 else min(n - 1, 2)
    if n == 4:
        limit -= n - len(related)
    return _cut([f for f in fans if f is not None], by_size[2], max(limit, 0))


def _extra_fan(order: list[ir.Pattern], candidates: list[ir.Pattern | None]) -> ir.Pattern | None:
    return next((p for p in order if p in candidates), None)


def _cut(found: list[ir.Pattern], order: list[ir.Pattern], limit: int) -> dict[str, int]:
    """Keep at most `limit` two-set fans: drop repeats of the last-declared kinds first."""
    table = {p.name: sum(1 for f in found if f is p) for p in order}
    total = sum(table.values())
    for keep in (1, 0):
        for p in reversed(order):
            while table[p.name] > keep and total > limit:
                table[p.name] -= 1
                total -= 1
    return {name: n for name, n in table.items() if n}
