"""Encoded cases (docs/interface.md, "Encoded cases"): many cases as a few arrays, for `score_many`.

The columns are the spec's own, in its order: one `counts` column per tile, one `context` column per key that
holds one number (flags, counts, seats, winds, whole numbers), one `indicators` row per key that holds tiles,
and the meld kinds numbered in their order. The compiled checkers read plainly valid encoded cases in C; any
other encoded case, and every one the interpreter scores, is decoded here into the case dict it stands for,
so that it is judged, refused or scored as that case.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dsl.frontend import ir
from dsl.notation import parse_tiles
from dsl.vocabulary import WINDS

SCALAR_KINDS = ("flag", "count", "seat", "wind", "int")
LEFT_OUT_KINDS = ("seat", "wind")  # a value below 0 leaves the key out (its default applies)
ARRAYS = ("counts", "win", "melds", "context", "indicators")


@dataclass(frozen=True)
class Columns:
    """What the columns of a spec's encoded cases stand for."""

    context: tuple[ir.ContextKey, ...]
    indicators: tuple[str, ...]
    melds: tuple[ir.MeldKind, ...]

    @classmethod
    def of(cls, spec: ir.Spec) -> Columns:
        return cls(tuple(k for k in spec.context if k.kind in SCALAR_KINDS),
                   tuple(k.name for k in spec.context if k.kind == "tiles"), spec.meld_kinds)


def decode(spec: ir.Spec, arrays: Mapping[str, Any], i: int) -> dict[str, object]:
    """Encoded case i as the case dict it stands for (each array anything memoryview takes)."""
    columns = Columns.of(spec)
    codes = [t.code for t in spec.tiles]
    views = {name: memoryview(array) for name, array in arrays.items() if array is not None}
    counts = views["counts"]
    case: dict[str, object] = {"hand": "".join(code * counts[i, k] for k, code in enumerate(codes)),
                               "win": _code(codes, views["win"][i])}
    meld_rows = views["melds"].shape[1] if "melds" in views else 0
    melds = [_meld(columns.melds, codes, views["melds"][i, m, 0], views["melds"][i, m, 1])
             for m in range(meld_rows) if views["melds"][i, m, 0] >= 0]
    if melds:
        case["melds"] = melds
    for column, key in enumerate(columns.context if "context" in views else ()):
        value = views["context"][i, column]
        if key.kind in LEFT_OUT_KINDS and value < 0:
            continue
        case[key.name] = _context_value(key, value)
    length = views["indicators"].shape[2] if "indicators" in views else 0
    for row, name in enumerate(columns.indicators if "indicators" in views else ()):
        shown = [views["indicators"][i, row, k] for k in range(length)]
        shown = shown[:shown.index(-1)] if -1 in shown else shown  # -1 ends the row
        case[name] = "".join(_code(codes, tile) for tile in shown)
    return case


def decode_all(spec: ir.Spec, arrays: Mapping[str, Any]) -> list[dict[str, object]]:
    """Every encoded case as a case dict, once the arrays are checked to be what they must be."""
    columns = Columns.of(spec)
    check_shapes(len(spec.tiles), len(columns.context), len(columns.indicators), arrays)
    return [decode(spec, arrays, i) for i in range(memoryview(arrays["counts"]).shape[0])]


def check_shapes(tiles: int, context: int, indicators: int, arrays: Mapping[str, Any]) -> None:
    """A ValueError naming the array that is missing, unknown or of the wrong shape, for a spec of so many tiles,
    context columns and indicator keys (both back ends check their arrays here)."""
    unknown = sorted(set(arrays) - set(ARRAYS))
    if unknown:
        raise ValueError(f"encoded cases have no array {unknown[0]!r}: " + ", ".join(ARRAYS))
    shapes = {name: memoryview(array).shape for name, array in arrays.items() if array is not None}
    missing = [name for name in ("counts", "win") if name not in shapes]
    if missing:
        raise ValueError(f"encoded cases need the array {missing[0]!r} (an empty batch is an empty list of cases)")
    n = shapes["counts"][0]
    if shapes["counts"] != (n, tiles) or shapes["win"] != (n,):
        raise ValueError(f"encoded cases: 'counts' is {n} x {tiles} (one column per tile) and 'win' has {n} entries")
    if "melds" in shapes and (len(shapes["melds"]) != 3 or shapes["melds"][0] != n or shapes["melds"][2] != 2):
        raise ValueError(f"encoded cases: 'melds' is {n} x M x 2 (meld kind, tile)")
    widths = {"context": context, "indicators": indicators}
    for name, width in widths.items():
        if name in shapes and shapes[name][:2] != (n, width):
            raise ValueError(f"encoded cases: {name!r} has {n} rows of {width}")


def _code(codes: list[str], tile: int) -> str:
    """A tile's code; a number that is no tile stays a number, which the case reader refuses by name."""
    return codes[tile] if 0 <= tile < len(codes) else str(tile)


def _meld(kinds: tuple[ir.MeldKind, ...], codes: list[str], kind: int, tile: int) -> str:
    """`KIND TILES`: a chow from its lowest tile, a pung or kong of its tile, a kind of fixed tiles as they are,
    a one-tile kind of its tile."""
    if kind >= len(kinds):
        return f"{kind} {_code(codes, tile)}"
    meld = kinds[kind]
    tiles = {"chow": [tile, tile + 1, tile + 2], "pung": [tile] * 3, "kong": [tile] * 4,
             "fixed": list(meld.tiles)}.get(meld.shape, [tile])
    return f"{meld.name} " + "".join(_code(codes, t) for t in tiles)


def _context_value(key: ir.ContextKey, value: int) -> object:
    if key.kind == "flag" and value in (0, 1):
        return bool(value)
    if key.kind == "wind" and 0 <= value < len(WINDS):
        return WINDS[value]
    return value


def encode(spec: ir.Spec, cases: list[dict[str, Any]], indicator_length: int = 5) -> dict[str, memoryview]:
    """Case dicts as encoded cases, each array a memoryview of C-contiguous memory (no NumPy needed), with as
    many meld columns as the case with most melds has. A ValueError names the first case the arrays cannot
    state: red fives, options, `other_melds`, `out`, a value not of its key's type, tiles not written
    plainly, more than `indicator_length` indicator tiles."""
    columns = Columns.of(spec)
    meld_columns = max((len(c.get("melds", ())) for c in cases if isinstance(c.get("melds", ()), list)), default=0)
    index = {t.code: t.index for t in spec.tiles}
    kinds = {k.name: number for number, k in enumerate(columns.melds)}
    n, width = len(cases), len(index)
    counts, win = array("B", bytes(n * width)), array("h", bytes(2 * n))
    melds = array("h", [-1]) * (n * meld_columns * 2)
    context = array("q", bytes(8 * n * len(columns.context)))
    indicators = array("h", [-1]) * (n * len(columns.indicators) * indicator_length)
    for i, case in enumerate(cases):
        try:
            _encode_case(columns, index, kinds, case, i, (counts, win, melds, context, indicators),
                         (meld_columns, indicator_length))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ValueError(f"case {i} cannot be encoded ({exc}): give it as a dict") from None
    shaped = {"counts": (counts, (n, width)), "win": (win, (n,)), "melds": (melds, (n, meld_columns, 2)),
              "context": (context, (n, len(columns.context))),
              "indicators": (indicators, (n, len(columns.indicators), indicator_length))}
    # an array of no cells is left out (a view cannot take such a shape); its cases have nothing there
    return {name: memoryview(data).cast("B").cast(data.typecode, shape)
            for name, (data, shape) in shaped.items() if all(shape)}


def _encode_case(columns: Columns, index: dict[str, int], kinds: dict[str, int], case: dict[str, Any], i: int,
                 arrays: tuple[array, ...], sizes: tuple[int, int]) -> None:
    counts, win, melds, context, indicators = arrays
    meld_columns, length = sizes
    known = {"hand", "win", "melds", *(k.name for k in columns.context), *columns.indicators}
    if set(case) - known:
        raise ValueError(f"key {sorted(set(case) - known)[0]!r}")
    width = len(index)
    for tile in _tiles(case["hand"], index):
        counts[i * width + tile] += 1
    (win[i],) = _tiles(case["win"], index)
    codes = list(index)
    if not isinstance(case.get("melds", []), list):
        raise TypeError("'melds' is not a list")
    for m, meld in enumerate(case.get("melds", [])):
        kind, text = meld.split()
        tile = min(_tiles(text, index))
        stated = _meld(columns.melds, codes, kinds[kind], tile).split()[1]
        if sorted(_tiles(stated, index)) != sorted(_tiles(text, index)):
            raise ValueError(f"{meld!r} is not the tiles of a {kind}")
        melds[(i * meld_columns + m) * 2:(i * meld_columns + m) * 2 + 2] = array("h", [kinds[kind], tile])
    for column, key in enumerate(columns.context):
        value = case.get(key.name, -1 if key.kind in LEFT_OUT_KINDS else key.low)
        if key.kind == "wind" and key.name in case:
            value = WINDS.index(value)
        elif type(value) not in (bool, int):
            raise TypeError(f"{key.name!r} {value!r}")
        context[i * len(columns.context) + column] = int(value)
    for row, name in enumerate(columns.indicators):
        tiles = _tiles(case.get(name, ""), index)
        if len(tiles) > length:
            raise ValueError(f"{name!r} has more than {length} tiles")
        for k, tile in enumerate(tiles):
            indicators[(i * len(columns.indicators) + row) * length + k] = tile


def _tiles(text: str, index: dict[str, int]) -> list[int]:
    """The tiles of an mpsz string written plainly (no spaces); a red five (`0m`) has no tile here."""
    if isinstance(text, str) and " " in text:
        raise ValueError(f"{text!r} is not tiles written plainly")
    return parse_tiles(text, index)
