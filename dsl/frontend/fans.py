"""Fans -> IR: each fan's value and condition and what it excludes (不计); exclusive groups, accounting principles
and the minimum; the order fans are scored in (each after the fans it reads; one reading `counted_fans` last)."""

from __future__ import annotations

import re

from dsl.frontend import ast, ir
from dsl.frontend.builtin_names import PRINCIPLES, TRADITIONAL
from dsl.frontend.expressions import Names
from dsl.frontend.source import error, suggest
from dsl.frontend.typecheck import NUMBER
from dsl.vocabulary import COMBINING_PRINCIPLES

IDENTITY = re.compile(r"[a-z][a-z0-9_]*")


def pattern(names: Names, p: ast.Pattern, order: int) -> ir.Pattern:
    scope = names.scope(p.scope)
    value_expr = names.expr(p.value.expr, scope, "a fan value", (NUMBER,)) if p.value.expr is not None else None
    value = ir.Value(p.value.kind, p.value.amount, value_expr)
    if p.value.kind.endswith("each"):
        condition = names.expr(p.condition, scope, "the count of a per-occurrence fan", (NUMBER,))
    else:
        condition = names.expr(p.condition, scope)
    late = any(isinstance(e, ir.Var) and e.scope == "late"
               for e in (*ir.walk(condition), *ir.walk(value.expr)))
    return ir.Pattern(p.name.text, p.english, value, condition, _exclusions(names, p),
                      tuple(a.text for a in p.aliases), p.doc, p.scope, order, p.span, late, p.definition,
                      _identity(p))


def _identity(p: ast.Pattern) -> str | None:
    """The id of `id NAME`: lower-case ASCII, so that variants written in any script can share it."""
    if p.identity is None:
        return None
    if not IDENTITY.fullmatch(p.identity.text):
        raise error(f"id {p.identity.text!r} of fan {p.name.text!r} is not lower-case ASCII letters, digits and _ "
                    "(e.g. thirteen_orphans)", p.identity.span)
    return p.identity.text


def check_identities(patterns: list[ast.Pattern]) -> None:
    """Two fans of one spec cannot be the same pattern."""
    seen: dict[str, ast.Pattern] = {}
    for p in patterns:
        if p.identity is None:
            continue
        if (first := seen.setdefault(p.identity.text, p)) is not p:
            raise error(f"fans {first.name.text!r} and {p.name.text!r} both have the id {p.identity.text!r}",
                        p.identity.span)


def _exclusions(names: Names, p: ast.Pattern) -> tuple[ir.Exclusion, ...]:
    excludes = []
    for exclusion in p.excludes:
        target = names.pattern_name(exclusion.target)
        if target == p.name.text:
            raise error(f"fan {target!r} cannot exclude itself", exclusion.target.span)
        if names.d.patterns[target].scope != p.scope:
            raise error(f"{target!r} is a {names.d.patterns[target].scope} fan; it cannot be excluded by a "
                        f"{p.scope} fan", exclusion.target.span)
        if exclusion.times is not None and not names.d.patterns[target].value.kind.endswith("each"):
            raise error(f"`×{exclusion.times}` excludes occurrences, but {target!r} is not counted per "
                        "occurrence", exclusion.target.span)
        excludes.append(ir.Exclusion(target, exclusion.times, exclusion.target.span))
    return tuple(excludes)


def exclusive(names: Names, group: ast.Exclusive) -> ir.ExclusiveGroup:
    members = tuple(names.pattern_name(m) for m in group.members)
    for name, member in zip(members, group.members, strict=True):
        if names.d.patterns[name].scope != "hand":
            raise error(f"{name!r} is a loser fan; exclusive groups hold hand fans", member.span)
    return ir.ExclusiveGroup(group.name.text, group.english, members, group.span)


def minimum(names: Names, decl: ast.Minimum | None) -> int | str:
    if decl is None:
        return 0
    if isinstance(decl.value, int):
        return decl.value
    option = names.d.options.get(decl.value.text)
    if option is None or not isinstance(option.default, int) or isinstance(option.default, bool):
        raise error(f"`minimum {decl.value.text}` needs a number or an option holding one", decl.value.span,
                    suggest(decl.value.text, names.d.options))
    return decl.value.text


def principle(name: ast.Name) -> str:
    text = TRADITIONAL.get(name.text, name.text)
    if text not in PRINCIPLES:
        raise error(f"unknown accounting principle {name.text!r}", name.span, suggest(name.text, PRINCIPLES))
    return text


def _references(expr: ir.Expr | None) -> set[str]:
    """Names of the patterns an expression refers to."""
    return {e.name for e in ir.walk(expr) if isinstance(e, ir.PatternRef)}


def dependency_order(patterns: list[ir.Pattern]) -> list[ir.Pattern]:
    """Patterns ordered so that each comes after those it refers to; a cycle is an error."""
    by_name = {p.name: p for p in patterns}
    ordered: list[ir.Pattern] = []
    state: dict[str, str] = {}

    def visit(p: ir.Pattern, path: tuple[str, ...]) -> None:
        if state.get(p.name) == "done":
            return
        if state.get(p.name) == "visiting":
            cycle = " -> ".join(path[path.index(p.name):] + (p.name,))
            raise error(f"fans refer to each other in a circle: {cycle}", p.span)
        state[p.name] = "visiting"
        for name in sorted(_references(p.condition) | _references(p.value.expr)):
            if name in by_name:
                visit(by_name[name], path + (p.name,))
        state[p.name] = "done"
        ordered.append(p)

    for p in patterns:
        visit(p, ())
    return ordered


def check_late_patterns(patterns: list[ir.Pattern]) -> None:
    """A fan scored last (it reads `counted_fans`) cannot be used by another fan, nor exclude one."""
    late = {p.name for p in patterns if p.late}
    for p in patterns:
        for node in (*ir.walk(p.condition), *ir.walk(p.value.expr)):
            if isinstance(node, ir.PatternRef) and node.name in late:
                raise error(f"{node.name!r} is scored after the other fans (it reads counted_fans): "
                            "no fan can depend on it", node.span)
        if p.late and p.excludes:
            raise error(f"{p.name!r} is scored after the other fans; it cannot exclude any", p.excludes[0].span)


def check_repeatable(patterns: tuple[ir.Pattern, ...], principles: tuple[str, ...]) -> None:
    """`each` says a fan can count more than once, and the rule book prints it so. Under 套算一次 / 不得相同 a fan
    of three or four sets counts once (dsl.interp.combinations): such a fan written `each` is an error."""
    if not any(p in COMBINING_PRINCIPLES for p in principles):
        return
    for p in patterns:
        if isinstance(p.condition, ir.Combinations) and p.value.kind == "each" and p.condition.size >= 3:
            raise error(f"fan {p.name!r} counts at most once: under {'/'.join(COMBINING_PRINCIPLES)} a fan of "
                        f"{p.condition.size} sets is counted once; write its value without `each`", p.span)
