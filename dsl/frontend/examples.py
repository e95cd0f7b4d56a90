"""Worked examples -> IR: each `example` as the case the checker is given and what it must answer, with the
comments that explain it."""

from __future__ import annotations

from collections.abc import Iterable

from dsl.frontend import ast, ir
from dsl.frontend.expressions import Names
from dsl.frontend.presets import example_options
from dsl.frontend.source import error
from dsl.notation import HandError, parse_tiles


def example(names: Names, e: ast.Example) -> ir.Example:
    case: dict[str, object] = {}
    if e.hand is not None:
        case["hand"] = e.hand
    if e.win is not None:
        case["win"] = e.win
    if e.melds:
        case["melds"] = tuple(f"{m.kind} {m.tiles}" for m in e.melds)
    if e.others:
        seats = distinct_seats(names, [seat for seat, _ in e.others], "its melds given")
        case["other_melds"] = tuple((str(seat), tuple(f"{m.kind} {m.tiles}" for m in melds))
                                    for seat, (_, melds) in zip(seats, e.others, strict=True))
    for name, value in e.context:
        case[name.text] = value
    options = example_options(names.d, e.preset, e.options)
    if options:
        case["options"] = tuple(sorted(options.items()))
    all_names = list(names.d.patterns)
    fans = None
    if e.fans is not None:
        fans = tuple(ir.ExpectedFan(names.pattern_name(f.name, all_names), f.value, f.count) for f in e.fans)
    return ir.Example(e.title, tuple(sorted(case.items())), fans, e.total, e.no_win, e.error,
                      amounts(names, e.payments), e.doc, e.span, example_comments(e.lines),
                      e.preset.text if e.preset else None, _reading(names, e.reading))


def _reading(names: Names, reading: ast.Reading | None) -> tuple[str, ...] | None:
    """The groups of a `reading` line, each naming tiles of the spec."""
    if reading is None:
        return None
    codes = names.declared.codes
    for group in reading.groups:
        try:
            parse_tiles(group.strip("[]*"), codes)
        except HandError as exc:
            raise error(f"reading: {exc}", reading.span) from None
    return reading.groups


def seat_number(names: Names, seat: ast.Seat) -> int:
    """A seat written in an example or a worked round, one of the table's (the grammar writes no sign)."""
    players = names.d.players
    if seat.number >= players:
        raise error(f"seat {seat.number}: a table of {players} has the seats 0 to {players - 1}", seat.span)
    return seat.number


def distinct_seats(names: Names, seats: Iterable[ast.Seat], what: str) -> list[int]:
    """Seats that may each be named once (`other` lines, a draw's final hands): a second would replace the first."""
    numbers: list[int] = []
    for seat in seats:
        number = seat_number(names, seat)
        if number in numbers:
            raise error(f"seat {number} has {what} already", seat.span)
        numbers.append(number)
    return numbers


def amounts(names: Names, payments: ast.Payments | None) -> tuple[int, ...] | None:
    """A `payments` or `total` line: one amount for each seat of the table."""
    if payments is None:
        return None
    players = names.d.players
    if len(payments.amounts) != players:
        raise error(f"{len(payments.amounts)} amounts for a table of {players}: one for each seat, in seat order",
                    payments.span)
    return payments.amounts



def example_comments(lines: Iterable[str]) -> str | None:
    """The `#` comments of a worked example, joined into one text: they explain how its result comes about.

    A `#` inside a quoted string is text, not a comment; a line of `#` marks alone is a rule, and a line opening
    with a rule (`# ---- 64 fan`) heads a section of the spec: neither explains the example.
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
                if text.strip("#-= ") and not text.startswith(("----", "====")):
                    found.append(text)
                break
            i += 1
    return " ".join(found) or None
