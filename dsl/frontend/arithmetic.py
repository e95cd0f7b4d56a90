"""The arithmetic of spec expressions: exact, and bounded so that no spec makes a number cost time or memory.

Numbers are whole; `/` may give a fraction, which the type checker lets reach only comparisons, conditions and
`roundup(...)` (dsl.frontend.typecheck). Every value an expression computes (a sum, difference, product,
quotient, power, `sum(...)`, `roundup(...)`) is at most MAX_VALUE_BITS bits long, a fraction's numerator and
denominator each; a longer one is an ArithmeticBoundError, raised before a power is computed. The interpreter
answers such a case with an error naming the expression; the front end refuses an expression of constants
that breaks the bound when the spec is checked.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction

from dsl.frontend import ir
from dsl.frontend.source import error

# Scores double a few dozen times at most: 2^128 (39 digits) is far beyond any total, and still cheap to compute.
MAX_VALUE_BITS = 128

Number = int | Fraction


class ArithmeticBoundError(ValueError):
    """A step of arithmetic without a value within the bounds: too large, a division by zero, a power that is not
    a whole number. The message says which, with the operands."""


def apply(op: str, left: Number, right: Number) -> Number:
    """`left op right` for op in + - * / ^, within the bounds."""
    if op == "^":
        return power(left, right)
    if op == "/" and right == 0:
        raise ArithmeticBoundError(f"{left} / {right}: division by zero")
    return bounded(OPERATIONS[op](left, right), lambda: f"{left} {op} {right}")


OPERATIONS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": lambda a, b: Fraction(a) / b}


def power(base: Number, exponent: Number) -> Number:
    """base ^ exponent: a whole exponent; a whole base to a negative power only when the result is whole (1, -1)."""
    if not isinstance(exponent, int):
        raise ArithmeticBoundError(f"{base} ^ {exponent}: the exponent is not a whole number")
    if base == 0 and exponent < 0:
        raise ArithmeticBoundError(f"{base} ^ {exponent}: division by zero")
    if isinstance(base, int) and exponent < 0 and abs(base) != 1:
        raise ArithmeticBoundError(f"{base} ^ {exponent} is not a whole number (write 1 / {base} ^ {-exponent})")
    if abs(base) not in (0, 1) and abs(exponent) > MAX_VALUE_BITS:  # decided before the power takes long
        raise _too_large(f"{base} ^ {exponent}")
    value = base ** exponent if exponent >= 0 else Fraction(base) ** exponent
    return bounded(value, lambda: f"{base} ^ {exponent}")


def roundup(value: Number, step: Number) -> Number:
    """`roundup(value, step)`: value rounded up to a multiple of a positive step."""
    if step <= 0:
        raise ArithmeticBoundError(f"roundup({value}, {step}): the step must be positive")
    return bounded(-(-value // step) * step, lambda: f"roundup({value}, {step})")


def bounded(value: Number, shown: Callable[[], str]) -> Number:
    """The value (a whole fraction as an int) when it is within the bounds; else an error about what `shown`
    writes (the step that computed it: written only then)."""
    if not fits(value):
        raise _too_large(shown())
    return _whole(value)


def fits(value: Number) -> bool:
    """The value is within the bounds: at most MAX_VALUE_BITS bits (a fraction's numerator and denominator)."""
    if isinstance(value, Fraction):
        return max(value.numerator.bit_length(), value.denominator.bit_length()) <= MAX_VALUE_BITS
    return value.bit_length() <= MAX_VALUE_BITS


def _whole(value: Number) -> Number:
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


def _too_large(shown: str) -> ArithmeticBoundError:
    return ArithmeticBoundError(f"{shown} is beyond {MAX_VALUE_BITS} bits, the bound on every number a spec computes")


def check_constants(expr: ir.Expr) -> None:
    """Refuse, with its position, a part of the expression made of numbers alone whose value breaks the bounds
    (`2 ^ 1000`, `1 / 0`): it would fail on every hand."""
    constant(expr)


def constant(expr: ir.Expr) -> Number | None:
    """The value of an expression of numbers alone (None for any other), every step checked."""
    match expr:
        case ir.Const(value=int() as value) if not isinstance(value, bool):
            return value
        case ir.Negate():
            operand = constant(expr.operand)
            return None if operand is None else -operand
        case ir.Binary(op="+" | "-" | "*" | "/" | "^"):
            left, right = constant(expr.left), constant(expr.right)
            if left is None or right is None:
                return None
            try:
                return apply(expr.op, left, right)
            except ArithmeticBoundError as exc:
                raise error(f"{exc}", expr.span) from None
    for child in ir.children(expr):
        constant(child)
    return None
