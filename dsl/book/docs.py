"""IR -> the rule reference: Markdown and HTML books, an index and a variant comparison.

Every worked example and worked round is run through the interpreter while the book is written, and the
book shows what the checker answered; one whose answer disagrees with its expectation is marked in the
book, and render_all() refuses it, so a wrong example cannot be published.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import ClassVar

import jinja2
from markupsafe import Markup

from dsl.book import figures
from dsl.book.examples import _fans_text, _round_problems, check_example
from dsl.book.prose import Prose, formula
from dsl.book.variantdiff import (
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
from dsl.cases.case import read_case
from dsl.frontend import ir
from dsl.frontend.source import SpecError, error
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import NO_RULES, RoundSettler
from dsl.notation import HandError, tile_codes

TEMPLATES = Path(__file__).resolve().parent / "templates"
_SHOWN_ELSEWHERE = ("hand", "win", "melds", "other_melds")
_PAYERS = {"each loser": "each loser", "each other": "each loser except the discarder",
           "discarder": "the discarder"}
_CASES = {"self_drawn": "Self-drawn win 自摸", "discard": "Win on a discard 点炮"}
_KONG_PAYERS = {"each other": "each other player still in", "discarder": "the player whose discard was konged"}
_WIN_KEYS = ("hand", "win", "melds", "seat", "discarder", "self_drawn")  # said by a worked round's win row itself
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
    unit: str = "番"  # the spec's unit, heading the value column
    kind: ClassVar[str] = "example"

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
class RuleGroup:
    """The `round:` rules of one kind (kongs, draw checks ...) and what they have in common."""

    zh: str
    en: str
    intro: str
    rules: tuple[Reading, ...]


@dataclass(frozen=True)
class ShownHand:
    """A hand in a worked round: a winner's, a player's at the draw, or the tiles of a kong."""

    label: str
    concealed: tuple[ir.Tile, ...]
    win: ir.Tile | None
    melds: tuple[Meld, ...]
    hand_text: str
    note: str  # "kong_discard", "ready on 1p 9s", ...


@dataclass(frozen=True)
class RoundRow:
    """One line of a worked round's table: an event, or one check of a draw (number "")."""

    number: str
    text: str
    hands: tuple[ShownHand, ...]
    score: str  # a win's fans and total, as the checker gave them
    payments: tuple[object, ...]
    expected: tuple[int, ...] | None

    @property
    def wrong(self) -> bool:
        return self.expected is not None and tuple(self.payments) != self.expected


@dataclass(frozen=True)
class WorkedRound:
    number: int
    example: ir.RoundExample
    setup: tuple[tuple[str, str], ...]  # dealer, carried flags, options
    rows: tuple[RoundRow, ...]
    total: tuple[object, ...] | None  # the checker's; None when the round is invalid
    error: str | None
    problems: tuple[str, ...]
    kind: ClassVar[str] = "worked round"

    @property
    def anchor(self) -> str:
        return f"round-{self.number}"

    @property
    def total_wrong(self) -> bool:
        return self.example.total is not None and self.total != self.example.total


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


# ---------------------------------------------------------------- entry points


def render_all(specs: list[ir.Spec], out_dir: Path, shared: bool = True) -> dict[Path, str]:
    """Path -> content of every page; a spec example that disagrees with the checker is an error."""
    books = [book(spec) for spec in specs]
    failures = [(b, e) for b in books for e in b.failures]
    if failures:
        raise SpecError([d for b, e in failures for d in error(_failure_text(b, e), e.example.span).diagnostics])
    return render_books(books, out_dir, shared)


def render_books(books: list[Book], out_dir: Path, shared: bool = True) -> dict[Path, str]:
    """Every page of these books, failing examples included (marked as such); with `shared`, also the index
    and the comparison of the variants, which are about all the books together."""
    env = _environment()
    files: dict[Path, str] = {}
    for b in books:
        files[out_dir / f"{b.spec.name}.md"] = _tidy(env.get_template("book.md.j2").render(book=b))
        files[out_dir / f"{b.spec.name}.html"] = env.get_template("book.html.j2").render(book=b)
        if b.graph is not None:
            files[out_dir / f"{b.spec.name}.exclusions.svg"] = b.graph + "\n"
    if not shared:
        return files
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


def _failure_text(b: Book, e: WorkedExample | WorkedRound) -> str:
    return f"{b.spec.name}: {e.kind} {e.example.title!r} disagrees with the checker: " + "; ".join(e.problems)


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
        rounds=tuple(_worked_round(spec, i + 1, r, checker) for i, r in enumerate(spec.round_examples)),
    )


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
        win=_win_tile(spec, case),
        melds=tuple(_meld(spec, m) for m in case.get("melds", ())),
        others=others,
        context=tuple((k, _shown(v)) for k, v in sorted(case.items()) if k not in _SHOWN_ELSEWHERE),
        expectation=expectation_text(example),
        result=result,
        problems=outcome.problems,
        roles=_roles(spec, case),
        results=tuple((name, result[name]) for name in [b.name for b in spec.score] + ["pot"] if name in result),
        unit=spec.unit,
    )


def _win_tile(spec: ir.Spec, case: dict) -> ir.Tile | None:
    return next(iter(_tiles(spec, case["win"])), None) if isinstance(case.get("win"), str) else None


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
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
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


# ---------------------------------------------------------------- a whole hand of play


def round_rules(spec: ir.Spec, prose: Prose) -> tuple[RuleGroup, ...]:
    """The `round:` block by kind of rule, each rule as the spec writes it and in words."""
    rules = spec.rounds
    if rules is None:
        return ()
    flags = {k.name: k.description for k in spec.context}
    groups = (
        RuleGroup("杠", "Kongs", "Paid the moment the kong is made; a robbed kong (抢杠) was never made and pays "
                  "nothing.", tuple(_kong_reading(spec, k, prose) for k in rules.kongs)),
        RuleGroup("杠上炮", "Kong income passed on", "", tuple(_transfer_reading(t, flags) for t in rules.transfers)),
        RuleGroup("定义", "Named player conditions", "Used by the draw checks; each is about one player.",
                  tuple(_let_reading(b, prose) for b in rules.bindings)),
        RuleGroup("流局", "Draw checks", "At an exhaustive draw the checks run one after another, in this order. "
                  "A payer is any player still in; a receiver, any other player, winners included. A player is "
                  "ready when its final hand has a wait.", tuple(_check_reading(c, prose) for c in rules.checks)),
        RuleGroup("罚分", "Penalties", "A penalty is an event of the hand; play goes on afterwards.",
                  tuple(_penalty_reading(p, prose) for p in rules.penalties)),
        RuleGroup("宣告", "Declarations", "A declaration is an event of the hand.",
                  tuple(_declare_reading(d, flags) for d in rules.declarations)),
        RuleGroup("下一局", "The next hand", "When the hand ends, these context keys take new values for the next "
                  "hand (the round's next_context, given as the next round's context).",
                  tuple(_next_hand_reading(s, prose) for s in rules.next_hand_sets)),
    )
    return (RuleGroup("打法", "Play", _play_intro(rules), _play_rules(rules)),) + tuple(g for g in groups if g.rules)


def _play_intro(rules: ir.RoundRules) -> str:
    still_in = ("Players still in are those who have not won." if rules.winners_leave is not None
                else "Nobody leaves the hand: every player is still in until it ends.")
    known = ", ".join(["the dealer"] + ["the flags declarations set"] * bool(rules.declarations)
                      + ["the seats that have left"] * (rules.winners_leave is not None))
    several = "" if rules.one_winner else " Several players may win on one discard (一炮多响); each is settled alone."
    return f"{still_in} A win is scored and settled as above, with what the hand knows: {known}.{several}"


def _play_rules(rules: ir.RoundRules) -> tuple[Reading, ...]:
    readings = []
    if rules.winners_leave is not None:
        readings.append(Reading("血战到底", None, f"winners leave until {rules.winners_leave} have won",
                                "A player who wins leaves the hand and neither pays nor receives any more; the hand "
                                f"ends when {rules.winners_leave} have won, or at the exhaustive draw."))
    if rules.one_winner:
        readings.append(Reading("一炮单响", None, "one winner per discard", "Only one player may win on a discard."))
    return tuple(readings)


def _kong_reading(spec: ir.Spec, rule: ir.KongRule, prose: Prose) -> Reading:
    payer = prose.about("the payer")
    payments = "; ".join(f"{_KONG_PAYERS[p.payer]} pays it {payer.quantity(p.amount)}" for p in rule.payments)
    rule_text = f"kong {rule.kind}: " + "; ".join(f"{p.payer} pays {formula(p.amount)}" for p in rule.payments)
    return Reading(rule.kind, None, rule_text, f"When a player makes {_kind_text(spec, rule.kind)}, {payments}.")


def _transfer_reading(rule: ir.TransferRule, flags: dict[str, str]) -> Reading:
    return Reading(rule.flag, None, f"win {rule.flag}: discarder passes kong income",
                   f"A win with the flag {rule.flag}: {flags[rule.flag]}. The discarder then passes what its last "
                   "kong earned to the winner; several winners on that discard each receive it in full.")


def _let_reading(binding: ir.Binding, prose: Prose) -> Reading:
    return Reading(binding.name, None, f"{binding.name} = {formula(binding.expr)}",
                   prose.about("the player").reading(binding.expr) + ".")


def _penalty_reading(rule: ir.PenaltyRule, prose: Prose) -> Reading:
    return Reading(rule.name, rule.english, f"penalty {rule.name}: pays {formula(rule.amount)} to each other",
                   f"The offender pays {prose.about('the offender').quantity(rule.amount)} to each other player "
                   "still in.")


def _kind_text(spec: ir.Spec, kind: str) -> str:
    """A meld kind with its article and English name: "an added_kong (Kong added to a pung)"."""
    english = next((k.english for k in spec.meld_kinds if k.name == kind), None)
    return ("an " if kind[0] in "aeiou" else "a ") + kind + (f" ({english})" if english else "")


def _check_reading(check: ir.DrawCheck, prose: Prose) -> Reading:
    payer = prose.about("the payer")
    if check.amount is None or check.receiver is None:
        return Reading(check.name, check.english, f"draw {check.name}: each {formula(check.payer)} refunds kong income",
                       f"When {payer.clause(check.payer)}, it returns what its kongs earned to the players who "
                       "paid for them.")
    rule = (f"draw {check.name}: each {formula(check.payer)} pays {formula(check.amount)} "
            f"to each {formula(check.receiver)}")
    return Reading(check.name, check.english, rule,
                   f"When {payer.clause(check.payer)} and {prose.about('the receiver').clause(check.receiver)}, "
                   f"the payer pays the receiver {payer.quantity(check.amount)}.")


def _declare_reading(rule: ir.DeclareRule, flags: dict[str, str]) -> Reading:
    when = "next hand " if rule.next_hand else ""
    wins = ("the wins of the next hand (the round's next_hand, carried by the next round)" if rule.next_hand
            else "every later win of this hand")
    return Reading(rule.name, rule.english, f"declare {rule.name}: {when}sets {rule.flag}",
                   f"Sets the flag {rule.flag} on {wins}: {flags[rule.flag]}.")


def _next_hand_reading(rule: ir.NextHandSet, prose: Prose) -> Reading:
    return Reading(rule.key, None, f"next hand sets {rule.key} = {formula(rule.expr)}",
                   f"In the next hand, {rule.key} is {prose.quantity(rule.expr)}.")


# ---------------------------------------------------------------- worked rounds


def _worked_round(spec: ir.Spec, number: int, example: ir.RoundExample, checker: Interpreter) -> WorkedRound:
    record = json.loads(example.record)
    result = RoundSettler(spec, checker).settle(record)
    problems = tuple(_round_problems(example, result))
    setup = _round_setup(record)
    if result.get("next_context"):  # what `next hand sets` gives the next hand (its record's context)
        setup += (("下局 Next hand", _shown(result["next_context"])),)
    if not result["ok"]:
        return WorkedRound(number, example, setup, (), None, result["error"], problems)
    rows = _RoundTable(spec, checker, record.get("dealer", 0)).rows(record["events"], result["events"],
                                                                    dict(example.payments))
    return WorkedRound(number, example, setup, rows, tuple(result["payments"]), None, problems)


def _round_setup(record: dict) -> tuple[tuple[str, str], ...]:
    setup = [("庄 Dealer", f"seat {record.get('dealer', 0)}")]
    if record.get("carried"):
        setup.append(("上局 Carried", ", ".join(record["carried"])))
    if record.get("options"):
        setup.append(("选项 Options", _shown(record["options"])))
    if record.get("context"):
        setup.append(("本局 Context", _shown(record["context"])))
    return tuple(setup)


class _RoundTable:
    """The rows of a worked round: each event in words with the payments the checker gave it."""

    def __init__(self, spec: ir.Spec, checker: Interpreter, dealer: int):
        self.spec = spec
        self.checker = checker
        self.dealer = dealer
        self.rules = spec.rounds or NO_RULES

    def rows(self, events: list[dict], entries: list[dict], expected: dict[int, tuple[int, ...]]
             ) -> tuple[RoundRow, ...]:
        rows: list[RoundRow] = []
        for i, (event, entry) in enumerate(zip(events, entries, strict=True)):
            row = RoundRow(str(i + 1), "", (), "", tuple(entry["payments"]), expected.get(i))
            rows += self._event(row, event, entry)
        return tuple(rows)

    def _event(self, row: RoundRow, event: dict, entry: dict) -> list[RoundRow]:
        """The row of one event (`row` holds its number and payments), and a row per check of a draw."""
        match entry["event"]:
            case "win":
                return [self._win(row, event["win"], entry)]
            case "draw":
                return self._draw(row, event["draw"], entry["checks"])
            case "kong":
                return [self._kong(row, event)]
            case "penalty":
                rule = next(p for p in self.rules.penalties if p.name == entry["name"])
                return [replace(row, text=f"Seat {entry['seat']} pays the penalty {_named(rule)}")]
        return [replace(row, text=self._declaration(entry))]

    def _win(self, row: RoundRow, case: dict, entry: dict) -> RoundRow:
        seat = case["seat"]
        discarder = case.get("discarder", (seat - 1) % self.spec.players)
        how = "self-drawn" if case.get("self_drawn") else f"on seat {discarder}'s discard"
        score = _fans_text(entry).strip()
        if "transfer" in entry:
            score += f"; seat {discarder} passes on its kong income, {entry['transfer']}"
        return replace(row, text=f"Seat {seat} wins {how}", hands=(_shown_hand(self.spec, "", case, _case_note(case)),),
                       score=score)

    def _draw(self, row: RoundRow, hands: dict, checks: list[dict]) -> list[RoundRow]:
        shown = tuple(self._final_hand(int(seat), case) for seat, case in sorted(hands.items()))
        rules = {c.name: c for c in self.rules.checks}
        return [replace(row, text="Exhaustive draw 流局", hands=shown),
                *(RoundRow("", _named(rules[c["name"]]), (), "", tuple(c["payments"]), None) for c in checks)]

    def _final_hand(self, seat: int, case: dict) -> ShownHand:
        waits = self.checker.waits(case | {"seat": seat, "dealer": self.dealer})
        return _shown_hand(self.spec, f"Seat {seat}", case, f"ready on {' '.join(waits)}" if waits else "not ready")

    def _kong(self, row: RoundRow, event: dict) -> RoundRow:
        hands = (_shown_hand(self.spec, "", {"hand": event["tiles"]}, ""),) if "tiles" in event else ()
        source = f" on seat {event['from']}'s discard" if "from" in event else ""
        return replace(row, text=f"Seat {event['seat']} makes {_kind_text(self.spec, event['kong'])}{source}",
                       hands=hands)

    def _declaration(self, entry: dict) -> str:
        rule = next(d for d in self.rules.declarations if d.name == entry["name"])
        who = f"Seat {entry['seat']} declares" if "seat" in entry else "Declared:"
        later = "the next hand" if rule.next_hand else "the wins that follow"
        return f"{who} {_named(rule)}: sets {rule.flag} on {later}"


def _case_note(case: dict) -> str:
    """What a winner's case says besides its tiles and seats: flags, other context, the other seats' melds."""
    parts = []
    for key, value in sorted(case.items()):
        if key == "other_melds":
            parts += [f"seat {seat} melds {', '.join(melds)}" for seat, melds in sorted(value.items())]
        elif key not in _WIN_KEYS:
            parts.append(key if value is True else f"{key} {_shown(value)}")
    return "; ".join(parts)


def _named(rule: ir.DrawCheck | ir.PenaltyRule | ir.DeclareRule) -> str:
    return f"{rule.name} ({rule.english})" if rule.english else rule.name


def _shown_hand(spec: ir.Spec, label: str, case: dict, note: str) -> ShownHand:
    return ShownHand(label, _tiles(spec, case.get("hand", "")), _win_tile(spec, case),
                     tuple(_meld(spec, m) for m in case.get("melds", ())), case.get("hand", ""), note)


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
