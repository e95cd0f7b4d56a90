"""What a spec declares, checked, before any expression: tiles and suits, red fives, the order of honors, tile sets
and wilds, meld kinds, shapes, context keys, options and the aliases of fans; then its unit and cap."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dsl.frontend import ast, ir
from dsl.frontend.builtin_names import (
    ALWAYS_ACCEPTED,
    BUILTIN_MELDS,
    CONTEXT_KEYS,
    COPIES,
    LANGUAGES,
    SHAPES,
    UNIT_ENGLISH,
    WAITS,
)
from dsl.frontend.extends import Declarations, bounded
from dsl.frontend.source import Span, error, suggest
from dsl.notation import HandError, parse_tiles

_CHINESE_RANKS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九")


@dataclass(frozen=True)
class TileTerms:
    """A tile expression being resolved: (tiles | indicated tiles) - removed (see ir.TileSet)."""

    tiles: frozenset[int]
    indicated: tuple[tuple[str, int], ...] = ()
    removed: frozenset[int] = frozenset()


class Declared:
    """A spec's declarations, checked in order (each may name the ones before it): what expressions resolve
    against."""

    def __init__(self, d: Declarations):
        self.d = d
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
        self.options = tuple(ir.Option(o.name.text, o.description, o.default, o.span, o.english)
                             for o in d.options.values())
        self.aliases = self._aliases()

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
                seats = _flower_seats(group)
                for rank, (named, seat) in enumerate(zip(group.tiles, seats, strict=True), start=1):
                    tiles.append(ir.Tile(len(tiles), f"{rank}{code}", code, rank, named.name.text,
                                         named.english or named.name.text, named.copies or group.copies,
                                         numbered=False, seat=seat))
            for tile in tiles[start:]:
                bounded(tile.copies, COPIES, f"a tile has {COPIES.start} to {COPIES.stop - 1} copies", group.span)
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


def unit_and_cap(d: Declarations) -> dict[str, object]:
    """The ir.Spec fields of the spec's unit, language and cap."""
    unit, cap = d.unit, d.cap
    fields: dict[str, object] = {}
    if unit is not None:
        fields["unit"] = unit.name.text
        fields["unit_english"] = unit.english or UNIT_ENGLISH.get(unit.name.text)
    if d.language is not None:
        if d.language.tag not in LANGUAGES:
            raise error(f"language {d.language.tag!r} is not one of " + ", ".join(LANGUAGES), d.language.span)
        fields["language"] = d.language.tag
    if cap is not None:
        if cap.amount <= 0:
            raise error("a cap is a positive number", cap.span)
        fields["cap"] = cap.amount
        fields["cap_description"] = cap.description
        fields["cap_unless_more"] = cap.unless_more
    return fields


def _flower_seats(group: ast.HonorGroup) -> tuple[int, ...]:
    """The seat of each tile of a group: `seats ...` of flowers, one seat 1..4 a tile; 0 for tiles without."""
    if group.seats is None:
        return (0,) * len(group.tiles)
    if group.kind != "flowers":
        raise error("only flowers name their seats", group.seats.span)
    if len(group.seats.seats) != len(group.tiles):
        raise error(f"{len(group.seats.seats)} seats for {len(group.tiles)} flowers: write one seat a flower",
                    group.seats.span)
    if not all(1 <= seat <= 4 for seat in group.seats.seats):
        raise error("a flower's seat is 1, 2, 3 or 4 (東 南 西 北)", group.seats.span)
    return group.seats.seats

