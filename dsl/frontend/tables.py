"""`table(KEY: 0 -> 1, 1 -> 2, 2..3 -> 4, else 8)` -> ir.Table: every key and value a whole number written with
numbers alone, the keys in increasing order without overlap, one `else` at the end, and the keys from the lowest
to the highest at most MAX_TABLE_KEYS apart (the compiled checker holds them in one array)."""

from __future__ import annotations

from collections.abc import Callable

from dsl.frontend import arithmetic, ast, ir
from dsl.frontend.source import error

MAX_TABLE_KEYS = 4096  # a schedule by fan, points or hands played needs a few dozen


def table(e: ast.Table, resolve: Callable[[ast.Expr], ir.Expr]) -> ir.Table:
    """The table of `e`, its key and numbers resolved by `resolve`."""
    *entries, last = e.entries
    for entry in entries:
        if entry.low is None:
            raise error("`else` is the last entry of a table", entry.span)
    if last.low is not None:
        raise error("a table ends with `else VALUE`: the value of every other key", last.span,
                    "add `else 0` if no other key can occur")
    rows = tuple(_row(entry, resolve) for entry in entries)
    for before, row, entry in zip(rows, rows[1:], entries[1:], strict=False):
        if row[0] <= before[1]:
            raise error(f"key {row[0]} is not above key {before[1]} of the entry before it: write the keys of a "
                        "table once each, in increasing order", entry.span)
    if rows and rows[-1][1] - rows[0][0] >= MAX_TABLE_KEYS:
        raise error(f"the keys of a table run from {rows[0][0]} to {rows[-1][1]}, more than {MAX_TABLE_KEYS:,} "
                    "apart", e.span, "cover the largest keys with `else`")
    return ir.Table(e.span, resolve(e.key), rows, _whole(resolve(last.value), "the value of `else`"))


def _row(entry: ast.TableEntry, resolve: Callable[[ast.Expr], ir.Expr]) -> tuple[int, int, int]:
    low = _whole(resolve(entry.low), "a key of a table")  # type: ignore[arg-type]
    high = low if entry.high is None else _whole(resolve(entry.high), "the end of a range of keys")
    if high < low:
        raise error(f"the range {low}..{high} runs backwards: write {high}..{low}", entry.span)
    return low, high, _whole(resolve(entry.value), "a value of a table")


def _whole(e: ir.Expr, what: str) -> int:
    """The whole number an expression of numbers alone has, within the bounds of dsl.frontend.arithmetic."""
    value = arithmetic.constant(e)
    if value is None:
        raise error(f"{what} is a whole number written with numbers alone", e.span)
    if not isinstance(value, int):
        raise error(f"{what} is a whole number, not {value}", e.span)
    if not arithmetic.fits(value):
        raise error(f"{what} is beyond {arithmetic.MAX_VALUE_BITS} bits, the bound on every number a spec computes",
                    e.span)
    return value
