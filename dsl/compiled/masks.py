"""Conditions on the sets and pairs of a decomposition as tile masks.

`count(pungs, 箭牌)` need not look at each group: the runtime keeps, per decomposition, the tiles its chows
start on, its pungs (kongs included), its kongs and its pairs hold, in layers (a tile in layer k has more
than k such groups), and the condition becomes the mask of the tiles a group of that kind may start on for it
to hold. A condition that reads anything but the group's tiles (declared, concealed, the winning tile's
group, ...) has no mask and keeps its loop.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from dsl.compiled.tables import Tables
from dsl.frontend import ir

# source -> (its row of Ctx.group_tiles, its layers): copies of a tile bound how many groups of a kind it
# starts (4 copies: 4 chows, 2 pairs, 1 pung or kong)
SOURCES = {"chows": (0, 4), "pungs": (1, 1), "kongs": (2, 1), "pairs": (3, 2)}
MAX_COPIES = 4
KIND_TESTS = {  # per source: which of `chow`, `pung`, `kong`, `pair` its every group is (None: it depends)
    "chows": {"chow": True, "pung": False, "kong": False, "pair": False},
    "pungs": {"chow": False, "pung": True, "kong": None, "pair": False},
    "kongs": {"chow": False, "pung": True, "kong": True, "pair": False},
    "pairs": {"chow": False, "pung": False, "kong": False, "pair": True},
}
COMPARE: dict[str, Callable[[object, object], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
TILE_VALUED = {"win": "c.win", "pair": "pair_tile(c)", "seat_wind": "wind_tile(c, c.h.seat_wind)",
               "round_wind": "wind_tile(c, c.h.round_wind)"}


def usable(spec: ir.Spec, source: str) -> bool:
    """The layers hold every group of the source: no wild tiles (a wild may stand for a tile a fifth time, and
    a pung of wilds beside a pung of the tile it stands for starts a second pung on that tile), and at most
    four copies of a tile."""
    return source in SOURCES and not spec.wilds and all(t.copies <= MAX_COPIES for t in spec.tiles)


def aggregate(function: str, source: str, mask: str) -> str:
    """count/any/all over a source's groups whose start tiles are in `mask` (a C expression)."""
    row, layers = SOURCES[source]
    if function == "any":
        return f"((c.group_tiles[{row}][0] & {mask}) != 0)"
    if function == "all":
        return f"((c.group_tiles[{row}][0] & ~{mask}) == 0)"
    return f"groups_in(c.group_tiles[{row}], {layers}, {mask})"


class GroupMasks:
    """The mask of a condition on one group of a source, as a C expression, or None when it has none."""

    def __init__(self, spec: ir.Spec, tables: Tables):
        self.spec = spec
        self.tables = tables
        self.everything = tables.all_tiles()
        self.starts = [t.index for t, start in zip(spec.tiles, tables.chow_starts(), strict=True) if start]

    def mask(self, body: ir.Expr | None, source: str) -> str | None:
        if body is None:
            return "ALL_TILES"
        found = self._mask(body, source)
        if found is None or not isinstance(found, int):
            return found
        named = {**{ts.tiles: ts.c_name for ts in reversed(self.tables.tilesets)}, self.everything: "ALL_TILES"}
        return named.get(found, f"0x{found:x}ULL")  # a spec's tile set by its name where it is one

    def _mask(self, e: ir.Expr, source: str) -> int | str | None:
        """An int when the mask is known now, a C expression when it depends on the hand, None when none."""
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            left, right = self._mask(e.left, source), self._mask(e.right, source)
            if left is None or right is None:
                return None
            if isinstance(left, int) and isinstance(right, int):
                return left & right if e.op == "and" else left | right
            return f"({self._c(left)} {'&' if e.op == 'and' else '|'} {self._c(right)})"
        if isinstance(e, ir.Not):
            inner = self._mask(e.operand, source)
            if inner is None:
                return None
            return self.everything & ~inner if isinstance(inner, int) else f"(ALL_TILES & ~{inner})"
        if isinstance(e, ir.ItemTileSet) and e.element == "group":
            tiles = self._fixed_set(e.tileset)
            return None if tiles is None else self._in_set(tiles, e.every, source)
        if isinstance(e, ir.Item) and e.element == "group":
            return self._attribute(e.name, source)
        if isinstance(e, ir.Binary) and e.op in COMPARE:
            return self._comparison(e, source)
        return None

    def _fixed_set(self, name: str) -> frozenset[int] | None:
        """A tile set's tiles, None for one chosen per hand (by indicators): known only as the hand is read."""
        if any(h.name == name for h in self.spec.per_hand_tilesets()):
            return None
        return frozenset(next(ts for ts in self.spec.tilesets if ts.name == name).tiles)

    def _c(self, mask: int | str) -> str:
        return f"0x{mask:x}ULL" if isinstance(mask, int) else mask

    def _held(self, source: str, holds: Callable[[int], bool]) -> int:
        """The start tiles of the source's groups for which `holds(tile)` on the group's lowest tile."""
        candidates = self.starts if source == "chows" else range(len(self.spec.tiles))
        return sum(1 << t for t in candidates if holds(t))

    def _in_set(self, tiles: frozenset[int], every: bool, source: str) -> int:
        if source != "chows":
            return self._held(source, lambda t: t in tiles)
        test = all if every else any
        return self._held(source, lambda t: test(t + k in tiles for k in range(3)))

    def _attribute(self, name: str, source: str) -> int | None:
        kinds = KIND_TESTS[source]
        if name in kinds:
            return None if kinds[name] is None else (self.everything if kinds[name] else 0)
        tiles = self.spec.tiles
        if name == "numbered":
            return self._held(source, lambda t: tiles[t].numbered)
        if name == "honor":
            return self._held(source, lambda t: source != "chows" and not tiles[t].numbered)
        return None

    def _comparison(self, e: ir.Binary, source: str) -> int | str | None:
        """rank or suit against a constant; the group's tile (equal or not) against a tile of the hand."""
        item, other, op = e.left, e.right, e.op
        if not isinstance(item, ir.Item):
            item, other = other, item
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        if not (isinstance(item, ir.Item) and item.element == "group"):
            return None
        tiles = self.spec.tiles
        if item.name in ("rank", "suit") and isinstance(other, ir.Const) and not isinstance(other.value, bool):
            compare = COMPARE[op]
            return self._held(source, lambda t: _comparable(getattr(tiles[t], item.name), other.value)
                              and compare(getattr(tiles[t], item.name), other.value))
        if item.name == "tile" and isinstance(other, ir.TileOf) and other.name in TILE_VALUED and op in ("==", "!="):
            bit = f"tile_bit({TILE_VALUED[other.name]})"
            return bit if op == "==" else f"(ALL_TILES & ~{bit})"
        return None


def _comparable(a: object, b: object) -> bool:
    return isinstance(a, int) == isinstance(b, int)
