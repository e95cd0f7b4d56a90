"""Syntax tree -> checked IR: extends, names, tile sets, 不计 targets, scopes; every mistake is a diagnostic.

This module runs the jobs in order, each in its own module: extends (a spec merged with its parents and
imports), declarations (tiles, tile sets, meld kinds, shapes, context keys, options), expressions (every name
bound in its scope; the spec's `let`s and fans as they become known), fans (values, 不计 exclusions, exclusive
groups, scoring order), settlement, presets (named rule sets of option values), bounds (the work a case may
take), examples, resolve_rounds (the `round:` rules and worked rounds), rule_sections (the rules of play in
prose). lint warns about a spec that resolved.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from dsl.frontend import ast, bounds, fans, ir, presets, settlement
from dsl.frontend.declarations import Declared, unit_and_cap
from dsl.frontend.examples import example
from dsl.frontend.expressions import Names
from dsl.frontend.extends import Declarations, collect, locate
from dsl.frontend.lint import warnings
from dsl.frontend.parser import parse
from dsl.frontend.resolve_rounds import round_example, round_rules
from dsl.frontend.rule_sections import rule_sections
from dsl.frontend.source import Diagnostic, Source, Span, SpecError, error
from dsl.frontend.typecheck import LET_TYPES


def load_spec(name_or_path: str) -> ir.Spec:
    """Parse and resolve a spec by path or bundled name; raises SpecError with diagnostics."""
    return resolve_file(locate(name_or_path, None))


def check(name_or_path: str) -> tuple[ir.Spec | None, list[Diagnostic]]:
    """Everything `mjdsl check` reports: errors (then no spec) or the spec and its warnings."""
    try:
        spec = load_spec(name_or_path)
    except SpecError as exc:
        return None, exc.diagnostics
    return spec, warnings(spec)


def resolve_file(path: Path) -> ir.Spec:
    source = Source.read(path)
    return resolve(parse(source), source)


def resolve(module: ast.Module, source: Source) -> ir.Spec:
    names = Names(Declared(_declarations(module, source)))
    spec = _spec(names, source.path)
    bounds.check_combinations(spec)
    spec = replace(spec, examples=tuple(example(names, e) for e in names.d.examples))
    if names.d.rounds is None and not names.d.round_examples:
        return spec
    rounds = round_rules(names, names.d.rounds) if names.d.rounds is not None else None
    return replace(spec, rounds=rounds,
                   round_examples=tuple(round_example(names, e, rounds) for e in names.d.round_examples))


def _declarations(module: ast.Module, source: Source) -> Declarations:
    d = collect(module, source, (str(Path(source.path).resolve()),))
    if d.variant is None:
        raise error("a spec starts with `variant NAME \"中文名\" \"English name\"`", Span(source, 1, 1, 1, 2))
    if d.tiles is None:
        raise error("the spec declares no tiles (add a `tiles:` block or `extends` a spec)", d.variant.span)
    return d


def _spec(names: Names, path: str) -> ir.Spec:
    """The spec without its worked examples, resolved in the order the checks run: `let`s, shapes, fans,
    requirements, minimum, principles, exclusive groups, score, settlement, unit and cap."""
    d, declared = names.d, names.declared
    _definitions(names)
    names.hand_names = [n for n, p in d.patterns.items() if p.scope == "hand"]
    names.loser_names = [n for n, p in d.patterns.items() if p.scope == "loser"]
    shape_rules = tuple(_shape_rule(names, s) for s in d.shape_rules.values())
    hand, loser = _fans(names)
    requirements = tuple(
        ir.Requirement(r.name.text, r.english, names.expr(r.condition, names.scope("hand")), r.span)
        for r in d.requirements.values())
    minimum = fans.minimum(names, d.minimum)
    excluding = tuple(names.pattern_name(n) for n in (d.minimum.excluding if d.minimum else ()))
    principles = tuple(fans.principle(n) for n in (d.principles.names if d.principles else ()))
    fans.check_repeatable(hand, principles)
    preferred = tuple(names.pattern_name(n, names.hand_names) for n in (d.prefer.names if d.prefer else ()))
    exclusive = tuple(fans.exclusive(names, g) for g in d.exclusive.values())
    score = settlement.score(names, d.score) if d.score else ()
    settled = settlement.settlement(names, d.settle) if d.settle else None
    variant = d.variant
    return ir.Spec(
        name=variant.name.text, title=variant.title, english=variant.english, parent=d.parent,
        doc="\n\n".join(t.strip() for t in d.docs) or None, path=path,
        source_hash=hashlib.sha256("\0".join(d.sources).encode()).hexdigest()[:16],
        players=d.players, hand_size=d.hand_size, tiles=declared.tiles, suits=declared.suits,
        tilesets=tuple(declared.tilesets.values()), meld_kinds=tuple(declared.meld_kinds.values()),
        shapes=declared.shapes, context=declared.context, options=declared.options, definitions=names.definitions,
        requirements=requirements, minimum=minimum, minimum_excluding=excluding, principles=principles,
        preferred=preferred, patterns=hand, loser_patterns=loser, exclusive_groups=exclusive,
        supersede=d.supersede.value if d.supersede else None, score=score, settlement=settled, examples=(),
        red_tiles=declared.red_tiles, red_copies=declared.red_copies, next_tile=declared.next_tile,
        previous_tile=declared.previous_tile, indicator_tile=declared.indicator_tile, wilds=declared.wilds,
        shape_rules=shape_rules, rule_spans=_rule_spans(d), presets=presets.presets(d),
        rule_sections=rule_sections(d.rule_sections), **unit_and_cap(d),
    )


def _rule_spans(d: Declarations) -> tuple[tuple[str, Span], ...]:
    """Where each spec-wide rule is written, for explanations that cite it."""
    rules = {"minimum": d.minimum, "principles": d.principles, "prefer": d.prefer, "supersede": d.supersede,
             "cap": d.cap}
    return tuple((name, decl.span) for name, decl in rules.items() if decl is not None)


def _definitions(names: Names) -> None:
    """Top-level `let`s, in order: each may use the ones before it."""
    for decl in names.d.definitions.values():
        expr = names.expr(decl.expr, names.scope("hand"), "a `let` value", LET_TYPES)
        late = next((e for e in ir.walk(expr) if isinstance(e, ir.Var) and e.scope == "late"), None)
        if late is not None:  # a `let` is worked out once per reading, before the fans scored last are known
            raise error(f"{late.name!r} is only known to a fan's own condition, not to a `let`", late.span)
        names.binding_types[decl.name.text] = names.types.type(expr)
        names.definitions += (ir.Binding(decl.name.text, expr, decl.span),)


def _shape_rule(names: Names, rule: ast.ShapeRule) -> ir.ShapeRule:
    condition = names.expr(rule.condition, names.scope("hand"), "the condition of a shape")
    return ir.ShapeRule(rule.name.text, rule.english, condition, rule.span)


def _fans(names: Names) -> tuple[tuple[ir.Pattern, ...], tuple[ir.Pattern, ...]]:
    """The hand fans and the loser fans, each in the order they are scored."""
    fans.check_identities(list(names.d.patterns.values()))
    patterns = [fans.pattern(names, p, i) for i, p in enumerate(names.d.patterns.values())]
    fans.check_late_patterns(patterns)
    hand = fans.dependency_order([p for p in patterns if p.scope == "hand"])
    loser = fans.dependency_order([p for p in patterns if p.scope == "loser"])
    return tuple(hand), tuple(loser)
