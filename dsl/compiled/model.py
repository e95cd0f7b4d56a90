"""What the templates of a checker module read: the spec's tables (dsl.compiled.tables) and its rules — one C
function per fan, `let`, requirement, own shape and settlement rule, each with the spec text and the file and
line it comes from — and the fan tables (exclusions, order, the minimum)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from dsl import __version__
from dsl.compiled import CodegenError, names
from dsl.compiled.emit import Aggregate, Emitter, Lookup, Where, reads_waits
from dsl.compiled.layout import literal_lines, location, shown_path, source_text
from dsl.compiled.tables import Tables
from dsl.frontend import ir, ir_json
from dsl.vocabulary import PRINCIPLES, RUNTIME_LIMITS

# The IR fields this back end reads, or knows it may leave to the books (`rule_sections`, a fan's `definition`);
# a field added to the IR later stops generation while it is set.
KNOWN_FIELDS = {
    ir.Spec: {"name", "title", "english", "parent", "doc", "path", "source_hash", "players", "hand_size", "tiles",
              "next_tile", "red_tiles", "red_copies", "supersede", "score", "previous_tile", "indicator_tile", "wilds",
              "suits", "tilesets", "meld_kinds", "shapes", "context", "options", "definitions", "requirements",
              "minimum", "minimum_excluding", "principles", "preferred", "patterns", "loser_patterns",
              "exclusive_groups", "settlement", "examples", "rounds", "round_examples", "unit", "unit_english",
              "language", "cap", "cap_description", "cap_unless_more", "shape_rules", "rule_spans",
              "presets", "rule_sections"},
    ir.Pattern: {"name", "english", "value", "condition", "excludes", "aliases", "doc", "scope", "order", "span",
                 "late", "definition", "identity"},
    ir.Settlement: {"bindings", "rules", "span", "pot", "liable", "requirements"},
    ir.Shape: {"name", "chows"},
    ir.ShapeRule: {"name", "english", "condition", "span"},
    ir.MeldKind: {"name", "english", "shape", "concealed", "opens", "tiles", "span", "tileset", "aside"},
    ir.Tile: {"index", "code", "suit", "rank", "name", "english", "copies", "numbered", "seat"},
    ir.Suit: {"code", "name", "english", "numbered", "flowers", "tiles", "span"},
}
PAYERS = {"each loser": "True", "discarder": "c.losers[k].discarder", "each other": "not c.losers[k].discarder"}


@dataclass
class Fan:
    index: int
    name: str
    english: str | None
    function: str
    scope: str  # "hand" or "loser"
    order: int
    source: str  # the spec line, for a comment
    location: str  # specs/mcr.mj:82
    count: str  # C expression: occurrences before exclusions
    amount: int  # value of a fixed-value fan
    value: str | None  # C expression of a computed value
    late: bool  # reads counted_fans: scored after the other fans' exclusions
    combined: str | None  # counted with the other combination fans of this source (套算一次)

    @property
    def constant(self) -> str:
        """The fan's index in C, as rules that read it write it: FAN_05_SEVEN_PAIRS."""
        return names.fan_constant(self.function)


@dataclass
class Matcher:
    """One combination fan's test of k sets."""

    fan: int
    condition: str  # C condition on `combo`
    source: str
    location: str


@dataclass
class Combining:
    """The combination fans over one source, counted together under 套算一次 / 不得相同."""

    source: str
    fans: list[int]  # in the spec's fan order
    pair_fans: list[int]  # the two-set fans, in that order: dsl.interp.combinations drops the last first
    matchers: dict[int, list[Matcher]]  # by the number of sets
    once: list[int]  # the fans not counted `each`: once, however many times their sets make them


@dataclass
class Requirement:
    index: int
    source: str
    location: str
    condition: str
    reason: str


@dataclass
class Binding:
    """A `let` (top-level, of `score:` or of `settle:`) as a C function that computes it once per decomposition
    (and loser), keeping its value in Ctx.let_value[slot] (settlement `let`s: one slot per loser from slot)."""

    name: str
    function: str
    source: str
    location: str
    expr: str
    slot: int
    per_loser: bool = False


@dataclass
class Payment:
    payer: str  # C condition on loser k
    amount: str
    source: str
    location: str


@dataclass
class PaymentRule:
    case: str  # "self_drawn" or "discard"
    payments: list[Payment]


@dataclass
class OwnShape:
    """A spec's own shape (`shape NAME: CONDITION`): its name as a Text, its condition as C."""

    text: str
    source: str
    location: str
    condition: str


@dataclass
class Expression:
    """A C expression the settlement computes (the pot) or tests (who is liable), with where it is written."""

    code: str
    location: str


@dataclass
class Model:
    spec: ir.Spec
    version: str
    shown_path: str
    tables: Tables
    emitter: Emitter
    fans: list[Fan] = field(default_factory=list)
    fan_index: dict[str, int] = field(default_factory=dict)
    combining: list[Combining] = field(default_factory=list)
    definitions: list[Binding] = field(default_factory=list)
    requirements: list[Requirement] = field(default_factory=list)
    own_shapes: list[OwnShape] = field(default_factory=list)
    scores: list[tuple[Binding, str]] = field(default_factory=list)  # `score:` results and their kinds
    bindings: list[Binding] = field(default_factory=list)
    rules: list[PaymentRule] = field(default_factory=list)
    settle_requirements: list[Requirement] = field(default_factory=list)
    pot: Expression | None = None
    liable: Expression | None = None  # C condition on loser k: the first it holds for pays for everyone

    @classmethod
    def of(cls, spec: ir.Spec) -> Model:
        _check_supported(spec)
        tables = Tables.of(spec)
        model = cls(spec, __version__, shown_path(spec.path), tables, Emitter(spec, tables))
        model._definitions()
        model._fans()
        model._requirements()
        model._own_shapes()
        model._scores()
        if spec.settlement is not None:
            model._settlement(spec.settlement)
        return model

    @property
    def aggregates(self) -> list[Aggregate]:
        return self.emitter.aggregates

    @property
    def lookups(self) -> list[Lookup]:
        return self.emitter.lookups

    @property
    def uses_group_masks(self) -> bool:
        return self.emitter.uses_group_masks

    # -- rules

    def _definitions(self) -> None:
        for i, b in enumerate(self.spec.definitions):
            self.definitions.append(self._binding(names.LET, i, b, self.emitter.expr(b.expr, Where("hand")).text))
            self.emitter.definitions[b.name] = self.definitions[-1].function

    def _binding(self, prefix: str, index: int, b: ir.Binding, code: str, per_loser: bool = False) -> Binding:
        """The next `let` function, its value in the next free slots (tables.let_slots counts them)."""
        taken = self.definitions + [binding for binding, _ in self.scores] + self.bindings
        slot = sum(RUNTIME_LIMITS["MAX_PLAYERS"] if t.per_loser else 1 for t in taken)
        return Binding(b.name, names.numbered(prefix, index, b.name), source_text(b.span), location(b.span), code,
                       slot, per_loser)

    def _fans(self) -> None:
        fans = self.spec.patterns + self.spec.loser_patterns
        self.fan_index = {p.name: i for i, p in enumerate(fans)}
        self._combining()
        combined = {i: c.source for c in self.combining for i in c.fans}
        self.fans = [self._fan(i, p, combined.get(i)) for i, p in enumerate(fans)]

    def _combining(self) -> None:
        """Combination fans counted together (Evaluator._count_combinations), one group per source."""
        for p in self.spec.combined_patterns():
            assert isinstance(p.condition, ir.Combinations)
            source = p.condition.source
            group = next((c for c in self.combining if c.source == source), None)
            if group is None:
                group = Combining(source, [], [], {2: [], 3: [], 4: []}, [])
                self.combining.append(group)
            index = self.fan_index[p.name]
            group.fans.append(index)
            if not p.value.per_occurrence:
                group.once.append(index)
            if p.condition.size == 2:
                group.pair_fans.append(index)
            body = self.emitter.condition(p.condition.body, Where("hand", "combo"))
            group.matchers[p.condition.size].append(Matcher(index, body, source_text(p.condition.span),
                                                            location(p.span)))

    def _fan(self, index: int, p: ir.Pattern, combined: str | None) -> Fan:
        where = Where(p.scope, loser="loser" if p.scope == "loser" else None)
        kind = p.value.kind
        if kind not in ("fixed", "each", "computed", "computed_each"):
            raise CodegenError(f"{p.span}: fan {p.name!r} has a kind of value ({kind!r}) the compiled checker does "
                               "not know")
        if combined is not None:
            count = ""
        elif p.value.per_occurrence:
            count = f"max({self.emitter.number(p.condition, where)}, 0)"
        else:
            count = f"1 if {self.emitter.condition(p.condition, where)} else 0"
        value = self.emitter.number(p.value.expr, where) if p.value.expr is not None else None
        return Fan(index, p.name, p.english, self.emitter.fan_functions[p.name], p.scope, p.order, _fan_line(p),
                   location(p.span), count, p.value.amount or 0, value, p.late, combined)

    def _requirements(self) -> None:
        for i, r in enumerate(self.spec.requirements):
            if reads_waits(self.spec, r.condition):
                raise CodegenError(f"{r.span}: requirement {r.name!r} reads `waits`, which depends on the "
                                   "requirements themselves")
            self.requirements.append(self._requirement(i, r, Where("hand")))

    def _requirement(self, index: int, r: ir.Requirement, where: Where) -> Requirement:
        english = f" ({r.english})" if r.english else ""
        return Requirement(index, f"{r.name}: {source_text(r.condition.span)}", location(r.span),
                           self.emitter.condition(r.condition, where), f"requirement {r.name}{english} is not met")

    def _own_shapes(self) -> None:
        """The conditions of the spec's own shapes, read before any fan of the reading is counted."""
        for rule in self.spec.shape_rules:
            for node in ir.walk(rule.condition):
                if isinstance(node, ir.PatternRef) or (isinstance(node, ir.Var) and node.scope == "late"):
                    raise CodegenError(f"{rule.span}: the compiled checker tests a shape before counting fans; "
                                       f"shape {rule.name!r} reads one")
            if reads_waits(self.spec, rule.condition):
                raise CodegenError(f"{rule.span}: shape {rule.name!r} reads `waits`, which depends on the shapes")
            self.own_shapes.append(OwnShape(self.tables.text(rule.name),
                                            f"{rule.name}: {source_text(rule.condition.span)}", location(rule.span),
                                            self.emitter.condition(rule.condition, Where("hand"))))

    def _scores(self) -> None:
        for i, b in enumerate(self.spec.score):
            code = self.emitter.expr(b.expr, Where("score"))
            binding = self._binding(names.SCORE, i, b, code.text)
            self.scores.append((binding, code.kind))
            self.emitter.scores[b.name] = binding.function

    def _settlement(self, settlement: ir.Settlement) -> None:
        for i, b in enumerate(settlement.bindings):
            code = self.emitter.number(b.expr, Where("settle", loser="loser"))
            self.bindings.append(self._binding(names.SETTLE_LET, i, b, code, per_loser=True))
            self.emitter.bindings[b.name] = self.bindings[-1].function
        self.rules = [self._payment_rule(rule) for rule in settlement.rules]
        if settlement.pot is not None:
            self.pot = Expression(self.emitter.number(settlement.pot, Where("settle")), location(settlement.pot.span))
        if settlement.liable is not None:
            self.liable = Expression(self.emitter.condition(settlement.liable, Where("settle", loser="k")),
                                     location(settlement.liable.span))
        self.settle_requirements = [self._requirement(i, r, Where("settle"))
                                    for i, r in enumerate(settlement.requirements)]

    def _payment_rule(self, rule: ir.PaymentRule) -> PaymentRule:
        if rule.case not in ("self_drawn", "discard"):
            raise CodegenError(f"{rule.span}: the compiled checker does not know the payment case {rule.case!r}")
        payments = []
        for payment in rule.payments:
            if payment.payer not in PAYERS:
                raise CodegenError(f"{payment.span}: the compiled checker does not know the payer {payment.payer!r}")
            amount = self.emitter.number(payment.amount, Where("settle", loser="k"))
            payments.append(Payment(PAYERS[payment.payer], amount, source_text(payment.span),
                                    location(payment.span)))
        return PaymentRule(rule.case, payments)

    # -- what the templates read

    @property
    def hand_fans(self) -> list[Fan]:
        return [f for f in self.fans if f.scope == "hand"]

    @property
    def loser_fans(self) -> list[Fan]:
        return [f for f in self.fans if f.scope == "loser"]

    @property
    def requirements_read_fans(self) -> bool:
        return any(isinstance(e, ir.PatternRef) for r in self.spec.requirements for e in ir.walk(r.condition))

    def rule(self, case: str) -> PaymentRule | None:
        return next((r for r in self.rules if r.case == case), None)

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

    def embedded_ir(self) -> list[str]:
        """The spec's IR as dsl.frontend.ir_json text, in string literals: the interpreter answers from it the
        cases left to it, so the checker needs neither the spec file nor the front end."""
        return literal_lines(ir_json.dumps(dataclasses.replace(self.spec, path=self.shown_path), shown=shown_path))

    def unit_word(self) -> str:
        """The spec's unit in a sentence, as the interpreter says it: "fan" for 番 (dsl.book.model.unit_word)."""
        return "fan" if self.spec.unit == "番" else self.spec.unit

    def minimum_amount(self) -> int:
        return self.spec.minimum if isinstance(self.spec.minimum, int) else 0

    def minimum_option(self) -> int:
        """The option slot that holds the minimum, -1 when it is a number."""
        minimum = self.spec.minimum
        return self.tables.option(minimum).slot if isinstance(minimum, str) else -1

    def reasons(self) -> list[str]:
        return [r.reason for r in self.requirements]

    def no_shape_reason(self) -> str:
        shapes = [s.name.replace("_", " ") for s in self.spec.shapes] + [s.name for s in self.spec.shape_rules]
        return f"the tiles do not form a winning shape ({', '.join(shapes)})"

    # -- the fan tables

    @property
    def mask_words(self) -> int:
        return max(1, (len(self.fans) + 63) // 64)

    def cut_masks(self) -> list[list[int]]:
        """Per fan: the fans it removes outright when it counts (不计 without ×n, and its exclusive groups)."""
        masks = []
        for p in self.spec.patterns + self.spec.loser_patterns:
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
        for p in self.spec.patterns + self.spec.loser_patterns:
            cuts += [(self.fan_index[e.target], e.times) for e in p.excludes if e.times is not None]
            offsets.append(len(cuts))
        return offsets, cuts

    def by_order(self) -> list[int]:
        return [f.index for f in sorted(self.fans, key=lambda f: f.order)]

    def preferred(self) -> list[int]:
        return [self.fan_index[name] for name in self.spec.preferred]

    def minimum_excluded(self) -> list[int]:
        return [self.fan_index[name] for name in self.spec.minimum_excluding]


def _check_supported(spec: ir.Spec) -> None:
    """Fail on IR this back end does not know: a new field that is set, a principle."""
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


def _fan_line(p: ir.Pattern) -> str:
    """`清一色 "Full flush" 3: suits == 1`, as a comment above the fan's function."""
    value = str(p.value.amount) if p.value.expr is None else f"({source_text(p.value.expr.span)})"
    each = " each" if p.value.per_occurrence else ""
    english = f' "{p.english}"' if p.english else ""
    loser = "loser " if p.scope == "loser" else ""
    return f"{loser}fan {p.name}{english} {value}{each}: {source_text(p.condition.span)}"
