"""`extends` and `import`: a spec's declarations merged with its parent's (the parent's, then the child's changes)
and with the tiles, tile sets and meld kinds it imports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from dsl.frontend import ast
from dsl.frontend.builtin_names import HAND_SIZES, PLAYERS
from dsl.frontend.parser import parse
from dsl.frontend.source import Source, Span, error, suggest
from dsl.paths import bundled_specs, is_path, parent_path, spec_path


def locate(name: str, span: Span | None) -> Path:
    """A spec by path or bundled name, or, for `extends`/`import` (span given), by the rule of parent_path."""
    path = spec_path(name) if span is None else parent_path(name, Path(span.path).parent)
    if path is None:
        hint = suggest(name, bundled_specs())
        if span is None and not is_path(name) and Path(name).exists():
            hint = f"{name!r} is not a bundled spec; for the file, write ./{name}"
        raise error(f"no spec named {name!r}", span, hint)
    return path


@dataclass
class Declarations:
    """A spec's declarations after applying `extends`: the parent's, then the child's changes."""

    variant: ast.Variant | None = None
    parent: str | None = None
    docs: list[str] = field(default_factory=list)
    players: int = 4
    hand_size: int = 14
    tiles: ast.Tiles | None = None
    tilesets: dict[str, ast.TileSet] = field(default_factory=dict)
    melds: ast.Melds | None = None
    meld_kinds: dict[str, ast.MeldKind] = field(default_factory=dict)
    shapes: ast.Shapes | None = None
    shape_rules: dict[str, ast.ShapeRule] = field(default_factory=dict)
    unit: ast.Unit | None = None
    language: ast.Language | None = None
    cap: ast.Cap | None = None
    context: list[ast.Name] = field(default_factory=list)
    flags: dict[str, ast.Flag] = field(default_factory=dict)
    options: dict[str, ast.Option] = field(default_factory=dict)
    presets: dict[str, ast.Preset] = field(default_factory=dict)
    requirements: dict[str, ast.Require] = field(default_factory=dict)
    minimum: ast.Minimum | None = None
    principles: ast.Principles | None = None
    prefer: ast.Prefer | None = None
    orders: list[ast.Order] = field(default_factory=list)
    wilds: dict[str, ast.Wild] = field(default_factory=dict)
    supersede: ast.Supersede | None = None
    definitions: dict[str, ast.Binding] = field(default_factory=dict)
    patterns: dict[str, ast.Pattern] = field(default_factory=dict)
    exclusive: dict[str, ast.Exclusive] = field(default_factory=dict)
    score: ast.Score | None = None
    settle: ast.Settle | None = None
    rounds: ast.RoundRules | None = None
    examples: list[ast.Example] = field(default_factory=list)
    round_examples: list[ast.RoundExample] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    rule_sections: dict[str, ast.RuleSection] = field(default_factory=dict)  # by kind: a child's replaces its parent's
    sources: list[str] = field(default_factory=list)


def collect(module: ast.Module, source: Source, chain: tuple[str, ...]) -> Declarations:
    decls = module.decls
    parent = next((d for d in decls if isinstance(d, ast.Extends)), None)
    if parent is not None:
        parent_path = locate(parent.parent.text, parent.parent.span).resolve()
        if str(parent_path) in chain:
            through = " -> ".join(Path(c).stem for c in chain)
            raise error(f"spec {parent.parent.text!r} extends itself through {through}", parent.parent.span)
        parent_source = Source.read(parent_path)
        merged = collect(parse(parent_source), parent_source, chain + (str(parent_path),))
        merged.parent = parent.parent.text
        merged.examples = []  # a parent's worked hands need not hold under the child's rules
        merged.round_examples = []
        merged.docs = []
    else:
        merged = Declarations()
    merged.sources.append(source.text)
    for decl in decls:
        _apply(merged, decl, chain)
    return merged


def _apply(into: Declarations, decl: ast.Decl, chain: tuple[str, ...]) -> None:
    match decl:
        case ast.Variant():
            into.variant = decl
        case ast.Extends():
            pass
        case ast.Import():
            path = locate(decl.spec.text, decl.spec.span).resolve()
            imported_source = Source.read(path)
            imported = collect(parse(imported_source), imported_source, chain + (str(path),))
            into.sources.extend(imported.sources)  # the spec's hash covers what it takes from others
            into.tiles = into.tiles or imported.tiles
            into.tilesets.update(imported.tilesets)
            into.meld_kinds.update(imported.meld_kinds)
        case ast.Doc():
            into.docs.append(decl.text)
        case ast.Players():
            into.players = bounded(decl.count, PLAYERS, "a table seats 2, 3 or 4 players", decl.span)
        case ast.HandSize():
            into.hand_size = bounded(decl.tiles, HAND_SIZES, "a winning hand holds sets of three and a pair: "
                                      + ", ".join(map(str, HAND_SIZES)) + " tiles", decl.span)
        case ast.Tiles():
            into.tiles = decl
        case ast.TileSet():
            into.tilesets[decl.name.text] = decl
        case ast.Melds():
            into.melds = decl
        case ast.MeldKind():
            into.meld_kinds[decl.name.text] = decl
        case ast.Shapes():
            into.shapes = decl
        case ast.ShapeRule():
            into.shape_rules[decl.name.text] = decl
        case ast.Unit():
            into.unit = decl
        case ast.Language():
            into.language = decl
        case ast.Cap():
            into.cap = decl
        case ast.Context():
            into.context.extend(decl.keys)
        case ast.Flag():
            into.flags[decl.name.text] = decl
        case ast.Option():
            into.options[decl.name.text] = decl
        case ast.Preset():
            _apply_preset(into, decl)
        case ast.Require():
            into.requirements[decl.name.text] = decl
        case ast.Minimum():
            into.minimum = decl
        case ast.Principles():
            into.principles = decl
        case ast.Prefer():
            into.prefer = decl
        case ast.Pattern():
            _apply_pattern(into, decl)
        case ast.Exclusive():
            into.exclusive[decl.name.text] = decl
        case ast.Remove():
            for name in decl.names:
                if name.text not in into.patterns:
                    raise error(f"cannot remove {name.text!r}: no such fan", name.span,
                                suggest(name.text, into.patterns))
                del into.patterns[name.text]
                into.removed.add(name.text)
        case ast.Score():
            into.score = decl
        case ast.Settle():
            into.settle = decl
        case ast.Example():
            into.examples.append(decl)
        case ast.RoundRules():
            into.rounds = _merge_rounds(into.rounds, decl)
        case ast.RoundExample():
            into.round_examples.append(decl)
        case ast.Binding():
            into.definitions[decl.name.text] = decl
        case ast.Order():
            into.orders.append(decl)
        case ast.Supersede():
            into.supersede = decl
        case ast.Wild():
            into.wilds[decl.name.text] = decl
        case ast.RuleSection():
            _apply_rule_section(into, decl)


def bounded(value: int, allowed: range, rule: str, span: Span) -> int:
    if value not in allowed:
        raise error(f"{value} is out of range: {rule}", span)
    return value


def _apply_pattern(into: Declarations, decl: ast.Pattern) -> None:
    name = decl.name.text
    exists = name in into.patterns
    if decl.replaces and not exists:
        raise error(f"cannot replace {name!r}: no such fan", decl.name.span, suggest(name, into.patterns))
    if exists and not decl.replaces:
        earlier = into.patterns[name]
        where = "the parent spec" if earlier.span.source is not decl.span.source else f"line {earlier.span.line}"
        raise error(f"fan {name!r} is already defined in {where}", decl.name.span,
                    "write `replace fan` to change it")
    if decl.replaces and decl.identity is None:  # a replaced fan is the same pattern unless it says otherwise
        decl = replace(decl, identity=into.patterns[name].identity)
    into.patterns[name] = decl


def _apply_preset(into: Declarations, decl: ast.Preset) -> None:
    """A preset of the parent's is replaced by the child's of the same name; a spec names each preset once."""
    earlier = into.presets.get(decl.name.text)
    if earlier is not None and earlier.span.source is decl.span.source:
        raise error(f"preset {decl.name.text!r} is already defined at line {earlier.span.line}", decl.name.span)
    into.presets[decl.name.text] = decl


def _apply_rule_section(into: Declarations, decl: ast.RuleSection) -> None:
    """A spec writes each chapter once; a child's chapter replaces its parent's."""
    earlier = into.rule_sections.get(decl.kind.text)
    if earlier is not None and earlier.span.source is decl.span.source:
        raise error(f"`rules {decl.kind.text}` is already written at line {earlier.span.line}", decl.kind.span)
    into.rule_sections[decl.kind.text] = decl


def _merge_rounds(parent: ast.RoundRules | None, child: ast.RoundRules) -> ast.RoundRules:
    """A child's `round:` block overrides its parent's rules one by one (same kong kind, check, penalty ...)."""
    if parent is None:
        return child

    def by_key(old: tuple, new: tuple, key: Callable) -> tuple:
        merged = {key(x): x for x in old} | {key(x): x for x in new}
        return tuple(merged.values())

    return ast.RoundRules(
        child.span, by_key(parent.bindings, child.bindings, lambda b: b.name.text),
        child.winners_leave if child.winners_leave is not None else parent.winners_leave,
        child.winners_per_discard if child.winners_per_discard is not None else parent.winners_per_discard,
        by_key(parent.kongs, child.kongs, lambda k: k.kind.text),
        by_key(parent.transfers, child.transfers, lambda t: t.flag.text),
        by_key(parent.checks, child.checks, lambda c: c.name.text),
        by_key(parent.penalties, child.penalties, lambda p: p.name.text),
        by_key(parent.declarations, child.declarations, lambda d: d.name.text),
        by_key(parent.next_hand_sets, child.next_hand_sets, lambda s: s.key.text))
