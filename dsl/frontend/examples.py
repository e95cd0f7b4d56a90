"""Worked examples -> IR: each `example` as the case the checker is given and what it must answer, with the
comments that explain it."""

from __future__ import annotations

from collections.abc import Iterable

from dsl.frontend import ast, ir
from dsl.frontend.expressions import Names
from dsl.frontend.source import error, suggest
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
        case["other_melds"] = tuple((str(seat), tuple(f"{m.kind} {m.tiles}" for m in melds))
                                    for seat, melds in e.others)
    for name, value in e.context:
        case[name.text] = value
    if e.options:
        case["options"] = tuple(sorted((example_option(names, name, value) for name, value in e.options)))
    all_names = list(names.d.patterns)
    fans = None
    if e.fans is not None:
        fans = tuple(ir.ExpectedFan(names.pattern_name(f.name, all_names), f.value, f.count) for f in e.fans)
    return ir.Example(e.title, tuple(sorted(case.items())), fans, e.total, e.no_win, e.error, e.payments,
                      e.doc, e.span, example_comments(e.lines), _reading(names, e.reading))


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


def example_option(names: Names, name: ast.Name, value: object) -> tuple[str, object]:
    option = names.d.options.get(name.text)
    if option is None:
        raise error(f"unknown option {name.text!r}", name.span, suggest(name.text, names.d.options))
    if type(value) is not type(option.default):
        raise error(f"option {name.text!r} takes a value like {option.default!r}, not {value!r}", name.span)
    return name.text, value


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
