"""Syntax tree of a spec: what was written, where, before any name is resolved."""

from __future__ import annotations

from dataclasses import dataclass, field

from dsl.frontend.source import Span


@dataclass(frozen=True)
class Name:
    text: str
    span: Span


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Expr:
    span: Span


@dataclass(frozen=True)
class Number(Expr):
    value: int


@dataclass(frozen=True)
class Ref(Expr):
    name: str


@dataclass(frozen=True)
class Attribute(Expr):
    owner: Name
    attr: Name


@dataclass(frozen=True)
class Call(Expr):
    function: Name
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Binary(Expr):
    op: str  # + - * / ^ == != < <= > >= and or
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class Negate(Expr):
    operand: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    then: Expr
    condition: Expr
    otherwise: Expr


@dataclass(frozen=True)
class TableEntry:
    """`2..3 -> 4` (low 2, high 3), `1 -> 2` (no high), or `else 8` (no low)."""

    span: Span
    low: Expr | None
    high: Expr | None
    value: Expr


@dataclass(frozen=True)
class Table(Expr):
    """`table(paid: 0 -> 1, 1 -> 2, else 4)`: a schedule looked up by a whole number."""

    key: Expr
    entries: tuple[TableEntry, ...]


@dataclass(frozen=True)
class Member(Expr):
    """`win in 幺九`: a tile belongs to a tile set."""

    element: Expr
    tileset: Name


# ---------------------------------------------------------------- tile sets


@dataclass(frozen=True)
class TileExpr:
    span: Span


@dataclass(frozen=True)
class TileLiteral(TileExpr):
    text: str


@dataclass(frozen=True)
class TileName(TileExpr):
    name: str


@dataclass(frozen=True)
class TileRanks(TileExpr):
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class TileCall(TileExpr):
    """`next(indicator)`, `previous(indicator)`: the tiles one step along the order."""

    function: Name
    argument: TileExpr


@dataclass(frozen=True)
class TileSetOp(TileExpr):
    op: str  # "+" or "-"
    left: TileExpr
    right: TileExpr


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True)
class Decl:
    span: Span


@dataclass(frozen=True)
class Variant(Decl):
    name: Name
    title: str
    english: str | None


@dataclass(frozen=True)
class Extends(Decl):
    parent: Name


@dataclass(frozen=True)
class Import(Decl):
    spec: Name


@dataclass(frozen=True)
class Doc(Decl):
    text: str


@dataclass(frozen=True)
class Players(Decl):
    count: int


@dataclass(frozen=True)
class HandSize(Decl):
    tiles: int


@dataclass(frozen=True)
class NamedTile:
    name: Name
    english: str | None
    copies: int | None


@dataclass(frozen=True)
class Suit(Decl):
    code: Name
    name: Name
    english: str
    low: int
    high: int
    copies: int


@dataclass(frozen=True)
class FlowerSeats:
    """`seats 1 2 3 4 1 2 3 4`: the seat each flower of the group belongs to, 1..4 = 東 南 西 北."""

    span: Span
    seats: tuple[int, ...]


@dataclass(frozen=True)
class HonorGroup(Decl):
    kind: str  # "honors" or "flowers"
    code: Name
    name: Name
    english: str
    copies: int
    tiles: tuple[NamedTile, ...]
    seats: FlowerSeats | None = None


@dataclass(frozen=True)
class RedFives(Decl):
    copies: int


@dataclass(frozen=True)
class Tiles(Decl):
    groups: tuple[Suit | HonorGroup | RedFives, ...]


@dataclass(frozen=True)
class TileSet(Decl):
    name: Name
    english: str | None
    tiles: TileExpr


@dataclass(frozen=True)
class Order(Decl):
    names: tuple[Name, ...]
    skipped: tuple[bool, ...] = ()  # per name: written in parentheses, never pointed at


@dataclass(frozen=True)
class Supersede(Decl):
    value: int
    description: str | None


@dataclass(frozen=True)
class Wild(Decl):
    name: Name
    english: str | None
    tiles: TileExpr


@dataclass(frozen=True)
class Melds(Decl):
    kinds: tuple[Name, ...]


@dataclass(frozen=True)
class MeldKind(Decl):
    name: Name
    english: str | None
    tiles: TileExpr
    one_of: bool = False  # `= one of SET`: a single tile of the set, laid aside


@dataclass(frozen=True)
class ShapeItem:
    name: Name
    without: Name | None


@dataclass(frozen=True)
class Shapes(Decl):
    items: tuple[ShapeItem, ...]


@dataclass(frozen=True)
class Context(Decl):
    keys: tuple[Name, ...]


@dataclass(frozen=True)
class Flag(Decl):
    name: Name
    description: str
    kind: str = "flag"  # "flag" (true/false), "seat" (declared with `player`) or "int" (`context NAME int`)
    low: int = 0  # an "int" key: the range of its values
    high: int = 0


@dataclass(frozen=True)
class Unit(Decl):
    """`unit 台 "tai"`: what a hand's total counts."""

    name: Name
    english: str | None


@dataclass(frozen=True)
class Language(Decl):
    """`language zh-Hant`: the script the spec's Chinese is written in, which its book's headings follow."""

    tag: str


@dataclass(frozen=True)
class Cap(Decl):
    """`cap 320 "滿糊 Limit"`: the most a hand's total pays; with `unless one fan is more`, a hand where one
    fan alone is worth more than the cap pays its whole total."""

    amount: int
    description: str | None
    unless_more: bool = False


@dataclass(frozen=True)
class ShapeRule(Decl):
    """`shape 八仙過海 "Eight Immortals": CONDITION`: a win read without sets when the condition holds."""

    name: Name
    english: str | None
    condition: Expr


@dataclass(frozen=True)
class Option(Decl):
    name: Name
    description: str  # in the spec's own language when `english` is given
    default: int | str | bool
    english: str | None = None


@dataclass(frozen=True)
class Setting(Decl):
    """`open_tanyao = false` in a preset."""

    name: Name
    value: int | str | bool


@dataclass(frozen=True)
class Preset(Decl):
    """`preset NAME "名" "English" [extends PARENT]:` and its settings, its source and its doc."""

    name: Name
    title: str
    english: str | None
    parent: Name | None
    settings: tuple[Setting, ...]
    sources: tuple[str, ...]  # where the rule set is published: a document, its section
    doc: str | None


@dataclass(frozen=True)
class RuleSection(Decl):
    """`rules setup "准备" "Setup":` and its text in Chinese (`zh`) and English (`en`): a chapter of the rule book."""

    kind: Name  # which chapter: one of dsl.vocabulary.RULE_SECTIONS
    title: str
    english: str
    texts: tuple[tuple[str, str, Span], ...]  # (language, text, where) as written


@dataclass(frozen=True)
class Require(Decl):
    name: Name
    english: str | None
    condition: Expr


@dataclass(frozen=True)
class Minimum(Decl):
    value: int | Name  # a number, or the name of an option holding it
    excluding: tuple[Name, ...]


@dataclass(frozen=True)
class Principles(Decl):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Prefer(Decl):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Value:
    kind: str  # "fixed", "each", "computed", "computed_each"
    amount: int | None = None
    expr: Expr | None = None


@dataclass(frozen=True)
class Exclusion:
    target: Name
    times: int | None  # None: the whole pattern; n: only n occurrences


@dataclass(frozen=True)
class Pattern(Decl):
    name: Name
    english: str | None
    value: Value
    condition: Expr
    excludes: tuple[Exclusion, ...] = ()
    aliases: tuple[Name, ...] = ()
    doc: str | None = None
    scope: str = "hand"  # "hand": the winner's hand; "loser": one loser's share
    replaces: bool = False
    definition: tuple[str, str] | None = None  # doc "中文" "English": what the fan is, in both languages
    identity: Name | None = None  # `id NAME`: the same pattern in every variant that gives it this id


@dataclass(frozen=True)
class Exclusive(Decl):
    name: Name
    english: str | None
    members: tuple[Name, ...]


@dataclass(frozen=True)
class Remove(Decl):
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Binding(Decl):
    name: Name
    expr: Expr


@dataclass(frozen=True)
class Payment:
    span: Span
    each: bool
    payer: Name
    amount: Expr


@dataclass(frozen=True)
class PaymentRule(Decl):
    case: Name
    payments: tuple[Payment, ...]


@dataclass(frozen=True)
class Score(Decl):
    bindings: tuple[Binding, ...]


@dataclass(frozen=True)
class Settle(Decl):
    bindings: tuple[Binding, ...]
    rules: tuple[PaymentRule, ...]
    pot: Expr | None = None
    liable: Expr | None = None  # the first loser it holds for pays every loser's amount
    requirements: tuple[Require, ...] = ()  # the win stands only if these hold


# ---------------------------------------------------------------- a whole hand of play


@dataclass(frozen=True)
class KongRule(Decl):
    kind: Name
    payments: tuple[Payment, ...]


@dataclass(frozen=True)
class TransferRule(Decl):
    flag: Name


@dataclass(frozen=True)
class DrawCheck(Decl):
    name: Name
    english: str | None
    payer: Expr
    amount: Expr | None  # None: the payer refunds its kong income
    receiver: Expr | None


@dataclass(frozen=True)
class PenaltyRule(Decl):
    name: Name
    english: str | None
    amount: Expr


@dataclass(frozen=True)
class DeclareRule(Decl):
    name: Name
    english: str | None
    next_hand: bool
    flag: Name


@dataclass(frozen=True)
class NextHandSet(Decl):
    """`next hand sets 連莊 = EXPR`: the value an integer context key takes in the next hand."""

    key: Name
    expr: Expr


@dataclass(frozen=True)
class RoundRules(Decl):
    bindings: tuple[Binding, ...]
    winners_leave: int | None  # 血战到底: the hand goes on until this many have won
    winners_per_discard: Expr | None  # 一炮单响 (1), or an option's limit; None: no limit
    kongs: tuple[KongRule, ...]
    transfers: tuple[TransferRule, ...]
    checks: tuple[DrawCheck, ...]
    penalties: tuple[PenaltyRule, ...]
    declarations: tuple[DeclareRule, ...]
    next_hand_sets: tuple[NextHandSet, ...] = ()


@dataclass(frozen=True)
class Reading(Decl):
    """`reading 234m 55m* ...`: the groups an example's explanation reads the hand as."""

    groups: tuple[str, ...]


@dataclass(frozen=True)
class MeldLiteral:
    span: Span
    kind: str
    tiles: str


@dataclass(frozen=True)
class Seat:
    """A seat written in an example or a worked round (`other 2:`, `win 1 from 0:`); the resolver checks it
    against the table's seats."""

    span: Span
    number: int


@dataclass(frozen=True)
class Payments:
    """A `payments` or `total` line: one amount per seat, in seat order."""

    span: Span
    amounts: tuple[int, ...]


@dataclass(frozen=True)
class ExpectedFan:
    name: Name
    value: int | None
    count: int


@dataclass(frozen=True)
class Example(Decl):
    title: str
    hand: str | None = None
    melds: tuple[MeldLiteral, ...] = ()
    others: tuple[tuple[Seat, tuple[MeldLiteral, ...]], ...] = ()
    win: str | None = None
    context: tuple[tuple[Name, int | str | bool], ...] = ()
    options: tuple[tuple[Name, int | str | bool], ...] = ()
    preset: Name | None = None  # the preset's options, under `options`
    fans: tuple[ExpectedFan, ...] | None = None
    total: int | None = None
    no_win: str | None = None  # expected reason fragment ("" for any)
    error: str | None = None
    payments: Payments | None = None
    doc: str | None = None
    reading: Reading | None = None
    lines: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class RoundEvent:
    """One event of a worked round; `fields` are the round-record JSON keys of the event."""

    span: Span
    kind: str  # "kong", "win", "draw", "declare", "penalty"
    fields: tuple[tuple[str, object], ...]  # a seat (`seat`, `from`) as a Seat
    case: Example | None = None  # a win: the winner's hand, as an example's lines give it
    hands: tuple[tuple[Seat, Example], ...] = ()  # a draw: each player's final hand
    payments: Payments | None = None  # expected payments of this event


@dataclass(frozen=True)
class RoundExample(Decl):
    title: str
    doc: str | None
    dealer: Seat | None
    options: tuple[tuple[Name, int | str | bool], ...]
    context: tuple[tuple[Name, int | str | bool], ...]  # context keys every case of the hand shares
    carried: tuple[Name, ...]
    events: tuple[RoundEvent, ...]
    total: Payments | None
    lines: tuple[str, ...] = field(default=(), compare=False)
    next_context: tuple[tuple[Name, int | str | bool], ...] | None = None  # `next hand 連莊 3`
    preset: Name | None = None


@dataclass(frozen=True)
class Module:
    """One parsed spec file."""

    path: str
    decls: tuple[Decl, ...]
