"""Bounds on what mjdsl reads from outside: one JSON line, one case (a spec's bounds are in dsl.frontend.parser).

A case is a few short strings and small numbers; anything far larger is refused before it is parsed,
so that no input, however hostile, costs more than a moment or ends a stream of cases.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from itertools import islice

from dsl.notation import HandError
from dsl.vocabulary import MAX_TEXT

MAX_LINE_BYTES = 64 * 1024  # a round record of a long hand of play is a few kilobytes
MAX_JSON_DEPTH = 32  # a round record nests objects and lists about six deep
MAX_INT_DIGITS = 18  # counts and seats; 18 digits still fit a 64-bit integer
MAX_CASE_ITEMS = 1000  # keys, list items and strings in one case, all levels together

_SPECIAL = re.compile(r'[\[\]{}"\\]')  # what the depth scan looks at: brackets, quotes, backslashes


class InputError(ValueError):
    """A line of input that is not one readable JSON value; the message says why."""


def read_json_line(line: bytes | str) -> object:
    """The JSON value of one input line, refused with an InputError when it is oversized or not plain JSON."""
    size = len(line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line)
    if size > MAX_LINE_BYTES:
        raise InputError(f"the line is {size} bytes; a case or a round is at most {MAX_LINE_BYTES} bytes")
    text = _decoded(line) if isinstance(line, bytes) else line
    text = text.removeprefix("\ufeff")  # a byte order mark some editors write first
    if not text.strip():
        raise InputError("empty line (a JSON object was expected)")
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_finite, parse_constant=_no_constant,
                          object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:  # _check_depth bounds nesting already; this is a second guard
        raise InputError(f"not JSON this program reads: nested more than {MAX_JSON_DEPTH} levels") from None


def _decoded(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8: byte 0x{line[exc.start]:02x} at byte {exc.start + 1} ({exc.reason})") from None


def _check_depth(text: str) -> None:
    """Refuse deep nesting before parsing: the parser and every reader after it recurse. One pass, in linear
    time whatever the line holds (brackets inside strings do not count)."""
    depth, in_string, skip_to = 0, False, 0
    for match in _SPECIAL.finditer(text):
        at, char = match.start(), match.group()
        if at < skip_to:
            continue  # the character after a backslash
        if in_string:
            if char == "\\":
                skip_to = at + 2
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise InputError(f"nested more than {MAX_JSON_DEPTH} levels at column {at + 1}")
        elif char in "]}":
            depth -= 1


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"a number of {len(digits.lstrip('-'))} digits; numbers here are counts and seats "
                         f"(at most {MAX_INT_DIGITS} digits)")
    return int(digits)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {text[:40]} is too large")
    return value


def _no_constant(name: str) -> None:
    raise InputError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value: dict[str, object] = {}
    for key, item in pairs:
        if key in value:
            raise InputError(f"the key {key!r} is given twice")
        value[key] = item
    return value


def check_case_size(case: object) -> None:
    """Refuse a case too large to be a hand (a HandError) before reading any of it: its cost stays bounded."""
    pending, seen = [(case, 0)], 0
    while pending:
        value, depth = pending.pop()
        seen += 1
        if seen > MAX_CASE_ITEMS:
            raise HandError(f"the case holds more than {MAX_CASE_ITEMS} values; a hand needs a few dozen")
        if depth > MAX_JSON_DEPTH:
            raise HandError(f"the case is nested more than {MAX_JSON_DEPTH} levels")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise HandError(f"a text of {len(value)} characters ({value[:20]!r}...); one string of a case is at "
                            f"most {MAX_TEXT} characters")
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
            raise HandError(f"a number of {value.bit_length()} bits is too large for a count or a seat")
        if isinstance(value, Mapping):
            items = (item for pair in value.items() for item in pair)
        elif isinstance(value, list | tuple):
            items = iter(value)
        else:
            continue
        pending += [(item, depth + 1) for item in islice(items, MAX_CASE_ITEMS + 1)]  # enough to refuse
