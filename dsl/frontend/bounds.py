"""The work one case may take, bounded from the spec alone: the combinations of sets `combinations(...)` examines.

A reading of a hand holds at most `hand_size` groups of its own tiles, plus the tiles laid aside (flowers: as
many as the tiles the spec's laid-aside meld kinds take have copies). `combinations(SOURCE, K, ...)` examines
every K of the groups of its source, in every reading of a hand, once per element of each count/all/any/sum
it stands in, once per loser in settlement; a requirement's, once more for every tile tried as a wait when the
spec reads `waits`. A spec whose combinations could examine more than MAX_COMBINATIONS in one reading is an
error at the combination that passes the bound, so no case, however many flowers it lays aside, takes long.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb

from dsl.frontend import ir
from dsl.frontend.source import error

MAX_COMBINATIONS = 20_000  # a few hundredths of a second of the interpreter; mcr's examine at most 84


@dataclass(frozen=True)
class Sizes:
    """The most elements each source holds in one reading of a hand of the spec."""

    of: dict[str, int]
    aside: int  # tiles laid aside at most

    @classmethod
    def of_spec(cls, spec: ir.Spec) -> Sizes:
        hand, aside = spec.hand_size, _aside_capacity(spec)
        sets = hand // 3  # a set takes three of the hand's tiles (a kong its fourth from the wall)
        return cls({"groups": hand + aside, "sets": sets, "chows": sets, "pungs": sets, "kongs": sets,
                    "pairs": hand // 2, "tiles": hand + sets + aside, "held_tiles": hand, "kinds": hand + aside,
                    "losers": spec.players - 1, "loser_melds": sets + aside,
                    "other_melds": (spec.players - 1) * (sets + aside)}, aside)


def _aside_capacity(spec: ir.Spec) -> int:
    """How many tiles a hand can lay aside: every copy of every tile a laid-aside meld kind takes."""
    tiles: set[int] = set()
    for kind in spec.meld_kinds:
        if kind.aside:
            tiles |= spec.tileset(kind.tileset).tiles if kind.tileset is not None else set(kind.tiles)
    return sum(spec.tiles[t].copies for t in tiles)


def check_combinations(spec: ir.Spec) -> None:
    """Refuse, at the combination that passes it, a spec whose combinations could examine more than
    MAX_COMBINATIONS combinations of sets in one reading of a hand."""
    sizes = Sizes.of_spec(spec)
    total = 0
    for expr, times in _evaluated(spec):
        for node, work in _combinations(expr, sizes.of, times):
            total += work
            if total > MAX_COMBINATIONS:
                raise error(f"combinations of {node.size} of up to {sizes.of[node.source]} {node.source} "
                            f"({sizes.aside} tiles laid aside at most): the spec's combinations could examine "
                            f"{total:,} in one reading of a hand, more than {MAX_COMBINATIONS:,}", node.span,
                            "take them from fewer groups (sets, chows or pungs rather than groups), or fewer at a "
                            "time")


def _combinations(expr: ir.Expr, sizes: dict[str, int], times: int) -> Iterator[tuple[ir.Combinations, int]]:
    """Each combinations(...) inside the expression, with how many combinations it examines when the expression
    is evaluated `times` times: its body and the bodies of count/all/any/sum run once per element."""
    if isinstance(expr, ir.Combinations):
        times *= comb(sizes[expr.source], expr.size)
        yield expr, times
    elif isinstance(expr, ir.Aggregate):
        times *= sizes[expr.source]
    for child in ir.children(expr):
        yield from _combinations(child, sizes, times)


def _evaluated(spec: ir.Spec) -> list[tuple[ir.Expr, int]]:
    """The expressions evaluated for one reading, each with how many times: fans and `let`s are worked out once
    per reading, settlement once per loser, and when the spec reads `waits`, what decides whether a tile completes
    the hand once more per tile tried."""
    losers = spec.players - 1
    found = [(expr, losers if p.scope == "loser" else 1) for p in spec.patterns + spec.loser_patterns
             for expr in (p.condition, p.value.expr) if expr is not None]
    found += [(expr, 1) for expr in [b.expr for b in spec.definitions] + [r.condition for r in spec.requirements]
              + [s.condition for s in spec.shape_rules] + [b.expr for b in spec.score]]
    if spec.settlement is not None:
        settlement = spec.settlement
        per_loser = [b.expr for b in settlement.bindings] + [p.amount for r in settlement.rules for p in r.payments]
        per_loser += [r.condition for r in settlement.requirements] + [settlement.liable, settlement.pot]
        found += [(expr, losers) for expr in per_loser if expr is not None]
    if not any(_reads_waits(expr) for expr, _ in found):
        return found
    deciding = {id(expr) for expr in _deciding_waits(spec)}
    return [(expr, times * (1 + len(spec.tiles) * (id(expr) in deciding))) for expr, times in found]


def _reads_waits(expr: ir.Expr) -> bool:
    return any(isinstance(node, ir.Var) and node.scope == "hand" and node.name in ("waits", "shape_waits")
               for node in ir.walk(expr))


def _deciding_waits(spec: ir.Spec) -> list[ir.Expr]:
    """What deciding whether a tile completes the hand evaluates: requirements, the spec's own shapes, and the
    fans and `let`s they read."""
    definitions = {b.name: b.expr for b in spec.definitions}
    found = [r.condition for r in spec.requirements] + [s.condition for s in spec.shape_rules]
    seen: set[tuple[str, str]] = set()
    for expr in found:  # grows as it goes: what the expressions read is read too
        for node in ir.walk(expr):
            if isinstance(node, ir.PatternRef) and ("fan", node.name) not in seen:
                seen.add(("fan", node.name))
                p = spec.pattern(node.name)
                found += [e for e in (p.condition, p.value.expr) if e is not None]
            elif isinstance(node, ir.Var) and node.scope == "binding" and node.name in definitions \
                    and ("let", node.name) not in seen:
                seen.add(("let", node.name))
                found.append(definitions[node.name])
    return found
