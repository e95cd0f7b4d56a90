"""The reference semantics: validate, decompose, evaluate patterns, resolve exclusions, score, settle.

Kept plain on purpose: the compiled checkers must give exactly these results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from dsl.cases.case import Hand, Meld, read_case, without_win
from dsl.cases.encoded import Columns, decode_all
from dsl.cases.scores import Scores, scores_of
from dsl.frontend import arithmetic, ir
from dsl.frontend.source import Span
from dsl.interp.combinations import combination_counts, made_inside
from dsl.interp.decompose import Decomposition, Group, declared_group, decompositions, every_group, reading_tiles
from dsl.notation import HandError, parse_tiles

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


# ---------------------------------------------------------------- the checker


class Interpreter:
    """Scores cases of docs/interface.md by the reference semantics of a spec."""

    def __init__(self, spec: ir.Spec):
        self.spec = spec
        self.evaluator = Evaluator(spec)
        self.flowers = spec.flower_tiles()
        self.definitions = {b.name: b.expr for b in spec.definitions}
        self.fan_names = tuple(p.name for p in spec.patterns + spec.loser_patterns)  # a compiled module's FAN_NAMES

    # -- public API

    def evaluate(self, case: dict) -> dict:
        try:
            hand = read_case(self.spec, case)
        except HandError as exc:
            return {"ok": False, "error": str(exc)}
        return self.evaluate_hand(hand)

    def evaluate_hand(self, hand: Hand) -> dict:
        """The result for a case already read."""
        try:
            if hand.win is None:
                return {"ok": True, "winning": False, "reason": "no winning tile given",
                        "waits": [self.spec.tiles[t].code for t in self._waits(hand)]}
            return self._result(hand)
        except EvaluationError as exc:  # the spec's arithmetic has no value for this hand (2 ^ 10^12)
            return {"ok": False, "error": f"{self.spec.name} cannot score this hand: {exc}"}

    def evaluate_many(self, cases: Iterable[dict]) -> list[dict]:
        """One result per case the iterable held when the call began."""
        return [self.evaluate(case) for case in list(cases)]

    def score_many(self, cases: Iterable[dict] | Mapping[str, Any]) -> Scores:
        """The results in compact arrays, as a compiled checker's score_many gives them (docs/interface.md);
        `cases` may be encoded cases, a dict of arrays, each decoded to the case it stands for."""
        batch = decode_all(self.spec, cases) if isinstance(cases, dict) else list(cases)
        return scores_of(map(self.evaluate, batch), self.fan_names)

    @property
    def encoded_columns(self) -> tuple[str, ...]:
        """The context keys of the `context` array of encoded cases, in column order."""
        return tuple(k.name for k in Columns.of(self.spec).context)

    @property
    def indicator_columns(self) -> tuple[str, ...]:
        """The tile keys of the `indicators` array of encoded cases, in order."""
        return Columns.of(self.spec).indicators

    @property
    def meld_kind_names(self) -> tuple[str, ...]:
        """The meld kinds of the `melds` array of encoded cases, by number."""
        return tuple(k.name for k in self.spec.meld_kinds)

    def present_fans(self, case: dict) -> set[str]:
        """Fans that hold in the chosen reading before exclusions (for authoring checks); empty if none wins."""
        try:
            hand = read_case(self.spec, case)
        except HandError:
            return set()
        best, _ = self._best(hand) if hand.win is not None else (None, "")
        return {name for name, n in best.env.counts.items() if n > 0} if best else set()

    def is_winning(self, case: dict) -> bool:
        return bool(self.evaluate(case).get("winning"))

    def waits(self, case: dict) -> list[str]:
        """Tiles that would complete the hand (the case without its winning tile); an invalid case raises
        HandError."""
        hand = read_case(self.spec, without_win(case))
        return [self.spec.tiles[t].code for t in self._waits(hand)]

    # -- internals

    def _result(self, hand: Hand) -> dict:
        best, reason = self._best(hand)
        if best is None:
            return {"ok": True, "winning": False, "reason": reason}
        counted_total = sum(c.value * c.count for c in best.fans
                            if c.pattern.name not in self.spec.minimum_excluding)
        fans = [{"name": c.pattern.name, "en": c.pattern.english, "value": c.value, "count": c.count}
                for c in best.fans]
        minimum = hand.options[self.spec.minimum] if isinstance(self.spec.minimum, str) else self.spec.minimum
        if counted_total < minimum:
            unit = "fan" if self.spec.unit == "番" else self.spec.unit
            return {"ok": True, "winning": False, "fans": fans, "total": best.total,
                    "reason": f"{counted_total} {unit} is below the minimum of {minimum}"}
        result: dict = {"ok": True, "winning": True, "fans": fans, "total": best.total}
        if self.spec.cap is not None:
            result["paid"] = self.spec.paid(best.total, best.env.largest_fan)
        result.update(best.values)
        if self.spec.settlement is not None:
            settled = self._settle(hand, best)
            if settled.get("winning") is False:
                return {"ok": True, "winning": False, "fans": fans, "total": best.total, "reason": settled["reason"]}
            result.update(settled)
        return result

    def facts(self, hand: Hand) -> HandFacts:
        known: dict[bool, int] = {}

        def waits(any_copy: bool) -> int:
            if any_copy not in known:
                known[any_copy] = len(self._waits(hand, any_copy))
            return known[any_copy]

        return HandFacts.of(self.spec, hand, waits)

    def _best(self, hand: Hand) -> tuple[Scored | None, str]:
        best: Scored | None = None
        failed: str | None = None
        read = False
        for _, scored, unmet in self.scored_readings(self.facts(hand)):
            read = True
            if scored is None:
                failed = failed or unmet
            elif best is None or takes_over(self.spec, scored, best):
                best = scored
        if not read:
            return None, self.no_shape_reason()
        return best, failed or ""

    def scored_readings(self, facts: HandFacts) -> Iterator[tuple[Decomposition, Scored | None, str | None]]:
        """Each reading of the hand, in the order they are compared: scored, or the requirement it fails."""
        for d in self._readings(facts):
            env = self.reading_env(facts, d)
            unmet = self._unmet_requirement(env)
            yield d, (None if unmet is not None else self.score(env)), unmet

    def reading_env(self, facts: HandFacts, d: Decomposition) -> Env:
        return Env(facts, d, bindings=dict(self.definitions))

    def no_shape_reason(self) -> str:
        return "the tiles do not form a winning shape (" + ", ".join(
            [s.name.replace("_", " ") for s in self.spec.shapes] + [s.name for s in self.spec.shape_rules]) + ")"

    def _unmet_requirement(self, env: Env) -> str | None:
        for r in self.spec.requirements:
            if not self.evaluator.value(r.condition, env):
                english = f" ({r.english})" if r.english else ""
                return f"requirement {r.name}{english} is not met"
        return None

    def score(self, env: Env, dropped: list[Dropped] | None = None) -> Scored:
        """The reading of `env` scored; the fans that held but do not count are added to `dropped`, if given."""
        fans = resolve_exclusions(self.spec, self._present(env, late=False), dropped)
        env.counted_fans = sum(1 for c in fans if c.pattern.name not in self.spec.minimum_excluding)
        fans = sorted(fans + self._present(env, late=True), key=lambda c: c.pattern.order)
        limit = self.spec.supersede
        if limit is not None and any(c.value >= limit for c in fans):
            if dropped is not None:
                by = next(c.pattern.name for c in fans if c.value >= limit)
                dropped += [Dropped(c.pattern.name, c.count, "supersede", by, self.spec.rule_span("supersede"))
                            for c in fans if c.value < limit]
            fans = [c for c in fans if c.value >= limit]
        env.total = sum(c.value * c.count for c in fans)
        env.largest_fan = max((c.value * c.count for c in fans), default=0)
        env.bindings = env.bindings | {b.name: b.expr for b in self.spec.score}
        values = {b.name: self.evaluator.let(b.name, env) for b in self.spec.score}
        return Scored(env.decomposition, tuple(fans), env.total, env, values)

    def _present(self, env: Env, late: bool) -> list[Counted]:
        present = []
        for p in self.spec.patterns:
            if p.late == late and (n := self.evaluator.count(p, env)) > 0:
                present.append(Counted(p, self.evaluator.worth(p, env), n))
        return present

    def _waits(self, hand: Hand, any_copy: bool = False) -> list[int]:
        """Tiles that complete the hand's shape and meet every requirement (minimums aside).

        With any_copy, a tile whose every copy is already held still counts (a wait of the shape).
        """
        held = Counter(hand.concealed)
        for m in hand.melds:
            held.update(m.tiles)
        waits = []
        for tile in self.spec.tiles:
            if tile.index in self.flowers or (held[tile.index] >= tile.copies and not any_copy):
                continue
            if self._completes(replace(hand, win=tile.index, win_aside=None)):
                waits.append(tile.index)
        return waits

    def _completes(self, hand: Hand) -> bool:
        def no_waits(any_copy: bool) -> int:
            raise EvaluationError("a requirement cannot depend on `waits`")

        facts = HandFacts.of(self.spec, hand, no_waits)
        return any(self._unmet_requirement(self.reading_env(facts, d)) is None
                   for d in self._readings(facts))

    def _readings(self, facts: HandFacts) -> list[Decomposition]:
        """Every reading of the hand: the declared shapes' decompositions, then the spec's own shapes that hold."""
        hand = facts.hand
        if hand.win_aside is not None:  # a winning flower completes no set: only the spec's own shapes
            return self._own_shapes(facts)
        found = decompositions(self.spec, facts.counts, hand.melds, hand.win, hand.self_drawn, hand.wild)
        return found + self._own_shapes(facts)

    def _own_shapes(self, facts: HandFacts) -> list[Decomposition]:
        """A spec's own shape reads the hand without sets: its declared melds, then each concealed tile alone
        (the winning tile included); the reading counts when the shape's condition holds for it."""
        if not self.spec.shape_rules:
            return []
        hand = facts.hand
        groups = [declared_group(m) for m in hand.melds]
        held = hand.concealed
        if hand.win_aside is not None:
            groups.append(replace(declared_group(Meld(hand.win_aside, (hand.win,))), declared=False, with_win=True))
        elif hand.win is not None:
            held += (hand.win,)
        win_placed = hand.win_aside is not None
        for tile in sorted(held):
            with_win = tile == hand.win and not win_placed
            win_placed = win_placed or with_win
            groups.append(Group("single", (tile,), declared=False, concealed=True, opens=False, with_win=with_win))
        readings = []
        for rule in self.spec.shape_rules:
            reading = Decomposition(rule.name, tuple(groups), None, reading_tiles(tuple(groups)))
            if self.evaluator.value(rule.condition, self.reading_env(facts, reading)):
                readings.append(reading)
        return readings

    # -- settlement

    def _losers(self, hand: Hand) -> tuple[Loser, ...]:
        losers = []
        out = hand.context.get("out", ())
        for seat in range(self.spec.players):
            if seat == hand.seat or seat in out:
                continue
            melds = hand.other_melds.get(seat, ())
            losers.append(Loser(seat, seat == hand.dealer, seat == hand.discarder,
                                any(m.kind.opens for m in melds), tuple(declared_group(m) for m in melds)))
        return tuple(losers)

    def _settle(self, hand: Hand, best: Scored) -> dict:
        """Payments per seat; or, when a settlement requirement is not met, why the hand does not win."""
        settlement = self.spec.settlement
        assert settlement is not None
        env, shares = self.settle_env(hand, best)
        losers = env.losers
        for r in settlement.requirements:
            if not self.evaluator.value(r.condition, env):
                english = f" ({r.english})" if r.english else ""
                return {"winning": False, "reason": f"requirement {r.name}{english} is not met"}
        rule = self.payment_rule(hand)
        if rule is None:
            return {}
        owed = {loser.seat: 0 for loser in losers}
        for _, loser, amount in self.charges(rule, losers, env):
            owed[loser.seat] += amount
        liable = self.liable(settlement, losers, env)
        if liable is not None:  # one loser pays what every loser owes
            owed = {seat: (sum(owed.values()) if seat == liable.seat else 0) for seat in owed}
        payments = [0] * self.spec.players
        for seat, amount in owed.items():
            payments[seat] -= amount
            payments[hand.seat] += amount
        result: dict = {"payments": payments}
        if settlement.pot is not None:
            result["pot"] = self.evaluator.value(settlement.pot, env)
        if self.spec.loser_patterns:
            result["shares"] = [{"seat": seat, "fans": [_fan_json(c) for c in fans], "total": total}
                                for seat, (fans, total) in shares.items()]
        return result

    def settle_env(self, hand: Hand, best: Scored) -> tuple[Env, dict[int, tuple[list[Counted], int]]]:
        """What settlement reads for the chosen reading (the losers, the total, the settlement's `let`s), and each
        loser's share of loser fans and its total."""
        settlement = self.spec.settlement
        assert settlement is not None
        losers = self._losers(hand)
        env = Env(best.env.facts, best.env.decomposition, best.env.counts, losers=losers, total=best.total,
                  largest_fan=best.env.largest_fan,
                  bindings=best.env.bindings | {b.name: b.expr for b in settlement.bindings})
        shares = {loser.seat: self._share(env.inside(None, loser)) for loser in losers}
        env.shares.update({seat: total for seat, (_, total) in shares.items()})
        return env, shares

    def payment_rule(self, hand: Hand) -> ir.PaymentRule | None:
        """The settlement's payments for how the hand was won (self-drawn or on a discard), if it has any."""
        assert self.spec.settlement is not None
        case = "self_drawn" if hand.self_drawn else "discard"
        return next((r for r in self.spec.settlement.rules if r.case == case), None)

    def charges(self, rule: ir.PaymentRule, losers: tuple[Loser, ...], env: Env) -> list[tuple[ir.Payment, Loser, int]]:
        """What each payment of a rule charges each loser it names, in the rule's order."""
        return [(payment, loser, self.evaluator.value(payment.amount, env.inside(None, loser)))
                for payment in rule.payments for loser in self._payers(payment.payer, losers)]

    def liable(self, settlement: ir.Settlement, losers: tuple[Loser, ...], env: Env) -> Loser | None:
        """The first loser (seat order) for whom `liable:` holds, if any."""
        if settlement.liable is None:
            return None
        return next((loser for loser in losers if self.evaluator.value(settlement.liable, env.inside(None, loser))),
                    None)

    def _payers(self, payer: str, losers: tuple[Loser, ...]) -> list[Loser]:
        if payer == "each loser":
            return list(losers)
        if payer == "discarder":
            return [loser for loser in losers if loser.discarder]
        return [loser for loser in losers if not loser.discarder]

    def _share(self, env: Env) -> tuple[list[Counted], int]:
        """The loser fans of one loser's share, after their own exclusions."""
        present = []
        for p in self.spec.loser_patterns:
            n = self.evaluator.count(p, env)
            if n > 0:
                present.append(Counted(p, self.evaluator.worth(p, env), n))
        fans = resolve_exclusions(self.spec, present)
        return fans, sum(c.value * c.count for c in fans)


def _fan_json(c: Counted) -> dict:
    return {"name": c.pattern.name, "en": c.pattern.english, "value": c.value, "count": c.count}
