"""The checked intermediate representation: the one contract between the front end and the back ends.

Everything here is resolved: names point at declarations, tile sets are sets of tile indices,
expressions know what each name means. Back ends (interpreter, codegen, docs) read only this.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dsl.frontend.source import Span
from dsl.vocabulary import COMBINING_PRINCIPLES

# ---------------------------------------------------------------- tiles


@dataclass(frozen=True)
class Tile:
    index: int
    code: str  # "5m", "1z"
    suit: str  # suit code, "m"
    rank: int
    name: str  # "五万", "东"
    english: str
    copies: int
    numbered: bool  # part of a 1..9 suit: can form chows
    seat: int = 0  # a flower's seat, 1..4 = 東 南 西 北 (the rank of that seat's wind); 0: none


@dataclass(frozen=True)
class Suit:
    code: str
    name: str
    english: str
    numbered: bool
    flowers: bool
    tiles: tuple[int, ...]
    span: Span


@dataclass(frozen=True)
class TileSet:
    """A named group of tiles: fixed tiles, plus (per hand) tiles reached from indicator tiles.

    A set with `indicated` terms is known only once a case gives its indicators: it is
    (tiles | {the tile `step` places along the order from each indicator of `key`}) - removed.
    """

    name: str
    english: str | None
    tiles: frozenset[int]
    span: Span | None
    indicated: tuple[tuple[str, int], ...] = ()  # (context key, step): 0 the indicator, 1 next, -1 previous
    removed: frozenset[int] = frozenset()

    @property
    def per_hand(self) -> bool:
        return bool(self.indicated)


@dataclass(frozen=True)
class MeldKind:
    """A kind of declared meld. Built-in kinds check their shape; a spec's own kinds are fixed tiles."""

    name: str
    english: str | None
    shape: str  # "chow", "pung", "kong", "fixed" or "one_of" (one tile of a tile set)
    concealed: bool
    opens: bool  # laying it down opens the hand (开门)
    tiles: tuple[int, ...] = ()  # for "fixed"
    span: Span | None = None
    tileset: str | None = None  # for "one_of"
    aside: bool = False  # a single tile laid aside (红中杠): no set, the hand keeps its tile count


@dataclass(frozen=True)
class Shape:
    name: str  # "standard", "seven_pairs", "thirteen_orphans"
    chows: bool = True


@dataclass(frozen=True)
class ShapeRule:
    """A spec's own shape (八仙過海): the hand is read without sets whenever the condition holds."""

    name: str
    english: str | None
    condition: Expr
    span: Span


@dataclass(frozen=True)
class ContextKey:
    name: str
    kind: str  # "flag", "wind", "seat", "count", "tiles", "melds_by_seat"; a spec's own: "flag", "seat" or "int"
    description: str
    builtin: bool
    low: int = 0  # an "int" key: its values run low..high; a case that leaves it out has `low`
    high: int = 0


@dataclass(frozen=True)
class Option:
    name: str
    description: str  # in the spec's own language when `english` is given
    default: int | str | bool
    span: Span
    english: str | None = None


@dataclass(frozen=True)
class Preset:
    """A named rule set: the options it sets (its parent preset's first, then its own), where it is published."""

    name: str
    title: str
    english: str | None
    parent: str | None
    settings: tuple[tuple[str, int | str | bool], ...]  # in the order of the spec's options
    sources: tuple[str, ...]
    doc: str | None
    span: Span


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Expr:
    span: Span


@dataclass(frozen=True)
class Const(Expr):
    value: int | str | bool


@dataclass(frozen=True)
class Var(Expr):
    """A value of the hand or its context: `suits`, `self_drawn`, `waits`, `total`, a flag, an option."""

    scope: str  # "hand", "context", "flag", "option", "settle", "binding"
    name: str


@dataclass(frozen=True)
class PatternRef(Expr):
    """How often another pattern occurs in this decomposition (before exclusions)."""

    name: str


@dataclass(frozen=True)
class Item(Expr):
    """An attribute of the element being looked at inside count(...), all(...), any(...), sum(...)."""

    element: str  # "tile", "group", "kind", "loser"
    name: str


@dataclass(frozen=True)
class ItemTileSet(Expr):
    """The element lies in a tile set: every tile of it (`all`), or some tile of it (`any`)."""

    element: str
    tileset: str
    every: bool


@dataclass(frozen=True)
class TileOf(Expr):
    """A tile-valued name: `win`, `seat_wind`, `round_wind`."""

    name: str


@dataclass(frozen=True)
class TileAttr(Expr):
    tile: Expr
    name: str  # "suit", "rank"


@dataclass(frozen=True)
class InTileSet(Expr):
    tile: Expr
    tileset: str


@dataclass(frozen=True)
class LoserAttr(Expr):
    """`loser.dealer`: an attribute of the loser whose share is being computed."""

    name: str


@dataclass(frozen=True)
class Aggregate(Expr):
    function: str  # "count", "all", "any", "sum"
    source: str  # "tiles", "groups", "sets", "chows", "pungs", "kongs", "pairs", "kinds", "losers"
    body: Expr | None


@dataclass(frozen=True)
class Combinations(Expr):
    """`combinations(chows, 3, COND)`: sets of a decomposition taken `size` at a time.

    Without accounting principles every matching combination counts; with 套算一次 / 不得相同 the
    runtime decides which combinations may count together (see dsl.interp.combinations).
    """

    source: str
    size: int
    body: Expr


@dataclass(frozen=True)
class ComboSame(Expr):
    """`same(suit)` / `distinct(rank)` inside combinations(...): compares the sets of one combination."""

    attr: str  # "suit", "rank", "tile"
    distinct: bool


@dataclass(frozen=True)
class NextTile(Expr):
    """`next(tile)`: the tile an indicator points at (numbered suits by rank, honors by `order`)."""

    tile: Expr


@dataclass(frozen=True)
class PreviousTile(Expr):
    """`previous(tile)`: the tile before it along the order (the tile an indicator of it follows)."""

    tile: Expr


@dataclass(frozen=True)
class Indicated(Expr):
    """`indicated(dora)`: how many tiles of the hand the indicator tiles of a context key point at."""

    key: str


@dataclass(frozen=True)
class Call(Expr):
    function: str  # "min", "max", "abs"
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Binary(Expr):
    op: str
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
class Table(Expr):
    """`table(paid: 0 -> 1, 1 -> 2, 2..3 -> 4, else 8)`: the value of the row whose keys hold the key, else
    `otherwise`. Rows are (low, high, value), whole numbers, in increasing key order without overlap."""

    key: Expr
    rows: tuple[tuple[int, int, int], ...]
    otherwise: int

    def lookup(self, key: int) -> int:
        return next((value for low, high, value in self.rows if low <= key <= high), self.otherwise)


def walk(expr: Expr | None) -> Iterator[Expr]:
    """Every node of an expression tree, the root first."""
    if expr is None:
        return
    yield expr
    for child in children(expr):
        yield from walk(child)


def children(expr: Expr) -> Iterator[Expr]:
    """The expressions directly inside an expression."""
    for value in vars(expr).values():
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, Expr):
                yield child


# ---------------------------------------------------------------- rules


@dataclass(frozen=True)
class RuleSection:
    """A chapter of the rules of play in prose, for the rule book only: `rules setup "准备" "Setup":`."""

    kind: str  # one of dsl.vocabulary.RULE_SECTIONS: where the book prints it
    title: str
    english: str
    zh: str | None
    en: str | None
    span: Span


@dataclass(frozen=True)
class Requirement:
    name: str
    english: str | None
    condition: Expr
    span: Span


@dataclass(frozen=True)
class Value:
    kind: str  # "fixed", "each", "computed", "computed_each"
    amount: int | None
    expr: Expr | None

    @property
    def per_occurrence(self) -> bool:
        return self.kind in ("each", "computed_each")



@dataclass(frozen=True)
class Exclusion:
    target: str
    times: int | None  # None: the whole pattern; n: n occurrences of it
    span: Span


@dataclass(frozen=True)
class Pattern:
    name: str
    english: str | None
    value: Value
    condition: Expr
    excludes: tuple[Exclusion, ...]
    aliases: tuple[str, ...]
    doc: str | None
    scope: str  # "hand" or "loser"
    order: int  # declaration order: breaks ties between equal values
    span: Span
    late: bool = False  # uses `counted_fans`: scored after every other fan's exclusions
    definition: tuple[str, str] | None = None  # (中文, English): what the fan is, as the spec's doc says it
    identity: str | None = None  # `id`: the pattern across variants (the comparison's row), when declared


@dataclass(frozen=True)
class ExclusiveGroup:
    """Only the most valuable present member counts (四川: 只按最大番算)."""

    name: str
    english: str | None
    members: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Binding:
    name: str
    expr: Expr
    span: Span


@dataclass(frozen=True)
class Payment:
    payer: str  # "each loser", "each other", "discarder"
    amount: Expr
    span: Span


@dataclass(frozen=True)
class PaymentRule:
    case: str  # "self_drawn" or "discard"
    payments: tuple[Payment, ...]
    span: Span


@dataclass(frozen=True)
class Settlement:
    bindings: tuple[Binding, ...]
    rules: tuple[PaymentRule, ...]
    span: Span | None
    pot: Expr | None = None  # paid from the table (riichi sticks), not by a player
    liable: Expr | None = None  # the first loser (seat order) it holds for pays what every loser pays
    requirements: tuple[Requirement, ...] = ()  # the win stands only if these hold (settlement scope)


# ---------------------------------------------------------------- a whole hand of play


@dataclass(frozen=True)
class KongRule:
    """Payments made the moment a kong of this kind is declared (刮风下雨)."""

    kind: str  # a meld kind
    payments: tuple[Payment, ...]  # payers: "each other" (every other player still in) or "discarder"
    span: Span


@dataclass(frozen=True)
class TransferRule:
    """A win with this flag makes the discarder pass the income of its last kong to the winner (杠上炮)."""

    flag: str
    span: Span


@dataclass(frozen=True)
class DrawCheck:
    """At an exhaustive draw: each player still in that satisfies `payer` pays `amount` to each other player
    that satisfies `receiver` (查花猪, 查大叫); with no amount, the payer returns its kong income (退税)."""

    name: str
    english: str | None
    payer: Expr  # a player condition
    amount: Expr | None  # may read `receiver.` and `payer.` attributes
    receiver: Expr | None
    span: Span


@dataclass(frozen=True)
class PenaltyRule:
    """A penalty event (诈和): the offender pays `amount` to each other player still in."""

    name: str
    english: str | None
    amount: Expr
    span: Span


@dataclass(frozen=True)
class DeclareRule:
    """A declaration event sets a flag on the wins of this hand, or of the next hand (跟庄)."""

    name: str
    english: str | None
    next_hand: bool
    flag: str
    span: Span


@dataclass(frozen=True)
class NextHandSet:
    """`next hand sets KEY = EXPR`: the value an integer context key takes in the next hand (連莊)."""

    key: str
    expr: Expr
    span: Span


@dataclass(frozen=True)
class RoundRules:
    bindings: tuple[Binding, ...]  # named player conditions, e.g. 花猪 = suits == 3
    winners_leave: int | None  # 血战到底: a winner drops out; the hand ends when this many have won
    winners_per_discard: Expr | None  # 一炮单响 is 1; an expression of options and numbers; None: no limit
    kongs: tuple[KongRule, ...]
    transfers: tuple[TransferRule, ...]
    checks: tuple[DrawCheck, ...]
    penalties: tuple[PenaltyRule, ...]
    declarations: tuple[DeclareRule, ...]
    span: Span | None
    next_hand_sets: tuple[NextHandSet, ...] = ()

    def kong(self, kind: str) -> KongRule | None:
        return next((k for k in self.kongs if k.kind == kind), None)


@dataclass(frozen=True)
class RoundExample:
    """A worked hand of play: a round record and the payments it must make."""

    title: str
    doc: str | None
    record: str  # the round record, canonical JSON
    payments: tuple[tuple[int, tuple[int, ...]], ...]  # (event number, expected payments of that event)
    wins: tuple[tuple[int, Example], ...]  # (event number, what a win's `expect` line says of it)
    event_spans: tuple[Span, ...]
    total: tuple[int, ...] | None
    span: Span
    comments: str | None = None  # the `#` comments written in the worked round
    next_context: tuple[tuple[str, int], ...] | None = None  # the integer keys the next hand must get
    preset: str | None = None  # the preset whose options the record carries


@dataclass(frozen=True)
class ExpectedFan:
    name: str
    value: int | None
    count: int


@dataclass(frozen=True)
class Example:
    title: str
    case: tuple[tuple[str, object], ...]  # the docs/interface.md case, as sorted items
    fans: tuple[ExpectedFan, ...] | None
    total: int | None
    no_win: str | None
    error: str | None
    payments: tuple[int, ...] | None
    doc: str | None
    span: Span
    comments: str | None = None  # the `#` comments written in the example: how its result is worked out
    preset: str | None = None  # the preset whose options the case carries (under its own `options`)
    reading: tuple[str, ...] | None = None  # `reading`: the groups the explanation reads the hand as

    def case_dict(self) -> dict:
        """The case as docs/interface.md JSON: lists for melds, a seat -> melds object for other_melds."""
        case = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.case}
        if "other_melds" in case:
            case["other_melds"] = {seat: list(melds) for seat, melds in case["other_melds"]}
        if "options" in case:
            case["options"] = dict(case["options"])
        return case


@dataclass(frozen=True)
class Spec:
    name: str
    title: str
    english: str | None
    parent: str | None
    doc: str | None
    path: str
    source_hash: str
    players: int
    hand_size: int
    tiles: tuple[Tile, ...]
    red_tiles: tuple[tuple[str, int], ...]  # ("0m", index of 5m): red copies written with a 0
    red_copies: int  # red copies of each numbered suit's 5
    next_tile: tuple[int, ...]  # tile index -> the tile an indicator of it points at
    suits: tuple[Suit, ...]
    tilesets: tuple[TileSet, ...]
    meld_kinds: tuple[MeldKind, ...]
    shapes: tuple[Shape, ...]
    context: tuple[ContextKey, ...]
    options: tuple[Option, ...]
    definitions: tuple[Binding, ...]  # top-level `let`: named values of a decomposition
    requirements: tuple[Requirement, ...]
    minimum: int | str  # fan needed to win, or the option holding it
    minimum_excluding: tuple[str, ...]
    principles: tuple[str, ...]
    preferred: tuple[str, ...]  # on equal totals, a later reading with one of these fans is taken
    patterns: tuple[Pattern, ...]  # hand patterns in evaluation order (dependencies first)
    loser_patterns: tuple[Pattern, ...]
    exclusive_groups: tuple[ExclusiveGroup, ...]
    supersede: int | None  # fans worth at least this much: when one counts, smaller ones do not
    score: tuple[Binding, ...]  # named results of a reading; `value`, when given, ranks readings
    settlement: Settlement | None
    examples: tuple[Example, ...]
    rounds: RoundRules | None = None
    round_examples: tuple[RoundExample, ...] = ()
    previous_tile: tuple[int, ...] = ()  # tile index -> the tile before it along the order
    indicator_tile: tuple[int, ...] = ()  # a skipped tile turned up as an indicator counts as the tile before it
    wilds: tuple[str, ...] = ()  # tile sets whose tiles held in the hand are wild
    unit: str = "番"  # what a total counts: 番, 台, points, 胡数
    unit_english: str | None = None
    language: str = "zh-Hans"  # the script of the spec's Chinese: zh-Hans or zh-Hant
    cap: int | None = None  # the most a hand's total pays (a limit); results add "paid"
    cap_description: str | None = None
    cap_unless_more: bool = False  # `cap N unless one fan is more`: a fan alone above the cap lifts it
    shape_rules: tuple[ShapeRule, ...] = ()  # the spec's own shapes, wins without sets
    rule_spans: tuple[tuple[str, Span], ...] = ()  # where the spec-wide rules are written: minimum, principles, ...
    presets: tuple[Preset, ...] = ()
    rule_sections: tuple[RuleSection, ...] = ()  # the rules of play in prose, in the order of RULE_SECTIONS

    def paid(self, total: int, largest_fan: int = 0) -> int:
        """What a hand with this total pays: the total, or the cap when it is more. `largest_fan` is what the
        most valuable counted fan is worth alone (value × count): under `cap N unless one fan is more`, a
        hand with a fan worth more than N pays its whole total (Zung Jung's listed limits above 320)."""
        if self.cap is None or (self.cap_unless_more and largest_fan > self.cap):
            return total
        return min(total, self.cap)

    def rule_span(self, rule: str) -> Span | None:
        """Where `minimum`, `principles`, `prefer`, `supersede` or `cap` is written, if the spec writes it."""
        return next((span for name, span in self.rule_spans if name == rule), None)

    def tile(self, code: str) -> Tile | None:
        return next((t for t in self.tiles if t.code == code), None)

    def notation(self, flowers: bool = True) -> dict[str, int]:
        """Tile code -> tile index, red fives (0m) included; without flowers for a hand's own tiles."""
        skip = set() if flowers else self.flower_tiles()
        return {t.code: t.index for t in self.tiles if t.index not in skip} | dict(self.red_tiles)

    def flower_tiles(self) -> frozenset[int]:
        flower_suits = {s.code for s in self.suits if s.flowers}
        return frozenset(t.index for t in self.tiles if t.suit in flower_suits)

    def wild_tilesets(self) -> tuple[TileSet, ...]:
        return tuple(self.tileset(name) for name in self.wilds)

    def per_hand_tilesets(self) -> tuple[TileSet, ...]:
        return tuple(t for t in self.tilesets if t.per_hand)

    def tileset(self, name: str) -> TileSet:
        return next(t for t in self.tilesets if t.name == name)

    def pattern(self, name: str) -> Pattern:
        return next(p for p in self.patterns + self.loser_patterns if p.name == name)

    def preset(self, name: str) -> Preset | None:
        return next((p for p in self.presets if p.name == name), None)

    def combined_patterns(self) -> tuple[Pattern, ...]:
        """The fans counted together under the accounting principles 套算一次 / 不得相同 (dsl.interp.combinations):
        hand fans of a plain value whose whole condition is one `combinations(...)`, in scoring order. None
        when the spec declares neither principle."""
        if not any(p in COMBINING_PRINCIPLES for p in self.principles):
            return ()
        return tuple(p for p in self.patterns if isinstance(p.condition, Combinations) and p.value.expr is None)
