"""IR expressions -> C expressions (as Cython source) of a checker module; each count/all/any/sum becomes a helper
function. Every IR node has its own emitter; one this back end does not know stops the build with an error naming
it, so a new kind of rule can never be compiled into a checker that silently ignores it."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from dsl.compiled import CodegenError, masks, names
from dsl.compiled.layout import source_text
from dsl.compiled.tables import Tables
from dsl.frontend import ir
from dsl.vocabulary import GROUP_SOURCES, LIMIT, SOURCES

ELEMENT_VARIABLE = {"tile": "t", "kind": "t", "group": "g", "loser": "l", "combo": "combo"}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
# Sums, differences, products, quotients and powers go through helpers that send the case to the reference
# interpreter when the exact result is not a 64-bit integer (a fraction, an overflow, x / 0).
CHECKED_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divide", "^": "power"}
# The groups each source of groups takes, as dsl.interp.evaluation.Evaluator._source takes them: those of these
# kinds, or for `sets` every group but those of these kinds (and tiles laid aside: core.pxd's is_set). A group's
# `chow`, `pung`, `kong` and `pair` attributes test the kinds of `chows`, `pungs`, `kongs` and `pairs`.
SOURCE_KINDS = {"chows": ("chow",), "pungs": ("pung", "kong"), "kongs": ("kong",), "pairs": ("pair",)}
NOT_SETS = ("pair", "single", "knitted", "wild")


@dataclass(frozen=True)
class GroupSource:
    """Which groups of a decomposition a source takes: `test`, a C condition on the group `g` (None: every one),
    and `kinds`, the mask of kinds of group (Ctx.d.kinds) without which it takes none (None: it may take any)."""

    test: str | None
    kinds: str | None


def _kinds_test(var: str, kinds: tuple[str, ...]) -> str:
    return " or ".join(f"{var}.kind == {kind.upper()}" for kind in kinds)


def _kinds_mask(kinds: tuple[str, ...]) -> str:
    bits = [f"1ULL << {kind.upper()}" for kind in kinds]
    return bits[0] if len(bits) == 1 else " | ".join(f"({bit})" for bit in bits)


def _group_source(source: str) -> GroupSource:
    if source == "groups":
        return GroupSource(None, None)
    if source == "sets":
        return GroupSource("is_set(g)", f"~({_kinds_mask(NOT_SETS)})")
    kinds = SOURCE_KINDS[source]
    return GroupSource(_kinds_test("g", kinds) if len(kinds) == 1 else f"({_kinds_test('g', kinds)})",
                       _kinds_mask(kinds))


GROUP_FILTERS = {source: _group_source(source) for source in GROUP_SOURCES}


@dataclass
class Aggregate:
    """A helper function computing one count/all/any/sum/combinations."""

    name: str
    source_text: str
    function: str  # count, all, any, sum, combinations
    source: str  # tiles, kinds, groups, ..., losers
    body: str  # C condition or number
    group: GroupSource | None  # which groups, for a source of groups
    takes_loser: bool
    short_circuit: bool  # all/any may stop early: no later element can change the outcome's side effects
    size: int = 0  # combinations: sets taken at a time


@dataclass(frozen=True)
class Lookup:
    """A table as a C array: `values[k - low]` for keys low..low + len(values) - 1, `otherwise` for the rest."""

    name: str
    source_text: str
    low: int
    values: tuple[int, ...]
    otherwise: int

    @property
    def high(self) -> int:
        return self.low + len(self.values) - 1


def _lookup(name: str, e: ir.Table) -> Lookup:
    """The dense array of a table's rows: a key between two rows takes `otherwise`, as ir.Table.lookup gives."""
    low = e.rows[0][0] if e.rows else 0
    high = e.rows[-1][1] if e.rows else 0
    return Lookup(name, source_text(e.span), low, tuple(e.lookup(k) for k in range(low, high + 1)), e.otherwise)


@dataclass(frozen=True)
class Where:
    """Where an expression stands: its scope, the element of an enclosing count/all/any/sum, the loser."""

    scope: str  # "hand", "loser", "settle"
    element: str | None = None  # "tile", "kind", "group", "loser", "combo"
    loser: str | None = None  # C name of the loser being settled

    @property
    def var(self) -> str:
        assert self.element is not None
        return ELEMENT_VARIABLE[self.element]


@dataclass(frozen=True)
class Code:
    text: str
    kind: str  # "bool", "num", "text", "tile"


class Emitter:
    """IR expressions -> C expressions (as Cython source); count/all/any/sum become helper functions.

    A hand fan read by another fan, a requirement or a settlement value is read from c.n, its count in
    the decomposition: fans are counted in dependency order, before requirements that read them.
    """

    def __init__(self, spec: ir.Spec, tables: Tables):
        self.spec = spec
        self.tables = tables
        self.fan_functions = names.fan_functions(spec)
        self.aggregates: list[Aggregate] = []
        self.lookups: list[Lookup] = []
        self.definitions: dict[str, str] = {}  # top-level `let` -> C function
        self.scores: dict[str, str] = {}  # `score:` results -> C function
        self.bindings: dict[str, str] = {}  # settlement `let` -> C function
        self.reorder_waits = not any(_may_fail(self.spec, r.condition) for r in self.spec.requirements)
        self.group_masks = masks.GroupMasks(spec, tables)
        self.uses_group_masks = False  # some rule reads Ctx.group_tiles: the runtime fills them per decomposition

    # -- typed entry points

    def condition(self, expr: ir.Expr, where: Where) -> str:
        code = self.expr(expr, where)
        return code.text if code.kind == "bool" else f"({code.text} != 0)"

    def number(self, expr: ir.Expr, where: Where) -> str:
        return self.expr(expr, where).text

    def expr(self, expr: ir.Expr, where: Where) -> Code:
        emit = getattr(self, "_" + _snake(type(expr).__name__), None)
        if emit is None:
            raise CodegenError(f"{expr.span}: the compiled checker does not support the expression node "
                               f"{type(expr).__name__} yet")
        return emit(expr, where)

    # -- one emitter per node

    def _const(self, e: ir.Const, where: Where) -> Code:
        if isinstance(e.value, bool):
            return Code("True" if e.value else "False", "bool")
        if isinstance(e.value, int):
            if abs(e.value) > LIMIT:  # beyond what the compiled arithmetic holds: the interpreter answers
                return Code("too_large(c)", "num")
            return Code(str(e.value), "num")
        return Code(self.tables.text(e.value), "text")

    def _var(self, e: ir.Var, where: Where) -> Code:
        match e.scope:
            case "hand":
                return self._hand_var(e)
            case "context" if e.name in ("seat", "dealer", "discarder"):
                return Code(f"c.h.{e.name}", "num")  # resolved with its default, as the interpreter reads it
            case "context" | "flag":
                key = self.tables.context_key(e.name)
                if key.kind not in ("KEY_FLAG", "KEY_COUNT", "KEY_SEAT", "KEY_INT"):
                    raise CodegenError(f"{e.span}: the compiled checker cannot read {e.name!r} in an expression")
                return Code(f"c.h.context[{key.c_name}]", "bool" if key.kind == "KEY_FLAG" else "num")
            case "option":
                option = self.tables.option(e.name)
                kind = {"bool": "bool", "int": "num", "str": "text"}[option.python_type]
                return Code(f"c.h.options[{option.c_name}]", kind)
            case "settle":
                if e.name == "total":
                    return Code("c.total", "num")
                if e.name == "paid":
                    return Code("paid_amount(c)", "num")
                if e.name == "loser_total" and where.loser is not None:
                    return Code(f"c.share_total[{where.loser}]", "num")
            case "late" if e.name == "counted_fans":
                return Code("c.counted_fans", "num")
            case "binding":
                # the interpreter's environments add `let`s in layers, the later first: top-level ones,
                # then `score:` ones (once a reading is scored), then the settlement's
                if where.scope in ("settle", "loser") and e.name in self.bindings and where.loser is not None:
                    return Code(f"{self.bindings[e.name]}(c, {where.loser})", "num")
                if where.scope != "hand" and e.name in self.scores:
                    return Code(f"{self.scores[e.name]}(c)", "num")
                if e.name in self.definitions:
                    return Code(f"{self.definitions[e.name]}(c)", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not know the name {e.name!r} ({e.scope})")

    def _hand_var(self, e: ir.Var) -> Code:
        codes = {"shape": Code("c.d.shape", "text"), "wait": Code("c.d.wait", "text"),
                 "waits": Code("hand_waits(c, False)", "num"), "shape_waits": Code("hand_waits(c, True)", "num"),
                 "suits": Code("c.suits", "num"), "opened": Code("c.opened", "bool"),
                 "red_fives": Code("c.h.red", "num"), "is_dealer": Code("(c.h.seat == c.h.dealer)", "bool"),
                 "wilds": Code("wilds_held(c)", "num"), "substituted": Code("c.substituted", "num")}
        if e.name not in codes:
            raise CodegenError(f"{e.span}: the compiled checker does not know the hand value {e.name!r}")
        return codes[e.name]

    def _pattern_ref(self, e: ir.PatternRef, where: Where) -> Code:
        if self.spec.pattern(e.name).scope == "loser":  # not memoised, as in the interpreter: it depends on the loser
            if where.loser is None:
                raise CodegenError(f"{e.span}: the loser fan {e.name!r} is read where no loser is known")
            return Code(f"{self.fan_functions[e.name]}(c, {where.loser})", "num")
        return Code(f"c.n[{names.fan_constant(self.fan_functions[e.name])}]", "num")

    def _item(self, e: ir.Item, where: Where) -> Code:
        var = where.var
        if e.element in ("tile", "kind"):
            codes = {"suit": Code(f"TILE_SUIT[{var}]", "text"), "rank": Code(f"TILE_RANK[{var}]", "num"),
                     "numbered": Code(f"TILE_NUMBERED[{var}]", "bool"),
                     "honor": Code(f"(not TILE_NUMBERED[{var}])", "bool"), "tile": Code(var, "tile"),
                     "copies": Code(f"c.held[{var}]", "num"), "konged": Code(f"has_tile(c.konged, {var})", "bool"),
                     "own_flower": Code(f"(TILE_SEAT[{var}] == c.h.seat_wind + 1)", "bool")}
        elif e.element == "group":
            codes = {attr: Code(f"({_kinds_test(var, SOURCE_KINDS[f'{attr}s'])})", "bool")
                     for attr in ("chow", "pung", "kong", "pair")}
            codes |= {"concealed": Code(f"{var}.concealed", "bool"),
                     "exposed": Code(f"(not {var}.concealed)", "bool"),
                     "declared": Code(f"{var}.declared", "bool"), "opens": Code(f"{var}.opens", "bool"),
                     "suit": Code(f"TILE_SUIT[{var}.tile]", "text"), "rank": Code(f"TILE_RANK[{var}.tile]", "num"),
                     "tile": Code(f"{var}.tile", "tile"), "with_win": Code(f"{var}.with_win", "bool"),
                     "size": Code(f"{var}.size", "num"),
                     "own_flower": Code(f"(TILE_SEAT[{var}.tile] == c.h.seat_wind + 1)", "bool"),
                     "numbered": Code(f"(({var}.tiles & ~NUMBERED) == 0)", "bool"),
                     "honor": Code(f"(({var}.tiles & NUMBERED) == 0)", "bool")}
            if e.name not in codes:  # a meld kind's name: Evaluator._group_attr compares it with the group's kind
                kinds = {v: c_name for c_name, v in self.tables.group_kinds}
                return Code(f"({var}.kind == {kinds[e.name]})" if e.name in kinds else "False", "bool")
        elif e.element == "loser":
            codes = {name: Code(f"c.losers[{var}].{name}", "num" if name == "seat" else "bool")
                     for name in ("dealer", "discarder", "opened", "seat")}
        elif e.element == "combo":
            codes = {"step": Code("combo_step(c, combo, k)", "num"),
                     "numbered": Code("combo_numbered(c, combo, k)", "bool")}
        else:
            codes = {}
        if e.name not in codes:
            raise CodegenError(f"{e.span}: the compiled checker does not know {e.element} attribute {e.name!r}")
        return codes[e.name]

    def _item_tile_set(self, e: ir.ItemTileSet, where: Where) -> Code:
        mask = self.tables.tile_set(e.tileset)
        var = where.var
        if e.element in ("tile", "kind"):
            return Code(f"has_tile({mask}, {var})", "bool")
        tiles = {"group": f"{var}.tiles", "combo": "combo_tiles(combo, k)"}.get(e.element)
        if tiles is None:
            raise CodegenError(f"{e.span}: the compiled checker cannot test a {e.element} against a tile set")
        return Code(f"(({tiles} & ~{mask}) == 0)" if e.every else f"(({tiles} & {mask}) != 0)", "bool")

    def _tile_of(self, e: ir.TileOf, where: Where) -> Code:
        tiles = {"win": "c.win", "pair": "pair_tile(c)", "seat_wind": "wind_tile(c, c.h.seat_wind)",
                 "round_wind": "wind_tile(c, c.h.round_wind)"}
        if e.name not in tiles:
            raise CodegenError(f"{e.span}: the compiled checker does not know the tile {e.name!r}")
        return Code(tiles[e.name], "tile")

    def _tile_attr(self, e: ir.TileAttr, where: Where) -> Code:
        tile = self.expr(e.tile, where).text
        if e.name == "suit":
            return Code(f"suit_of(c, {tile})", "text")
        if e.name == "rank":
            return Code(f"rank_of(c, {tile})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not know the tile attribute {e.name!r}")

    def _in_tile_set(self, e: ir.InTileSet, where: Where) -> Code:
        return Code(f"has_tile({self.tables.tile_set(e.tileset)}, {self.expr(e.tile, where).text})", "bool")

    def _loser_attr(self, e: ir.LoserAttr, where: Where) -> Code:
        if where.loser is None or e.name not in ("dealer", "discarder", "opened", "seat"):
            raise CodegenError(f"{e.span}: the compiled checker cannot read loser.{e.name} here")
        return Code(f"c.losers[{where.loser}].{e.name}", "num" if e.name == "seat" else "bool")

    def _aggregate(self, e: ir.Aggregate, where: Where) -> Code:
        if e.function not in ("count", "all", "any", "sum") or e.source not in SOURCES:
            raise CodegenError(f"{e.span}: the compiled checker does not support {e.function}({e.source}, ...)")
        if e.source in ("tiles", "kinds") and isinstance(e.body, ir.ItemTileSet) and e.function != "sum":
            return self._held_in_set(e)
        if e.function != "sum" and where.loser is None and masks.usable(self.spec, e.source):
            mask = self.group_masks.mask(e.body, e.source)
            if mask is not None:  # the groups' tiles alone decide it: a few bit operations, no loop
                self.uses_group_masks = True
                return Code(masks.aggregate(e.function, e.source, mask), "num" if e.function == "count" else "bool")
        element = SOURCES[e.source]
        # inside the helper the loser being settled is its parameter `loser`, or the loser looked at
        loser = "l" if element == "loser" else ("loser" if where.loser is not None else None)
        inner = Where(where.scope, element, loser)
        if e.body is None:
            body = ""  # count(SOURCE): every element
        elif e.function == "sum":
            body = self.number(e.body, inner)
        else:
            body = self.condition(e.body, inner)
        short = e.function in ("all", "any") and e.body is not None and not _may_fail(self.spec, e.body)
        return self._helper(Aggregate(self._helper_name(e.function, e.source), source_text(e.span),
                                      e.function, e.source, body, GROUP_FILTERS.get(e.source),
                                      where.loser is not None, short), where)

    def _next_tile(self, e: ir.NextTile, where: Where) -> Code:
        return Code(f"next_tile(c, {self.expr(e.tile, where).text})", "tile")

    def _previous_tile(self, e: ir.PreviousTile, where: Where) -> Code:
        return Code(f"previous_tile(c, {self.expr(e.tile, where).text})", "tile")

    def _indicated(self, e: ir.Indicated, where: Where) -> Code:
        slots = self.tables.indicator_keys()
        if e.key not in slots:
            raise CodegenError(f"{e.span}: the compiled checker cannot read indicators from {e.key!r}")
        return Code(f"indicated(c, {slots.index(e.key)})", "num")

    def _held_in_set(self, e: ir.Aggregate) -> Code:
        """all/any/count over the tiles held and a tile set, as operations on the mask of tiles held."""
        mask = self.tables.tile_set(e.body.tileset)  # type: ignore[union-attr]
        if e.function == "all":
            return Code(f"((c.held_tiles & ~{mask}) == 0)", "bool")
        if e.function == "any":
            return Code(f"((c.held_tiles & {mask}) != 0)", "bool")
        if e.source == "kinds":
            return Code(f"popcount(c.held_tiles & {mask})", "num")
        return Code(f"count_held(c, {mask})", "num")

    def _combinations(self, e: ir.Combinations, where: Where) -> Code:
        """A combination count outside 套算一次: every `size` sets of the source that meet the condition."""
        if e.source not in GROUP_FILTERS or not 2 <= e.size <= 4:
            raise CodegenError(f"{e.span}: the compiled checker does not support combinations({e.source}, {e.size})")
        body = self.condition(e.body, Where(where.scope, "combo", "loser" if where.loser else None))
        return self._helper(Aggregate(self._helper_name("combinations", e.source), source_text(e.span),
                                      "combinations", e.source, body, GROUP_FILTERS[e.source],
                                      where.loser is not None, False, e.size), where)

    def _combo_same(self, e: ir.ComboSame, where: Where) -> Code:
        if e.attr not in ("suit", "rank", "tile"):
            raise CodegenError(f"{e.span}: the compiled checker cannot compare the {e.attr!r} of sets")
        return Code(f"combo_{'distinct' if e.distinct else 'same'}(c, combo, k, ATTR_{e.attr.upper()})", "bool")

    def _helper_name(self, function: str, source: str) -> str:
        """`count_07_groups`: the helper's number keeps its name unique."""
        return names.numbered(f"{function}_", len(self.aggregates), source, 2)

    def _helper(self, helper: Aggregate, where: Where) -> Code:
        """Call a helper function, sharing one with an identical body."""
        same = next((a for a in self.aggregates if dataclasses.replace(a, name=helper.name) == helper), None)
        if same is None:
            self.aggregates.append(helper)
        args = "c" + (f", {where.loser}" if where.loser is not None else "")
        kind = "bool" if helper.function in ("all", "any") else "num"
        return Code(f"{(same or helper).name}({args})", kind)

    def _table(self, e: ir.Table, where: Where) -> Code:
        """A table looked up in a C array; one with a value beyond LIMIT leaves the case to the interpreter."""
        key = self.number(e.key, where)
        if any(abs(value) > LIMIT for _, _, value in e.rows) or abs(e.otherwise) > LIMIT:
            return Code("too_large(c)", "num")
        lookup = _lookup(names.numbered(names.TABLE, len(self.lookups), None, 2), e)
        same = next((t for t in self.lookups if dataclasses.replace(t, name=lookup.name) == lookup), None)
        if same is None:
            self.lookups.append(lookup)
        return Code(f"{(same or lookup).name}({key})", "num")

    def _call(self, e: ir.Call, where: Where) -> Code:
        args = [self.number(a, where) for a in e.args]
        if e.function in ("min", "max") and len(args) >= 2:
            return Code(f"{e.function}({', '.join(args)})", "num")
        if e.function == "abs" and len(args) == 1:
            return Code(f"abs({args[0]})", "num")
        if e.function == "roundup" and len(args) == 2:
            return Code(f"roundup(c, {args[0]}, {args[1]})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not support the function {e.function}()")

    def _binary(self, e: ir.Binary, where: Where) -> Code:
        if e.op in ("and", "or"):
            return self._logic(e, where)
        left, right = self.expr(e.left, where).text, self.expr(e.right, where).text
        if e.op in COMPARISONS:
            return Code(f"({left} {e.op} {right})", "bool")
        if e.op in CHECKED_ARITHMETIC:
            return Code(f"{CHECKED_ARITHMETIC[e.op]}(c, {left}, {right})", "num")
        raise CodegenError(f"{e.span}: the compiled checker does not support the operator {e.op!r}")

    def _logic(self, e: ir.Binary, where: Where) -> Code:
        """`a and b and c`: the operands that compute the hand's waits go last, so that a false (for `or`,
        a true) cheap operand spares that search. The result is the same: the operands have no effects,
        and computing waits can fail only when a requirement can (then the order is kept)."""
        operands = _chain(e, e.op)
        if self.reorder_waits:
            operands = sorted(operands, key=lambda o: reads_waits(self.spec, o))
        return Code("(" + f" {e.op} ".join(self.condition(o, where) for o in operands) + ")", "bool")

    def _not(self, e: ir.Not, where: Where) -> Code:
        return Code(f"(not {self.condition(e.operand, where)})", "bool")

    def _negate(self, e: ir.Negate, where: Where) -> Code:
        return Code(f"(-{self.number(e.operand, where)})", "num")

    def _conditional(self, e: ir.Conditional, where: Where) -> Code:
        """`a if p else b if q else c`: a chain of conditions in one pair of parentheses."""
        then, otherwise = self.expr(e.then, where), self.expr(e.otherwise, where)
        kind = then.kind if then.kind == otherwise.kind else "num"
        rest = otherwise.text[1:-1] if isinstance(e.otherwise, ir.Conditional) else otherwise.text
        return Code(f"({then.text} if {self.condition(e.condition, where)} else {rest})", kind)


# ---------------------------------------------------------------- what an expression reads


def reads_waits(spec: ir.Spec, expr: ir.Expr | None, seen: frozenset[str] = frozenset()) -> bool:
    """The expression reads `waits` or `shape_waits`, directly or through the fans and `let`s it uses."""
    definitions = {b.name: b.expr for b in spec.definitions}
    for node in ir.walk(expr):
        if isinstance(node, ir.Var) and node.scope == "hand" and node.name in ("waits", "shape_waits"):
            return True
        if isinstance(node, ir.Var) and node.scope == "binding" and node.name in definitions and node.name not in seen:
            if reads_waits(spec, definitions[node.name], seen | {node.name}):
                return True
        if isinstance(node, ir.PatternRef) and node.name not in seen:
            p = spec.pattern(node.name)
            if reads_waits(spec, p.condition, seen | {p.name}) or reads_waits(spec, p.value.expr, seen | {p.name}):
                return True
    return False


def _chain(expr: ir.Expr, op: str) -> list[ir.Expr]:
    """The operands of `a op b op c`, in order."""
    if isinstance(expr, ir.Binary) and expr.op == op:
        return _chain(expr.left, op) + _chain(expr.right, op)
    return [expr]


def _may_fail(spec: ir.Spec, expr: ir.Expr) -> bool:
    """Evaluating the expression may hand the case to the reference interpreter (see CHECKED_ARITHMETIC), or
    compute `waits`; then all(...) and any(...) look at every element, as Evaluator._aggregate does."""
    for node in ir.walk(expr):
        if isinstance(node, ir.Binary) and node.op in ("*", "/", "^"):  # a sum beyond LIMIT is no error
            return True
        if isinstance(node, ir.TileOf) and node.name != "win":
            return True
        if isinstance(node, ir.Var) and (node.scope == "binding" or node.name in ("waits", "shape_waits")):
            return True
    return False


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
