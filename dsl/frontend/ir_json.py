"""The IR as compact JSON text and back: how a compiled checker carries its spec, so that it can answer any
case (through the interpreter) with no spec file and none of the front end.

The text is two lines: a header (format, the field names of every IR class used, the spec files spans point
into), then the spec. A dataclass is `{"ClassName": [its fields in order]}`, a tuple a list, a frozenset
`{"frozenset": [sorted items]}`, a span `{"Span": [file number, line, column, end line, end column]}`. The
same IR always gives the same text, and it is not compressed: generated modules are compared byte for byte
(`mjdsl build --check`), and what deflate writes depends on the zlib build. Spans keep their positions but
not the file's text (a checker reports nothing about the spec), and Span.source does not take part in
comparisons, so the IR read back equals the IR written.

Reading imports nothing but the IR classes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

from dsl.frontend import ir
from dsl.frontend.source import Source, Span

FORMAT = 1
CLASSES = {cls.__name__: cls for cls in vars(ir).values()
           if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == ir.__name__}


class IRFormatError(ValueError):
    """The text was written by an mjdsl whose IR has other classes or fields than this one's."""


def dumps(spec: ir.Spec, shown: Callable[[str], str] = str) -> str:
    """The spec as text; `shown` turns each spec file's path into the one written (so that the text does
    not depend on the working directory it was compiled from)."""
    writer = _Writer(shown)
    body = writer.value(spec)
    header = {"format": FORMAT, "fields": dict(sorted(writer.fields.items())), "sources": writer.sources}
    return _json(header) + "\n" + _json(body)


def loads(text: str) -> ir.Spec:
    """The spec written by dumps."""
    head, _, body = text.partition("\n")
    header = json.loads(head)
    if header.get("format") != FORMAT:
        raise IRFormatError(f"IR text of format {header.get('format')}, not {FORMAT}")
    for name, names in header["fields"].items():
        if name not in CLASSES or [f.name for f in dataclasses.fields(CLASSES[name])] != names:
            raise IRFormatError(f"IR text written with another definition of ir.{name}")
    sources = [Source(path, "") for path in header["sources"]]
    spec = json.loads(body, object_hook=lambda tagged: _read(tagged, sources))
    if not isinstance(spec, ir.Spec):
        raise IRFormatError("IR text that holds no spec")
    return spec


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class _Writer:
    def __init__(self, shown: Callable[[str], str]):
        self.shown = shown
        self.sources: list[str] = []
        self.fields: dict[str, list[str]] = {}

    def value(self, value: object) -> object:
        if value is None or isinstance(value, (bool, int, str)):
            return value
        if isinstance(value, tuple):
            return [self.value(v) for v in value]
        if isinstance(value, frozenset):
            return {"frozenset": sorted(value)}
        if isinstance(value, Span):
            return {"Span": [self._source(value.source), value.line, value.column, value.end_line, value.end_column]}
        if CLASSES.get(type(value).__name__) is type(value):
            fields = dataclasses.fields(value)  # type: ignore[arg-type]
            self.fields[type(value).__name__] = [f.name for f in fields]
            return {type(value).__name__: [self.value(getattr(value, f.name)) for f in fields]}
        raise TypeError(f"the IR holds a {type(value).__name__}, which its JSON form does not: {value!r}")

    def _source(self, source: Source) -> int:
        path = self.shown(source.path)
        if path not in self.sources:
            self.sources.append(path)
        return self.sources.index(path)


def _read(tagged: dict, sources: list[Source]) -> object:
    ((tag, values),) = tagged.items()
    if tag == "frozenset":
        return frozenset(values)
    if tag == "Span":
        return Span(sources[values[0]], *values[1:])
    return CLASSES[tag](*(_tuples(v) for v in values))


def _tuples(value: object) -> object:
    """JSON lists as the tuples the IR holds (what object_hook has not already made into objects)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
