"""IR -> the rule reference: Markdown and HTML books, an index and a variant comparison.

Every worked example is run through the interpreter while the book is written, and the book shows
what the checker answered; an example whose answer disagrees with its expectation is marked in the
book, and render_all() refuses it, so a wrong example cannot be published.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import jinja2
from markupsafe import Markup

from . import figures, ir
from .case import read_case
from .examples import check_example
from .interpreter import Interpreter
from .notation import HandError, tile_codes
from .prose import Prose, formula
from .source import SpecError, error
from .variantdiff import (
    ABSENT,
    PatternRow,
    VariantDiff,
    cell_text,
    diff,
    meld_kind_text,
    minimum_amount,
    minimum_text,
    named_tilesets,
    pattern_rows,
    shape_text,
    short_value,
    value_text,
)

TEMPLATES = Path(__file__).resolve().parent / "templates" / "docs"
_SHOWN_ELSEWHERE = ("hand", "win", "melds", "other_melds")
_PAYERS = {"each loser": "each loser", "each other": "each loser except the discarder",
           "discarder": "the discarder"}
_CASES = {"self_drawn": "Self-drawn win 自摸", "discard": "Win on a discard 点炮"}
PRINCIPLES = {
    "不重复": "a fan implied by a larger one is not counted again (the 不计 lists)",
    "不拆移": "a set is not split up or moved to make another fan",
    "不得相同": "sets already combined into a fan are not combined into the same fan again",
    "套算一次": "a set already combined into a fan is combined at most once more",
    "就高不就低": "of every reading of the hand, the one worth the most counts",
}


@dataclass(frozen=True)
class Meld:
    kind: str
    tiles: tuple[ir.Tile, ...]
    text: str


@dataclass(frozen=True)
class WorkedExample:
    number: int
    example: ir.Example
    concealed: tuple[ir.Tile, ...]
    win: ir.Tile | None
    melds: tuple[Meld, ...]
    others: tuple[tuple[str, tuple[Meld, ...]], ...]
    context: tuple[tuple[str, str], ...]
    expectation: str
    result: dict
    problems: tuple[str, ...]
    roles: tuple[str, ...]  # per seat: "winner, dealer", "discarder", ...
    results: tuple[tuple[str, object], ...]  # the spec's `score:` results and the pot, as the checker gave them

    @property
    def anchor(self) -> str:
        return f"example-{self.number}"

    @property
    def hand_text(self) -> str:
        return dict(self.example.case).get("hand", "")  # type: ignore[return-value]


@dataclass(frozen=True)
class PatternEntry:
    pattern: ir.Pattern
    value: str
    short_value: str
    rule: str
    description: str
    excludes: tuple[tuple[str, str], ...]  # (pattern, " ×n" or "")
    excluded_by: tuple[tuple[str, str], ...]
    groups: tuple[ir.ExclusiveGroup, ...]
    example: WorkedExample | None

    @property
    def anchor(self) -> str:
        return f"fan-{self.pattern.name}"


@dataclass(frozen=True)
class Reading:
    """A named rule shown as its formula and in words."""

    name: str
    english: str | None
    rule: str
    words: str


@dataclass(frozen=True)
class PaymentCase:
    title: str
    payments: tuple[Reading, ...]


@dataclass(frozen=True)
class Block:
    """A paragraph (one item) or a bulleted list of the spec's own doc text."""

    kind: str  # "p" or "ul"
    items: tuple[str, ...]


@dataclass(frozen=True)
class Book:
    spec: ir.Spec
    file: str
    overview: tuple[Block, ...]
    tilesets: tuple[tuple[ir.TileSet, tuple[ir.Tile, ...]], ...]
    red_tiles: tuple[ir.Tile, ...]  # red fives, each one of the copies of its suit's 5
    indicator_cycles: tuple[tuple[ir.Tile, ...], ...]  # honors in "next tile" order, when indicators are read
    meld_kinds: tuple[tuple[ir.MeldKind, str], ...]
    shapes: tuple[str, ...]
    definitions: tuple[Reading, ...]
    requirements: tuple[Reading, ...]
    minimum: str
    minimum_amount: str | None
    patterns: tuple[PatternEntry, ...]
    loser_patterns: tuple[PatternEntry, ...]
    edges: tuple[str, ...]
    graph: str | None
    score: tuple[Reading, ...]
    bindings: tuple[Reading, ...]
    payment_cases: tuple[PaymentCase, ...]
    pot: Reading | None
    examples: tuple[WorkedExample, ...]

    @property
    def failures(self) -> tuple[WorkedExample, ...]:
        return tuple(e for e in self.examples if e.problems)

    def suit_tiles(self, suit: ir.Suit) -> tuple[ir.Tile, ...]:
        return tuple(self.spec.tiles[i] for i in suit.tiles)


# ---------------------------------------------------------------- entry points


def render_all(specs: list[ir.Spec], out_dir: Path) -> dict[Path, str]:
    """Path -> content of every page; a spec example that disagrees with the checker is an error."""
    books = [book(spec) for spec in specs]
    failures = [(b, e) for b in books for e in b.failures]
    if failures:
        raise SpecError([d for b, e in failures for d in error(_failure_text(b, e), e.example.span).diagnostics])
    return render_books(books, out_dir)


def render_books(books: list[Book], out_dir: Path) -> dict[Path, str]:
    """Every page of these books, failing examples included (marked as such)."""
    env = _environment()
    files: dict[Path, str] = {}
    for b in books:
        files[out_dir / f"{b.spec.name}.md"] = _tidy(env.get_template("book.md.j2").render(book=b))
        files[out_dir / f"{b.spec.name}.html"] = env.get_template("book.html.j2").render(book=b)
        if b.graph is not None:
            files[out_dir / f"{b.spec.name}.exclusions.svg"] = b.graph + "\n"
    comparison = Comparison.of([b.spec for b in books])
    files[out_dir / "index.html"] = env.get_template("index.html.j2").render(books=books, comparison=comparison)
    files[out_dir / "compare.html"] = env.get_template("compare.html.j2").render(comparison=comparison)
    files[out_dir / "compare.md"] = _tidy(env.get_template("compare.md.j2").render(comparison=comparison))
    return files


def render_diff(a: ir.Spec, b: ir.Spec, html: bool = False) -> str:
    """The diff of two variants as Markdown, or as a standalone HTML page."""
    if html:
        return _environment().get_template("diff.html.j2").render(diff=diff(a, b))
    return _tidy(_environment().get_template("diff.md.j2").render(diff=diff(a, b)))


def failure_report(book_: Book) -> list[str]:
    return [_failure_text(book_, e) for e in book_.failures]


def _failure_text(b: Book, e: WorkedExample) -> str:
    return f"{b.spec.name}: example {e.example.title!r} disagrees with the checker: " + "; ".join(e.problems)


# ---------------------------------------------------------------- one book


def book(spec: ir.Spec) -> Book:
    prose = Prose(spec)
    checker = Interpreter(spec)
    examples = tuple(_worked(spec, i + 1, e, checker) for i, e in enumerate(spec.examples))
    ordered = figures.sorted_patterns(spec)
    entries = tuple(_pattern_entry(spec, p, prose, examples) for p in ordered)
    settlement = spec.settlement
    return Book(
        spec=spec,
        file=Path(spec.path).name,
        overview=paragraphs(spec.doc or ""),
        tilesets=tuple((t, tuple(spec.tiles[i] for i in sorted(t.tiles))) for t in named_tilesets(spec)),
        red_tiles=tuple(figures.red_tiles(spec).values()),
        indicator_cycles=indicator_cycles(spec),
        meld_kinds=tuple((k, meld_kind_text(spec, k)) for k in spec.meld_kinds),
        shapes=tuple(shape_text(s) for s in spec.shapes),
        definitions=tuple(Reading(d.name, None, formula(d.expr), prose.reading(d.expr)) for d in spec.definitions),
        requirements=tuple(Reading(r.name, r.english, formula(r.condition), prose.condition(r.condition))
                           for r in spec.requirements),
        minimum=minimum_text(spec),
        minimum_amount=minimum_amount(spec),
        patterns=tuple(e for e in entries if e.pattern.scope == "hand"),
        loser_patterns=tuple(e for e in entries if e.pattern.scope != "hand"),
        edges=tuple(figures.edge_label(p, x) for p, x in figures.exclusion_edges(spec)),
        graph=figures.exclusion_graph(spec),
        score=tuple(Reading(b.name, None, formula(b.expr), prose.reading(b.expr)) for b in spec.score),
        bindings=tuple(Reading(b.name, None, formula(b.expr), prose.reading(b.expr))
                       for b in (settlement.bindings if settlement else ())),
        payment_cases=tuple(_payment_case(rule, prose) for rule in (settlement.rules if settlement else ())),
        pot=Reading("pot", None, formula(settlement.pot), prose.quantity(settlement.pot))
        if settlement is not None and settlement.pot is not None else None,
        examples=examples,
    )


def _pattern_entry(spec: ir.Spec, p: ir.Pattern, prose: Prose,
                   examples: tuple[WorkedExample, ...]) -> PatternEntry:
    excluded_by = tuple((q.name, figures.times_text(x)) for q, x in figures.exclusion_edges(spec) if x.target == p.name)
    return PatternEntry(
        pattern=p,
        value=value_text(p.value),
        short_value=short_value(p.value),
        rule=formula(p.condition),
        description=describe_pattern(p, prose),
        excludes=tuple((x.target, figures.times_text(x)) for x in p.excludes),
        excluded_by=excluded_by,
        groups=tuple(g for g in spec.exclusive_groups if p.name in g.members),
        example=next((e for e in examples if p.name in _counted(e.result)), None),
    )


def describe_pattern(p: ir.Pattern, prose: Prose) -> str:
    """What the predicate says, as a sentence: "Scores 3 when the number of numbered suits held is 1."."""
    worth = str(p.value.amount) if p.value.expr is None else f"({prose.quantity(p.value.expr)})"
    verb = f"Adds {worth} to a loser's share" if p.scope == "loser" else f"Scores {worth}"
    condition = p.condition
    if not p.value.per_occurrence:
        return f"{verb} when {prose.condition(condition)}."
    counted = prose.quantity(condition)
    if isinstance(condition, ir.Aggregate | ir.Combinations | ir.Indicated | ir.Var) \
            and counted.startswith("the number of "):
        return f"{verb} for each of the {counted.removeprefix('the number of ')}."
    return f"{verb} for each of: {counted}."


def _counted(result: dict) -> set[str]:
    """Names of the fans the checker counted, the losers' share fans included."""
    names = {f["name"] for f in result.get("fans", ())} if result.get("winning") else set()
    return names | {f["name"] for share in result.get("shares", ()) for f in share["fans"]}


def _payment_case(rule: ir.PaymentRule, prose: Prose) -> PaymentCase:
    readings = tuple(Reading(_PAYERS.get(p.payer, p.payer), None, formula(p.amount), prose.quantity(p.amount))
                     for p in rule.payments)
    return PaymentCase(_CASES.get(rule.case, rule.case), readings)


def indicator_cycles(spec: ir.Spec) -> tuple[tuple[ir.Tile, ...], ...]:
    """The honors' "next tile" cycles (东 南 西 北, 白 发 中), shown when the spec reads indicators."""
    uses = any(isinstance(node, ir.NextTile | ir.PreviousTile | ir.Indicated)
               for expr in all_expressions(spec) for node in ir.walk(expr))
    if not uses and not spec.per_hand_tilesets():
        return ()
    cycles: list[tuple[ir.Tile, ...]] = []
    seen: set[int] = set()
    for tile in spec.tiles:
        skipped = bool(spec.indicator_tile) and spec.indicator_tile[tile.index] != tile.index
        if tile.numbered or tile.index in seen or skipped:
            continue  # a skipped tile (Wuhan's 中) is in no cycle
        cycle = []
        index = tile.index
        while index not in seen:
            seen.add(index)
            cycle.append(spec.tiles[index])
            index = spec.next_tile[index]
        cycles.append(tuple(cycle))
    return tuple(cycles)


def all_expressions(spec: ir.Spec) -> list[ir.Expr]:
    """Every top-level expression of a spec (patterns, requirements, lets, scoring, settlement)."""
    patterns = spec.patterns + spec.loser_patterns
    exprs = [p.condition for p in patterns] + [p.value.expr for p in patterns if p.value.expr is not None]
    exprs += [r.condition for r in spec.requirements] + [b.expr for b in spec.definitions + spec.score]
    if spec.settlement is not None:
        exprs += [b.expr for b in spec.settlement.bindings]
        exprs += [pay.amount for rule in spec.settlement.rules for pay in rule.payments]
        exprs += [spec.settlement.pot] if spec.settlement.pot is not None else []
    return exprs


def paragraphs(text: str) -> tuple[Block, ...]:
    """The spec's doc text as paragraphs and `- ` lists (indented lines continue a list item)."""
    blocks: list[Block] = []
    for chunk in text.strip().split("\n\n"):
        lines: list[str] = []
        items: list[str] = []
        for line in chunk.splitlines():
            if line.startswith("- "):
                items.append(line[2:].strip())
            elif items and line.startswith(" "):
                items[-1] += " " + line.strip()
            elif line.strip():
                lines.append(line.strip())
        if lines:
            blocks.append(Block("p", (" ".join(lines),)))
        if items:
            blocks.append(Block("ul", tuple(items)))
    return tuple(blocks)


# ---------------------------------------------------------------- worked examples


def _worked(spec: ir.Spec, number: int, example: ir.Example, checker: Interpreter) -> WorkedExample:
    case = example.case_dict()
    result = checker.evaluate(case)
    outcome = check_example(example, result)
    others = tuple((seat, tuple(_meld(spec, m) for m in melds))
                   for seat, melds in sorted(case.get("other_melds", {}).items()))
    return WorkedExample(
        number=number,
        example=example,
        concealed=_tiles(spec, case.get("hand", "")),
        win=next(iter(_tiles(spec, case["win"])), None) if isinstance(case.get("win"), str) else None,
        melds=tuple(_meld(spec, m) for m in case.get("melds", ())),
        others=others,
        context=tuple((k, _shown(v)) for k, v in sorted(case.items()) if k not in _SHOWN_ELSEWHERE),
        expectation=expectation_text(example),
        result=result,
        problems=outcome.problems,
        roles=_roles(spec, case),
        results=tuple((name, result[name]) for name in [b.name for b in spec.score] + ["pot"] if name in result),
    )


def _tiles(spec: ir.Spec, text: object) -> tuple[ir.Tile, ...]:
    """The tiles of an mpsz string; a case that is meant to be invalid may name no real tiles."""
    known = {t.code: t for t in spec.tiles} | figures.red_tiles(spec)
    codes = tile_codes(text) if isinstance(text, str) else []
    if not codes or any(code not in known for code in codes):
        return ()
    return tuple(known[code] for code in codes)


def _meld(spec: ir.Spec, text: str) -> Meld:
    kind, _, tiles = text.partition(" ")
    return Meld(kind, _tiles(spec, tiles), text)


def _shown(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _roles(spec: ir.Spec, case: dict) -> tuple[str, ...]:
    try:
        hand = read_case(spec, case)
    except HandError:
        return ()
    roles = []
    for seat in range(spec.players):
        names = ["winner"] if seat == hand.seat else []
        names += ["dealer"] if seat == hand.dealer else []
        names += ["discarder"] if seat == hand.discarder else []
        roles.append(", ".join(names))
    return tuple(roles)


def expectation_text(e: ir.Example) -> str:
    """What the spec says the checker must answer, in the spec's own words."""
    if e.error is not None:
        return f"error “{e.error}”"
    if e.no_win is not None:
        return f"no win “{e.no_win}”"
    parts = [f"{f.name}" + (f" {f.value}" if f.value is not None else "") + (f" ×{f.count}" if f.count > 1 else "")
             for f in e.fans or ()]
    if e.total is not None:
        parts.append(f"total {e.total}")
    text = ", ".join(parts)
    if e.payments is not None:
        text += "; payments " + " ".join(str(p) for p in e.payments)
    return text


# ---------------------------------------------------------------- index and comparison


@dataclass(frozen=True)
class Comparison:
    specs: tuple[ir.Spec, ...]
    rows: tuple[tuple[str, str | None, tuple[tuple[str, str | None], ...]], ...]
    diffs: tuple[VariantDiff, ...]

    @classmethod
    def of(cls, specs: list[ir.Spec]) -> Comparison:
        """A row per pattern (label, English, and per spec its value and the spec's name for it)."""
        ordered = sorted(specs, key=lambda s: s.name)
        rows = tuple((r.label, r.english, tuple(_cell(r, s) for s in ordered)) for r in pattern_rows(ordered))
        return cls(tuple(ordered), rows, tuple(diff(a, b) for a, b in combinations(ordered, 2)))


def _cell(row: PatternRow, spec: ir.Spec) -> tuple[str, str | None]:
    pattern = row.cells.get(spec.name)
    return cell_text(row, spec), (pattern.name if pattern else None)


# ---------------------------------------------------------------- templates


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(tile=_tile_markup, tile_symbols=lambda spec: Markup(figures.tile_symbols(spec)),
                       absent=ABSENT, principles=PRINCIPLES)
    env.filters["md"] = markdown_cell
    env.filters["signed"] = signed
    env.filters["svg"] = Markup
    return env


def _tile_markup(tile: ir.Tile, css_class: str = "tile") -> Markup:
    return Markup(figures.tile(tile, css_class))


def _tidy(markdown: str) -> str:
    """One blank line between blocks: optional template sections leave runs of them behind."""
    return re.sub(r"\n{3,}", "\n\n", markdown)


def markdown_cell(text: object) -> str:
    """Text that stays inside one Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def signed(amount: float) -> str:
    """A payment with its direction: +8 received, -8 paid, 0 untouched."""
    return f"{amount:+}" if amount else "0"
