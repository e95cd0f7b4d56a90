"""The compact results of `score_many` (docs/interface.md): arrays of 64-bit integers instead of a result dict
per case. The compiled runtime and the interpreter both return a Scores, and both turn a result of
`evaluate` into its compact form with `compact`, so a case reads the same whichever checker scored it.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

INT64 = range(-(2 ** 63), 2 ** 63)


class Compact(NamedTuple):
    """One result in compact form: status (1 winning, 0 not), total, and its counted fans as
    (index into fan_names, count, value)."""

    status: int
    total: int
    fans: list[tuple[int, int, int]]


class Scores:
    """Results of score_many in arrays: status[i] (1 winning, 0 not, -1 no compact result), total[i], and
    the fans of case i at fans[offsets[i]:offsets[i + 1]] with counts and values at the same places.
    A case with status -1 has its error message in errors[i]."""

    __slots__ = ("fan_names", "status", "total", "offsets", "fans", "counts", "values", "errors")

    def __init__(self, fan_names: tuple[str, ...], status: array, total: array, offsets: array, fans: array,
                 counts: array, values: array, errors: dict[int, str]):
        self.fan_names = fan_names
        self.status = status
        self.total = total
        self.offsets = offsets
        self.fans = fans
        self.counts = counts
        self.values = values
        self.errors = errors

    def __len__(self) -> int:
        return len(self.status)

    def fans_of(self, i: int) -> list[tuple[str, int, int]]:
        """The counted fans of case i as (name, value, count) tuples, in declaration order."""
        return [(self.fan_names[self.fans[j]], self.values[j], self.counts[j])
                for j in range(self.offsets[i], self.offsets[i + 1])]

    def error_of(self, i: int) -> str | None:
        """Why case i has no compact result (status -1), None when it has one."""
        return self.errors.get(i)


def compact(result: Mapping, fan_names: Sequence[str]) -> Compact | str:
    """A result of evaluate in compact form, or the message of an error entry: the case's own error, or why
    the arrays cannot hold its result (a total, fan value or count beyond 64 bits)."""
    if not result["ok"]:
        return result["error"]
    try:
        total = _int64("the total", result.get("total", 0))
        fans = [(fan_names.index(fan["name"]), _int64(f"the count of {fan['name']}", fan["count"]),
                 _int64(f"the value of {fan['name']}", fan["value"])) for fan in result.get("fans", ())]
        return Compact(int(bool(result["winning"])), total, fans)
    except BeyondArraysError as exc:
        return f"{exc}: score_many holds 64-bit integers; evaluate gives the exact result"


class BeyondArraysError(ValueError):
    """A number of a result that the arrays of Scores cannot hold."""


def _int64(what: str, number: int) -> int:
    """The number when it is within 64 bits, else BeyondArraysError saying what it is (results are whole numbers:
    dsl.frontend.typecheck)."""
    if number not in INT64:
        raise BeyondArraysError(f"{what} is {number}, beyond 64 bits")
    return number


def scores_of(results: Iterable[Mapping], fan_names: tuple[str, ...]) -> Scores:
    """The Scores of a sequence of evaluate results (the interpreter's score_many)."""
    status, totals, offsets = array("b"), array("q"), array("q", [0])
    fans, counts, values = array("h"), array("q"), array("q")
    errors: dict[int, str] = {}
    for i, result in enumerate(results):
        kept = compact(result, fan_names)
        if isinstance(kept, str):
            errors[i] = kept
            kept = Compact(-1, 0, [])
        status.append(kept.status)
        totals.append(kept.total)
        for fan, count, value in kept.fans:
            fans.append(fan)
            counts.append(count)
            values.append(value)
        offsets.append(len(fans))
    return Scores(fan_names, status, totals, offsets, fans, counts, values, errors)
