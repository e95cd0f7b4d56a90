"""The meaning of a spec on one reading of one hand: what is known of the hand, the environment an expression
is evaluated in, the evaluation of every expression, and the exclusions that decide which fans count.

The interpreter (dsl.interp.interpreter) tries every reading with these; an explanation (dsl.interp.explain)
tries them again, keeping the record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations

from dsl.cases.case import Hand
from dsl.frontend import arithmetic, ir
from dsl.frontend.source import Span
from dsl.interp.combinations import combination_counts, made_inside
from dsl.interp.decompose import Decomposition, Group, declared_group, every_group
from dsl.notation import parse_tiles

NO_TILE = -1  # the value of `pair` in a decomposition without a pair
SEAT_KEYS = ("seat", "dealer", "discarder")  # read as the case resolves them, defaults included


def _seat_of(hand: Hand, name: str) -> int:
    """The winner's seat, the dealer or the discarder as settlement sees them: a key the case leaves out
    takes its default (the seat from seat_wind, the discarder the seat before the winner), not 0;
    on a self-draw there is no discarder (-1)."""
    if name == "discarder":
        return -1 if hand.discarder is None else hand.discarder
    return hand.seat if name == "seat" else hand.dealer


class EvaluationError(Exception):
    """A spec whose expression cannot be evaluated for a hand (e.g. a requirement that needs `waits`)."""


# ---------------------------------------------------------------- facts about one hand


@dataclass
class HandFacts:
    """What is known about a hand before choosing a decomposition."""

    spec: ir.Spec
    hand: Hand
    counts: list[int]  # concealed tiles with the winning tile
    tiles: list[int]  # every tile of the hand, melds included
    kinds: Counter
    konged: frozenset[int]
    waits: Callable[[bool], int]  # (count tiles whose every copy is held?) -> number of waiting tiles

    @classmethod
    def of(cls, spec: ir.Spec, hand: Hand, waits: Callable[[bool], int]) -> HandFacts:
        counts = [0] * len(spec.tiles)
        for t in hand.concealed:
            counts[t] += 1
        if hand.win is not None and hand.win_aside is None:  # a winning flower is laid aside, not held
            counts[hand.win] += 1
        tiles = [i for i, n in enumerate(counts) for _ in range(n)] + [t for m in hand.melds if not m.kind.aside
                                                                        for t in m.tiles]
        konged = frozenset(m.tiles[0] for m in hand.melds if m.kind.shape == "kong")
        return cls(spec, hand, counts, tiles, Counter(tiles), konged, waits)


@dataclass(frozen=True)
class Loser:
    seat: int
    dealer: bool
    discarder: bool
    opened: bool
    melds: tuple[Group, ...] = ()  # the loser's declared melds (`loser_melds`)


@dataclass
class Env:
    facts: HandFacts
    decomposition: Decomposition
    counts: dict[str, int] = field(default_factory=dict)  # pattern occurrences, before exclusions
    element: object = None
    loser: Loser | None = None
    losers: tuple[Loser, ...] = ()
    total: int = 0  # the winner's fan total, once known
    largest_fan: int = 0  # what the most valuable counted fan is worth alone (value × count), for `paid`
    counted_fans: int = 0  # fans counted after exclusions, for fans scored last
    shares: dict[int, int] = field(default_factory=dict)  # loser seat -> fans of that loser's share
    bindings: dict[str, ir.Expr] = field(default_factory=dict)
    lets: dict[object, object] = field(default_factory=dict)  # `let` values computed in this reading (Evaluator.let)

    def inside(self, element: object, loser: Loser | None = None) -> Env:
        # Per element of every count over a reading: a shallow copy of the fields, several times faster than
        # dataclasses.replace (which re-runs __init__) or copy.copy. The copy shares the `let` values computed.
        inner = object.__new__(Env)
        inner.__dict__.update(self.__dict__)
        inner.element = element
        inner.loser = loser or self.loser
        return inner


# ---------------------------------------------------------------- expressions


WINDS = "ESWN"  # a case's winds; a flower's seat is 1 + its wind's place here


class Evaluator:
    def __init__(self, spec: ir.Spec):
        self.spec = spec
        self.tilesets = {ts.name: ts.tiles for ts in spec.tilesets}
        self.patterns = {p.name: p for p in spec.patterns + spec.loser_patterns}
        self.notation = spec.notation()
        self.combining: dict[str, list[ir.Pattern]] = {}
        for p in spec.combined_patterns():
            self.combining.setdefault(p.condition.source, []).append(p)  # type: ignore[attr-defined]
        self.combined = {p.name for fans in self.combining.values() for p in fans}
        self.per_loser = {id(b.expr) for b in spec.settlement.bindings} if spec.settlement is not None else set()

    def value(self, expr: ir.Expr, env: Env):  # noqa: C901 - one case per node type
        match expr:
            case ir.Const():
                return expr.value
            case ir.Var():
                return self._var(expr, env)
            case ir.PatternRef():
                return self.count(self.patterns[expr.name], env)
            case ir.Item():
                return _item(self.spec, expr.element, expr.name, env)
            case ir.ItemTileSet():
                tiles = _element_tiles(expr.element, env.element)
                members = self._tiles_of_set(expr.tileset, env)
                test = all if expr.every else any
                return test(t in members for t in tiles)
            case ir.TileOf():
                return self._tile_of(expr.name, env)
            case ir.TileAttr():
                index = self.value(expr.tile, env)
                if index == NO_TILE:
                    return "" if expr.name == "suit" else 0
                tile = self.spec.tiles[index]
                return tile.suit if expr.name == "suit" else tile.rank
            case ir.InTileSet():
                return self.value(expr.tile, env) in self._tiles_of_set(expr.tileset, env)
            case ir.LoserAttr():
                return getattr(env.loser, expr.name)
            case ir.Aggregate():
                return self._aggregate(expr, env)
            case ir.NextTile():
                return self.spec.next_tile[self.value(expr.tile, env)]
            case ir.PreviousTile():
                return self.spec.previous_tile[self.value(expr.tile, env)]
            case ir.Indicated():
                return self._indicated(expr.key, env)
            case ir.Combinations():
                return sum(1 for chosen in combinations(self._source(expr.source, env), expr.size)
                           if self.value(expr.body, env.inside(_sorted_sets(chosen))))
            case ir.ComboSame():
                values = [_group_attr(self.spec, expr.attr, g) for g in env.element]  # type: ignore[attr-defined]
                return len(set(values)) == (len(values) if expr.distinct else 1)
            case ir.Call():
                return _call(expr, [self.value(a, env) for a in expr.args])
            case ir.Binary():
                return self._binary(expr, env)
            case ir.Not():
                return not self.value(expr.operand, env)
            case ir.Negate():
                return -self.value(expr.operand, env)
            case ir.Conditional():
                branch = expr.then if self.value(expr.condition, env) else expr.otherwise
                return self.value(branch, env)
            case ir.Table():
                return expr.lookup(self.value(expr.key, env))
        raise AssertionError(expr)

    def count(self, pattern: ir.Pattern, env: Env) -> int:
        """Occurrences of a pattern in this decomposition (0 when absent), memoised per decomposition."""
        if pattern.scope == "hand" and pattern.name in env.counts:
            return env.counts[pattern.name]
        if pattern.scope == "hand" and pattern.name in self.combined:
            self._count_combinations(pattern.condition.source, env)  # type: ignore[attr-defined]
            return env.counts[pattern.name]
        raw = self.value(pattern.condition, env)
        n = int(raw) if pattern.value.per_occurrence else int(bool(raw))
        if pattern.scope == "hand":
            env.counts[pattern.name] = max(n, 0)
        return max(n, 0)

    def _tiles_of_set(self, name: str, env: Env) -> frozenset[int]:
        """A tile set's tiles in this hand (a set chosen by indicators differs from hand to hand)."""
        chosen = env.facts.hand.sets
        return chosen[name] if name in chosen else self.tilesets[name]

    def _indicated(self, key: str, env: Env) -> int:
        indicators = parse_tiles(env.facts.hand.context.get(key, ""), self.notation)
        return sum(env.decomposition.kinds[self.spec.next_tile[i]] for i in indicators)

    def _count_combinations(self, source: str, env: Env) -> None:
        """Count every combination fan over one kind of set at once, under the accounting principles."""
        patterns = self.combining[source]
        sets = self.sorted_sets(source, env)
        counts = combination_counts(patterns, sets, self._matcher(env))
        for p in patterns:  # a fan not counted `each` counts once however many times its sets make it
            env.counts[p.name] = counts.get(p.name, 0) if p.value.per_occurrence else min(counts.get(p.name, 0), 1)

    def made_inside(self) -> dict[str, tuple[str, ...]]:
        """Per fan of three or four sets counted under the principles, the smaller ones its own sets make (清龙:
        连六, 老少副), found by asking each fan's condition about every set the tiles can make."""
        anywhere = Env(HandFacts.of(self.spec, Hand((), None, (), {}, {}), lambda _: 0),
                       Decomposition("standard", every_group(self.spec), None))
        copies = [t.copies for t in self.spec.tiles]
        found: dict[str, tuple[str, ...]] = {}
        for source, patterns in self.combining.items():
            # A combination's condition reads the tiles of its sets alone: a kong makes the fans its pung makes.
            candidates = [g for g in self._source(source, anywhere) if g.kind != "kong" or source == "kongs"]
            found |= made_inside(patterns, candidates, copies, self._matcher(anywhere))
        return found

    def _matcher(self, env: Env) -> Callable[[ir.Pattern, tuple], bool]:
        """Whether some sets make a combination fan (its condition holds for them), in this environment."""
        def matches(p: ir.Pattern, chosen: tuple) -> bool:
            return bool(self.value(p.condition.body, env.inside(_sorted_sets(chosen))))  # type: ignore[attr-defined]

        return matches

    def sorted_sets(self, source: str, env: Env) -> tuple[Group, ...]:
        """The sets a combination fan chooses from, in tile order."""
        return _sorted_sets(self._source(source, env))

    def let(self, name: str, env: Env) -> object:
        """A `let`'s value, computed once where its value cannot change: once in a reading (an environment and its
        copies), a settlement `let` once per loser, a round rule's once per player (each its own environment).
        Kept by the definition, as a `score:` let may redefine a top-level name."""
        expr = env.bindings[name]
        key = (id(expr), env.loser and env.loser.seat) if id(expr) in self.per_loser else id(expr)
        if key not in env.lets:
            env.lets[key] = self.value(expr, env)
        return env.lets[key]

    def worth(self, pattern: ir.Pattern, env: Env) -> int:
        """Value of one occurrence."""
        if pattern.value.expr is not None:
            return self.value(pattern.value.expr, env)
        return pattern.value.amount or 0

    def _var(self, expr: ir.Var, env: Env):
        facts = env.facts
        if expr.scope == "hand":
            return self._hand_var(expr.name, env)
        if expr.scope in ("context", "flag"):
            if expr.name in SEAT_KEYS:
                return _seat_of(facts.hand, expr.name)
            return facts.hand.context.get(expr.name, self._default(expr.name))
        if expr.scope == "option":
            return facts.hand.options[expr.name]
        if expr.scope == "settle":
            if expr.name == "loser_total":
                return env.shares[env.loser.seat]
            return env.total if expr.name == "total" else self.spec.paid(env.total, env.largest_fan)
        if expr.scope == "binding":
            return self.let(expr.name, env)
        if expr.scope == "late":
            return env.counted_fans
        raise AssertionError(expr)

    def _default(self, name: str) -> object:
        """A context key the case leaves out: 0 for a count, the low end for an integer key, no seat (-1)
        for a spec's own seat key."""
        key = next(k for k in self.spec.context if k.name == name)
        if key.kind == "count":
            return 0
        if key.kind == "int":
            return key.low
        return -1 if key.kind == "seat" and not key.builtin else False

    def _hand_var(self, name: str, env: Env):
        facts, d = env.facts, env.decomposition
        match name:
            case "shape":
                return d.shape
            case "wait":
                return d.wait
            case "waits":
                return facts.waits(False)
            case "shape_waits":
                return facts.waits(True)
            case "suits":
                return len({self.spec.tiles[t].suit for t in d.tiles if self.spec.tiles[t].numbered})
            case "opened":
                return any(m.kind.opens for m in facts.hand.melds)
            case "is_dealer":
                return facts.hand.seat == facts.hand.dealer
            case "red_fives":
                return facts.hand.red
            case "wilds":
                return sum(facts.counts[t] for t in facts.hand.wild)
            case "substituted":
                return d.substituted
        raise AssertionError(name)

    def _tile_of(self, name: str, env: Env) -> int:
        hand = env.facts.hand
        if name == "win":
            if hand.win is None:
                raise EvaluationError("no winning tile")
            return hand.win
        if name == "pair":
            return next((g.tiles[0] for g in env.decomposition.groups if g.kind == "pair"), NO_TILE)
        wind = WINDS.index(hand.context.get(name, "E"))
        winds = [t for t in self.spec.tiles if not t.numbered]
        return winds[wind].index

    def _aggregate(self, expr: ir.Aggregate, env: Env):
        elements = self._source(expr.source, env)
        if expr.body is None:
            return len(elements)
        values = (self.value(expr.body, _with_element(env, expr.source, e)) for e in elements)  # any/all stop early
        match expr.function:
            case "count":
                return sum(1 for v in values if v)
            case "all":
                return all(values)
            case "any":
                return any(values)
            case "sum":
                return _arithmetic(expr, arithmetic.bounded, sum(values), lambda: "sum(...)")
        raise AssertionError(expr)

    def _source(self, source: str, env: Env) -> list:
        groups = env.decomposition.groups
        match source:
            case "tiles":
                return list(env.decomposition.tiles)
            case "groups":
                return list(groups)
            case "sets":
                return [g for g in groups if g.is_set]
            case "chows":
                return [g for g in groups if g.kind == "chow"]
            case "pungs":
                return [g for g in groups if g.kind in ("pung", "kong")]
            case "kongs":
                return [g for g in groups if g.kind == "kong"]
            case "pairs":
                return [g for g in groups if g.kind == "pair"]
            case "kinds":
                return sorted(env.decomposition.kinds)
            case "held_tiles":
                return list(env.facts.hand.concealed)
            case "losers":
                return list(env.losers)
            case "loser_melds":
                return list(env.loser.melds) if env.loser is not None else []
            case "other_melds":
                others = env.facts.hand.other_melds
                return [declared_group(m) for seat in sorted(others) for m in others[seat]]
        raise AssertionError(source)

    def _binary(self, expr: ir.Binary, env: Env):
        op = expr.op
        if op == "and":
            return bool(self.value(expr.left, env)) and bool(self.value(expr.right, env))
        if op == "or":
            return bool(self.value(expr.left, env)) or bool(self.value(expr.right, env))
        left, right = self.value(expr.left, env), self.value(expr.right, env)
        match op:
            case "+" | "-" | "*" | "/" | "^":
                return _arithmetic(expr, arithmetic.apply, op, left, right)
            case "==":
                return left == right
            case "!=":
                return left != right
            case "<":
                return left < right
            case "<=":
                return left <= right
            case ">":
                return left > right
            case ">=":
                return left >= right
        raise AssertionError(op)


def _with_element(env: Env, source: str, element: object) -> Env:
    return env.inside(element, element if source == "losers" else None)  # type: ignore[arg-type]


def _call(expr: ir.Call, args: list):
    match expr.function:
        case "min":
            return min(args)
        case "max":
            return max(args)
        case "abs":
            return abs(args[0])
        case "roundup":
            value, step = args
            return _arithmetic(expr, arithmetic.roundup, value, step)
    raise AssertionError(expr.function)


def _arithmetic(expr: ir.Expr, step: Callable, *args: object):
    """One step of arithmetic of an expression; one without a value within the bounds makes the case an error
    that names where the expression is written."""
    try:
        return step(*args)
    except arithmetic.ArithmeticBoundError as exc:
        raise EvaluationError(f"{expr.span}: {exc}") from None


def _sorted_sets(groups: Iterable[Group]) -> tuple[Group, ...]:
    return tuple(sorted(groups, key=lambda g: g.tiles))


def _element_tiles(element_kind: str, element: object) -> tuple[int, ...]:
    if element_kind == "group":
        return element.tiles  # type: ignore[attr-defined]
    if element_kind == "combo":
        return tuple(t for g in element for t in g.tiles)  # type: ignore[attr-defined]
    return (element,)  # a tile or a kind of tile


def _item(spec: ir.Spec, element_kind: str, name: str, env: Env):
    element = env.element
    if name == "own_flower":
        tile = spec.tiles[element.tiles[0] if element_kind == "group" else element]  # type: ignore[union-attr, index]
        return tile.seat == WINDS.index(env.facts.hand.context.get("seat_wind", "E")) + 1
    if element_kind == "loser":
        return getattr(element, name)
    if element_kind == "combo":
        return _combo_attr(spec, name, element)  # type: ignore[arg-type]
    if element_kind == "group":
        return _group_attr(spec, name, element)  # type: ignore[arg-type]
    tile = spec.tiles[element]  # type: ignore[index]
    match name:
        case "copies":
            return env.decomposition.kinds[tile.index]
        case "konged":
            return tile.index in env.facts.konged
        case "suit":
            return tile.suit
        case "rank":
            return tile.rank
        case "numbered":
            return tile.numbered
        case "honor":
            return not tile.numbered
        case "tile":
            return tile.index
    raise AssertionError(name)


def _combo_attr(spec: ir.Spec, name: str, sets: tuple[Group, ...]):
    if name == "numbered":
        return all(spec.tiles[t].numbered for g in sets for t in g.tiles)
    ranks = sorted(spec.tiles[g.tiles[0]].rank for g in sets)
    steps = {b - a for a, b in zip(ranks, ranks[1:], strict=False)}
    return steps.pop() if len(steps) == 1 else -1  # "step": the common rank difference, -1 if none


def _group_attr(spec: ir.Spec, name: str, group: Group):
    first = spec.tiles[group.tiles[0]]
    match name:
        case "chow" | "pair" | "kong":
            return group.kind == name
        case "pung":
            return group.kind in ("pung", "kong")
        case "concealed":
            return group.concealed
        case "exposed":
            return not group.concealed
        case "declared":
            return group.declared
        case "opens":
            return group.opens
        case "suit":
            return first.suit
        case "rank":
            return first.rank
        case "tile":
            return first.index
        case "with_win":
            return group.with_win
        case "numbered":
            return all(spec.tiles[t].numbered for t in group.tiles)
        case "honor":
            return not any(spec.tiles[t].numbered for t in group.tiles)
        case "size":
            return len(group.tiles)
    return group.kind == name  # a spec's own meld kind


# ---------------------------------------------------------------- scoring one decomposition


@dataclass(frozen=True)
class Counted:
    pattern: ir.Pattern
    value: int
    count: int


@dataclass(frozen=True)
class Scored:
    decomposition: Decomposition
    fans: tuple[Counted, ...]
    total: int
    env: Env
    values: dict[str, object]  # the spec's `score:` results for this reading

    @property
    def rank(self) -> object:
        """What readings are compared by: the spec's `value` when it defines one, else the total."""
        return self.values.get("value", self.total)


@dataclass(frozen=True)
class Dropped:
    """Occurrences of a fan that held but do not count, and the rule that took them out."""

    name: str
    count: int
    rule: str  # "不计" (a fan's exclusion list), "exclusive" (a group), "supersede"
    by: str  # the fan whose counting dropped it
    span: Span | None  # where the rule is written


def resolve_exclusions(spec: ir.Spec, present: list[Counted], dropped: list[Dropped] | None = None) -> list[Counted]:
    """Apply 不计 lists and exclusive groups; what they take out is added to `dropped`, when given.

    The most valuable pattern is looked at first (declaration order breaks ties); a pattern that
    counts removes what it excludes, and one that has been removed excludes nothing.
    """
    remaining = {c.pattern.name: c.count for c in present}
    counted: list[Counted] = []

    def cut(target: str, times: int | None, rule: str, by: str, span: Span) -> None:
        if remaining.get(target, 0) <= 0:
            return
        n = remaining[target] if times is None else min(times, remaining[target])
        remaining[target] -= n
        if dropped is not None:
            dropped.append(Dropped(target, n, rule, by, span))

    for c in sorted(present, key=lambda c: (-c.value, c.pattern.order)):
        name = c.pattern.name
        if remaining[name] <= 0:
            continue
        counted.append(Counted(c.pattern, c.value, remaining[name]))
        for exclusion in c.pattern.excludes:
            cut(exclusion.target, exclusion.times, "不计", name, exclusion.span)
        for group in spec.exclusive_groups:
            if name in group.members:
                for other in group.members:
                    if other != name:
                        cut(other, None, "exclusive", name, group.span)
    return sorted(counted, key=lambda c: c.pattern.order)


def takes_over(spec: ir.Spec, scored: Scored, best: Scored) -> bool:
    """Whether a later reading replaces the best so far: it ranks higher, or ranks the same and holds a fan of
    the spec's `prefer` rule."""
    return scored.rank > best.rank or (
        scored.rank == best.rank and any(c.pattern.name in spec.preferred for c in scored.fans))
