"""Source files, positions and diagnostics: what a spec author sees when something is wrong."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MAX_SPEC_BYTES = 1024 * 1024  # one spec file; the bundled ones take under 50 kB
SHOWN_LINE, SHOWN_BEFORE = 160, 40  # characters of a long line a diagnostic shows: the span starts 40 in


@dataclass(frozen=True)
class Source:
    """The text of one spec file and the path it is reported under."""

    path: str
    text: str

    @classmethod
    def read(cls, path: str | Path) -> Source:
        """The file as a Source; an unreadable file or one that is not UTF-8 is a SpecError saying where."""
        shown = _shown(Path(path))
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_SPEC_BYTES + 1)  # enough to refuse a larger one without reading it all
        except OSError as exc:
            raise error(f"cannot read {shown}: {exc.strerror or exc}", None) from None
        if len(data) > MAX_SPEC_BYTES:
            first_line = data[:data.find(b"\n")].decode("utf-8", "replace")
            raise _too_large(cls(shown, first_line), f"over {MAX_SPEC_BYTES:,}")
        try:
            return cls(shown, data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise _not_utf8(cls(shown, data.decode("utf-8", "replace")), data, exc) from None

    def check_size(self) -> None:
        """Refuse a text longer than a spec file may be (a text made in memory, not read by `read`)."""
        size = len(self.text.encode("utf-8", "surrogatepass"))
        if size > MAX_SPEC_BYTES:
            raise _too_large(self, f"{size:,}")

    def line(self, number: int) -> str:
        lines = self.text.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else ""


def _too_large(source: Source, size: str) -> SpecError:
    return error(f"the spec is {size} bytes long; a spec file is at most {MAX_SPEC_BYTES:,} bytes",
                 Span(source, 1, 1, 1, 2), "split it: `extends` a spec, `import` its tiles")


def _not_utf8(source: Source, data: bytes, exc: UnicodeDecodeError) -> SpecError:
    line = data.count(b"\n", 0, exc.start) + 1
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    column = len(data[line_start:exc.start].decode("utf-8", "replace")) + 1
    span = Span(source, line, column, line, column + 1)
    return error(f"the file is not UTF-8: byte 0x{data[exc.start]:02x} here ({exc.reason})", span,
                 "save the spec as UTF-8")


def _shown(path: Path) -> str:
    """The path as the user would write it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Span:
    """A region of a source file; lines and columns count from 1, columns in characters."""

    source: Source = field(repr=False, compare=False)
    line: int
    column: int
    end_line: int
    end_column: int

    @property
    def path(self) -> str:
        return self.source.path

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def excerpt(self, limit: int = 60) -> str:
        """The spanned text as one short line, to quote in a message."""
        text = self.source.line(self.line)[self.column - 1:]
        if self.end_line == self.line:
            text = text[:self.end_column - self.column]
        text = " ".join(text.split())
        return text if len(text) <= limit and self.end_line == self.line else text[:limit].rstrip() + " ..."


def display_width(text: str) -> int:
    """Terminal columns taken by text: CJK characters are two columns wide."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# What a terminal acts on instead of showing: C0 and C1 controls and DEL (ESC starts a sequence that can
# hide or recolour text, CR and BS move back over what was printed), the Unicode line and paragraph
# separators, and the bidirectional marks, embeddings, overrides and isolates, which reorder the text
# around them.
_ACTIVE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """text as it may be printed on a terminal: every character a terminal would act on is written as an
    escape (`\\x1b`, `\\u202e`), so that text a spec or a case provides cannot move the cursor, hide a line
    or forge one. Everything else, CJK included, is left as it is."""
    return _ACTIVE.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable_json(text: str) -> str:
    """A JSON text (json.dumps' output) with the characters printable() escapes written as JSON's `\\u`
    escapes: the same JSON value, safe on a terminal. They stand only inside its strings, which read each
    escape back as the character."""
    return _ACTIVE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    message: str
    span: Span | None
    hint: str | None = None

    def render(self) -> str:
        """The diagnostic as printed: where, what, the source line with a caret under the span, the hint. The
        spec's text in it is printable(): a control character in the file shows as its escape."""
        if self.span is None:
            return printable(f"{self.severity}: {self.message}")
        head = f"{self.span}: {self.severity}: {self.message}"
        text = self.span.source.line(self.span.line)
        end = self.span.end_column if self.span.end_line == self.span.line else self.span.column + 1
        start = max(0, self.span.column - 1 - SHOWN_BEFORE)  # a long line is shown around the span only
        shown = text[start:start + SHOWN_LINE]
        before = shown[:self.span.column - 1 - start]
        marked = shown[self.span.column - 1 - start:max(end, self.span.column + 1) - 1 - start]
        lead = "... " if start else ""
        lines = [head, f"    {lead}{shown}{' ...' if start + SHOWN_LINE < len(text) else ''}",
                 "    " + " " * display_width(printable(lead + before))
                 + "^" * max(1, display_width(printable(marked)))]
        if self.hint:
            lines.append(f"    {self.hint}")
        return "\n".join(map(printable, lines))


class SpecError(Exception):
    """One or more errors in a spec; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


def error(message: str, span: Span | None, hint: str | None = None) -> SpecError:
    return SpecError([Diagnostic("error", message, span, hint)])


def suggest(name: str, candidates: list[str] | set[str]) -> str | None:
    """A 'did you mean' hint for a misspelt name, if some candidate is close enough."""
    ranked = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.5)
    if not ranked:
        # Chinese names are short: one wrong character out of two or three is below difflib's cutoff.
        ranked = [c for c in sorted(candidates)
                  if len(c) == len(name) and sum(a != b for a, b in zip(c, name, strict=True)) == 1]
        if len(name) == 1 and len(ranked) > 1:
            ranked = []
    return f"did you mean {ranked[0]}?" if ranked else None
