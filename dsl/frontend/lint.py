"""Warnings about a resolved spec: legal but suspicious (a fan that can never count, a tile set nobody uses)."""

from __future__ import annotations

from dsl.frontend import ir
from dsl.frontend.source import Diagnostic


def warnings(spec: ir.Spec) -> list[Diagnostic]:
    """Legal but suspicious: a fan that can never count, a tile set nobody uses."""
    return _always_excluded(spec) + _unused_tilesets(spec)


def _always_excluded(spec: ir.Spec) -> list[Diagnostic]:
    """Fans that require a fan which excludes them (by 不计 or by outranking them in an exclusive group)."""
    found: list[Diagnostic] = []
    excluders: dict[str, list[str]] = {}
    for p in spec.patterns + spec.loser_patterns:
        for exclusion in p.excludes:
            if exclusion.times is None:
                excluders.setdefault(exclusion.target, []).append(p.name)
    for group in spec.exclusive_groups:
        for member in group.members:
            for other in group.members:
                if other != member and _outranks(spec.pattern(other), spec.pattern(member)):
                    excluders.setdefault(member, []).append(other)
    for p in spec.patterns + spec.loser_patterns:
        implied = {c.name for c in _conjuncts(p.condition) if isinstance(c, ir.PatternRef)}
        for excluder in excluders.get(p.name, []):
            if excluder in implied:
                found.append(Diagnostic(
                    "warning", f"fan {p.name!r} is always excluded: it requires {excluder!r}, which excludes it",
                    p.span))
    return found


def _unused_tilesets(spec: ir.Spec) -> list[Diagnostic]:
    """Tile sets this spec's own file declares that no fan or requirement reads."""
    used = set()
    for p in spec.patterns + spec.loser_patterns:
        used |= _tilesets_used(p.condition) | _tilesets_used(p.value.expr)
    for r in spec.requirements:
        used |= _tilesets_used(r.condition)
    return [Diagnostic("warning", f"tile set {ts.name!r} is never used", ts.span) for ts in spec.tilesets
            if ts.span is not None and ts.name not in used and ts.span.source.path == spec.path]


def _conjuncts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _outranks(a: ir.Pattern, b: ir.Pattern) -> bool:
    """Within an exclusive group, a is preferred to b (higher fixed value, then earlier)."""
    va, vb = a.value.amount or 0, b.value.amount or 0
    return (va, -a.order) > (vb, -b.order)


def _tilesets_used(expr: ir.Expr | None) -> set[str]:
    return {e.tileset for e in ir.walk(expr) if isinstance(e, ir.ItemTileSet | ir.InTileSet)}
