"""Expressions -> IR: every name bound to what it means where it stands (a fan, a `let`, a context key, an
option, an element of count/all/any ...), every function call checked, then the type checked.

Fans, settlement and round rules all resolve their expressions here, against the Names of the spec.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from dsl.frontend import arithmetic, ast, ir, tables
from dsl.frontend.builtin_names import (
    AGGREGATES,
    COMBO_ATTRS,
    CONTEXT_KEYS,
    ELEMENT_ATTRS,
    FUNCTIONS,
    GROUP_SOURCES,
    HAND_VARS,
    LATE_VARS,
    LOSER_ATTRS,
    SETTLE_SOURCES,
    SETTLE_VARS,
    SHAPES,
    SOURCES,
    TILE_ATTRS,
    TILE_VALUED,
    WAITS,
)
from dsl.frontend.declarations import Declared
from dsl.frontend.source import Span, error, suggest
from dsl.frontend.typecheck import TRUTHY, TypeChecker


@dataclass(frozen=True)
class Scope:
    kind: str  # "hand", "loser", "settle"
    element: str | None = None
    bindings: tuple[str, ...] = ()


class Names:
    """What the names of an expression can mean while a spec is resolved: its declarations, then its `let`s and
    fans as they become known."""

    def __init__(self, declared: Declared):
        self.declared = declared
        self.d = declared.d
        self.binding_types: dict[str, str] = {}
        self.types = TypeChecker({k.name: k.kind for k in declared.context},
                                 {o.name: o.default for o in declared.options}, self.binding_types)
        self.hand_names: list[str] = []  # fans are not known to top-level `let`s: they come first
        self.loser_names: list[str] = []
        self.definitions: tuple[ir.Binding, ...] = ()
        self.score_names: tuple[str, ...] = ()

    def scope(self, kind: str, *more: str) -> Scope:
        return Scope(kind, bindings=tuple(b.name for b in self.definitions) + more)

    def expr(self, e: ast.Expr, scope: Scope, what: str = "a condition", wanted: tuple[str, ...] = TRUTHY
             ) -> ir.Expr:
        """Resolve names, then check the expression (see `checked`)."""
        return self.checked(ExprResolver(self, scope).resolve(e), wanted, what)

    def checked(self, expr: ir.Expr, wanted: tuple[str, ...], what: str) -> ir.Expr:
        """The expression, once it has a type the place it stands in accepts and its parts made of numbers alone
        have values within the bounds of dsl.frontend.arithmetic."""
        self.types.expect(expr, wanted, what)
        arithmetic.check_constants(expr)
        return expr

    def pattern_name(self, name: ast.Name, names: Iterable[str] | None = None) -> str:
        """The fan a name (or an alias) stands for, among `names` (every fan when not given)."""
        aliases = self.declared.aliases
        known = list(names) if names is not None else list(self.d.patterns)
        if name.text in known:
            return name.text
        if name.text in aliases and aliases[name.text] in known:
            return aliases[name.text]
        if name.text in self.d.removed:
            raise error(f"fan {name.text!r} was removed", name.span)
        raise error(f"unknown fan {name.text!r}", name.span, suggest(name.text, known + list(aliases)))


class ExprResolver:
    """Binds every name of an expression to what it means in its scope."""

    def __init__(self, names: Names, scope: Scope):
        self.r = names
        self.scope = scope

    def resolve(self, e: ast.Expr) -> ir.Expr:
        match e:
            case ast.Number():
                return ir.Const(e.span, e.value)
            case ast.Ref():
                return self._name(e.name, e.span)
            case ast.Attribute():
                return self._attribute(e)
            case ast.Call():
                return self._call(e)
            case ast.Binary():
                return ir.Binary(e.span, e.op, self._shape_side(e, e.left), self._shape_side(e, e.right))
            case ast.Not():
                return ir.Not(e.span, self.resolve(e.operand))
            case ast.Negate():
                return ir.Negate(e.span, self.resolve(e.operand))
            case ast.Conditional():
                return ir.Conditional(e.span, self.resolve(e.then), self.resolve(e.condition),
                                      self.resolve(e.otherwise))
            case ast.Member():
                return ir.InTileSet(e.span, self._tile_valued(e.element), self._tileset(e.tileset))
            case ast.Table():
                return tables.table(e, self.resolve)
        raise AssertionError(e)

    def _shape_side(self, compare: ast.Binary, side: ast.Expr) -> ir.Expr:
        """One side of a comparison; beside `shape`, a spec's own shape name is the shape even when a fan
        has the same name (fan 八仙過海 8: shape == 八仙過海)."""
        other = compare.right if side is compare.left else compare.left
        if (compare.op in ("==", "!=") and isinstance(other, ast.Ref) and other.name == "shape"
                and isinstance(side, ast.Ref) and side.name in self.r.declared.shape_names):
            return ir.Const(side.span, side.name)
        return self.resolve(side)

    def _name(self, name: str, span: Span) -> ir.Expr:
        element = self.scope.element
        if element is not None:
            if name == "own_flower" and name in ELEMENT_ATTRS[element]:
                self._own_flower(span)
            if name in ELEMENT_ATTRS[element]:
                return ir.Item(span, element, name)
            if element == "combo" and name in COMBO_ATTRS:
                raise error(f"write same({name}) or distinct({name}) to compare the sets of a combination", span)
            if element != "loser" and name in self.r.declared.tilesets:
                return ir.ItemTileSet(span, element, name, every=True)
            if element == "group" and name in self.r.declared.meld_kinds:
                return ir.Item(span, "group", name)
        for lookup in self._lookups():
            found = lookup(name, span)
            if found is not None:
                return found
        raise error(f"unknown name {name!r}", span, suggest(name, self._known_names()))

    def _lookups(self) -> list[Callable[[str, Span], ir.Expr | None]]:
        return [self._binding, self._settle_var, self._hand_var, self._context_var, self._option,
                self._pattern_ref, self._constant]

    def _binding(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "binding", name) if name in self.scope.bindings else None

    def _settle_var(self, name: str, span: Span) -> ir.Expr | None:
        if name not in SETTLE_VARS:
            return None
        if self.scope.kind == "hand":
            raise error(f"{name!r} is only known when settling (in `score:`, `settle:` or a loser fan)", span)
        if name == "loser_total" and self.scope.kind != "settle":
            raise error("'loser_total' is only known in `settle:`", span)
        return ir.Var(span, "settle", name)

    def _hand_var(self, name: str, span: Span) -> ir.Expr | None:
        if name in HAND_VARS:
            return ir.Var(span, "hand", name)
        if name in LATE_VARS:
            if self.scope.kind != "hand" or self.scope.element is not None:
                raise error(f"{name!r} is only known to a fan's own condition", span)
            return ir.Var(span, "late", name)
        if name in TILE_VALUED:
            return self._tile_valued(ast.Ref(span, name))
        return None

    def _context_var(self, name: str, span: Span) -> ir.Expr | None:
        key = next((k for k in self.r.declared.context if k.name == name), None)
        if key is not None:
            return ir.Var(span, "flag" if not key.builtin else "context", name)
        if name in CONTEXT_KEYS:
            raise error(f"the spec does not read {name!r}: declare it with `context {name}`", span)
        return None

    def _option(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "option", name) if name in self.r.d.options else None

    def _pattern_ref(self, name: str, span: Span) -> ir.Expr | None:
        allowed = self.r.hand_names + (self.r.loser_names if self.scope.kind != "hand" else [])
        canonical = self.r.declared.aliases.get(name, name)
        if canonical in allowed:
            return ir.PatternRef(span, canonical)
        if not self.r.hand_names and canonical in self.r.d.patterns:
            raise error(f"a top-level `let` cannot use the fan {name!r}: write its condition instead", span)
        if canonical in self.r.loser_names:
            raise error(f"{name!r} is a loser fan: hand fans and requirements cannot use it", span)
        return None

    def _constant(self, name: str, span: Span) -> ir.Expr | None:
        if name in SHAPES or name in WAITS or name in self.r.declared.shape_names:
            return ir.Const(span, name)
        if name in ("true", "false"):
            return ir.Const(span, name == "true")
        if name in self.r.declared.suit_codes:
            return ir.Const(span, name)
        return None

    def _known_names(self) -> list[str]:
        names = list(HAND_VARS) + [k.name for k in self.r.declared.context] + list(self.r.d.options)
        names += self.r.hand_names + list(SHAPES) + list(self.r.declared.shape_names) + list(WAITS)
        names += list(self.scope.bindings)
        if self.scope.kind != "hand":
            names += self.r.loser_names + list(SETTLE_VARS)
        if self.scope.element:
            names += list(ELEMENT_ATTRS[self.scope.element])
            if self.scope.element != "loser":
                names += list(self.r.declared.tilesets)
        return names

    def _tile_valued(self, e: ast.Expr) -> ir.Expr:
        if isinstance(e, ast.Ref) and e.name in TILE_VALUED:
            if e.name in CONTEXT_KEYS:
                self._require_context(e.name, e.span)
            return ir.TileOf(e.span, e.name)
        if isinstance(e, ast.Ref) and self.scope.element in ("group", "kind", "tile") and e.name == "tile":
            return ir.Item(e.span, self.scope.element, "tile")
        if isinstance(e, ast.Call) and e.function.text in ("next", "previous"):
            return self.resolve(e)
        raise error("expected a tile here: `win`, `seat_wind`, `round_wind`, `pair`, `tile`, next(...) or "
                    "previous(...)", e.span)

    def _own_flower(self, span: Span) -> None:
        """`own_flower` compares a flower's seat with the winner's seat wind: the spec must seat its flowers."""
        if not any(t.seat for t in self.r.declared.tiles):
            raise error("no flower names its seat: end the `flowers` line with `seats 1 2 3 4 ...`", span)

    def _require_context(self, name: str, span: Span) -> None:
        if not any(k.name == name for k in self.r.declared.context):
            raise error(f"the spec does not read {name!r}: declare it with `context {name}`", span)

    def _tileset(self, name: ast.Name) -> str:
        if name.text not in self.r.declared.tilesets:
            raise error(f"unknown tile set {name.text!r}", name.span, suggest(name.text, self.r.declared.tilesets))
        return name.text

    def _attribute(self, e: ast.Attribute) -> ir.Expr:
        owner, attr = e.owner.text, e.attr.text
        if owner == "loser":
            if self.scope.kind == "hand":
                raise error("'loser' is only known when settling (in `settle:` or a loser fan)", e.owner.span)
            if attr not in LOSER_ATTRS:
                raise error(f"a loser has no {attr!r}", e.attr.span, suggest(attr, LOSER_ATTRS))
            return ir.LoserAttr(e.span, attr)
        if owner in TILE_VALUED:
            if attr not in TILE_ATTRS:
                raise error(f"a tile has no {attr!r}", e.attr.span, suggest(attr, TILE_ATTRS))
            return ir.TileAttr(e.span, self._tile_valued(ast.Ref(e.owner.span, owner)), attr)
        raise error(f"unknown name {owner!r}", e.owner.span, suggest(owner, ["loser", *TILE_VALUED]))

    def _call(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        if name == "contains":
            if self.scope.element not in ("group",) or len(e.args) != 1 or not isinstance(e.args[0], ast.Ref):
                raise error("contains(SET) is written inside count/all/any over groups", e.span)
            return ir.ItemTileSet(e.span, "group", self._tileset(ast.Name(e.args[0].name, e.args[0].span)),
                                  every=False)
        if name in AGGREGATES:
            return self._aggregate(e)
        if name == "combinations":
            return self._combinations(e)
        if name in ("same", "distinct"):
            return self._combo_same(e)
        if name in ("next", "previous"):
            if len(e.args) != 1:
                raise error(f"write {name}(TILE), e.g. {name}(win)", e.span)
            node = ir.NextTile if name == "next" else ir.PreviousTile
            return node(e.span, self._tile_valued(e.args[0]))
        if name == "indicated":
            return self._indicated(e)
        if name in FUNCTIONS:
            low, high = FUNCTIONS[name]
            if not low <= len(e.args) <= high:
                raise error(f"{name}() takes {low} to {high} arguments", e.span)
            if name == "roundup" and isinstance(e.args[1], ast.Number) and e.args[1].value <= 0:
                raise error("roundup(VALUE, STEP) rounds up to a multiple of a positive STEP", e.args[1].span)
            return ir.Call(e.span, name, tuple(self.resolve(a) for a in e.args))
        known = [*AGGREGATES, *FUNCTIONS, "contains", "combinations", "same", "distinct", "next", "previous",
                 "indicated"]
        raise error(f"unknown function {name!r}", e.function.span, suggest(name, known))

    def _combinations(self, e: ast.Call) -> ir.Expr:
        form = "write combinations(SOURCE, SIZE, CONDITION), e.g. combinations(chows, 3, same(suit) and step == 3)"
        if len(e.args) != 3:
            raise error(form, e.span)
        source, size, condition = e.args
        if not isinstance(source, ast.Ref) or source.name not in GROUP_SOURCES:
            raise error("combinations are taken from " + ", ".join(GROUP_SOURCES), source.span,
                        suggest(source.name, GROUP_SOURCES) if isinstance(source, ast.Ref) else None)
        if not isinstance(size, ast.Number) or not 2 <= size.value <= 4:
            raise error("the size of a combination is 2, 3 or 4", size.span)
        inner = Scope(self.scope.kind, "combo", self.scope.bindings)
        body = ExprResolver(self.r, inner).resolve(condition)
        return ir.Combinations(e.span, source.name, size.value, body)

    def _indicated(self, e: ast.Call) -> ir.Expr:
        keys = [k.name for k in self.r.declared.context if k.kind == "tiles"]
        if len(e.args) != 1 or not isinstance(e.args[0], ast.Ref) or e.args[0].name not in CONTEXT_KEYS:
            raise error("write indicated(KEY) with a context key of indicator tiles, e.g. indicated(dora)", e.span)
        key = e.args[0].name
        if key not in keys:
            if CONTEXT_KEYS[key][0] != "tiles":
                raise error(f"{key!r} is not a list of indicator tiles", e.args[0].span)
            raise error(f"the spec does not read {key!r}: declare it with `context {key}`", e.args[0].span)
        return ir.Indicated(e.span, key)

    def _combo_same(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        if self.scope.element != "combo":
            raise error(f"{name}(...) is written inside combinations(...)", e.span)
        if len(e.args) != 1 or not isinstance(e.args[0], ast.Ref) or e.args[0].name not in COMBO_ATTRS:
            raise error(f"write {name}(suit), {name}(rank) or {name}(tile)", e.span)
        return ir.ComboSame(e.span, e.args[0].name, distinct=name == "distinct")

    def _aggregate(self, e: ast.Call) -> ir.Expr:
        name = e.function.text
        low, high = AGGREGATES[name]
        if not low <= len(e.args) <= high:
            form = f"{name}(SOURCE)" if high == 1 else f"{name}(SOURCE, CONDITION)"
            raise error(f"write {form}" if low == high else f"write {name}(SOURCE) or {name}(SOURCE, CONDITION)",
                        e.span)
        source = e.args[0]
        if not isinstance(source, ast.Ref) or source.name not in SOURCES:
            raise error("the first argument is what to look at: " + ", ".join(SOURCES), source.span,
                        suggest(source.name, SOURCES) if isinstance(source, ast.Ref) else None)
        if source.name in SETTLE_SOURCES and self.scope.kind == "hand":
            raise error(f"{source.name!r} is only known when settling (in `settle:` or a loser fan)", source.span)
        if source.name == "loser_melds" and self.scope.element == "loser":
            raise error("'loser_melds' are the melds of the loser being settled, not of each loser", source.span)
        if source.name == "other_melds":
            self._require_context("other_melds", source.span)
        inner = Scope(self.scope.kind, SOURCES[source.name], self.scope.bindings)
        body = ExprResolver(self.r, inner).resolve(e.args[1]) if len(e.args) > 1 else None
        return ir.Aggregate(e.span, name, source.name, body)
