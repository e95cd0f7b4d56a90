"""Types of IR expressions: a spec that compares a shape with a number is an error before any hand is scored.

A number is whole, except what `/` gives: a FRACTION may be compared, tested and rounded (`roundup(x / 2, 100)`),
but a value that leaves the spec (a fan's value or count, a payment, a `score:` result, a context key's next
value) and an exponent must be whole, so that every result is a whole number.
"""

from __future__ import annotations

from collections.abc import Mapping

from dsl.frontend import ir
from dsl.frontend.source import error

NUMBER, BOOL, TEXT, TILE = "number", "true/false", "a name", "a tile"
FRACTION = "a fraction"  # a number that may not be whole: what `/` gives, and what is computed from it
TRUTHY = (NUMBER, FRACTION, BOOL)
LET_TYPES = (NUMBER, FRACTION, BOOL, TEXT, TILE)  # what a `let` may name

HAND_TYPES = {"shape": TEXT, "wait": TEXT, "waits": NUMBER, "shape_waits": NUMBER, "suits": NUMBER, "opened": BOOL,
              "is_dealer": BOOL, "red_fives": NUMBER, "wilds": NUMBER, "substituted": NUMBER}
CONTEXT_TYPES = {"flag": BOOL, "count": NUMBER, "int": NUMBER, "seat": NUMBER, "wind": TEXT}
ITEM_TYPES = {
    "suit": TEXT, "rank": NUMBER, "tile": TILE, "size": NUMBER, "copies": NUMBER, "seat": NUMBER, "step": NUMBER,
}
# A player, in round rules; `best` (what the payer would pay on the receiver's best win) only as payer./receiver.
PLAYER_TYPES = {
    "won": BOOL, "ready": BOOL, "suits": NUMBER, "seat": NUMBER, "dealer": BOOL, "kong_income": NUMBER, "best": NUMBER,
}
# The end of a hand, in `next hand sets KEY = ...`: what happened, for the value a key takes in the next hand.
ROUND_END_TYPES = {"dealer_won": BOOL, "drawn": BOOL, "winners": NUMBER}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class TypeChecker:
    """Infers the type of an expression; `bindings` holds the types of `let` names in scope."""

    def __init__(self, context: Mapping[str, str], options: Mapping[str, object], bindings: Mapping[str, str]):
        self.context = context
        self.options = options
        self.bindings = bindings

    def expect(self, expr: ir.Expr, wanted: tuple[str, ...], what: str) -> str:
        found = self.type(expr)
        if found == FRACTION and NUMBER in wanted and FRACTION not in wanted:
            raise error(f"{what} must be a whole number, but `{expr.span.excerpt()}` may be a fraction (it divides "
                        "with `/`)", expr.span, "round it: roundup(VALUE, 1), or a multiple: roundup(VALUE, 100)")
        if found not in wanted:
            raise error(f"{what} must be {' or '.join(wanted)}, but this is {found}", expr.span)
        return found

    def type(self, expr: ir.Expr) -> str:  # noqa: C901 - one case per node type
        match expr:
            case ir.Const():
                return BOOL if isinstance(expr.value, bool) else NUMBER if isinstance(expr.value, int) else TEXT
            case ir.Var():
                return self._var(expr)
            case ir.PatternRef():
                return NUMBER
            case ir.Item() if expr.element in ("payer", "receiver"):
                return PLAYER_TYPES[expr.name]
            case ir.Item():
                return ITEM_TYPES.get(expr.name, BOOL)
            case ir.ItemTileSet() | ir.InTileSet():
                if isinstance(expr, ir.InTileSet):
                    self.expect(expr.tile, (TILE,), "the left of `in`")
                return BOOL
            case ir.TileOf():
                return TILE
            case ir.TileAttr():
                return ITEM_TYPES[expr.name]
            case ir.LoserAttr():
                return ITEM_TYPES.get(expr.name, BOOL)
            case ir.Aggregate():
                return self._aggregate(expr)
            case ir.Combinations():
                self.expect(expr.body, TRUTHY, "the condition of combinations()")
                return NUMBER
            case ir.ComboSame():
                return BOOL
            case ir.NextTile() | ir.PreviousTile():
                return TILE
            case ir.Indicated():
                return NUMBER
            case ir.Call():
                types = [self.expect(arg, TRUTHY, f"an argument of {expr.function}()") for arg in expr.args]
                rounding = types[1:] if expr.function == "roundup" else types  # roundup(x, 10) is whole
                return FRACTION if FRACTION in rounding else NUMBER
            case ir.Binary():
                return self._binary(expr)
            case ir.Not():
                self.expect(expr.operand, TRUTHY, "the operand of `not`")
                return BOOL
            case ir.Negate():
                return _number(self.expect(expr.operand, TRUTHY, "the operand of `-`"))
            case ir.Conditional():
                self.expect(expr.condition, TRUTHY, "the condition of `if`")
                then = self.type(expr.then)
                otherwise = self.type(expr.otherwise)
                if _kind(then) != _kind(otherwise):
                    raise error(f"the two branches differ: {then} and {otherwise}", expr.span)
                return FRACTION if FRACTION in (then, otherwise) else then
            case ir.Table():
                self.expect(expr.key, (NUMBER, BOOL), "the key of a table")
                return NUMBER
        raise AssertionError(expr)

    def _var(self, expr: ir.Var) -> str:
        match expr.scope:
            case "hand":
                return HAND_TYPES[expr.name]
            case "context" | "flag":
                kind = self.context[expr.name]
                if kind not in CONTEXT_TYPES:
                    raise error(f"{expr.name!r} cannot be used in an expression", expr.span)
                return CONTEXT_TYPES[kind]
            case "option":
                value = self.options[expr.name]
                return BOOL if isinstance(value, bool) else NUMBER if isinstance(value, int) else TEXT
            case "settle" | "late":
                return NUMBER
            case "binding":
                return self.bindings[expr.name]
            case "player":
                return PLAYER_TYPES[expr.name]
            case "round_end":
                return ROUND_END_TYPES[expr.name]
        raise AssertionError(expr)

    def _aggregate(self, expr: ir.Aggregate) -> str:
        if expr.function == "sum" and expr.body is not None:
            return _number(self.expect(expr.body, TRUTHY, "what sum() adds"))
        if expr.body is not None:
            self.expect(expr.body, TRUTHY, f"the condition of {expr.function}()")
        return BOOL if expr.function in ("all", "any") else NUMBER

    def _binary(self, expr: ir.Binary) -> str:
        if expr.op in ("and", "or"):
            self.expect(expr.left, TRUTHY, f"the left of `{expr.op}`")
            self.expect(expr.right, TRUTHY, f"the right of `{expr.op}`")
            return BOOL
        if expr.op in ("==", "!="):
            left, right = self.type(expr.left), self.type(expr.right)
            if _kind(left) != _kind(right):
                raise error(f"cannot compare {left} with {right}", expr.span)
            return BOOL
        left = self.expect(expr.left, TRUTHY, f"the left of `{expr.op}`")
        if expr.op == "^":
            self.expect(expr.right, (NUMBER, BOOL), "the exponent of `^`")
            return _number(left)
        right = self.expect(expr.right, TRUTHY, f"the right of `{expr.op}`")
        if expr.op in COMPARISONS:
            return BOOL
        return FRACTION if expr.op == "/" or FRACTION in (left, right) else NUMBER


def _kind(type_name: str) -> str:
    return NUMBER if type_name in TRUTHY else type_name


def _number(operand: str) -> str:
    """The type of a number computed from one operand: a fraction stays one."""
    return FRACTION if operand == FRACTION else NUMBER
