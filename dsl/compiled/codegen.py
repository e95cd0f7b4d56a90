"""IR -> readable Cython checker modules (generated/<variant>.pyx).

The IR is turned into a model of C-level pieces (tables, one function per fan, one helper per
`count/all/any/sum`, one function per `let`), which the Jinja2 templates under
templates/cython/ lay out. Every IR node and spec feature has its own emitter; one that this
back end does not know stops the build with an error naming it, so a new kind of rule can never be
compiled into a checker that silently ignores it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from dsl import __version__, vocabulary
from dsl.frontend import ir, ir_json
from dsl.frontend.source import display_width
from dsl.interp.decompose import knitted_straights
from dsl.paths import SPECS_DIR
from dsl.vocabulary import COMBINING_PRINCIPLES, GROUP_KINDS, LIMIT, PRINCIPLES, RUNTIME_LIMITS, SHAPES, SOURCES, WAITS

TEMPLATES = Path(__file__).resolve().parent / "templates"
PACKAGE_INIT = '"""Compiled checkers, one extension module per bundled spec (generated/<variant>.pyx)."""\n'

GROUP_FILTERS = {  # which groups of a decomposition a source looks at (Evaluator._source)
    "groups": None,
    "sets": "is_set(g)",
    "chows": "g.kind == CHOW",
    "pungs": "(g.kind == PUNG or g.kind == KONG)",
    "kongs": "g.kind == KONG",
    "pairs": "g.kind == PAIR",
}
ELEMENT_VARIABLE = {"tile": "t", "kind": "t", "group": "g", "loser": "l", "combo": "combo"}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
# Sums, differences, products, quotients and powers go through helpers that send the case to the reference
# interpreter when the exact result is not a 64-bit integer (a fraction, an overflow, x / 0).
CHECKED_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divide", "^": "power"}
# The IR fields this back end reads; a field added to the IR later stops generation while it is set.
KNOWN_FIELDS = {
    ir.Spec: {"name", "title", "english", "parent", "doc", "path", "source_hash", "players", "hand_size", "tiles",
              "next_tile", "red_tiles", "red_copies", "supersede", "score", "previous_tile", "indicator_tile", "wilds",
              "suits", "tilesets", "meld_kinds", "shapes", "context", "options", "definitions", "requirements",
              "minimum", "minimum_excluding", "principles", "preferred", "patterns", "loser_patterns",
              "exclusive_groups", "settlement", "examples", "rounds", "round_examples", "unit", "unit_english",
              "cap", "cap_description", "cap_unless_more", "shape_rules"},
    ir.Pattern: {"name", "english", "value", "condition", "excludes", "aliases", "doc", "scope", "order", "span",
                 "late"},
    ir.Settlement: {"bindings", "rules", "span", "pot", "liable", "requirements"},
    ir.Shape: {"name", "chows"},
    ir.ShapeRule: {"name", "english", "condition", "span"},
    ir.MeldKind: {"name", "english", "shape", "concealed", "opens", "tiles", "span", "tileset", "aside"},
    ir.Tile: {"index", "code", "suit", "rank", "name", "english", "copies", "numbered"},
    ir.Suit: {"code", "name", "english", "numbered", "flowers", "tiles", "span"},
}
KEY_KINDS = {"flag": "KEY_FLAG", "count": "KEY_COUNT", "seat": "KEY_SEAT", "wind": "KEY_WIND", "tiles": "KEY_TILES",
             "melds_by_seat": "KEY_OTHER_MELDS", "seats": "KEY_SEATS", "int": "KEY_INT"}


class CodegenError(Exception):
    """The spec uses something the compiled checker cannot express (yet)."""


# ---------------------------------------------------------------- entry points


def generate_all(specs: list[ir.Spec], out_dir: Path) -> dict[Path, str]:
    """generated/__init__.py and one <variant>.pyx per spec."""
    files = {out_dir / "__init__.py": PACKAGE_INIT}
    for spec in specs:
        files[out_dir / f"{module_name(spec)}.pyx"] = generate(spec)
    return files


def module_name(spec: ir.Spec) -> str:
    if not spec.name.isidentifier() or not spec.name.isascii():
        raise CodegenError(f"{spec.path}: the variant name {spec.name!r} is not an ASCII identifier, so it cannot "
                           "name a Python module")
    return spec.name


def generate(spec: ir.Spec) -> str:
    """The text of the checker module of one spec; the same IR always gives the same bytes."""
    model = Model.of(spec)
    return _environment().get_template("checker.pyx.j2").render(m=model)


def is_bundled(spec: ir.Spec) -> bool:
    return Path(spec.path).resolve() == (SPECS_DIR / f"{spec.name}.mj").resolve()


def shown_path(path: str) -> str:
    """A spec file's path as generated code shows it, whatever directory it was compiled from: specs/NAME.mj
    for a bundled spec, else the absolute path."""
    resolved = Path(path).resolve()
    return f"specs/{resolved.name}" if resolved.parent == SPECS_DIR.resolve() else str(resolved)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False,
                             extensions=["jinja2.ext.do"])
    env.globals.update(zip=zip, ir=ir)
    env.filters.update(comment=_comment, pystr=_literal, pytuple=_pytuple, c_array=_c_array, hexmask=_hexmask,
                       hexmask_of=lambda tiles: _hexmask(_mask(tiles)), tile_code=lambda t, spec: spec.tiles[t].code,
                       fan_name=lambda index, model: model.fans[index].name,
                       fan_constant=lambda index, model: model.fans[index].constant,
                       index_or_none=lambda items, x: items.index(x) if x in items else -1,
                       wrap=_wrap,
                       option_kind=lambda kind: f"OPTION_{ {'bool': 'BOOL', 'int': 'INT', 'str': 'TEXT'}[kind]}")
    return env


def escape(value: object, literal: bool) -> str:
    """The one way a value from a spec (a name, a title, doc text, a path) reaches generated code: as a
    Python literal (repr escapes quotes, backslashes and line breaks), or as comment text, on one line with
    every line break and control character spaced out, so it can never end the comment."""
    if literal:
        return repr(value)
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(value)).split())


def _comment(text: object) -> str:
    return escape(text, literal=False)


def _literal(value: object) -> str:
    return escape(value, literal=True)


def _pytuple(values: list) -> str:
    """A Python tuple literal, one item per line when it is long."""
    items = [_literal(v) for v in values]
    if len(items) <= 1 or sum(len(v) + 2 for v in items) <= 100:
        return "(" + "".join(f"{v}, " for v in items).rstrip(" ") + ")" if items else "()"
    return "(\n" + "".join(f"    {v},\n" for v in items) + ")"


def _c_array(values: list, per_line: int = 16) -> str:
    """A C array initialiser, wrapped every `per_line` values; never empty."""
    items = [str(v) for v in values] or ["0"]
    if len(items) <= per_line:
        return "[" + ", ".join(items) + "]"
    rows = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n    " + ",\n    ".join(rows) + ",\n]"


def _literal_lines(text: str, width: int = 100) -> list[str]:
    """Text as Python string literals of about `width` columns each, to be written one after another (Python
    joins them): each line of the text ends a literal, and a literal ends after a comma when one is near."""
    columns = {ch: display_width(_literal(ch)) - 2 for ch in set(text)}
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
            literals.append(_literal(line[start:end]))
            start = end
    return literals


def _hexmask(value: int) -> str:
    return f"0x{value:x}ULL"


BREAKS = (" and ", " or ", " else ", " + ", " - ", ", ")


def _wrap(code: str, column: int, width: int = 116) -> str:
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


# ---------------------------------------------------------------- the model the templates read


@dataclass
class Fan:
    index: int
    name: str
    english: str | None
    function: str
    scope: str  # "hand" or "loser"
    order: int
    source: str  # the spec line, for a comment
    count: str  # C expression: occurrences before exclusions
    amount: int  # value of a fixed-value fan
    value: str | None  # C expression of a computed value
    late: bool  # reads counted_fans: scored after the other fans' exclusions
    combined: str | None  # counted with the other combination fans of this source (套算一次)

    @property
    def constant(self) -> str:
        """The fan's name in C, as rules that read it write it: FAN_05_SEVEN_PAIRS."""
        return self.function.upper()


@dataclass
class Combining:
    """The combination fans over one source, counted together under 套算一次 / 不得相同."""

    source: str
    fans: list[int]  # in the spec's fan order
    pair_fans: list[int]  # the two-set fans, in that order: dsl.interp.combinations drops the last first
    matchers: dict[int, list[tuple[int, str, str]]]  # size -> (fan, C condition on `combo`, spec text)


@dataclass
class Aggregate:
    name: str
    source_text: str
    function: str  # count, all, any, sum, combinations
    source: str  # tiles, kinds, groups, ..., losers
    body: str  # C condition or number
    select: str | None  # which groups
    takes_loser: bool
    short_circuit: bool  # all/any may stop early: no later element can change the outcome's side effects
    size: int = 0  # combinations: sets taken at a time


@dataclass
class Requirement:
    index: int
    name: str
    source: str
    condition: str
    reason: str


@dataclass
class Binding:
    name: str
    function: str
    source: str
    expr: str
    takes_loser: bool  # a settlement `let`; a top-level one reads only the decomposition


@dataclass
class PaymentRule:
    case: str  # "self_drawn" or "discard"
    payments: list[tuple[str, str, str]]  # (payer test, amount, source)


@dataclass
class ContextKey:
    name: str
    kind: str  # KEY_FLAG, ...
    slot: int
    low: int = 0  # KEY_INT: the range of its values
    high: int = 0

    @property
    def c_name(self) -> str:
        return _c_name("CTX", self.slot, self.name)


@dataclass
class OwnShape:
    """A spec's own shape (`shape NAME: CONDITION`): its name as a Text, its condition as C."""

    name: str
    text: str
    condition: str
    source: str


@dataclass
class Option:
    name: str
    slot: int
    default: int
    python_type: str  # "bool", "int", "str"

    @property
    def c_name(self) -> str:
        return _c_name("OPTION", self.slot, self.name)


@dataclass
class MeldKind:
    index: int
    name: str
    shape: str  # SHAPE_CHOW, SHAPE_PUNG, SHAPE_KONG, SHAPE_FIXED, SHAPE_ONE_OF
    group_kind: str
    concealed: bool
    opens: bool
    tiles: int  # mask of a fixed kind's tiles (of a one-of kind's tile set, when known from the spec)
    size: int
    aside: bool = False  # a single tile laid aside: no set
    per_hand: int = -1  # a one-of kind's tile set chosen by indicators: its index in Hand.sets


@dataclass
class HandSet:
    """A tile set chosen per hand by indicator tiles (ir.TileSet.indicated)."""

    index: int
    name: str
    tiles: int  # mask of its fixed tiles
    removed: int  # mask of the tiles taken away
    terms: list[tuple[int, int]]  # (indicator key slot, steps along the order)


@dataclass
class Model:
    spec: ir.Spec
    version: str
    shown_path: str
    texts: list[tuple[str, str]] = field(default_factory=list)  # (C name, value)
    group_kinds: list[tuple[str, str]] = field(default_factory=list)
    tilesets: list[tuple[str, int, str]] = field(default_factory=list)  # (C name, mask, comment)
    meld_kinds: list[MeldKind] = field(default_factory=list)
    context: list[ContextKey] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    shapes: list[tuple[str, bool]] = field(default_factory=list)  # (shape, chows)
    own_shapes: list[OwnShape] = field(default_factory=list)
    requirements: list[Requirement] = field(default_factory=list)
    requirements_read_fans: bool = False
    fans: list[Fan] = field(default_factory=list)
    fan_index: dict[str, int] = field(default_factory=dict)
    fan_functions: dict[str, str] = field(default_factory=dict)
    aggregates: list[Aggregate] = field(default_factory=list)
    definitions: list[Binding] = field(default_factory=list)
    scores: list[tuple[Binding, str]] = field(default_factory=list)  # `score:` results and their kinds
    bindings: list[Binding] = field(default_factory=list)
    pot: str | None = None
    combining: list[Combining] = field(default_factory=list)
    rules: list[PaymentRule] = field(default_factory=list)
    wind_tiles: list[int] = field(default_factory=list)
    knitted: list[list[int]] = field(default_factory=list)  # the knitted straights, in dsl.interp.decompose's order
    hand_sets: list[HandSet] = field(default_factory=list)
    wild_sets: list[int] = field(default_factory=list)  # indices into hand_sets of the wild tile sets
    settle_requirements: list[Requirement] = field(default_factory=list)
    liable: str | None = None  # C condition on loser k: the first it holds for pays for everyone

    @classmethod
    def of(cls, spec: ir.Spec) -> Model:
        _check_supported(spec)
        model = cls(spec, __version__, shown_path(spec.path))
        model._tables()
        emitter = Emitter(model)
        model._rules(emitter)
        model.aggregates = emitter.aggregates
        return model

    # -- tables

    def _tables(self) -> None:
        spec = self.spec
        if len(spec.tiles) > RUNTIME_LIMITS["MAX_TILES"]:
            raise CodegenError(f"{spec.path}: {len(spec.tiles)} kinds of tile; the compiled checker keeps tile sets "
                               "as 64-bit masks")
        self._check_sizes()
        texts = [*SHAPES, *WAITS, *(s.code for s in spec.suits), "",
                 *(o.default for o in spec.options if isinstance(o.default, str)), *(s.name for s in spec.shape_rules)]
        for value in texts:
            if value not in (v for _, v in self.texts):
                self.texts.append(("T_NONE" if value == "" else _c_name("T", len(self.texts), value), value))
        own = tuple(k.name for k in spec.meld_kinds if k.shape in ("fixed", "one_of"))
        for name in GROUP_KINDS + own:
            if name not in (v for _, v in self.group_kinds):
                c_name = name.upper() if name in GROUP_KINDS else f"KIND_{len(self.group_kinds)}"
                self.group_kinds.append((c_name, name))
        keys = self.indicator_keys()
        for i, ts in enumerate(spec.tilesets):
            comment = ts.name + (f" ({ts.english})" if ts.english and ts.english != ts.name else "")
            self.tilesets.append((f"TILESET_{i}", _mask(ts.tiles), comment))
            if ts.per_hand:
                self.hand_sets.append(HandSet(len(self.hand_sets), ts.name, _mask(ts.tiles), _mask(ts.removed),
                                              [(keys.index(key), step) for key, step in ts.indicated]))
        self.wild_sets = [next(h.index for h in self.hand_sets if h.name == name) for name in spec.wilds]
        for i, kind in enumerate(spec.meld_kinds):
            if kind.shape not in ("chow", "pung", "kong", "fixed", "one_of"):
                raise CodegenError(f"{spec.path}: meld kind {kind.name!r} has a shape ({kind.shape!r}) the compiled "
                                   "checker does not know")
            group = kind.name if kind.shape in ("fixed", "one_of") else kind.shape
            size = {"chow": 3, "pung": 3, "kong": 4, "one_of": 1}.get(kind.shape, len(kind.tiles))
            tiles, per_hand = _mask(kind.tiles), -1
            if kind.shape == "one_of":
                tiles = _mask(spec.tileset(kind.tileset).tiles)  # type: ignore[arg-type]
                per_hand = next((h.index for h in self.hand_sets if h.name == kind.tileset), -1)
            self.meld_kinds.append(MeldKind(i, kind.name, f"SHAPE_{kind.shape.upper()}", self.group_kind(group),
                                            kind.concealed, kind.opens, tiles, size, kind.aside, per_hand))
        for key in spec.context:
            if key.kind not in KEY_KINDS:
                raise CodegenError(f"{spec.path}: context key {key.name!r} is of a kind ({key.kind!r}) the compiled "
                                   "checker does not read")
            if key.kind == "int" and not -LIMIT <= key.low <= key.high <= LIMIT:
                raise CodegenError(f"{spec.path}: the range of context key {key.name!r} is beyond what the compiled "
                                   "checker holds")
            self.context.append(ContextKey(key.name, KEY_KINDS[key.kind], len(self.context), key.low, key.high))
        for i, option in enumerate(spec.options):
            kind = type(option.default).__name__
            default = self.text(option.default) if kind == "str" else int(option.default)
            self.options.append(Option(option.name, i, default, kind))
        for shape in spec.shapes:
            if shape.name not in SHAPES:
                raise CodegenError(f"{spec.path}: the compiled checker does not know the shape {shape.name!r}")
            self.shapes.append((shape.name, shape.chows))
        winds = [t.index for t in spec.tiles if not t.numbered]
        self.wind_tiles = [winds[i] if i < len(winds) else -1 for i in range(len(vocabulary.WINDS))]
        self.knitted = self._knitted_straights()

    def _check_sizes(self) -> None:
        """The spec fits the sizes of the shared runtime."""
        spec = self.spec
        if spec.cap is not None and spec.cap > LIMIT:
            raise CodegenError(f"{spec.path}: a cap of {spec.cap} is beyond what the compiled checker holds")
        sizes = {  # what is counted: (how many the spec has, the runtime's limit)
            "players": (spec.players, "MAX_PLAYERS"), "hand_size": (spec.hand_size, "MAX_HAND"),
            "melds": (self.max_melds(), "MAX_MELDS"), "meld_tiles": (self.max_meld_tiles_of_spec(), "MELD_TILES"),
            "fans": (len(spec.patterns) + len(spec.loser_patterns), "MAX_FANS"),
            "context": (len(spec.context), "MAX_CONTEXT"), "options": (len(spec.options), "MAX_OPTIONS"),
            "indicator_keys": (len(self.indicator_keys()), "MAX_INDICATOR_KEYS"),
            "hand_sets": (len(spec.per_hand_tilesets()), "MAX_HAND_SETS"),
            "set_terms": (max([len(ts.indicated) for ts in spec.per_hand_tilesets()] or [0]), "MAX_SET_TERMS"),
            "scores": (len(spec.score), "MAX_SCORES"), "meld_kinds": (len(spec.meld_kinds), "MAX_MELD_KINDS"),
            "shapes": (len(spec.shapes), "MAX_SHAPES"), "lets": (len(spec.definitions), "MAX_LETS")}
        for name, (size, limit) in sizes.items():
            if size > RUNTIME_LIMITS[limit]:
                raise CodegenError(f"{spec.path}: {size} {name.replace('_', ' ')}; the compiled checker holds at "
                                   f"most {RUNTIME_LIMITS[limit]}")

    def max_meld_tiles_of_spec(self) -> int:
        return max([4] + [len(k.tiles) for k in self.spec.meld_kinds if k.shape == "fixed"])

    @property
    def max_set_terms(self) -> int:
        return RUNTIME_LIMITS["MAX_SET_TERMS"]

    def int_keys(self) -> list[ContextKey]:
        return [k for k in self.context if k.kind == "KEY_INT"]

    def embedded_ir(self) -> list[str]:
        """The spec's IR as dsl.frontend.ir_json text, in string literals: the interpreter answers from it the
        cases left to it, so the checker needs neither the spec file nor the front end."""
        return _literal_lines(ir_json.dumps(dataclasses.replace(self.spec, path=self.shown_path), shown=shown_path))

    def unit_word(self) -> str:
        """The spec's unit in a sentence, as the interpreter says it: "fan" for 番 (dsl.book.model.unit_word)."""
        return "fan" if self.spec.unit == "番" else self.spec.unit

    def context_slot(self, name: str) -> int:
        return next((k.slot for k in self.context if k.name == name), -1)

    def no_seat_slots(self) -> list[int]:
        """Per context slot: 1 for a seat key that is -1 when absent (not seat, dealer nor discarder)."""
        return [int(k.kind == "KEY_SEAT" and k.name not in ("seat", "dealer", "discarder")) for k in self.context]

    def minimum_amount(self) -> int:
        return self.spec.minimum if isinstance(self.spec.minimum, int) else 0

    def minimum_option(self) -> int:
        """The option slot that holds the minimum, -1 when it is a number."""
        minimum = self.spec.minimum
        return next(o.slot for o in self.options if o.name == minimum) if isinstance(minimum, str) else -1

    def _knitted_straights(self) -> list[list[int]]:
        """The knitted sequences of dsl.interp.decompose, checked to exist in this spec's tiles."""
        suits = [s.code for s in self.spec.suits if s.numbered]
        if len(suits) != 3 or not self.knitted_shapes():
            return []
        codes = self.spec.notation()
        wanted = [f"{rank}{suit}" for suit in suits for rank in range(1, 10)]
        if any(code not in codes for code in wanted):
            raise CodegenError(f"{self.spec.path}: knitted shapes need ranks 1 to 9 in suits " + ", ".join(suits))
        return [list(sequence) for sequence in knitted_straights(self.spec)]

    @property
    def extended(self) -> bool:
        """The spec uses wild tiles, tile sets chosen per hand, loose readings, tiles laid aside or the losers'
        melds: the checker then keeps every declared meld and reads each hand's tiles from the decomposition
        (dsl.interp.decompose.reading_tiles)."""
        spec = self.spec
        return bool(spec.wilds or spec.per_hand_tilesets() or any(s.name == "loose" for s in spec.shapes)
                    or any(k.aside for k in spec.meld_kinds) or self._reads_loser_melds())

    def _reads_loser_melds(self) -> bool:
        return any(isinstance(node, ir.Aggregate) and node.source == "loser_melds"
                   for expr in self._expressions() for node in ir.walk(expr))

    def max_melds(self) -> int:
        """Declared melds a case may hold: the sets, and with tiles laid aside every copy of those tiles."""
        sets = max((self.spec.hand_size - 1) // 3, 1)
        aside = [k for k in self.spec.meld_kinds if k.aside]
        if not aside:
            return sets
        tiles: set[int] = set()
        for k in aside:
            tiles |= self._aside_tiles(k)
        return sets + sum(self.spec.tiles[t].copies for t in tiles)

    def _aside_tiles(self, kind: ir.MeldKind) -> set[int]:
        """The tiles a kind laid aside may be: its own, its fixed tile set's, or (chosen per hand) any tile."""
        if kind.shape == "fixed":
            return set(kind.tiles)
        tileset = next((t for t in self.spec.tilesets if t.name == kind.tileset), None)
        if tileset is not None and not tileset.per_hand:
            return set(tileset.tiles)
        return set(range(len(self.spec.tiles)))

    def tile_suits(self) -> list[str]:
        return [self.text(t.suit) for t in self.spec.tiles]

    def tile_codes(self) -> list[tuple[str, int, int, int, bool]]:
        """(letter, base, low, high, flowers) per suit letter a..z: the tile written `dX` is base + d for
        low <= d <= high (dsl.notation reads a digit, then a letter from a to z; a suit's tiles are in order)."""
        rows = []
        for letter in "abcdefghijklmnopqrstuvwxyz":
            suit = next((s for s in self.spec.suits if s.code == letter), None)
            tiles = [self.spec.tiles[i] for i in suit.tiles] if suit else []
            digits = [int(t.code[:-1]) for t in tiles]
            if tiles and any(d - digits[0] != t.index - tiles[0].index or not 0 <= d <= 9
                             for d, t in zip(digits, tiles, strict=True)):
                raise CodegenError(f"{self.spec.path}: the tiles of suit {letter!r} are not numbered 0..9 in order")
            if suit is not None and tiles:
                rows.append((letter, tiles[0].index - digits[0], digits[0], digits[-1], suit.flowers))
            else:
                rows.append((letter, 0, 1, 0, False))
        return rows

    def uses(self, *helpers: str) -> bool:
        """Some emitted expression calls one of these helper functions (only those are generated)."""
        code = " ".join([f.count + (f.value or "") for f in self.fans] + [r.condition for r in self.requirements]
                        + [a.body for a in self.aggregates] + [b.expr for b in self.definitions + self.bindings]
                        + [cond for c in self.combining for ms in c.matchers.values() for _, cond, _ in ms]
                        + [amount for r in self.rules for _, amount, _ in r.payments]
                        + [b.expr for b, _ in self.scores] + [self.pot or "", self.liable or ""]
                        + [r.condition for r in self.settle_requirements]
                        + [s.condition for s in self.own_shapes])
        return any(re.search(rf"\b{h}\(", code) for h in helpers)

    def indicator_keys(self) -> list[str]:
        """The context keys of indicator tiles (dora, ura): a case's tiles are kept per key."""
        return [k.name for k in self.spec.context if k.kind == "tiles"]

    def key_indicators(self) -> list[int]:
        keys = self.indicator_keys()
        return [keys.index(k.name) if k.name in keys else -1 for k in self.spec.context]

    def red_fives(self) -> list[int]:
        """Per suit letter a..z: the tile a red five (written with a 0) is, -1 when none."""
        red = dict(self.spec.red_tiles)
        return [red.get(f"0{letter}", -1) for letter in "abcdefghijklmnopqrstuvwxyz"]

    def minimum(self) -> str:
        """The fan a hand needs, as C: a number, or the option that holds it."""
        minimum = self.spec.minimum
        if isinstance(minimum, str):
            return f"h.options[{next(o.c_name for o in self.options if o.name == minimum)}]"
        return str(minimum)

    def rank_score(self) -> str | None:
        """The `score:` result that ranks readings (`value`), when the spec has one."""
        return next((b.function for b, _ in self.scores if b.name == "value"), None)

    def knitted_shapes(self) -> bool:
        return any(shape in ("knitted_straight", "honors_and_knitted") for shape, _ in self.shapes)

    def uses_combos(self) -> bool:
        return bool(self.combining) or self.reads(ir.Combinations)

    def near(self) -> list[int]:
        """Per tile: itself and the tiles of its numbered suit within two ranks (a group it can join)."""
        tiles = self.spec.tiles
        return [_mask([t.index] + [u.index for u in tiles if t.numbered and u.numbered and u.suit == t.suit
                                   and abs(u.rank - t.rank) <= 2]) for t in tiles]

    def completing(self) -> int:
        """Tiles that can complete a hand without joining a held tile: orphans, honors, knitted straights;
        any tile with a spec's own shape (its condition may hold whatever the tile)."""
        if self.spec.shape_rules:
            return self.all_tiles()
        shapes = {shape for shape, _ in self.shapes}
        mask = _mask(self.orphans()) if "thirteen_orphans" in shapes else 0
        if "honors_and_knitted" in shapes:
            mask |= _mask(t.index for t in self.spec.tiles if not t.numbered)
        if self.knitted_shapes():
            mask |= _mask(t for straight in self.knitted for t in straight)
        return mask

    def all_tiles(self) -> int:
        return _mask(t.index for t in self.spec.tiles)

    def numbered(self) -> int:
        return _mask(t.index for t in self.spec.tiles if t.numbered)

    def rule(self, case: str) -> PaymentRule | None:
        return next((r for r in self.rules if r.case == case), None)

    def reads(self, node_type: type, name: str | None = None) -> bool:
        """Some expression of the spec has this node (with this name)."""
        return any(isinstance(n, node_type) and (name is None or getattr(n, "name", None) == name)
                   for e in self._expressions() for n in ir.walk(e))

    def _expressions(self) -> list[ir.Expr]:
        spec = self.spec
        exprs = [r.condition for r in spec.requirements] + [b.expr for b in spec.definitions]
        exprs += [e for p in spec.patterns + spec.loser_patterns for e in (p.condition, p.value.expr) if e is not None]
        exprs += [b.expr for b in spec.score] + [s.condition for s in spec.shape_rules]
        if spec.settlement is not None:
            exprs += [b.expr for b in spec.settlement.bindings]
            exprs += [spec.settlement.pot] if spec.settlement.pot is not None else []
            exprs += [spec.settlement.liable] if spec.settlement.liable is not None else []
            exprs += [r.condition for r in spec.settlement.requirements]
            exprs += [p.amount for r in spec.settlement.rules for p in r.payments]
        return exprs

    def text(self, value: str) -> str:
        return next(name for name, v in self.texts if v == value)

    def group_kind(self, name: str) -> str:
        return next(c_name for c_name, v in self.group_kinds if v == name)

    # -- rules

    def _rules(self, emitter: Emitter) -> None:
        spec = self.spec
        for i, b in enumerate(spec.definitions):
            self.definitions.append(Binding(b.name, f"let_{i}" + _slug(b.name), _source_text(b.span),
                                            emitter.number(b.expr, Where("hand")), False))
            emitter.definitions[b.name] = self.definitions[-1].function
        fans = list(spec.patterns) + list(spec.loser_patterns)
        self.fan_index = {p.name: i for i, p in enumerate(fans)}
        self.fan_functions = {p.name: f"fan_{i:02d}" + _slug(p.english) for i, p in enumerate(fans)}
        if any(p in COMBINING_PRINCIPLES for p in spec.principles):
            self._combining(emitter)
        combined = {i: c.source for c in self.combining for i in c.fans}
        self.fans = [self._fan(emitter, i, p, combined.get(i)) for i, p in enumerate(fans)]
        for i, r in enumerate(spec.requirements):
            if _reads_waits(spec, r.condition):
                raise CodegenError(f"{r.span}: requirement {r.name!r} reads `waits`, which depends on the "
                                   "requirements themselves")
            english = f" ({r.english})" if r.english else ""
            condition = emitter.condition(r.condition, Where("hand"))
            self.requirements.append(Requirement(i, r.name, f"{r.name}: {_source_text(r.condition.span)}", condition,
                                                 f"requirement {r.name}{english} is not met"))
        for rule in spec.shape_rules:
            self.own_shapes.append(self._own_shape(emitter, rule))
        self.requirements_read_fans = any(isinstance(e, ir.PatternRef) for r in spec.requirements
                                          for e in ir.walk(r.condition))
        for i, b in enumerate(spec.score):
            code = emitter.expr(b.expr, Where("score"))
            self.scores.append((Binding(b.name, f"score_{i}" + _slug(b.name), _source_text(b.span), code.text, False),
                                code.kind))
            emitter.scores[b.name] = self.scores[-1][0].function
        if spec.settlement is not None:
            self._settlement(emitter, spec.settlement)

    def _own_shape(self, emitter: Emitter, rule: ir.ShapeRule) -> OwnShape:
        """The condition of a spec's own shape, read before any fan of the reading is counted."""
        for node in ir.walk(rule.condition):
            if isinstance(node, ir.PatternRef) or (isinstance(node, ir.Var) and node.scope == "late"):
                raise CodegenError(f"{rule.span}: the compiled checker tests a shape before counting fans; shape "
                                   f"{rule.name!r} reads one")
        if _reads_waits(self.spec, rule.condition):
            raise CodegenError(f"{rule.span}: shape {rule.name!r} reads `waits`, which depends on the shapes")
        return OwnShape(rule.name, self.text(rule.name), emitter.condition(rule.condition, Where("hand")),
                        f"{rule.name}: {_source_text(rule.condition.span)}")

    def _combining(self, emitter: Emitter) -> None:
        """Combination fans counted together (Evaluator._count_combinations), one group per source."""
        for p in self.spec.patterns:
            if not isinstance(p.condition, ir.Combinations) or p.value.kind != "each":
                continue
            source = p.condition.source
            group = next((c for c in self.combining if c.source == source), None)
            if group is None:
                group = Combining(source, [], [], {2: [], 3: [], 4: []})
                self.combining.append(group)
            index = self.fan_index[p.name]
            group.fans.append(index)
            if p.condition.size == 2:
                group.pair_fans.append(index)
            body = emitter.condition(p.condition.body, Where("hand", "combo"))
            group.matchers[p.condition.size].append((index, body, _source_text(p.condition.span)))

    def _fan(self, emitter: Emitter, index: int, p: ir.Pattern, combined: str | None) -> Fan:
        where = Where(p.scope, loser="loser" if p.scope == "loser" else None)
        kind = p.value.kind
        if kind not in ("fixed", "each", "computed", "computed_each"):
            raise CodegenError(f"{p.span}: fan {p.name!r} has a kind of value ({kind!r}) the compiled checker does "
                               "not know")
        if combined is not None:
            count = ""
        elif p.value.per_occurrence:
            count = f"max({emitter.number(p.condition, where)}, 0)"
        else:
            count = f"1 if {emitter.condition(p.condition, where)} else 0"
        value = emitter.number(p.value.expr, where) if p.value.expr is not None else None
        return Fan(index, p.name, p.english, self.fan_functions[p.name], p.scope, p.order, _fan_line(p), count,
                   p.value.amount or 0, value, p.late, combined)

    def _settlement(self, emitter: Emitter, settlement: ir.Settlement) -> None:
        for i, b in enumerate(settlement.bindings):
            where = Where("settle", loser="loser")
            self.bindings.append(Binding(b.name, f"let_settle_{i}" + _slug(b.name), _source_text(b.span),
                                         emitter.number(b.expr, where), True))
            emitter.bindings[b.name] = self.bindings[-1].function
        for rule in settlement.rules:
            if rule.case not in ("self_drawn", "discard"):
                raise CodegenError(f"{rule.span}: the compiled checker does not know the payment case {rule.case!r}")
            payments = []
            for payment in rule.payments:
                payer = {"each loser": "True", "discarder": "c.losers[k].discarder",
                         "each other": "not c.losers[k].discarder"}.get(payment.payer)
                if payer is None:
                    raise CodegenError(f"{payment.span}: the compiled checker does not know the payer "
                                       f"{payment.payer!r}")
                amount = emitter.number(payment.amount, Where("settle", loser="k"))
                payments.append((payer, amount, _source_text(payment.span)))
            self.rules.append(PaymentRule(rule.case, payments))
        if settlement.pot is not None:
            self.pot = emitter.number(settlement.pot, Where("settle"))
        if settlement.liable is not None:
            self.liable = emitter.condition(settlement.liable, Where("settle", loser="k"))
        for i, r in enumerate(settlement.requirements):
            english = f" ({r.english})" if r.english else ""
            self.settle_requirements.append(Requirement(i, r.name, f"{r.name}: {_source_text(r.condition.span)}",
                                                        emitter.condition(r.condition, Where("settle")),
                                                        f"requirement {r.name}{english} is not met"))

    # -- conveniences for the templates

    @property
    def hand_fans(self) -> list[Fan]:
        return [f for f in self.fans if f.scope == "hand"]

    @property
    def loser_fans(self) -> list[Fan]:
        return [f for f in self.fans if f.scope == "loser"]

    @property
    def mask_words(self) -> int:
        return max(1, (len(self.fans) + 63) // 64)

    def cut_masks(self) -> list[list[int]]:
        """Per fan: the fans it removes outright when it counts (不计 without ×n, and its exclusive groups)."""
        masks = []
        for p in list(self.spec.patterns) + list(self.spec.loser_patterns):
            cut = {self.fan_index[e.target] for e in p.excludes if e.times is None}
            for group in self.spec.exclusive_groups:
                if p.name in group.members:
                    cut |= {self.fan_index[m] for m in group.members if m != p.name}
            masks.append([sum(1 << (i - 64 * w) for i in cut if i // 64 == w) for w in range(self.mask_words)])
        return masks

    def cut_names(self, index: int) -> list[str]:
        masks = self.cut_masks()[index]
        return [f.name for f in self.fans if (masks[f.index // 64] >> (f.index % 64)) & 1]

    def partial_cuts(self) -> tuple[list[int], list[tuple[int, int]]]:
        """(offsets, (target, times)) of the `不计 X ×n` exclusions, fan by fan."""
        offsets, cuts = [0], []
        for p in list(self.spec.patterns) + list(self.spec.loser_patterns):
            cuts += [(self.fan_index[e.target], e.times) for e in p.excludes if e.times is not None]
            offsets.append(len(cuts))
        return offsets, cuts

    def by_order(self) -> list[int]:
        return [f.index for f in sorted(self.fans, key=lambda f: f.order)]

    def preferred(self) -> list[int]:
        return [self.fan_index[name] for name in self.spec.preferred]

    def minimum_excluded(self) -> list[int]:
        return [self.fan_index[name] for name in self.spec.minimum_excluding]

    def orphans(self) -> list[int]:
        """decompose._orphans: ranks 1 and 9 of numbered suits and every honor, flowers aside."""
        flower_suits = {s.code for s in self.spec.suits if s.flowers}
        return [t.index for t in self.spec.tiles
                if t.suit not in flower_suits and (not t.numbered or t.rank in (1, 9))]

    def chow_starts(self) -> list[int]:
        """decompose._chow_from, its part that depends on the tiles only."""
        tiles = self.spec.tiles
        return [int(t.numbered and t.index + 2 < len(tiles) and tiles[t.index + 1].suit == tiles[t.index + 2].suit
                    == t.suit and tiles[t.index + 2].rank == t.rank + 2) for t in tiles]

    def flowers(self) -> int:
        flower_suits = {s.code for s in self.spec.suits if s.flowers}
        return _mask(t.index for t in self.spec.tiles if t.suit in flower_suits)

    def suit_bits(self) -> list[int]:
        """Per tile: a bit of its numbered suit, for `suits` (0 for other tiles)."""
        codes = list(dict.fromkeys(t.suit for t in self.spec.tiles if t.numbered))
        return [1 << codes.index(t.suit) if t.numbered else 0 for t in self.spec.tiles]

    def max_meld_tiles(self) -> int:
        return max([4] + [k.size for k in self.meld_kinds])

    def reasons(self) -> list[str]:
        return [r.reason for r in self.requirements]

    def no_shape_reason(self) -> str:
        names = [s.name.replace("_", " ") for s in self.spec.shapes] + [s.name for s in self.spec.shape_rules]
        shapes = ", ".join(names)
        return f"the tiles do not form a winning shape ({shapes})"


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Where:
    """Where an expression stands: its scope, the element of an enclosing count/all/any/sum, the loser."""

    scope: str  # "hand", "loser", "settle"
    element: str | None = None  # "tile", "kind", "group", "loser", "combo"
    loser: str | None = None  # C name of the loser being settled

    @property
    def var(self) -> str:
        assert self.element is not None
        return ELEMENT_VARIABLE[self.element]


@dataclass(frozen=True)
class Code:
    text: str
    kind: str  # "bool", "num", "text", "tile"


class Emitter:
    """IR expressions -> C expressions (as Cython source); count/all/any/sum become helper functions.

    A hand fan read by another fan, a requirement or a settlement value is read from c.n, its count in
    the decomposition: fans are counted in dependency order, before requirements that read them.
    """

    def __init__(self, model: Model):
        self.m = model
        self.spec = model.spec
        self.aggregates: list[Aggregate] = []
        self.definitions: dict[str, str] = {}  # top-level `let` -> C function
        self.scores: dict[str, str] = {}  # `score:` results -> C function
        self.bindings: dict[str, str] = {}  # settlement `let` -> C function
        self.reorder_waits = not any(_may_fail(self.spec, r.condition) for r in self.spec.requirements)
        self.context_slots = {k.name: k for k in model.context}
        self.option_slots = {o.name: o for o in model.options}
        self.tilesets = {ts.name: c_name for ts, (c_name, _, _) in zip(self.spec.tilesets, model.tilesets,
                                                                       strict=True)}
        self.tilesets.update({h.name: f"c.h.sets[{h.index}]" for h in model.hand_sets})

    # -- typed entry points

    def condition(self, expr: ir.Expr, where: Where) -> str:
        code = self.expr(expr, where)
        return code.text if code.kind == "bool" else f"({code.text} != 0)"

    def number(self, expr: ir.Expr, where: Where) -> str:
        return self.expr(expr, where).text

    def expr(self, expr: ir.Expr, where: Where) -> Code:
        emit = getattr(self, "_" + _snake(type(expr).__name__), None)
        if emit is None:
            raise CodegenError(f"{expr.span}: the compiled checker does not support the expression node "
                               f"{type(expr).__name__} yet")
        return emit(expr, where)

    # -- one emitter per node

    def _const(self, e: ir.Const, where: Where) -> Code:
        if isinstance(e.value, bool):
            return Code("True" if e.value else "False", "bool")
        if isinstance(e.value, int):
            if abs(e.value) > LIMIT:  # beyond what the compiled arithmetic holds: the interpreter answers
                return Code("too_large(c)", "num")
            return Code(str(e.value), "num")
        return Code(self.m.text(e.value), "text")

    def _var(self, e: ir.Var, where: Where) -> Code:
        match e.scope:
            case "hand":
                return self._hand_var(e)
            case "context" if e.name in ("seat", "dealer", "discarder"):
                return Code(f"c.h.{e.name}", "num")  # resolved with its default, as the interpreter reads it
            case "context" | "flag":
                key = self.context_slots[e.name]
                if key.kind not in ("KEY_FLAG", "KEY_COUNT", "KEY_SEAT", "KEY_INT"):
                    raise CodegenError(f"{e.span}: the compiled checker cannot read {e.name!r} in an expression")
                return Code(f"c.h.context[{key.c_name}]", "bool" if key.kind == "KEY_FLAG" else "num")
            case "option":
                option = self.option_slots[e.name]
                kind = {"bool": "bool", "int": "num", "str": "text"}[option.python_type]
                return Code(f"c.h.options[{option.c_name}]", kind)
            case "settle":
                if e.name == "total":
                    return Code("c.total", "num")
                if e.name == "paid":
                    return Code("paid_amount(c)", "num")
                if e.name == "loser_total" and where.loser is not None:
                    return Code(f"c.share_total[{where.loser}]", "num")
            case "late" if e.name == "counted_fans":
                return Code("c.counted_fans", "num")
            case "binding":
                # the interpreter's environments add `let`s in layers, the later first: top-level ones,
                # then `score:` ones (once a reading is scored), then the settlement's
                if where.scope in ("settle", "loser") and e.name in self.bindings and where.loser is not None:
                    return Code(f"{self.bindings[e.name]}(c, {where.loser})", "num")
                if where.scope != "hand" and e.name in self.scores:
                    return Code(f"{self.scores[e.name]}(c)", "num")
                if e.name in self.definitions:
                    return Code(f"{self.definitions[e.name]}(c)", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not know the name {e.name!r} ({e.scope})")

    def _hand_var(self, e: ir.Var) -> Code:
        codes = {"shape": Code("c.d.shape", "text"), "wait": Code("c.d.wait", "text"),
                 "waits": Code("hand_waits(c, False)", "num"), "shape_waits": Code("hand_waits(c, True)", "num"),
                 "suits": Code("c.suits", "num"), "opened": Code("c.opened", "bool"),
                 "red_fives": Code("c.h.red", "num"), "is_dealer": Code("(c.h.seat == c.h.dealer)", "bool"),
                 "wilds": Code("wilds_held(c)", "num"), "substituted": Code("c.substituted", "num")}
        if e.name not in codes:
            raise CodegenError(f"{e.span}: the compiled checker does not know the hand value {e.name!r}")
        return codes[e.name]

    def _pattern_ref(self, e: ir.PatternRef, where: Where) -> Code:
        if self.spec.pattern(e.name).scope == "loser":  # not memoised, as in the interpreter: it depends on the loser
            if where.loser is None:
                raise CodegenError(f"{e.span}: the loser fan {e.name!r} is read where no loser is known")
            return Code(f"{self.m.fan_functions[e.name]}(c, {where.loser})", "num")
        return Code(f"c.n[{self.m.fan_functions[e.name].upper()}]", "num")  # Fan.constant

    def _item(self, e: ir.Item, where: Where) -> Code:
        var = where.var
        if e.element in ("tile", "kind"):
            codes = {"suit": Code(f"TILE_SUIT[{var}]", "text"), "rank": Code(f"TILE_RANK[{var}]", "num"),
                     "numbered": Code(f"TILE_NUMBERED[{var}]", "bool"),
                     "honor": Code(f"(not TILE_NUMBERED[{var}])", "bool"), "tile": Code(var, "tile"),
                     "copies": Code(f"c.held[{var}]", "num"), "konged": Code(f"has_tile(c.konged, {var})", "bool")}
        elif e.element == "group":
            codes = {"chow": Code(f"({var}.kind == CHOW)", "bool"), "pair": Code(f"({var}.kind == PAIR)", "bool"),
                     "kong": Code(f"({var}.kind == KONG)", "bool"),
                     "pung": Code(f"({var}.kind == PUNG or {var}.kind == KONG)", "bool"),
                     "concealed": Code(f"{var}.concealed", "bool"),
                     "exposed": Code(f"(not {var}.concealed)", "bool"),
                     "declared": Code(f"{var}.declared", "bool"), "opens": Code(f"{var}.opens", "bool"),
                     "suit": Code(f"TILE_SUIT[{var}.tile]", "text"), "rank": Code(f"TILE_RANK[{var}.tile]", "num"),
                     "tile": Code(f"{var}.tile", "tile"), "with_win": Code(f"{var}.with_win", "bool"),
                     "size": Code(f"{var}.size", "num"),
                     "numbered": Code(f"(({var}.tiles & ~NUMBERED) == 0)", "bool"),
                     "honor": Code(f"(({var}.tiles & NUMBERED) == 0)", "bool")}
            if e.name not in codes:  # a meld kind's name: Evaluator._group_attr compares it with the group's kind
                kinds = {v: c_name for c_name, v in self.m.group_kinds}
                return Code(f"({var}.kind == {kinds[e.name]})" if e.name in kinds else "False", "bool")
        elif e.element == "loser":
            codes = {name: Code(f"c.losers[{var}].{name}", "num" if name == "seat" else "bool")
                     for name in ("dealer", "discarder", "opened", "seat")}
        elif e.element == "combo":
            codes = {"step": Code("combo_step(c, combo, k)", "num"),
                     "numbered": Code("combo_numbered(c, combo, k)", "bool")}
        else:
            codes = {}
        if e.name not in codes:
            raise CodegenError(f"{e.span}: the compiled checker does not know {e.element} attribute {e.name!r}")
        return codes[e.name]

    def _item_tile_set(self, e: ir.ItemTileSet, where: Where) -> Code:
        mask = self.tilesets[e.tileset]
        var = where.var
        if e.element in ("tile", "kind"):
            return Code(f"has_tile({mask}, {var})", "bool")
        tiles = {"group": f"{var}.tiles", "combo": "combo_tiles(combo, k)"}.get(e.element)
        if tiles is None:
            raise CodegenError(f"{e.span}: the compiled checker cannot test a {e.element} against a tile set")
        return Code(f"(({tiles} & ~{mask}) == 0)" if e.every else f"(({tiles} & {mask}) != 0)", "bool")

    def _tile_of(self, e: ir.TileOf, where: Where) -> Code:
        tiles = {"win": "c.win", "pair": "pair_tile(c)", "seat_wind": "wind_tile(c, c.h.seat_wind)",
                 "round_wind": "wind_tile(c, c.h.round_wind)"}
        if e.name not in tiles:
            raise CodegenError(f"{e.span}: the compiled checker does not know the tile {e.name!r}")
        return Code(tiles[e.name], "tile")

    def _tile_attr(self, e: ir.TileAttr, where: Where) -> Code:
        tile = self.expr(e.tile, where).text
        if e.name == "suit":
            return Code(f"suit_of(c, {tile})", "text")
        if e.name == "rank":
            return Code(f"rank_of(c, {tile})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not know the tile attribute {e.name!r}")

    def _in_tile_set(self, e: ir.InTileSet, where: Where) -> Code:
        return Code(f"has_tile({self.tilesets[e.tileset]}, {self.expr(e.tile, where).text})", "bool")

    def _loser_attr(self, e: ir.LoserAttr, where: Where) -> Code:
        if where.loser is None or e.name not in ("dealer", "discarder", "opened", "seat"):
            raise CodegenError(f"{e.span}: the compiled checker cannot read loser.{e.name} here")
        return Code(f"c.losers[{where.loser}].{e.name}", "num" if e.name == "seat" else "bool")

    def _aggregate(self, e: ir.Aggregate, where: Where) -> Code:
        if e.function not in ("count", "all", "any", "sum") or e.source not in SOURCES:
            raise CodegenError(f"{e.span}: the compiled checker does not support {e.function}({e.source}, ...)")
        if e.source in ("tiles", "kinds") and isinstance(e.body, ir.ItemTileSet) and e.function != "sum":
            return self._held_in_set(e)
        element = SOURCES[e.source]
        # inside the helper the loser being settled is its parameter `loser`, or the loser looked at
        loser = "l" if element == "loser" else ("loser" if where.loser is not None else None)
        inner = Where(where.scope, element, loser)
        if e.body is None:
            body = ""  # count(SOURCE): every element
        elif e.function == "sum":
            body = self.number(e.body, inner)
        else:
            body = self.condition(e.body, inner)
        short = e.function in ("all", "any") and e.body is not None and not _may_fail(self.spec, e.body)
        return self._helper(Aggregate(f"{e.function}_{len(self.aggregates):02d}_{e.source}", _source_text(e.span),
                                      e.function, e.source, body, GROUP_FILTERS.get(e.source),
                                      where.loser is not None, short), where)

    def _next_tile(self, e: ir.NextTile, where: Where) -> Code:
        return Code(f"next_tile(c, {self.expr(e.tile, where).text})", "tile")

    def _previous_tile(self, e: ir.PreviousTile, where: Where) -> Code:
        return Code(f"previous_tile(c, {self.expr(e.tile, where).text})", "tile")

    def _indicated(self, e: ir.Indicated, where: Where) -> Code:
        slots = self.m.indicator_keys()
        if e.key not in slots:
            raise CodegenError(f"{e.span}: the compiled checker cannot read indicators from {e.key!r}")
        return Code(f"indicated(c, {slots.index(e.key)})", "num")

    def _held_in_set(self, e: ir.Aggregate) -> Code:
        """all/any/count over the tiles held and a tile set, as operations on the mask of tiles held."""
        mask = self.tilesets[e.body.tileset]  # type: ignore[union-attr]
        if e.function == "all":
            return Code(f"((c.held_tiles & ~{mask}) == 0)", "bool")
        if e.function == "any":
            return Code(f"((c.held_tiles & {mask}) != 0)", "bool")
        if e.source == "kinds":
            return Code(f"popcount(c.held_tiles & {mask})", "num")
        return Code(f"count_held(c, {mask})", "num")

    def _combinations(self, e: ir.Combinations, where: Where) -> Code:
        """A combination count outside 套算一次: every `size` sets of the source that meet the condition."""
        if e.source not in GROUP_FILTERS or not 2 <= e.size <= 4:
            raise CodegenError(f"{e.span}: the compiled checker does not support combinations({e.source}, {e.size})")
        body = self.condition(e.body, Where(where.scope, "combo", "loser" if where.loser else None))
        return self._helper(Aggregate(f"combinations_{len(self.aggregates):02d}_{e.source}", _source_text(e.span),
                                      "combinations", e.source, body, GROUP_FILTERS[e.source],
                                      where.loser is not None, False, e.size), where)

    def _combo_same(self, e: ir.ComboSame, where: Where) -> Code:
        if e.attr not in ("suit", "rank", "tile"):
            raise CodegenError(f"{e.span}: the compiled checker cannot compare the {e.attr!r} of sets")
        return Code(f"combo_{'distinct' if e.distinct else 'same'}(c, combo, k, ATTR_{e.attr.upper()})", "bool")

    def _helper(self, helper: Aggregate, where: Where) -> Code:
        """Call a helper function, sharing one with an identical body."""
        same = next((a for a in self.aggregates if dataclasses.replace(a, name=helper.name) == helper), None)
        if same is None:
            self.aggregates.append(helper)
        args = "c" + (f", {where.loser}" if where.loser is not None else "")
        kind = "bool" if helper.function in ("all", "any") else "num"
        return Code(f"{(same or helper).name}({args})", kind)

    def _call(self, e: ir.Call, where: Where) -> Code:
        args = [self.number(a, where) for a in e.args]
        if e.function in ("min", "max") and len(args) >= 2:
            return Code(f"{e.function}({', '.join(args)})", "num")
        if e.function == "abs" and len(args) == 1:
            return Code(f"abs({args[0]})", "num")
        if e.function == "roundup" and len(args) == 2:
            return Code(f"roundup(c, {args[0]}, {args[1]})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not support the function {e.function}()")

    def _binary(self, e: ir.Binary, where: Where) -> Code:
        if e.op in ("and", "or"):
            return self._logic(e, where)
        left, right = self.expr(e.left, where).text, self.expr(e.right, where).text
        if e.op in COMPARISONS:
            return Code(f"({left} {e.op} {right})", "bool")
        if e.op in CHECKED_ARITHMETIC:
            return Code(f"{CHECKED_ARITHMETIC[e.op]}(c, {left}, {right})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not support the operator {e.op!r}")

    def _logic(self, e: ir.Binary, where: Where) -> Code:
        """`a and b and c`: the operands that compute the hand's waits go last, so that a false (for `or`,
        a true) cheap operand spares that search. The result is the same: the operands have no effects,
        and computing waits can fail only when a requirement can (then the order is kept)."""
        operands = _chain(e, e.op)
        if self.reorder_waits:
            operands = sorted(operands, key=lambda o: _reads_waits(self.spec, o))
        return Code("(" + f" {e.op} ".join(self.condition(o, where) for o in operands) + ")", "bool")

    def _not(self, e: ir.Not, where: Where) -> Code:
        return Code(f"(not {self.condition(e.operand, where)})", "bool")

    def _negate(self, e: ir.Negate, where: Where) -> Code:
        return Code(f"(-{self.number(e.operand, where)})", "num")

    def _conditional(self, e: ir.Conditional, where: Where) -> Code:
        """`a if p else b if q else c`: a chain of conditions in one pair of parentheses."""
        then, otherwise = self.expr(e.then, where), self.expr(e.otherwise, where)
        kind = then.kind if then.kind == otherwise.kind else "num"
        rest = otherwise.text[1:-1] if isinstance(e.otherwise, ir.Conditional) else otherwise.text
        return Code(f"({then.text} if {self.condition(e.condition, where)} else {rest})", kind)


# ---------------------------------------------------------------- analysis


def _check_supported(spec: ir.Spec) -> None:
    """Fail on IR this back end does not know: a new field that is set, a principle, a shape."""
    for obj in [spec, spec.settlement, *spec.patterns, *spec.loser_patterns, *spec.shapes, *spec.meld_kinds,
                *spec.tiles, *spec.suits, *spec.shape_rules]:
        if obj is None:
            continue
        known = KNOWN_FIELDS[type(obj)]
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if f.name not in known and value not in (None, False, (), "", 0) and value != f.default:
                raise CodegenError(f"{spec.path}: the compiled checker does not support "
                                   f"{type(obj).__name__}.{f.name} yet")
    unknown = [p for p in spec.principles if p not in PRINCIPLES]
    if unknown:
        raise CodegenError(f"{spec.path}: the compiled checker does not implement the accounting principles "
                           + ", ".join(unknown) + " yet")


def _reads_waits(spec: ir.Spec, expr: ir.Expr | None, seen: frozenset[str] = frozenset()) -> bool:
    """The expression reads `waits` or `shape_waits`, directly or through the fans and `let`s it uses."""
    definitions = {b.name: b.expr for b in spec.definitions}
    for node in ir.walk(expr):
        if isinstance(node, ir.Var) and node.scope == "hand" and node.name in ("waits", "shape_waits"):
            return True
        if isinstance(node, ir.Var) and node.scope == "binding" and node.name in definitions and node.name not in seen:
            if _reads_waits(spec, definitions[node.name], seen | {node.name}):
                return True
        if isinstance(node, ir.PatternRef) and node.name not in seen:
            p = spec.pattern(node.name)
            if _reads_waits(spec, p.condition, seen | {p.name}) or _reads_waits(spec, p.value.expr, seen | {p.name}):
                return True
    return False


def _chain(expr: ir.Expr, op: str) -> list[ir.Expr]:
    """The operands of `a op b op c`, in order."""
    if isinstance(expr, ir.Binary) and expr.op == op:
        return _chain(expr.left, op) + _chain(expr.right, op)
    return [expr]


def _may_fail(spec: ir.Spec, expr: ir.Expr) -> bool:
    """Evaluating the expression may hand the case to the reference interpreter (see CHECKED_ARITHMETIC), or
    compute `waits`; then all(...) and any(...) look at every element, as Evaluator._aggregate does."""
    for node in ir.walk(expr):
        if isinstance(node, ir.Binary) and node.op in ("*", "/", "^"):  # a sum beyond LIMIT is no error
            return True
        if isinstance(node, ir.TileOf) and node.name != "win":
            return True
        if isinstance(node, ir.Var) and (node.scope == "binding" or node.name in ("waits", "shape_waits")):
            return True
    return False


# ---------------------------------------------------------------- names and text


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _slug(text: str | None) -> str:
    """`_full_flush` from "Full flush": a readable C identifier suffix from ASCII words, or nothing."""
    words = re.findall(r"[a-z0-9]+", (text or "").lower()) if (text or "").isascii() else []
    return ("_" + "_".join(words))[:40] if words else ""


def _c_name(prefix: str, index: int, value: str) -> str:
    return f"{prefix}_{value}" if value.isidentifier() and value.isascii() else f"{prefix}_{index}"


def _mask(tiles) -> int:
    return sum(1 << t for t in set(tiles))


def _fan_line(p: ir.Pattern) -> str:
    """`清一色 "Full flush" 3: suits == 1`, as a comment above the fan's function."""
    value = str(p.value.amount) if p.value.expr is None else f"({_source_text(p.value.expr.span)})"
    each = " each" if p.value.per_occurrence else ""
    english = f' "{p.english}"' if p.english else ""
    loser = "loser " if p.scope == "loser" else ""
    return f"{loser}fan {p.name}{english} {value}{each}: {_source_text(p.condition.span)}"


def _source_text(span) -> str:
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
