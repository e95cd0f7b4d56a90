"""What a rule book holds, filled from a spec's IR: its tiles, meld kinds and shapes, every fan with its rule in
the spec's notation and in words, scoring and settlement, the worked examples and rounds, and the round rules;
and the comparison of several variants."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

from dsl.book import chrome, figures
from dsl.book.chapters import Block, Chapter, chapters, paragraphs
from dsl.book.definitions import SHAPES, Definition, Idioms, Phrase, definition, shape_definition
from dsl.book.options import OptionRow, PresetEntry, option_rows, preset_entries
from dsl.book.principles import PrincipleNote, principle_notes
from dsl.book.prose import Prose, Reading, Schedule
from dsl.book.round_prose import round_rules
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
_CASES = {"self_drawn": ("Self-drawn win", "自摸"), "discard": ("Win on a discard", "点炮")}


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
    definition: Definition  # what the fan is, in plain words: the card opens with it
    principles: tuple[PrincipleNote, ...] = ()  # what the accounting principles leave uncounted beside it
    schedules: tuple[Schedule, ...] = ()  # the tables its value or condition looks up

    @property
    def anchor(self) -> str:
        return f"fan-{self.pattern.name}"

    @property
    def note(self) -> str | None:
        """The spec's one-language doc, when the card does not already open with it."""
        return self.pattern.doc if self.definition.source != "note" else None


@dataclass(frozen=True)
class ShapeEntry:
    """A shape a hand may take, defined in words once; the cards name it."""

    names: Phrase
    definition: Phrase


@dataclass(frozen=True)
class PaymentCase:
    title: str
    payments: tuple[Reading, ...]


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
    shapes: tuple[ShapeEntry, ...]  # every shape the hand may take, the spec's own included, defined in words
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
    liable: Reading | None  # 包: the condition that makes one loser pay for every loser
    examples: tuple[WorkedExample, ...]  # the hands that teach the rules
    refusals: tuple[WorkedExample, ...]  # the examples of cases the checker refuses, for implementers
    chapters: dict[str, Chapter]  # by kind, in book order
    rounds: tuple[WorkedRound, ...]
    options: tuple[OptionRow, ...]
    presets: tuple[PresetEntry, ...]

    @property
    def failures(self) -> tuple[WorkedExample | WorkedRound, ...]:
        return tuple(e for e in self.examples + self.refusals + self.rounds if e.problems)

    @property
    def contents(self) -> tuple[tuple[str, str, str], ...]:
        """(anchor, Chinese, English) of every section of the page, in the order it prints them: the chapters
        the spec or its model fills (equipment, winning and scoring always, for the tiles, shapes and payments
        they hold), the fans and exclusions after scoring, the quick reference before the glossary."""
        always = ("equipment", "winning", "scoring")
        sections = [("overview", "概述", "Overview")] if self.overview else []
        for chapter in self.chapters.values():
            if chapter.kind == "glossary":
                sections.append(("reference", "速查", "Quick reference"))
            if chapter.written or chapter.kind in always:
                sections.append((chapter.kind, chapter.title, chapter.english))
            if chapter.kind == "scoring":
                sections += [("patterns", "番种", "Patterns"), ("exclusions", "不计", "Exclusions")]
        sections.append(("examples", "例", "Worked examples"))
        return tuple(sections) + ((("rounds", "局例", "Worked rounds"),) if self.rounds else ())

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
    idioms = Idioms(spec)
    checker = Interpreter(spec)
    teaching = [e for e in spec.examples if e.error is None]
    examples = tuple(worked_example(spec, i + 1, e, checker) for i, e in enumerate(teaching))
    refusals = tuple(worked_example(spec, i + 1, e, checker)
                     for i, e in enumerate(e for e in spec.examples if e.error is not None))
    inherited = () if parent is None else tuple(
        replace(worked_example(spec, i + 1, e, checker), shown_in=parent.name) for i, e in enumerate(parent.examples)
        if e.error is None)
    edges = figures.exclusion_edges(spec)
    links = _Links.of(spec, edges)
    notes = principle_notes(spec, checker)
    entries = tuple(replace(_pattern_entry(p, prose, idioms, links, examples + inherited),
                            principles=notes.get(p.name, ())) for p in figures.sorted_patterns(spec))
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
        shapes=shape_entries(spec, idioms, prose),
        own_shapes=tuple(Reading(s.name, s.english, formula(s.condition), prose.condition(s.condition))
                         for s in spec.shape_rules),
        unit=spec.unit,
        unit_word=unit_word(spec),
        cap=cap_sentence(spec),
        definitions=tuple(prose.named(d.name, d.expr) for d in spec.definitions),
        requirements=tuple(Reading(r.name, r.english, formula(r.condition), prose.condition(r.condition))
                           for r in spec.requirements),
        minimum=minimum_text(spec),
        minimum_amount=minimum_amount(spec),
        patterns=tuple(e for e in entries if e.pattern.scope == "hand"),
        loser_patterns=tuple(e for e in entries if e.pattern.scope != "hand"),
        edges=tuple(figures.edge_label(p, x, chrome.word(spec.language, "不计")) for p, x in edges),
        graph=figures.exclusion_graph(spec),
        score=tuple(prose.named(b.name, b.expr) for b in spec.score),
        bindings=tuple(prose.named(b.name, b.expr) for b in (settlement.bindings if settlement else ())),
        payment_cases=tuple(_payment_case(rule, prose, spec.language)
                            for rule in (settlement.rules if settlement else ())),
        pot=Reading("pot", None, formula(settlement.pot), prose.quantity(settlement.pot))
        if settlement is not None and settlement.pot is not None else None,
        liable=Reading("liable", None, formula(settlement.liable), prose.condition(settlement.liable))
        if settlement is not None and settlement.liable is not None else None,
        examples=examples,
        refusals=refusals,
        chapters=chapters(spec, round_rules(spec, prose)),
        rounds=tuple(worked_round(spec, i + 1, r, checker) for i, r in enumerate(spec.round_examples)),
        options=option_rows(spec),
        presets=preset_entries(spec),
    )


def shape_entries(spec: ir.Spec, idioms: Idioms, prose: Prose) -> tuple[ShapeEntry, ...]:
    """The built-in shapes of the spec, then its own, each defined in both languages."""
    entries = []
    for shape in spec.shapes:
        defined = shape_definition(shape.name, spec.hand_size)
        if not shape.chows:
            defined = Phrase(defined.zh + "不能有顺子。", defined.en + " No chows.")
        entries.append(ShapeEntry(SHAPES[shape.name], defined))
    for rule in spec.shape_rules:
        read = idioms.clause(rule.condition)
        defined = (Phrase(read.zh + "。", read.en[:1].upper() + read.en[1:] + ".") if read is not None
                   else Phrase("", prose.condition(rule.condition)))
        entries.append(ShapeEntry(Phrase(rule.name, rule.english or ""), defined))
    return tuple(entries)


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
    """The spec's unit inside an English sentence: its English (`unit 台 "tai"`), else "fan" for 番, else the
    unit as the spec names it."""
    return spec.unit_english or ("fan" if spec.unit == "番" else spec.unit)


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


@dataclass(frozen=True)
class _Links:
    """What the book says about each fan besides its own rule, gathered in one pass over the spec (a fan's entry
    looks it up, so the book takes time in proportion to the spec's size)."""

    spec: ir.Spec
    excluded_by: dict[str, tuple[tuple[str, str], ...]]  # fan -> the (fan, " ×n") that exclude it
    groups: dict[str, tuple[ir.ExclusiveGroup, ...]]  # fan -> the exclusive groups it is in

    @classmethod
    def of(cls, spec: ir.Spec, edges: list[tuple[ir.Pattern, ir.Exclusion]]) -> _Links:
        excluded_by: dict[str, list[tuple[str, str]]] = {}
        for q, x in edges:
            excluded_by.setdefault(x.target, []).append((q.name, figures.times_text(x)))
        groups: dict[str, list[ir.ExclusiveGroup]] = {}
        for group in spec.exclusive_groups:
            for member in group.members:
                found = groups.setdefault(member, [])
                if not found or found[-1] is not group:  # a member written twice is in its group once
                    found.append(group)
        return cls(spec, {name: tuple(by) for name, by in excluded_by.items()},
                   {name: tuple(gs) for name, gs in groups.items()})


def _pattern_entry(p: ir.Pattern, prose: Prose, idioms: Idioms, links: _Links,
                   examples: tuple[WorkedExample, ...]) -> PatternEntry:
    return PatternEntry(
        pattern=p,
        value=value_text(p.value),
        short_value=short_value(p.value),
        rule=formula(p.condition),
        description=describe_pattern(p, prose),
        excludes=tuple((x.target, figures.times_text(x)) for x in p.excludes),
        excluded_by=links.excluded_by.get(p.name, ()),
        groups=links.groups.get(p.name, ()),
        example=example_about(links.spec, p, (e for e in examples if e.shown_in is None))
        or example_about(links.spec, p, (e for e in examples if e.shown_in is not None)),
        definition=definition(p, idioms, prose),
        schedules=prose.schedules(p.value.expr, p.condition),
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


def _payment_case(rule: ir.PaymentRule, prose: Prose, language: str) -> PaymentCase:
    readings = tuple(Reading(_PAYERS.get(p.payer, p.payer), None, formula(p.amount), prose.quantity(p.amount),
                             prose.schedules(p.amount)) for p in rule.payments)
    english, chinese = _CASES.get(rule.case, (rule.case, ""))
    return PaymentCase(f"{english} {chrome.word(language, chinese)}".rstrip(), readings)


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
