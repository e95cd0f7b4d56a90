"""IR expressions in the spec's own notation: `count(chows) == 0`, `2 ^ (fan - 1)`.

The rule books print rules this way, and explanations print them again with each part's value put in
(`2 ^ (4 - 1)`), so both share one printer that knows every expression node of dsl/frontend/ir.py by name.
"""

from __future__ import annotations

from collections.abc import Callable

from dsl.frontend import ir


class UnknownNodeError(Exception):
    """An IR node the printer cannot show yet."""

    def __init__(self, node: object):
        where = f" at {node.span}" if isinstance(node, ir.Expr) else ""
        super().__init__(f"cannot render the IR node {type(node).__name__}{where}: {node!r}; teach "
                         "dsl/frontend/formula.py (the notation) and dsl/book/prose.py (the words) how to read it")


Leaf = Callable[[ir.Expr], "str | None"]  # a node's text in place of its formula, or None to print it


# Binding strength in the spec notation, loosest first: decides where formula() needs parentheses.
PRECEDENCE = {"if": 1, "or": 2, "and": 3, "not": 4, "==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5,
              "in": 5, "+": 6, "-": 6, "*": 7, "/": 7, "neg": 8, "^": 9}
_ATOM = 10


def formula(expr: ir.Expr, leaf: Leaf | None = None) -> str:
    """The expression in the spec language, with only the parentheses it needs; `leaf` may print some nodes
    its own way (an explanation prints a part as its value on one hand)."""
    return _Printer(leaf)(expr)[0]


def row_keys(low: int, high: int) -> str:
    """The keys of a row of a table: `3`, or `3..5`."""
    return str(low) if low == high else f"{low}..{high}"


class _Printer:
    def __init__(self, leaf: Leaf | None):
        self.leaf = leaf

    def __call__(self, expr: ir.Expr) -> tuple[str, int]:
        shown = self.leaf(expr) if self.leaf is not None else None
        return (shown, _ATOM) if shown is not None else self._node(expr)

    def text(self, expr: ir.Expr) -> str:
        return self(expr)[0]

    def _node(self, expr: ir.Expr) -> tuple[str, int]:  # noqa: C901 - one case per node type
        match expr:
            case ir.Const(value=bool() as value):
                return ("true" if value else "false"), _ATOM
            case ir.Const():
                return str(expr.value), _ATOM
            case ir.Var() | ir.PatternRef() | ir.TileOf():
                return expr.name, _ATOM
            case ir.Item(element="payer" | "receiver"):
                return f"{expr.element}.{expr.name}", _ATOM
            case ir.Item():
                return expr.name, _ATOM
            case ir.ItemTileSet():
                return (expr.tileset if expr.every else f"contains({expr.tileset})"), _ATOM
            case ir.TileAttr():
                return f"{self._wrap(expr.tile, _ATOM)}.{expr.name}", _ATOM
            case ir.LoserAttr():
                return f"loser.{expr.name}", _ATOM
            case ir.InTileSet():
                return f"{self._wrap(expr.tile, 6)} in {expr.tileset}", 5
            case ir.Aggregate():
                body = "" if expr.body is None else f", {self.text(expr.body)}"
                return f"{expr.function}({expr.source}{body})", _ATOM
            case ir.Combinations():
                return f"combinations({expr.source}, {expr.size}, {self.text(expr.body)})", _ATOM
            case ir.ComboSame():
                return f"{'distinct' if expr.distinct else 'same'}({expr.attr})", _ATOM
            case ir.NextTile():
                return f"next({self.text(expr.tile)})", _ATOM
            case ir.PreviousTile():
                return f"previous({self.text(expr.tile)})", _ATOM
            case ir.Indicated():
                return f"indicated({expr.key})", _ATOM
            case ir.Call():
                return f"{expr.function}({', '.join(self.text(a) for a in expr.args)})", _ATOM
            case ir.Binary():
                return self._binary(expr)
            case ir.Not():
                return f"not {self._wrap(expr.operand, 4)}", 4
            case ir.Negate():
                return f"-{self._wrap(expr.operand, 9)}", 8
            case ir.Conditional():
                return (f"{self._wrap(expr.then, 2)} if {self._wrap(expr.condition, 2)} else "
                        f"{self._wrap(expr.otherwise, 1)}", 1)
            case ir.Table():
                rows = [f"{row_keys(low, high)} -> {value}" for low, high, value in expr.rows]
                return f"table({self.text(expr.key)}: {', '.join([*rows, f'else {expr.otherwise}'])})", _ATOM
        raise UnknownNodeError(expr)

    def _binary(self, expr: ir.Binary) -> tuple[str, int]:
        level = PRECEDENCE[expr.op]
        if expr.op == "^":  # right-associative
            return f"{self._wrap(expr.left, level + 1)} ^ {self._wrap(expr.right, level)}", level
        # Comparisons do not chain: both sides bind tighter.
        right_level = level + 1
        left_level = level + 1 if level == 5 else level
        return f"{self._wrap(expr.left, left_level)} {expr.op} {self._wrap(expr.right, right_level)}", level

    def _wrap(self, expr: ir.Expr, needed: int) -> str:
        text, level = self(expr)
        return text if level >= needed else f"({text})"
