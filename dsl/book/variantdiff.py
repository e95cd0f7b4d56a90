"""How variants differ: patterns side by side across specs, and a rule-by-rule diff of two specs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dsl.book.figures import sorted_patterns, times_text
from dsl.book.options import option_value_text, written
from dsl.frontend import ir
from dsl.frontend.formula import formula

ABSENT = "—"


@dataclass
class PatternRow:
    """One pattern across variants: the fans declared with one `id`; a fan without one joins a row of fans
    without one whose name or an alias matches."""

    label: str
    english: str | None
    identity: str | None = None
    names: set[str] = field(default_factory=set)
    cells: dict[str, ir.Pattern] = field(default_factory=dict)

    def takes(self, spec: ir.Spec, p: ir.Pattern) -> bool:
        if spec.name in self.cells:
            return False
        if p.identity is not None or self.identity is not None:
            return p.identity == self.identity
        return bool(self.names & {p.name, *p.aliases})


def pattern_rows(specs: list[ir.Spec]) -> list[PatternRow]:
    rows: list[PatternRow] = []
    for spec in specs:
        for p in sorted_patterns(spec):
            row = next((r for r in rows if r.takes(spec, p)), None)
            if row is None:
                row = PatternRow(p.name, p.english, p.identity)
                rows.append(row)
            row.names |= {p.name, *p.aliases}
            row.cells[spec.name] = p
    return rows


def value_text(value: ir.Value) -> str:
    """A pattern's value as written in the spec: `3`, `1 each`, `(2 if dragons_shown else 1) each`; one that only
    options change with each alternative: `8 if 大三元八番, else 13`."""
    amount = str(value.amount) if value.expr is None else option_value_text(value.expr) or f"({formula(value.expr)})"
    return f"{amount} each" if value.per_occurrence else amount


def short_value(value: ir.Value) -> str:
    """A value that fits a table column: one that options change with each alternative, one the hand decides
    only called computed."""
    amount = str(value.amount) if value.expr is None else option_value_text(value.expr) or "computed"
    return f"{amount} each" if value.per_occurrence else amount


def cell_text(row: PatternRow, spec: ir.Spec, value: Callable[[ir.Value], str] = short_value) -> str:
    """A variant's value for the row's pattern (and its own name for it), or ABSENT."""
    p = row.cells.get(spec.name)
    if p is None:
        return ABSENT
    return value(p.value) + ("" if p.name == row.label else f" (as {p.name})")


# ---------------------------------------------------------------- a diff of two variants


@dataclass(frozen=True)
class DiffRow:
    name: str
    before: str
    after: str


@dataclass(frozen=True)
class DiffSection:
    title: str
    rows: tuple[DiffRow, ...]


@dataclass(frozen=True)
class VariantDiff:
    a: ir.Spec
    b: ir.Spec
    sections: tuple[DiffSection, ...]

    @property
    def anchor(self) -> str:
        return f"diff-{self.a.name}-{self.b.name}"


def diff(a: ir.Spec, b: ir.Spec) -> VariantDiff:
    """Every rule that differs between two variants, section by section (unchanged rules left out)."""
    facts_a, facts_b = rule_facts(a), rule_facts(b)
    sections = []
    for title in facts_a:
        left, right = facts_a[title], facts_b[title]
        names = list(left) + [n for n in right if n not in left]
        rows = tuple(DiffRow(n, left.get(n, ABSENT), right.get(n, ABSENT)) for n in names
                     if left.get(n) != right.get(n))
        if rows:
            sections.append(DiffSection(title, rows))
    sections.append(_pattern_section(a, b))
    return VariantDiff(a, b, tuple(s for s in sections if s.rows))


def _pattern_section(a: ir.Spec, b: ir.Spec) -> DiffSection:
    rows = []
    for row in pattern_rows([a, b]):
        before, after = (_pattern_fact(row, s) for s in (a, b))
        if before != after:
            rows.append(DiffRow(row.label, before, after))
    return DiffSection("Patterns 番种", tuple(rows))


def _pattern_fact(row: PatternRow, spec: ir.Spec) -> str:
    p = row.cells.get(spec.name)
    if p is None:
        return ABSENT
    excludes = "".join(f"; 不计 {x.target}{times_text(x)}" for x in p.excludes)
    scope = "loser fan " if p.scope == "loser" else ""
    return f"{cell_text(row, spec, value_text)}: {scope}{formula(p.condition)}{excludes}"


def rule_facts(spec: ir.Spec) -> dict[str, dict[str, str]]:
    """Every rule of a spec except its patterns, as section -> rule name -> text."""
    return {
        "Variant 变体": {
            "title": spec.title, "English title": spec.english or ABSENT, "extends": spec.parent or ABSENT,
            "players": str(spec.players), "hand size": f"{spec.hand_size} tiles",
            "minimum": minimum_text(spec), "principles": ", ".join(spec.principles) or ABSENT,
            "preferred on equal totals": ", ".join(spec.preferred) or ABSENT,
            "supersede from": ABSENT if spec.supersede is None else str(spec.supersede),
            "unit": spec.unit,
            "cap": ABSENT if spec.cap is None else f"{spec.cap}" + (f" ({spec.cap_description})"
                                                                    if spec.cap_description else "")
            + (" unless one fan is more" if spec.cap_unless_more else ""),
        },
        "Tiles 牌": {
            **{f"suit {s.code}": suit_text(spec, s) for s in spec.suits},
            **{f"tile set {t.name}": mpsz(spec, t.tiles) for t in named_tilesets(spec)},
            "red fives": " ".join(code for code, _ in spec.red_tiles) or ABSENT,
        },
        "Melds and shapes 面子与牌型": {
            **{f"meld {k.name}": meld_kind_text(spec, k) for k in spec.meld_kinds},
            **{f"shape {s.name}": shape_text(s) for s in spec.shapes},
            **{f"shape {s.name}": f"{s.english or s.name}: {formula(s.condition)}" for s in spec.shape_rules},
        },
        "Context and options 情境与选项": {
            **{f"context {k.name}": k.description + (f" ({k.low}..{k.high})" if k.kind == "int" else "")
               for k in spec.context},
            **{f"option {o.name}": f"{o.description} (default {written(o.default)})" for o in spec.options},
            **{f"preset {p.name}": ", ".join(f"{name} {written(value)}" for name, value in p.settings)
               for p in spec.presets},
        },
        "Definitions 定义": {f"let {b.name}": formula(b.expr) for b in spec.definitions},
        "Win requirements 胡牌条件": {r.name: formula(r.condition) for r in spec.requirements},
        "Results 结果": {f"let {b.name}": formula(b.expr) for b in spec.score},
        "Exclusive groups 只计最大": {g.name: ", ".join(g.members) for g in spec.exclusive_groups},
        "Settlement 结算": settlement_facts(spec.settlement),
    }


def settlement_facts(settlement: ir.Settlement | None) -> dict[str, str]:
    if settlement is None:
        return {}
    facts = {f"let {b.name}": formula(b.expr) for b in settlement.bindings}
    for rule in settlement.rules:
        facts[rule.case] = "; ".join(f"{p.payer} pays {formula(p.amount)}" for p in rule.payments)
    if settlement.pot is not None:
        facts["pot"] = formula(settlement.pot)
    return facts


def minimum_amount(spec: ir.Spec) -> str | None:
    """The fan a hand needs to win (a number, or the option that holds it); None when there is no minimum."""
    if isinstance(spec.minimum, str):
        option = next((o for o in spec.options if o.name == spec.minimum), None)
        return f"the option {spec.minimum}" + (f" (default {option.default})" if option is not None else "")
    return str(spec.minimum) if spec.minimum else None


def minimum_text(spec: ir.Spec) -> str:
    amount = minimum_amount(spec)
    if amount is None:
        return "none"
    excluding = f" excluding {', '.join(spec.minimum_excluding)}" if spec.minimum_excluding else ""
    return f"{amount}{excluding}"


def suit_text(spec: ir.Spec, suit: ir.Suit) -> str:
    tiles = [spec.tiles[i] for i in suit.tiles]
    copies = sorted({t.copies for t in tiles})
    names = f"{tiles[0].rank}..{tiles[-1].rank}" if suit.numbered else " ".join(t.name for t in tiles)
    return f"{suit.name} {suit.english}: {names} ×{'/'.join(map(str, copies))}"


def named_tilesets(spec: ir.Spec) -> list[ir.TileSet]:
    """The spec's own tile sets (each suit is also a tile set under its code and name: left out)."""
    suit_names = {s.code for s in spec.suits} | {s.name for s in spec.suits}
    return [t for t in spec.tilesets if t.name not in suit_names]


def meld_kind_text(spec: ir.Spec, kind: ir.MeldKind) -> str:
    shape = mpsz(spec, frozenset(kind.tiles)) if kind.shape == "fixed" else kind.shape
    return f"{shape}, {'concealed' if kind.concealed else 'exposed'}, {'opens' if kind.opens else 'keeps closed'}"


def shape_text(shape: ir.Shape) -> str:
    return shape.name if shape.chows else f"{shape.name} without chow"


def mpsz(spec: ir.Spec, tiles: frozenset[int] | tuple[int, ...]) -> str:
    """Tiles in the compact notation, suit by suit: `19m19p19s1234567z`."""
    text, suit = "", None
    for index in sorted(tiles):
        tile = spec.tiles[index]
        if suit is not None and tile.suit != suit:
            text += suit
        text += tile.code[: -len(tile.suit)]
        suit = tile.suit
    return text + (suit or "")
