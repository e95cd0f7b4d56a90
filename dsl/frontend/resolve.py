"""Syntax tree -> checked IR: extends, names, tile sets, 不计 targets, scopes; every mistake is a diagnostic."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from dsl import vocabulary
from dsl.frontend import ast, ir
from dsl.frontend.parser import parse
from dsl.frontend.source import Diagnostic, Source, Span, SpecError, error, suggest
from dsl.frontend.typecheck import BOOL, NUMBER, TEXT, TILE, TRUTHY, TypeChecker
from dsl.notation import HandError, parse_tiles
from dsl.paths import bundled_specs, is_path, parent_path, spec_path
from dsl.vocabulary import ALWAYS_ACCEPTED, CONTEXT_KEYS, GROUP_SOURCES, PRINCIPLES, SHAPES, SOURCES, WAITS

BUILTIN_MELDS = {name: ir.MeldKind(name, english, shape, concealed=concealed, opens=opens)
                 for name, (english, shape, concealed, opens) in vocabulary.BUILTIN_MELDS.items()}
# Built-in names written in traditional characters: the simplified name they stand for. (The keyword
# 不計 is an alias of 不计 in the grammar itself.)
TRADITIONAL = {"不重複": "不重复"}
# A spec's `unit` when it gives no English: the usual English of the usual units.
UNIT_ENGLISH = {"番": "fan", "台": "tai", "胡数": "hu", "胡數": "hu", "符": "fu"}

HAND_VARS = {
    "shape": "the shape of the decomposition",
    "wait": "the wait completed by the winning tile",
    "waits": "how many different tiles complete the hand",
    "shape_waits": "how many different tiles complete the hand's shape, even a tile whose every copy is held",
    "suits": "how many numbered suits the hand holds",
    "opened": "some meld laid down opens the hand",
    "is_dealer": "the winner is the dealer",
    "red_fives": "red fives held, melds and winning tile included",
    "wilds": "wild tiles held in the hand, the winning tile included (as wilds or as themselves)",
    "substituted": "wild tiles the reading uses as wilds, standing for another tile",
}
SETTLE_VARS = {"total": "the winner's fan total", "loser_total": "the fans of this loser's share",
               "paid": "the winner's total as paid: the total, or the spec's cap when it is more"}
TILE_VALUED = {"win": "the winning tile", "seat_wind": "the seat wind tile", "round_wind": "the prevailing wind tile",
               "pair": "the tile of the decomposition's (first) pair"}
LATE_VARS = {"counted_fans": "how many fans count after exclusions (a fan using it is scored last)"}
TILE_ATTRS = ("suit", "rank")
LOSER_ATTRS = ("dealer", "discarder", "opened", "seat")
ELEMENT_ATTRS = {
    "tile": ("suit", "rank", "numbered", "honor", "tile"),
    "group": ("chow", "pung", "kong", "pair", "concealed", "exposed", "declared", "opens", "suit", "rank",
              "tile", "with_win", "size", "numbered", "honor"),
    "kind": ("copies", "konged", "suit", "rank", "tile"),
    "loser": LOSER_ATTRS,
    "combo": ("step", "numbered"),
}
COMBO_ATTRS = ("suit", "rank", "tile")
AGGREGATES = {"count": (1, 2), "all": (2, 2), "any": (2, 2), "sum": (2, 2)}
FUNCTIONS = {"min": (2, 9), "max": (2, 9), "abs": (1, 1), "roundup": (2, 2)}
PAYERS = ("each loser", "each other", "discarder")
PAYMENT_CASES = ("self_drawn", "discard")
PLAYERS = range(2, 5)
HAND_SIZES = range(2, 21, 3)  # 14 in most variants, 17 in Taiwan's; past 20 the search for readings grows too long
COPIES = range(1, 9)  # 4 of each tile in every common set, 1 of each flower


def load_spec(name_or_path: str) -> ir.Spec:
    """Parse and resolve a spec by path or bundled name; raises SpecError with diagnostics."""
    return resolve_file(_locate(name_or_path, None))


def check(name_or_path: str) -> tuple[ir.Spec | None, list[Diagnostic]]:
    """Everything `mjdsl check` reports: errors (then no spec) or the spec and its warnings."""
    try:
        spec = load_spec(name_or_path)
    except SpecError as exc:
        return None, exc.diagnostics
    return spec, warnings(spec)


def resolve_file(path: Path) -> ir.Spec:
    source = Source.read(path)
    return resolve(parse(source), source)


def resolve(module: ast.Module, source: Source) -> ir.Spec:
    return Resolver(module, source).spec()


def _locate(name: str, span: Span | None) -> Path:
    """A spec by path or bundled name, or, for `extends`/`import` (span given), by the rule of parent_path."""
    path = spec_path(name) if span is None else parent_path(name, Path(span.path).parent)
    if path is None:
        hint = suggest(name, bundled_specs())
        if span is None and not is_path(name) and Path(name).exists():
            hint = f"{name!r} is not a bundled spec; for the file, write ./{name}"
        raise error(f"no spec named {name!r}", span, hint)
    return path


# ---------------------------------------------------------------- merging extends


@dataclass
class Declarations:
    """A spec's declarations after applying `extends`: the parent's, then the child's changes."""

    variant: ast.Variant | None = None
    parent: str | None = None
    docs: list[str] = field(default_factory=list)
    players: int = 4
    hand_size: int = 14
    tiles: ast.Tiles | None = None
    tilesets: dict[str, ast.TileSet] = field(default_factory=dict)
    melds: ast.Melds | None = None
    meld_kinds: dict[str, ast.MeldKind] = field(default_factory=dict)
    shapes: ast.Shapes | None = None
    shape_rules: dict[str, ast.ShapeRule] = field(default_factory=dict)
    unit: ast.Unit | None = None
    cap: ast.Cap | None = None
    context: list[ast.Name] = field(default_factory=list)
    flags: dict[str, ast.Flag] = field(default_factory=dict)
    options: dict[str, ast.Option] = field(default_factory=dict)
    requirements: dict[str, ast.Require] = field(default_factory=dict)
    minimum: ast.Minimum | None = None
    principles: ast.Principles | None = None
    prefer: ast.Prefer | None = None
    orders: list[ast.Order] = field(default_factory=list)
    wilds: dict[str, ast.Wild] = field(default_factory=dict)
    supersede: ast.Supersede | None = None
    definitions: dict[str, ast.Binding] = field(default_factory=dict)
    patterns: dict[str, ast.Pattern] = field(default_factory=dict)
    exclusive: dict[str, ast.Exclusive] = field(default_factory=dict)
    score: ast.Score | None = None
    settle: ast.Settle | None = None
    rounds: ast.RoundRules | None = None
    examples: list[ast.Example] = field(default_factory=list)
    round_examples: list[ast.RoundExample] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    sources: list[str] = field(default_factory=list)


def _collect(module: ast.Module, source: Source, chain: tuple[str, ...]) -> Declarations:
    decls = module.decls
    parent = next((d for d in decls if isinstance(d, ast.Extends)), None)
    if parent is not None:
        parent_path = _locate(parent.parent.text, parent.parent.span).resolve()
        if str(parent_path) in chain:
            through = " -> ".join(Path(c).stem for c in chain)
            raise error(f"spec {parent.parent.text!r} extends itself through {through}", parent.parent.span)
        parent_source = Source.read(parent_path)
        merged = _collect(parse(parent_source), parent_source, chain + (str(parent_path),))
        merged.parent = parent.parent.text
        merged.examples = []  # a parent's worked hands need not hold under the child's rules
        merged.round_examples = []
        merged.docs = []
    else:
        merged = Declarations()
    merged.sources.append(source.text)
    for decl in decls:
        _apply(merged, decl, chain)
    return merged


def _apply(into: Declarations, decl: ast.Decl, chain: tuple[str, ...]) -> None:
    match decl:
        case ast.Variant():
            into.variant = decl
        case ast.Extends():
            pass
        case ast.Import():
            path = _locate(decl.spec.text, decl.spec.span).resolve()
            imported_source = Source.read(path)
            imported = _collect(parse(imported_source), imported_source, chain + (str(path),))
            into.sources.extend(imported.sources)  # the spec's hash covers what it takes from others
            into.tiles = into.tiles or imported.tiles
            into.tilesets.update(imported.tilesets)
            into.meld_kinds.update(imported.meld_kinds)
        case ast.Doc():
            into.docs.append(decl.text)
        case ast.Players():
            into.players = _bounded(decl.count, PLAYERS, "a table seats 2, 3 or 4 players", decl.span)
        case ast.HandSize():
            into.hand_size = _bounded(decl.tiles, HAND_SIZES, "a winning hand holds sets of three and a pair: "
                                      + ", ".join(map(str, HAND_SIZES)) + " tiles", decl.span)
        case ast.Tiles():
            into.tiles = decl
        case ast.TileSet():
            into.tilesets[decl.name.text] = decl
        case ast.Melds():
            into.melds = decl
        case ast.MeldKind():
            into.meld_kinds[decl.name.text] = decl
        case ast.Shapes():
            into.shapes = decl
        case ast.ShapeRule():
            into.shape_rules[decl.name.text] = decl
        case ast.Unit():
            into.unit = decl
        case ast.Cap():
            into.cap = decl
        case ast.Context():
            into.context.extend(decl.keys)
        case ast.Flag():
            into.flags[decl.name.text] = decl
        case ast.Option():
            into.options[decl.name.text] = decl
        case ast.Require():
            into.requirements[decl.name.text] = decl
        case ast.Minimum():
            into.minimum = decl
        case ast.Principles():
            into.principles = decl
        case ast.Prefer():
            into.prefer = decl
        case ast.Pattern():
            _apply_pattern(into, decl)
        case ast.Exclusive():
            into.exclusive[decl.name.text] = decl
        case ast.Remove():
            for name in decl.names:
                if name.text not in into.patterns:
                    raise error(f"cannot remove {name.text!r}: no such fan", name.span,
                                suggest(name.text, into.patterns))
                del into.patterns[name.text]
                into.removed.add(name.text)
        case ast.Score():
            into.score = decl
        case ast.Settle():
            into.settle = decl
        case ast.Example():
            into.examples.append(decl)
        case ast.RoundRules():
            from dsl.frontend.resolve_rounds import merge

            into.rounds = merge(into.rounds, decl)
        case ast.RoundExample():
            into.round_examples.append(decl)
        case ast.Binding():
            into.definitions[decl.name.text] = decl
        case ast.Order():
            into.orders.append(decl)
        case ast.Supersede():
            into.supersede = decl
        case ast.Wild():
            into.wilds[decl.name.text] = decl


def _bounded(value: int, allowed: range, rule: str, span: Span) -> int:
    if value not in allowed:
        raise error(f"{value} is out of range: {rule}", span)
    return value


def _apply_pattern(into: Declarations, decl: ast.Pattern) -> None:
    name = decl.name.text
    exists = name in into.patterns
    if decl.replaces and not exists:
        raise error(f"cannot replace {name!r}: no such fan", decl.name.span, suggest(name, into.patterns))
    if exists and not decl.replaces:
        earlier = into.patterns[name]
        where = "the parent spec" if earlier.span.source is not decl.span.source else f"line {earlier.span.line}"
        raise error(f"fan {name!r} is already defined in {where}", decl.name.span,
                    "write `replace fan` to change it")
    into.patterns[name] = decl


# ---------------------------------------------------------------- resolving


class Resolver:
    def __init__(self, module: ast.Module, source: Source):
        self.source = source
        self.d = _collect(module, source, (str(Path(source.path).resolve()),))
        if self.d.variant is None:
            raise error("a spec starts with `variant NAME \"中文名\" \"English name\"`",
                        Span(source, 1, 1, 1, 2))
        if self.d.tiles is None:
            raise error("the spec declares no tiles (add a `tiles:` block or `extends` a spec)", self.d.variant.span)

    # -- whole spec

    def spec(self) -> ir.Spec:
        d = self.d
        self.tiles, self.suits = self._tiles(d.tiles)
        self.red_tiles, self.red_copies = self._red_fives(d.tiles)
        self.codes = {t.code: t.index for t in self.tiles} | dict(self.red_tiles)
        self.suit_codes = {s.code for s in self.suits}
        self.tile_names = {t.name: t.index for t in self.tiles}
        self.context = self._context()
        self.next_tile, self.previous_tile, self.indicator_tile = self._orders()
        self.tilesets = self._tilesets()
        self.wilds = self._wilds()
        self.meld_kinds = self._meld_kinds()
        self.shape_names = self._shape_names()
        self.shapes = self._shapes()
        self.options = tuple(ir.Option(o.name.text, o.description, o.default, o.span) for o in d.options.values())
        self.binding_types: dict[str, str] = {}
        self.types = TypeChecker({k.name: k.kind for k in self.context}, {o.name: o.default for o in self.options},
                                 self.binding_types)
        self.aliases = self._aliases()
        self.hand_names: list[str] = []  # fans are not known to top-level `let`s: they come first
        self.loser_names: list[str] = []
        self.definitions = self._definitions()
        self.score_names: tuple[str, ...] = ()
        self.hand_names = [n for n, p in d.patterns.items() if p.scope == "hand"]
        self.loser_names = [n for n, p in d.patterns.items() if p.scope == "loser"]
        shape_rules = tuple(self._shape_rule(s) for s in d.shape_rules.values())
        patterns = [self._pattern(p, i) for i, p in enumerate(d.patterns.values())]
        _check_late_patterns(patterns)
        hand = _dependency_order([p for p in patterns if p.scope == "hand"])
        loser = _dependency_order([p for p in patterns if p.scope == "loser"])
        requirements = tuple(
            ir.Requirement(r.name.text, r.english, self._expr(r.condition, self._scope("hand")), r.span)
            for r in d.requirements.values())
        minimum = self._minimum(d.minimum)
        excluding = tuple(self._pattern_name(n) for n in (d.minimum.excluding if d.minimum else ()))
        principles = tuple(self._principle(n) for n in (d.principles.names if d.principles else ()))
        preferred = tuple(self._pattern_name(n, self.hand_names) for n in (d.prefer.names if d.prefer else ()))
        exclusive = tuple(self._exclusive(g) for g in d.exclusive.values())
        score = self._score(d.score) if d.score else ()
        settlement = self._settlement(d.settle) if d.settle else None
        variant = d.variant
        spec = ir.Spec(
            name=variant.name.text, title=variant.title, english=variant.english, parent=d.parent,
            doc="\n\n".join(t.strip() for t in d.docs) or None, path=self.source.path,
            source_hash=hashlib.sha256("\0".join(d.sources).encode()).hexdigest()[:16],
            players=d.players, hand_size=d.hand_size, tiles=self.tiles, suits=self.suits,
            tilesets=tuple(self.tilesets.values()), meld_kinds=tuple(self.meld_kinds.values()), shapes=self.shapes,
            context=self.context, options=self.options, definitions=self.definitions, requirements=requirements,
            minimum=minimum,
            minimum_excluding=excluding, principles=principles, preferred=preferred, patterns=tuple(hand),
            loser_patterns=tuple(loser),
            exclusive_groups=exclusive, supersede=d.supersede.value if d.supersede else None, score=score,
            settlement=settlement, examples=(), red_tiles=self.red_tiles, red_copies=self.red_copies,
            next_tile=self.next_tile, previous_tile=self.previous_tile, indicator_tile=self.indicator_tile,
            wilds=self.wilds, shape_rules=shape_rules, **self._unit_and_cap(),
        )
        spec = replace(spec, examples=tuple(self._example(e) for e in d.examples))
        if d.rounds is None and not d.round_examples:
            return spec
        from dsl.frontend.resolve_rounds import round_example, round_rules

        rounds = round_rules(self, d.rounds) if d.rounds is not None else None
        return replace(spec, rounds=rounds,
                       round_examples=tuple(round_example(self, e, rounds) for e in d.round_examples))

    # -- tiles

    def _tiles(self, block: ast.Tiles) -> tuple[tuple[ir.Tile, ...], tuple[ir.Suit, ...]]:
        tiles: list[ir.Tile] = []
        suits: list[ir.Suit] = []
        seen_codes: dict[str, Span] = {}
        for group in block.groups:
            if isinstance(group, ast.RedFives):
                continue
            code = group.code.text
            if code in seen_codes or len(code) != 1 or not code.isascii() or not code.isalpha():
                problem = "is used twice" if code in seen_codes else "must be one ASCII letter"
                raise error(f"suit code {code!r} {problem}", group.code.span)
            seen_codes[code] = group.code.span
            start = len(tiles)
            if isinstance(group, ast.Suit):
                if not 0 <= group.low <= group.high <= 9:
                    raise error("ranks of a suit run within 0..9", group.span)
                for rank in range(group.low, group.high + 1):
                    name = f"{_CHINESE_RANKS[rank]}{group.name.text}"
                    tiles.append(ir.Tile(len(tiles), f"{rank}{code}", code, rank, name, f"{rank} {group.english}",
                                         group.copies, numbered=True))
            else:
                if len(group.tiles) > 9:
                    raise error("a tile group holds at most 9 tiles (one digit each)", group.span)
                for rank, named in enumerate(group.tiles, start=1):
                    tiles.append(ir.Tile(len(tiles), f"{rank}{code}", code, rank, named.name.text,
                                         named.english or named.name.text, named.copies or group.copies,
                                         numbered=False))
            for tile in tiles[start:]:
                _bounded(tile.copies, COPIES, f"a tile has {COPIES.start} to {COPIES.stop - 1} copies", group.span)
            suits.append(ir.Suit(code, group.name.text, group.english, isinstance(group, ast.Suit),
                                 getattr(group, "kind", "") == "flowers", tuple(range(start, len(tiles))), group.span))
        names: dict[str, ir.Tile] = {}
        for tile in tiles:
            if tile.name in names and not tile.numbered:
                raise error(f"tile name {tile.name!r} is used twice", block.span)
            names[tile.name] = tile
        return tuple(tiles), tuple(suits)

    def _red_fives(self, block: ast.Tiles) -> tuple[tuple[tuple[str, int], ...], int]:
        reds = [g for g in block.groups if isinstance(g, ast.RedFives)]
        if not reds:
            return (), 0
        fives = tuple((f"0{t.suit}", t.index) for t in self.tiles if t.numbered and t.rank == 5)
        copies = reds[-1].copies
        for _, index in fives:
            if copies >= self.tiles[index].copies:
                raise error(f"{copies} red copies of {self.tiles[index].code} leave no plain one", reds[-1].span)
        return fives, copies

    def _orders(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Per tile: the tile after it, the tile before it, and what it counts as when turned up as an
        indicator. Numbered suits cycle by rank (9 -> 1); honors follow their `order`. A skipped tile
        (in parentheses) is never reached, and counts as the tile written before it."""
        following = list(range(len(self.tiles)))
        for suit in self.suits:
            if suit.numbered:
                for position, index in enumerate(suit.tiles):
                    following[index] = suit.tiles[(position + 1) % len(suit.tiles)]
        preceding = list(range(len(self.tiles)))
        for index, after in enumerate(following):
            preceding[after] = index
        standing = list(range(len(self.tiles)))
        for order in self.d.orders:
            written = []
            for name in order.names:
                if name.text not in self.tile_names:
                    raise error(f"unknown tile {name.text!r}", name.span, suggest(name.text, self.tile_names))
                written.append(self.tile_names[name.text])
            skipped = order.skipped or (False,) * len(written)
            cycle = [t for t, skip in zip(written, skipped, strict=True) if not skip]
            if not cycle:
                raise error("an order needs a tile that is not skipped", order.span)
            for position, index in enumerate(cycle):
                following[index] = cycle[(position + 1) % len(cycle)]
                preceding[index] = cycle[position - 1]
            last = cycle[-1]  # the tile before a skipped tile at the start is the last of the cycle
            for index, skip in zip(written, skipped, strict=True):
                if skip:
                    standing[index] = last
                    following[index], preceding[index] = following[last], preceding[last]
                else:
                    last = index
        return tuple(following), tuple(preceding), tuple(standing)

    def _score(self, score: ast.Score) -> tuple[ir.Binding, ...]:
        bindings: tuple[ir.Binding, ...] = ()
        for decl in score.bindings:
            names = tuple(b.name for b in bindings)
            expr = self._expr(decl.expr, self._scope("score", *names), "a `score` value", (NUMBER, BOOL))
            self.binding_types[decl.name.text] = self.types.type(expr)
            bindings += (ir.Binding(decl.name.text, expr, decl.span),)
        self.score_names = tuple(b.name for b in bindings)
        return bindings

    def _tilesets(self) -> dict[str, ir.TileSet]:
        sets: dict[str, ir.TileSet] = {}
        for suit in self.suits:
            whole = frozenset(suit.tiles)
            sets[suit.name] = ir.TileSet(suit.name, suit.english, whole, None)
            sets[suit.code] = ir.TileSet(suit.code, suit.english, whole, None)
        self.tilesets = sets
        declared = [(d.name, d.english, d.tiles, d.span) for d in self.d.tilesets.values()]
        declared += [(w.name, w.english, w.tiles, w.span) for w in self.d.wilds.values()]
        for name, english, tiles, span in declared:
            if name.text in sets or name.text in self.tile_names:
                raise error(f"tile set {name.text!r} has the name of a suit, tile or tile set", name.span)
            terms = self._tile_terms(tiles)
            sets[name.text] = ir.TileSet(name.text, english, terms.tiles, span, terms.indicated, terms.removed)
        return sets

    def _wilds(self) -> tuple[str, ...]:
        for wild in self.d.wilds.values():
            if not self.tilesets[wild.name.text].per_hand:
                raise error("a wild tile is chosen per hand from indicator tiles, e.g. `= next(indicator)`",
                            wild.tiles.span)
        return tuple(self.d.wilds)

    def _tile_expr(self, expr: ast.TileExpr) -> frozenset[int]:
        """Tiles known from the spec alone (no indicator)."""
        terms = self._tile_terms(expr)
        if terms.indicated:
            raise error("these tiles depend on indicator tiles; only a tile set, a wild or `one of` may", expr.span)
        return terms.tiles

    def _tile_terms(self, expr: ast.TileExpr) -> TileTerms:
        match expr:
            case ast.TileLiteral():
                try:
                    return TileTerms(frozenset(parse_tiles(expr.text, self.codes)))
                except HandError as exc:
                    raise error(str(exc), expr.span) from None
            case ast.TileName():
                return self._tile_name(expr)
            case ast.TileRanks():
                return TileTerms(frozenset(t.index for t in self.tiles if t.numbered and t.rank in expr.ranks))
            case ast.TileCall():
                return self._tile_call(expr)
            case ast.TileSetOp():
                left, right = self._tile_terms(expr.left), self._tile_terms(expr.right)
                if expr.op == "-":
                    if right.indicated:
                        raise error("the tiles taken away must be known from the spec alone", expr.right.span)
                    return TileTerms(left.tiles - right.tiles, left.indicated, left.removed | right.tiles)
                if left.removed and right.indicated or right.removed and left.indicated:
                    raise error("take tiles away (`-`) after every `+`", expr.span)
                return TileTerms(left.tiles | right.tiles, tuple(dict.fromkeys(left.indicated + right.indicated)),
                                 (left.removed - right.tiles) | (right.removed - left.tiles))
        raise AssertionError(expr)

    def _tile_name(self, expr: ast.TileName) -> TileTerms:
        if expr.name in self.tilesets:
            ts = self.tilesets[expr.name]
            return TileTerms(ts.tiles, ts.indicated, ts.removed)
        if expr.name in self.tile_names:
            return TileTerms(frozenset({self.tile_names[expr.name]}))
        key = next((k for k in self.context if k.name == expr.name), None)
        if key is not None and key.kind == "tiles":
            return TileTerms(frozenset(), ((key.name, 0),))
        if expr.name in CONTEXT_KEYS and CONTEXT_KEYS[expr.name][0] == "tiles":
            raise error(f"the spec does not read {expr.name!r}: declare it with `context {expr.name}`", expr.span)
        candidates = list(self.tilesets) + list(self.tile_names)
        raise error(f"unknown tile or tile set {expr.name!r}", expr.span, suggest(expr.name, candidates))

    def _tile_call(self, expr: ast.TileCall) -> TileTerms:
        function = expr.function.text
        if function not in ("next", "previous"):  # `中 (发 白)`: a tile beside a group, not a call
            left = self._tile_name(ast.TileName(expr.function.span, function))
            right = self._tile_terms(expr.argument)
            return TileTerms(left.tiles | right.tiles, tuple(dict.fromkeys(left.indicated + right.indicated)),
                             left.removed | right.removed)
        inner = self._tile_terms(expr.argument)
        if inner.removed:
            raise error(f"take tiles away (`-`) outside {function}(...)", expr.argument.span)
        step, table = (1, self.next_tile) if function == "next" else (-1, self.previous_tile)
        return TileTerms(frozenset(table[t] for t in inner.tiles),
                         tuple(dict.fromkeys((key, n + step) for key, n in inner.indicated)))

    def _meld_kinds(self) -> dict[str, ir.MeldKind]:
        kinds: dict[str, ir.MeldKind] = {}
        allowed = self.d.melds.kinds if self.d.melds else [ast.Name(n, self.d.variant.span) for n in BUILTIN_MELDS]
        for name in allowed:
            if name.text not in BUILTIN_MELDS:
                raise error(f"unknown meld kind {name.text!r}", name.span, suggest(name.text, BUILTIN_MELDS))
            kinds[name.text] = replace(BUILTIN_MELDS[name.text], span=name.span)
        for decl in self.d.meld_kinds.values():
            if decl.one_of:
                name = decl.tiles.name  # type: ignore[attr-defined]
                if name not in self.tilesets:
                    raise error(f"unknown tile set {name!r}", decl.tiles.span, suggest(name, self.tilesets))
                kinds[decl.name.text] = ir.MeldKind(decl.name.text, decl.english, "one_of", concealed=False,
                                                    opens=False, span=decl.span, tileset=name, aside=True)
                continue
            tiles = tuple(sorted(self._tile_expr(decl.tiles)))
            kinds[decl.name.text] = ir.MeldKind(decl.name.text, decl.english, "fixed", concealed=False, opens=False,
                                                tiles=tiles, span=decl.span, aside=len(tiles) == 1)
        return kinds

    def _shape_names(self) -> tuple[str, ...]:
        """The spec's own shapes: names `shape ==` may compare with, beside the built-in ones."""
        for rule in self.d.shape_rules.values():
            if rule.name.text in SHAPES or rule.name.text in WAITS:
                raise error(f"{rule.name.text!r} is a built-in name; give the shape another", rule.name.span)
        return tuple(self.d.shape_rules)

    def _shape_rule(self, rule: ast.ShapeRule) -> ir.ShapeRule:
        condition = self._expr(rule.condition, self._scope("hand"), "the condition of a shape")
        return ir.ShapeRule(rule.name.text, rule.english, condition, rule.span)

    def _unit_and_cap(self) -> dict[str, object]:
        unit, cap = self.d.unit, self.d.cap
        fields: dict[str, object] = {}
        if unit is not None:
            fields["unit"] = unit.name.text
            fields["unit_english"] = unit.english or UNIT_ENGLISH.get(unit.name.text)
        if cap is not None:
            if cap.amount <= 0:
                raise error("a cap is a positive number", cap.span)
            fields["cap"] = cap.amount
            fields["cap_description"] = cap.description
            fields["cap_unless_more"] = cap.unless_more
        return fields

    def _shapes(self) -> tuple[ir.Shape, ...]:
        if self.d.shapes is None:
            return (ir.Shape("standard", chows="chow" in self.meld_kinds),)
        shapes = []
        for item in self.d.shapes.items:
            if item.name.text in self.shape_names:
                continue  # a spec's own shape is always tried; naming it here changes nothing
            if item.name.text not in SHAPES:
                raise error(f"unknown shape {item.name.text!r}", item.name.span, suggest(item.name.text, SHAPES))
            if item.without is not None and item.without.text != "chow":
                raise error("a shape can only be written `without chow`", item.without.span)
            shapes.append(ir.Shape(item.name.text, chows=item.without is None))
        return tuple(shapes)

    def _context(self) -> tuple[ir.ContextKey, ...]:
        keys: dict[str, ir.ContextKey] = {}
        for name in ALWAYS_ACCEPTED:
            kind, text = CONTEXT_KEYS[name]
            keys[name] = ir.ContextKey(name, kind, text, builtin=True)
        for name in self.d.context:
            if name.text not in CONTEXT_KEYS:
                raise error(f"unknown context key {name.text!r}", name.span,
                            suggest(name.text, CONTEXT_KEYS) or "declare a spec's own key with `flag NAME \"...\"`")
            kind, text = CONTEXT_KEYS[name.text]
            keys[name.text] = ir.ContextKey(name.text, kind, text, builtin=True)
        for flag in self.d.flags.values():
            if flag.name.text in keys or flag.name.text in CONTEXT_KEYS:
                what = {"flag": "flag", "seat": "player", "int": "context key"}[flag.kind]
                raise error(f"{what} {flag.name.text!r} has the name of a built-in context key", flag.name.span)
            if flag.kind == "int" and flag.low > flag.high:
                raise error(f"the range {flag.low}..{flag.high} is empty: write the low end first", flag.span)
            keys[flag.name.text] = ir.ContextKey(flag.name.text, flag.kind, flag.description, builtin=False,
                                                 low=flag.low, high=flag.high)
        return tuple(keys.values())

    def _aliases(self) -> dict[str, str]:
        aliases: dict[str, str] = {}
        for pattern in self.d.patterns.values():
            for alias in pattern.aliases:
                if alias.text in self.d.patterns or alias.text in aliases:
                    raise error(f"alias {alias.text!r} is already the name of a fan", alias.span)
                aliases[alias.text] = pattern.name.text
        return aliases

    # -- patterns

    def _pattern_name(self, name: ast.Name, names: Iterable[str] | None = None) -> str:
        known = list(names) if names is not None else list(self.d.patterns)
        if name.text in known:
            return name.text
        if name.text in self.aliases and self.aliases[name.text] in known:
            return self.aliases[name.text]
        if name.text in self.d.removed:
            raise error(f"fan {name.text!r} was removed", name.span)
        raise error(f"unknown fan {name.text!r}", name.span, suggest(name.text, known + list(self.aliases)))

    def _scope(self, kind: str, *more: str) -> Scope:
        return Scope(kind, bindings=tuple(b.name for b in self.definitions) + more)

    def _definitions(self) -> tuple[ir.Binding, ...]:
        """Top-level `let`s, in order: each may use the ones before it."""
        self.definitions: tuple[ir.Binding, ...] = ()
        for decl in self.d.definitions.values():
            expr = self._expr(decl.expr, self._scope("hand"), "a `let` value", (NUMBER, BOOL, TEXT, TILE))
            self.binding_types[decl.name.text] = self.types.type(expr)
            self.definitions += (ir.Binding(decl.name.text, expr, decl.span),)
        return self.definitions

    def _pattern(self, p: ast.Pattern, order: int) -> ir.Pattern:
        scope = self._scope(p.scope)
        value_expr = self._expr(p.value.expr, scope, "a fan value", (NUMBER,)) if p.value.expr is not None else None
        value = ir.Value(p.value.kind, p.value.amount, value_expr)
        if p.value.kind.endswith("each"):
            condition = self._expr(p.condition, scope, "the count of a per-occurrence fan", (NUMBER,))
        else:
            condition = self._expr(p.condition, scope)
        excludes = []
        for exclusion in p.excludes:
            target = self._pattern_name(exclusion.target)
            if target == p.name.text:
                raise error(f"fan {target!r} cannot exclude itself", exclusion.target.span)
            if self.d.patterns[target].scope != p.scope:
                raise error(f"{target!r} is a {self.d.patterns[target].scope} fan; it cannot be excluded by a "
                            f"{p.scope} fan", exclusion.target.span)
            if exclusion.times is not None and not self.d.patterns[target].value.kind.endswith("each"):
                raise error(f"`×{exclusion.times}` excludes occurrences, but {target!r} is not counted per "
                            "occurrence", exclusion.target.span)
            excludes.append(ir.Exclusion(target, exclusion.times, exclusion.target.span))
        late = any(isinstance(e, ir.Var) and e.scope == "late"
                   for e in (*ir.walk(condition), *ir.walk(value.expr)))
        return ir.Pattern(p.name.text, p.english, value, condition, tuple(excludes),
                          tuple(a.text for a in p.aliases), p.doc, p.scope, order, p.span, late)

    def _minimum(self, decl: ast.Minimum | None) -> int | str:
        if decl is None:
            return 0
        if isinstance(decl.value, int):
            return decl.value
        option = self.d.options.get(decl.value.text)
        if option is None or not isinstance(option.default, int) or isinstance(option.default, bool):
            raise error(f"`minimum {decl.value.text}` needs a number or an option holding one", decl.value.span,
                        suggest(decl.value.text, self.d.options))
        return decl.value.text

    def _principle(self, name: ast.Name) -> str:
        text = TRADITIONAL.get(name.text, name.text)
        if text not in PRINCIPLES:
            raise error(f"unknown accounting principle {name.text!r}", name.span, suggest(name.text, PRINCIPLES))
        return text

    def _exclusive(self, group: ast.Exclusive) -> ir.ExclusiveGroup:
        members = tuple(self._pattern_name(m) for m in group.members)
        for name, member in zip(members, group.members, strict=True):
            if self.d.patterns[name].scope != "hand":
                raise error(f"{name!r} is a loser fan; exclusive groups hold hand fans", member.span)
        return ir.ExclusiveGroup(group.name.text, group.english, members, group.span)

    # -- settlement

    def _settlement(self, settle: ast.Settle) -> ir.Settlement:
        bindings = []
        names: list[str] = []
        for binding in settle.bindings:
            expr = self._expr(binding.expr, self._scope("settle", *self.score_names, *names), "a `let` value",
                              (NUMBER, BOOL, TEXT, TILE))
            self.binding_types[binding.name.text] = self.types.type(expr)
            bindings.append(ir.Binding(binding.name.text, expr, binding.span))
            names.append(binding.name.text)
        scope = self._scope("settle", *self.score_names, *names)
        rules = []
        for rule in settle.rules:
            if rule.case.text not in PAYMENT_CASES:
                raise error(f"unknown payment case {rule.case.text!r}", rule.case.span,
                            suggest(rule.case.text, PAYMENT_CASES) or "write `self_drawn:` or `discard:`")
            payments = []
            for payment in rule.payments:
                payer = ("each " if payment.each else "") + payment.payer.text
                if payer not in PAYERS:
                    raise error(f"unknown payer {payer!r}", payment.payer.span,
                                suggest(payer, PAYERS) or "payers are: " + ", ".join(PAYERS))
                if payer != "each loser" and rule.case.text == "self_drawn":
                    raise error("on a self-drawn win there is no discarder: write `each loser pays ...`",
                                payment.payer.span)
                amount = self._expr(payment.amount, scope, "a payment", (NUMBER,))
                payments.append(ir.Payment(payer, amount, payment.span))
            rules.append(ir.PaymentRule(rule.case.text, tuple(payments), rule.span))
        pot = self._expr(settle.pot, scope, "the pot", (NUMBER,)) if settle.pot is not None else None
        liable = self._expr(settle.liable, scope, "who is liable") if settle.liable is not None else None
        requirements = tuple(ir.Requirement(r.name.text, r.english, self._expr(r.condition, scope), r.span)
                             for r in settle.requirements)
        return ir.Settlement(tuple(bindings), tuple(rules), settle.span, pot, liable, requirements)

    # -- examples

    def _example(self, e: ast.Example) -> ir.Example:
        case: dict[str, object] = {}
        if e.hand is not None:
            case["hand"] = e.hand
        if e.win is not None:
            case["win"] = e.win
        if e.melds:
            case["melds"] = tuple(f"{m.kind} {m.tiles}" for m in e.melds)
        if e.others:
            case["other_melds"] = tuple((str(seat), tuple(f"{m.kind} {m.tiles}" for m in melds))
                                        for seat, melds in e.others)
        for name, value in e.context:
            case[name.text] = value
        if e.options:
            case["options"] = tuple(sorted((self._example_option(name, value) for name, value in e.options)))
        all_names = list(self.d.patterns)
        fans = None
        if e.fans is not None:
            fans = tuple(ir.ExpectedFan(self._pattern_name(f.name, all_names), f.value, f.count) for f in e.fans)
        return ir.Example(e.title, tuple(sorted(case.items())), fans, e.total, e.no_win, e.error, e.payments,
                          e.doc, e.span, example_comments(e.lines))

    def _example_option(self, name: ast.Name, value: object) -> tuple[str, object]:
        option = self.d.options.get(name.text)
        if option is None:
            raise error(f"unknown option {name.text!r}", name.span, suggest(name.text, self.d.options))
        if type(value) is not type(option.default):
            raise error(f"option {name.text!r} takes a value like {option.default!r}, not {value!r}", name.span)
        return name.text, value

    # -- expressions

    def _expr(self, e: ast.Expr, scope: Scope, what: str = "a condition", wanted: tuple[str, ...] = TRUTHY
              ) -> ir.Expr:
        """Resolve names, then check that the expression has a type the place it stands in accepts."""
        expr = ExprResolver(self, scope).resolve(e)
        self.types.expect(expr, wanted, what)
        return expr


@dataclass(frozen=True)
class Scope:
    kind: str  # "hand", "loser", "settle"
    element: str | None = None
    bindings: tuple[str, ...] = ()


class ExprResolver:
    """Binds every name of an expression to what it means in its scope."""

    def __init__(self, resolver: Resolver, scope: Scope):
        self.r = resolver
        self.scope = scope

    def resolve(self, e: ast.Expr) -> ir.Expr:
        match e:
            case ast.Number():
                return ir.Const(e.span, e.value)
            case ast.Ref():
                return self._name(e.name, e.span)
            case ast.Attribute():
                return self._attribute(e)
            case ast.Call():
                return self._call(e)
            case ast.Binary():
                return ir.Binary(e.span, e.op, self._shape_side(e, e.left), self._shape_side(e, e.right))
            case ast.Not():
                return ir.Not(e.span, self.resolve(e.operand))
            case ast.Negate():
                return ir.Negate(e.span, self.resolve(e.operand))
            case ast.Conditional():
                return ir.Conditional(e.span, self.resolve(e.then), self.resolve(e.condition),
                                      self.resolve(e.otherwise))
            case ast.Member():
                return ir.InTileSet(e.span, self._tile_valued(e.element), self._tileset(e.tileset))
        raise AssertionError(e)

    def _shape_side(self, compare: ast.Binary, side: ast.Expr) -> ir.Expr:
        """One side of a comparison; beside `shape`, a spec's own shape name is the shape even when a fan
        has the same name (fan 八仙過海 8: shape == 八仙過海)."""
        other = compare.right if side is compare.left else compare.left
        if (compare.op in ("==", "!=") and isinstance(other, ast.Ref) and other.name == "shape"
                and isinstance(side, ast.Ref) and side.name in self.r.shape_names):
            return ir.Const(side.span, side.name)
        return self.resolve(side)

    def _name(self, name: str, span: Span) -> ir.Expr:
        element = self.scope.element
        if element is not None:
            if name in ELEMENT_ATTRS[element]:
                return ir.Item(span, element, name)
            if element == "combo" and name in COMBO_ATTRS:
                raise error(f"write same({name}) or distinct({name}) to compare the sets of a combination", span)
            if element != "loser" and name in self.r.tilesets:
                return ir.ItemTileSet(span, element, name, every=True)
            if element == "group" and name in self.r.meld_kinds:
                return ir.Item(span, "group", name)
        for lookup in self._lookups():
            found = lookup(name, span)
            if found is not None:
                return found
        raise error(f"unknown name {name!r}", span, suggest(name, self._known_names()))

    def _lookups(self) -> list[Callable[[str, Span], ir.Expr | None]]:
        return [self._binding, self._settle_var, self._hand_var, self._context_var, self._option,
                self._pattern_ref, self._constant]

    def _binding(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "binding", name) if name in self.scope.bindings else None

    def _settle_var(self, name: str, span: Span) -> ir.Expr | None:
        if name not in SETTLE_VARS:
            return None
        if self.scope.kind == "hand":
            raise error(f"{name!r} is only known when settling (in `score:`, `settle:` or a loser fan)", span)
        if name == "loser_total" and self.scope.kind != "settle":
            raise error("'loser_total' is only known in `settle:`", span)
        return ir.Var(span, "settle", name)

    def _hand_var(self, name: str, span: Span) -> ir.Expr | None:
        if name in HAND_VARS:
            return ir.Var(span, "hand", name)
        if name in LATE_VARS:
            if self.scope.kind != "hand" or self.scope.element is not None:
                raise error(f"{name!r} is only known to a fan's own condition", span)
            return ir.Var(span, "late", name)
        if name in TILE_VALUED:
            return self._tile_valued(ast.Ref(span, name))
        return None

    def _context_var(self, name: str, span: Span) -> ir.Expr | None:
        key = next((k for k in self.r.context if k.name == name), None)
        if key is not None:
            return ir.Var(span, "flag" if not key.builtin else "context", name)
        if name in CONTEXT_KEYS:
            raise error(f"the spec does not read {name!r}: declare it with `context {name}`", span)
        return None

    def _option(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "option", name) if name in self.r.d.options else None

    def _pattern_ref(self, name: str, span: Span) -> ir.Expr | None:
        allowed = self.r.hand_names + (self.r.loser_names if self.scope.kind != "hand" else [])
        canonical = self.r.aliases.get(name, name)
        if canonical in allowed:
            return ir.PatternRef(span, canonical)
        if not self.r.hand_names and canonical in self.r.d.patterns:
            raise error(f"a top-level `let` cannot use the fan {name!r}: write its condition instead", span)
        if canonical in self.r.loser_names:
            raise error(f"{name!r} is a loser fan: hand fans and requirements cannot use it", span)
        return None

    def _constant(self, name: str, span: Span) -> ir.Expr | None:
        if name in SHAPES or name in WAITS or name in self.r.shape_names:
            return ir.Const(span, name)
        if name in ("true", "false"):
            return ir.Const(span, name == "true")
        if name in self.r.suit_codes:
            return ir.Const(span, name)
        return None

    def _known_names(self) -> list[str]:
        names = list(HAND_VARS) + [k.name for k in self.r.context] + list(self.r.d.options)
        names += self.r.hand_names + list(SHAPES) + list(self.r.shape_names) + list(WAITS) + list(self.scope.bindings)
        if self.scope.kind != "hand":
            names += self.r.loser_names + list(SETTLE_VARS)
        if self.scope.element:
            names += list(ELEMENT_ATTRS[self.scope.element])
            if self.scope.element != "loser":
                names += list(self.r.tilesets)
        return names

    def _tile_valued(self, e: ast.Expr) -> ir.Expr:
        if isinstance(e, ast.Ref) and e.name in TILE_VALUED:
            if e.name in CONTEXT_KEYS:
                self._require_context(e.name, e.span)
            return ir.TileOf(e.span, e.name)
        if isinstance(e, ast.Ref) and self.scope.element in ("group", "kind", "tile") and e.name == "tile":
            return ir.Item(e.span, self.scope.element, "tile")
        if isinstance(e, ast.Call) and e.function.text in ("next", "previous"):
            return self.resolve(e)
        raise error("expected a tile here: `win`, `seat_wind`, `round_wind`, `pair`, `tile`, next(...) or "
                    "previous(...)", e.span)

    def _require_context(self, name: str, span: Span) -> None:
        if not any(k.name == name for k in self.r.context):
            raise error(f"the spec does not read {name!r}: declare it with `context {name}`", span)

    def _tileset(self, name: ast.Name) -> str:
        if name.text not in self.r.tilesets:
            raise error(f"unknown tile set {name.text!r}", name.span, suggest(name.text, self.r.tilesets))
        return name.text

    def _attribute(self, e: ast.Attribute) -> ir.Expr:
        owner, attr = e.owner.text, e.attr.text
        if owner == "loser":
            if self.scope.kind == "hand":
                raise error("'loser' is only known when settling (in `settle:` or a loser fan)", e.owner.span)
            if attr not in LOSER_ATTRS:
                raise error(f"a loser has no {attr!r}", e.attr.span, suggest(attr, LOSER_ATTRS))
            return ir.LoserAttr(e.span, attr)
        if owner in TILE_VALUED:
            if attr not in TILE_ATTRS:
                raise error(f"a tile has no {attr!r}", e.attr.span, suggest(attr, TILE_ATTRS))
            return ir.TileAttr(e.span, self._tile_valued(ast.Ref(e.owner.span, owner)), attr)
        raise error(f"unknown name {owner!r}", e.owner.span, suggest(owner, ["loser", *TILE_VALUED]))

    def _call(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        if name == "contains":
            if self.scope.element not in ("group",) or len(e.args) != 1 or not isinstance(e.args[0], ast.Ref):
                raise error("contains(SET) is written inside count/all/any over groups", e.span)
            return ir.ItemTileSet(e.span, "group", self._tileset(ast.Name(e.args[0].name, e.args[0].span)),
                                  every=False)
        if name in AGGREGATES:
            return self._aggregate(e)
        if name == "combinations":
            return self._combinations(e)
        if name in ("same", "distinct"):
            return self._combo_same(e)
        if name in ("next", "previous"):
            if len(e.args) != 1:
                raise error(f"write {name}(TILE), e.g. {name}(win)", e.span)
            node = ir.NextTile if name == "next" else ir.PreviousTile
            return node(e.span, self._tile_valued(e.args[0]))
        if name == "indicated":
            return self._indicated(e)
        if name in FUNCTIONS:
            low, high = FUNCTIONS[name]
            if not low <= len(e.args) <= high:
                raise error(f"{name}() takes {low} to {high} arguments", e.span)
            if name == "roundup" and isinstance(e.args[1], ast.Number) and e.args[1].value <= 0:
                raise error("roundup(VALUE, STEP) rounds up to a multiple of a positive STEP", e.args[1].span)
            return ir.Call(e.span, name, tuple(self.resolve(a) for a in e.args))
        known = [*AGGREGATES, *FUNCTIONS, "contains", "combinations", "same", "distinct", "next", "previous",
                 "indicated"]
        raise error(f"unknown function {name!r}", e.function.span, suggest(name, known))

    def _combinations(self, e: ast.Call) -> ir.Expr:
        form = "write combinations(SOURCE, SIZE, CONDITION), e.g. combinations(chows, 3, same(suit) and step == 3)"
        if len(e.args) != 3:
            raise error(form, e.span)
        source, size, condition = e.args
        if not isinstance(source, ast.Ref) or source.name not in GROUP_SOURCES:
            raise error("combinations are taken from " + ", ".join(GROUP_SOURCES), source.span,
                        suggest(source.name, GROUP_SOURCES) if isinstance(source, ast.Ref) else None)
        if not isinstance(size, ast.Number) or not 2 <= size.value <= 4:
            raise error("the size of a combination is 2, 3 or 4", size.span)
        inner = Scope(self.scope.kind, "combo", self.scope.bindings)
        body = ExprResolver(self.r, inner).resolve(condition)
        return ir.Combinations(e.span, source.name, size.value, body)

    def _indicated(self, e: ast.Call) -> ir.Expr:
        keys = [k.name for k in self.r.context if k.kind == "tiles"]
        if len(e.args) != 1 or not isinstance(e.args[0], ast.Ref) or e.args[0].name not in CONTEXT_KEYS:
            raise error("write indicated(KEY) with a context key of indicator tiles, e.g. indicated(dora)", e.span)
        key = e.args[0].name
        if key not in keys:
            if CONTEXT_KEYS[key][0] != "tiles":
                raise error(f"{key!r} is not a list of indicator tiles", e.args[0].span)
            raise error(f"the spec does not read {key!r}: declare it with `context {key}`", e.args[0].span)
        return ir.Indicated(e.span, key)

    def _combo_same(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        if self.scope.element != "combo":
            raise error(f"{name}(...) is written inside combinations(...)", e.span)
        if len(e.args) != 1 or not isinstance(e.args[0], ast.Ref) or e.args[0].name not in COMBO_ATTRS:
            raise error(f"write {name}(suit), {name}(rank) or {name}(tile)", e.span)
        return ir.ComboSame(e.span, e.args[0].name, distinct=name == "distinct")

    def _aggregate(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        low, high = AGGREGATES[name]
        if not low <= len(e.args) <= high:
            form = f"{name}(SOURCE)" if high == 1 else f"{name}(SOURCE, CONDITION)"
            raise error(f"write {form}" if low == high else f"write {name}(SOURCE) or {name}(SOURCE, CONDITION)",
                        e.span)
        source = e.args[0]
        if not isinstance(source, ast.Ref) or source.name not in SOURCES:
            raise error("the first argument is what to look at: " + ", ".join(SOURCES), source.span,
                        suggest(source.name, SOURCES) if isinstance(source, ast.Ref) else None)
        if source.name in vocabulary.SETTLE_SOURCES and self.scope.kind == "hand":
            raise error(f"{source.name!r} is only known when settling (in `settle:` or a loser fan)", source.span)
        if source.name == "loser_melds" and self.scope.element == "loser":
            raise error("'loser_melds' are the melds of the loser being settled, not of each loser", source.span)
        inner = Scope(self.scope.kind, SOURCES[source.name], self.scope.bindings)
        body = ExprResolver(self.r, inner).resolve(e.args[1]) if len(e.args) > 1 else None
        return ir.Aggregate(e.span, name, source.name, body)

@dataclass(frozen=True)
class TileTerms:
    """A tile expression being resolved: (tiles | indicated tiles) - removed (see ir.TileSet)."""

    tiles: frozenset[int]
    indicated: tuple[tuple[str, int], ...] = ()
    removed: frozenset[int] = frozenset()


_CHINESE_RANKS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")


# ---------------------------------------------------------------- analysis


def example_comments(lines: Iterable[str]) -> str | None:
    """The `#` comments of a worked example, joined into one text: they explain how its result comes about.

    A `#` inside a quoted string is text, not a comment; a line of `#` marks alone is a rule, not a comment.
    """
    found: list[str] = []
    in_long_string = False
    for line in lines:
        quote: str | None = None
        i = 0
        while i < len(line):
            if line.startswith('"""', i):
                in_long_string = not in_long_string
                i += 3
                continue
            char = line[i]
            if in_long_string:
                pass
            elif quote is not None:
                if char == "\\":
                    i += 1
                elif char == quote:
                    quote = None
            elif char == '"':
                quote = char
            elif char == "#":
                text = line[i + 1:].strip()
                if text.strip("#-= "):
                    found.append(text)
                break
            i += 1
    return " ".join(found) or None



def _references(expr: ir.Expr | None) -> set[str]:
    """Names of the patterns an expression refers to."""
    return {e.name for e in ir.walk(expr) if isinstance(e, ir.PatternRef)}


def _dependency_order(patterns: list[ir.Pattern]) -> list[ir.Pattern]:
    """Patterns ordered so that each comes after those it refers to; a cycle is an error."""
    by_name = {p.name: p for p in patterns}
    ordered: list[ir.Pattern] = []
    state: dict[str, str] = {}

    def visit(p: ir.Pattern, path: tuple[str, ...]) -> None:
        if state.get(p.name) == "done":
            return
        if state.get(p.name) == "visiting":
            cycle = " -> ".join(path[path.index(p.name):] + (p.name,))
            raise error(f"fans refer to each other in a circle: {cycle}", p.span)
        state[p.name] = "visiting"
        for name in sorted(_references(p.condition) | _references(p.value.expr)):
            if name in by_name:
                visit(by_name[name], path + (p.name,))
        state[p.name] = "done"
        ordered.append(p)

    for pattern in patterns:
        visit(pattern, ())
    return ordered


def _check_late_patterns(patterns: list[ir.Pattern]) -> None:
    """A fan scored last (it reads `counted_fans`) cannot be used by another fan, nor exclude one."""
    late = {p.name for p in patterns if p.late}
    for p in patterns:
        for node in (*ir.walk(p.condition), *ir.walk(p.value.expr)):
            if isinstance(node, ir.PatternRef) and node.name in late:
                raise error(f"{node.name!r} is scored after the other fans (it reads counted_fans): "
                            "no fan can depend on it", node.span)
        if p.late and p.excludes:
            raise error(f"{p.name!r} is scored after the other fans; it cannot exclude any", p.excludes[0].span)


def _conjuncts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def warnings(spec: ir.Spec) -> list[Diagnostic]:
    """Legal but suspicious: a fan that can never count, a tile set nobody uses."""
    found: list[Diagnostic] = []
    excluders: dict[str, list[str]] = {}
    for p in spec.patterns + spec.loser_patterns:
        for exclusion in p.excludes:
            if exclusion.times is None:
                excluders.setdefault(exclusion.target, []).append(p.name)
    for group in spec.exclusive_groups:
        for member in group.members:
            for other in group.members:
                if other != member and _outranks(spec.pattern(other), spec.pattern(member)):
                    excluders.setdefault(member, []).append(other)
    for p in spec.patterns + spec.loser_patterns:
        implied = {c.name for c in _conjuncts(p.condition) if isinstance(c, ir.PatternRef)}
        for excluder in excluders.get(p.name, []):
            if excluder in implied:
                found.append(Diagnostic(
                    "warning", f"fan {p.name!r} is always excluded: it requires {excluder!r}, which excludes it",
                    p.span))
    used = set()
    for p in spec.patterns + spec.loser_patterns:
        used |= _tilesets_used(p.condition) | _tilesets_used(p.value.expr)
    for r in spec.requirements:
        used |= _tilesets_used(r.condition)
    for ts in spec.tilesets:
        if ts.span is not None and ts.name not in used and ts.span.source.path == spec.path:
            found.append(Diagnostic("warning", f"tile set {ts.name!r} is never used", ts.span))
    return found


def _outranks(a: ir.Pattern, b: ir.Pattern) -> bool:
    """Within an exclusive group, a is preferred to b (higher fixed value, then earlier)."""
    va, vb = a.value.amount or 0, b.value.amount or 0
    return (va, -a.order) > (vb, -b.order)


def _tilesets_used(expr: ir.Expr | None) -> set[str]:
    return {e.tileset for e in ir.walk(expr) if isinstance(e, ir.ItemTileSet | ir.InTileSet)}
