"""What a rule book holds, filled from a spec's IR: its tiles, meld kinds and shapes, every fan with its rule in
the spec's notation and in words, scoring and settlement, the worked examples and rounds, and the round rules;
and the comparison of several variants."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

from dsl.book import figures
from dsl.book.principles import PrincipleNote, principle_notes
from dsl.book.prose import Prose, Reading
from dsl.book.round_prose import RuleGroup, round_rules
from dsl.book.teaching import example_about
from dsl.book.variantdiff import (
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
from dsl.book.worked import WorkedExample, WorkedRound, worked_example, worked_round
from dsl.frontend import ir
from dsl.frontend.formula import formula
from dsl.interp.interpreter import Interpreter
from dsl.vocabulary import FLOWERS_OF_A_FULL_SET

_PAYERS = {"each loser": "each loser", "each other": "each loser except the discarder",
           "discarder": "the discarder"}
_CASES = {"self_drawn": "Self-drawn win 自摸", "discard": "Win on a discard 点炮"}


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
    principles: tuple[PrincipleNote, ...] = ()  # what the accounting principles leave uncounted beside it

    @property
    def anchor(self) -> str:
        return f"fan-{self.pattern.name}"


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
    tile_count: str  # the sentence that opens the Tiles section
    tilesets: tuple[tuple[ir.TileSet, tuple[ir.Tile, ...]], ...]
    red_tiles: tuple[ir.Tile, ...]  # red fives, each one of the copies of its suit's 5
    indicator_cycles: tuple[tuple[ir.Tile, ...], ...]  # honors in "next tile" order, when indicators are read
    meld_kinds: tuple[tuple[ir.MeldKind, str], ...]
    shapes: tuple[str, ...]
    own_shapes: tuple[Reading, ...]  # the spec's own shapes (wins without sets), each with its condition
    unit: str  # what a total counts (番, 台, points ...) as the tables head it
    unit_word: str  # the same in a sentence: "fan" for 番
    cap: str | None  # the sentence on the cap, when the spec has one
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
    round_rules: tuple[RuleGroup, ...]  # empty when the spec has no `round:` block
    rounds: tuple[WorkedRound, ...]

    @property
    def failures(self) -> tuple[WorkedExample | WorkedRound, ...]:
        return tuple(e for e in self.examples + self.rounds if e.problems)

    def suit_tiles(self, suit: ir.Suit) -> tuple[ir.Tile, ...]:
        return tuple(self.spec.tiles[i] for i in suit.tiles)


@dataclass(frozen=True)
class Comparison:
    specs: tuple[ir.Spec, ...]
    rows: tuple[tuple[str, str | None, tuple[tuple[str, str | None], ...]], ...]
    diffs: tuple[VariantDiff, ...]

    @classmethod
    def of(cls, specs: list[ir.Spec]) -> Comparison:
        """A row per pattern (label, English, and per spec its value and the spec's name for it)."""
        ordered = sorted(specs, key=lambda s: s.name)
        found = pattern_rows(ordered)
        rows = tuple((r.label, _row_english(r, found), tuple(_cell(r, s) for s in ordered)) for r in found)
        return cls(tuple(ordered), rows, tuple(diff(a, b) for a, b in combinations(ordered, 2)))


def _row_english(row: PatternRow, rows: list[PatternRow]) -> str | None:
    """A row's English name; where another row's pattern goes by one of its names (地胡 is a first draw in one
    variant, a first discard in another), the words of its `id` too."""
    shared = any(other is not row and other.names & row.names for other in rows)
    if row.identity is None or not shared:
        return row.english
    words = row.identity.replace("_", " ")
    return f"{row.english} ({words})" if row.english else words


def _cell(row: PatternRow, spec: ir.Spec) -> tuple[str, str | None]:
    pattern = row.cells.get(spec.name)
    return cell_text(row, spec), (pattern.name if pattern else None)


def books(specs: list[ir.Spec]) -> list[Book]:
    """The book of each spec, each that extends another of them taught by its parent's examples too."""
    by_name = {spec.name: spec for spec in specs}
    return [book(spec, by_name.get(spec.parent or "")) for spec in specs]


def book(spec: ir.Spec, parent: ir.Spec | None = None) -> Book:
    """The book of a spec; given the spec it extends (whose book is written beside it), a fan none of the spec's
    own examples is about may be taught by one of the parent's, scored under this spec's rules."""
    prose = Prose(spec)
    checker = Interpreter(spec)
    examples = tuple(worked_example(spec, i + 1, e, checker) for i, e in enumerate(spec.examples))
    inherited = () if parent is None else tuple(
        replace(worked_example(spec, i + 1, e, checker), shown_in=parent.name) for i, e in enumerate(parent.examples))
    ordered = figures.sorted_patterns(spec)
    notes = principle_notes(spec, checker)
    entries = tuple(replace(_pattern_entry(spec, p, prose, examples + inherited), principles=notes.get(p.name, ()))
                    for p in ordered)
    settlement = spec.settlement
    return Book(
        spec=spec,
        file=Path(spec.path).name,
        overview=paragraphs(spec.doc or ""),
        tile_count=tile_count(spec),
        tilesets=tuple((t, tuple(spec.tiles[i] for i in sorted(t.tiles))) for t in named_tilesets(spec)),
        red_tiles=tuple(figures.red_tiles(spec).values()),
        indicator_cycles=indicator_cycles(spec),
        meld_kinds=tuple((k, meld_kind_text(spec, k)) for k in spec.meld_kinds),
        shapes=tuple(shape_text(s) for s in spec.shapes) + tuple(s.name for s in spec.shape_rules),
        own_shapes=tuple(Reading(s.name, s.english, formula(s.condition), prose.condition(s.condition))
                         for s in spec.shape_rules),
        unit=spec.unit,
        unit_word=unit_word(spec),
        cap=cap_sentence(spec),
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
        round_rules=round_rules(spec, prose),
        rounds=tuple(worked_round(spec, i + 1, r, checker) for i, r in enumerate(spec.round_examples)),
    )


def tile_count(spec: ir.Spec) -> str:
    """How many tiles the game is played with, flowers included, as the Tiles section opens. A spec that declares
    no flower tiles but scores the `flowers` a case counts plays with a full set of them beside its tiles."""
    declared = sum(t.copies for t in spec.tiles)
    flowers = sum(spec.tiles[i].copies for i in spec.flower_tiles())
    if not flowers and _reads_flowers(spec):
        return (f"{declared + FLOWERS_OF_A_FULL_SET} tiles: the {declared} below and {FLOWERS_OF_A_FULL_SET} "
                "flowers, which are no part of a hand (a flower drawn is set aside, replaced from the wall, and "
                "counted).")
    return f"{declared} tiles, " + (f"{flowers} of them flowers." if flowers else "no flowers.")


def _reads_flowers(spec: ir.Spec) -> bool:
    """Some rule of the spec reads the `flowers` a case counts."""
    return any(isinstance(node, ir.Var) and node.scope == "context" and node.name == "flowers"
               for expr in all_expressions(spec) for node in ir.walk(expr))


def unit_word(spec: ir.Spec) -> str:
    """The spec's unit inside an English sentence: "fan" for 番, else the unit as the spec names it."""
    return "fan" if spec.unit == "番" else spec.unit


def cap_sentence(spec: ir.Spec) -> str | None:
    """The cap as the book says it: `cap 320 "滿糊 Limit"` ->
    "A hand pays at most 320 points (滿糊 Limit): a larger total is paid as 320." """
    if spec.cap is None:
        return None
    named = f" ({spec.cap_description})" if spec.cap_description else ""
    unless = (f", unless one fan alone is worth more than {spec.cap} (then the whole total is paid)"
              if spec.cap_unless_more else "")
    return (f"A hand pays at most {spec.cap} {unit_word(spec)}{named}: a larger total is paid as {spec.cap}"
            f"{unless}, and a result shows both the total and what is paid.")


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
        example=example_about(spec, p, (e for e in examples if e.shown_in is None))
        or example_about(spec, p, (e for e in examples if e.shown_in is not None)),
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
    return exprs + (_round_expressions(spec.rounds) if spec.rounds is not None else [])


def _round_expressions(rules: ir.RoundRules) -> list[ir.Expr]:
    exprs = [b.expr for b in rules.bindings] + [pay.amount for kong in rules.kongs for pay in kong.payments]
    exprs += [e for c in rules.checks for e in (c.payer, c.amount, c.receiver) if e is not None]
    return exprs + [p.amount for p in rules.penalties]


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
