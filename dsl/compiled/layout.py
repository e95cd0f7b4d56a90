"""How values are written into a generated checker module: spec text as literals and comments, where a spec
definition comes from, C arrays, masks, and long expressions broken over lines."""

from __future__ import annotations

from pathlib import Path

from dsl.frontend.source import Span, display_width
from dsl.paths import SPECS_DIR

BREAKS = (" and ", " or ", " else ", " + ", " - ", ", ")


def escape(value: object, literal: bool) -> str:
    """The one way a value from a spec (a name, a title, doc text, a path) reaches generated code: as a
    Python literal (repr escapes quotes, backslashes and line breaks), or as comment text, on one line with
    every line break and control character spaced out, so it can never end the comment."""
    if literal:
        return repr(value)
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(value)).split())


def comment(text: object) -> str:
    return escape(text, literal=False)


def literal(value: object) -> str:
    return escape(value, literal=True)


def shown_path(path: str) -> str:
    """A spec file's path as generated code shows it, whatever directory it was compiled from: specs/NAME.mj
    for a bundled spec, else the absolute path."""
    resolved = Path(path).resolve()
    return f"specs/{resolved.name}" if resolved.parent == SPECS_DIR.resolve() else str(resolved)


def location(span: Span) -> str:
    """`specs/mcr.mj:82`: the file and line a definition is written on (a parent's file for what a child
    variant inherits), for a comment above its code."""
    return f"{shown_path(span.path)}:{span.line}"


def source_text(span: Span) -> str:
    """The spec text a node was written as, on one line and without comments, for a comment next to its code."""
    lines = span.source.text.splitlines()[span.line - 1:span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        lines = [lines[0][span.column - 1:span.end_column - 1]]
    else:
        lines = [lines[0][span.column - 1:], *lines[1:-1], lines[-1][:span.end_column - 1]]
    return " ".join(" ".join(_code_part(line) for line in lines).split())


def _code_part(line: str) -> str:
    """A spec line without its `#` comment (a `#` inside a string stays)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def pytuple(values: list) -> str:
    """A Python tuple literal, one item per line when it is long."""
    items = [literal(v) for v in values]
    if len(items) <= 1 or sum(len(v) + 2 for v in items) <= 100:
        return "(" + "".join(f"{v}, " for v in items).rstrip(" ") + ")" if items else "()"
    return "(\n" + "".join(f"    {v},\n" for v in items) + ")"


def c_array(values: list, per_line: int = 16) -> str:
    """A C array initialiser, wrapped every `per_line` values; never empty."""
    items = [str(v) for v in values] or ["0"]
    if len(items) <= per_line:
        return "[" + ", ".join(items) + "]"
    rows = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n    " + ",\n    ".join(rows) + ",\n]"


def literal_lines(text: str, width: int = 100) -> list[str]:
    """Text as Python string literals of about `width` columns each, to be written one after another (Python
    joins them): each line of the text ends a literal, and a literal ends after a comma when one is near."""
    columns = {ch: display_width(literal(ch)) - 2 for ch in set(text)}
    literals = []
    for line in text.splitlines(keepends=True):
        start = 0
        while start < len(line):
            end, used = start, 0
            while end < len(line) and used < width:
                used += columns[line[end]]
                end += 1
            comma = line.rfind(",", start, end)
            if end < len(line) and comma > start + width // 2:
                end = comma + 1
            literals.append(literal(line[start:end]))
            start = end
    return literals


def hexmask(value: int) -> str:
    return f"0x{value:x}ULL"


def mask(tiles) -> int:
    """The 64-bit mask of a set of tiles: bit i for tile i."""
    return sum(1 << t for t in set(tiles))


def wrap(code: str, column: int, width: int = 116) -> str:
    """Break a long expression that starts at `column` at its and / or / else / + / - / commas inside
    parentheses, each continuation lined up after the parenthesis it is in."""
    if column + len(code) <= width:
        return code
    opened: list[int] = []  # indices of the open parentheses
    candidates: list[tuple[int, int]] = []  # (where a line may break: a space, the parenthesis it is in)
    for i, ch in enumerate(code):
        if ch in "([":
            opened.append(i)
        elif ch in ")]":
            opened.pop()
        elif ch == " " and 0 < len(opened) <= 2 and any(code.startswith(b, i if b[0] == " " else i - 1)
                                                        for b in BREAKS):
            candidates.append((i, opened[-1]))  # not deeper: a staircase of indents reads worse than a long line
    out, columns, col = [], {}, column
    ends = [i for i, _ in candidates[1:]] + [len(code)]
    k = 0
    for i, ch in enumerate(code):
        if k < len(candidates) and candidates[k][0] == i:
            start, paren = candidates[k]
            if col + (ends[k] - start) > width:
                col = columns[paren] + 1
                out.append("\n" + " " * col)
                k += 1
                continue
            k += 1
        columns[i] = col
        out.append(ch)
        col += 1
    return "".join(out)
