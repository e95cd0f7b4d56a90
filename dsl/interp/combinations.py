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

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import reduce
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
    limit = two_set_limit(n)
    if n == 4:
        limit -= n - len(related)
    return _cut([f for f in fans if f is not None], by_size[2], max(limit, 0))


def two_set_limit(sets: int) -> int:
    """The most fans of two sets that this many sets count: one fewer than the sets, and two below four sets."""
    return sets - 1 if sets == 4 else min(sets - 1, 2)


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


def made_inside(patterns: Sequence[ir.Pattern], candidates: Sequence, copies: Sequence[int],
                matches: Matcher) -> dict[str, tuple[str, ...]]:
    """For each fan of three or four sets, the smaller combination fans that some of its own sets make among
    themselves, over every choice of its sets from `candidates` the tiles allow (`copies` of each tile): 清龙
    123 456 789 holds 连六 (123 456) and 老少副 (123 789). Under the principles they never count beside it."""
    found: dict[str, tuple[str, ...]] = {}
    for p in patterns:
        size = p.condition.size
        if size < 3:
            continue
        smaller = [q for q in patterns if q.condition.size < size]
        made = {q.name for chosen in _choices(p, candidates, copies, matches) for q in smaller
                for part in combinations(chosen, q.condition.size) if matches(q, part)}
        found[p.name] = tuple(q.name for q in smaller if q.name in made)
    return found


def _choices(p: ir.Pattern, candidates: Sequence, copies: Sequence[int], matches: Matcher) -> Iterator[tuple]:
    """Every choice of the fan's number of sets (a set as often as its tiles allow) that makes the fan. A choice is
    built set by set, and dropped as soon as its first sets break a part of the condition that holds for every
    part of a choice when it holds for the whole (all in a tile set, of one suit, of different suits ...)."""
    size = p.condition.size
    inherited = replace(p, condition=replace(p.condition, body=_inherited(p.condition.body)))

    def extend(chosen: tuple, start: int) -> Iterator[tuple]:
        if len(chosen) == size:
            if matches(p, chosen):
                yield chosen
            return
        for i in range(start, len(candidates)):
            longer = chosen + (candidates[i],)
            if _fits(longer, copies) and matches(inherited, longer):
                yield from extend(longer, i)

    return extend((), 0)


def _inherited(body: ir.Expr) -> ir.Expr:
    """The parts of a combination's condition that hold for some of its sets whenever they hold for all of them
    (joined by `and`; `true` when there are none)."""
    parts = [c for c in _conjuncts(body) if isinstance(c, ir.ComboSame)
             or (isinstance(c, ir.ItemTileSet) and c.every) or (isinstance(c, ir.Item) and c.name == "numbered")]
    return reduce(lambda a, b: ir.Binary(op="and", left=a, right=b, span=body.span), parts) if parts \
        else ir.Const(value=True, span=body.span)


def _conjuncts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _fits(groups: tuple, copies: Sequence[int]) -> bool:
    """The groups can be held together: no tile more often than it has copies."""
    return all(n <= copies[t] for t, n in Counter(t for g in groups for t in g.tiles).items())
