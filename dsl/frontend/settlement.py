"""`score:` and `settle:` -> IR: the results a spec computes from the total, and who pays whom."""

from __future__ import annotations

from dsl.frontend import ast, ir
from dsl.frontend.builtin_names import PAYERS, PAYMENT_CASES
from dsl.frontend.expressions import Names, Scope
from dsl.frontend.source import error, suggest
from dsl.frontend.typecheck import BOOL, LET_TYPES, NUMBER


def score(names: Names, decls: ast.Score) -> tuple[ir.Binding, ...]:
    bindings: tuple[ir.Binding, ...] = ()
    for decl in decls.bindings:
        earlier = tuple(b.name for b in bindings)
        expr = names.expr(decl.expr, names.scope("score", *earlier), "a `score` value", (NUMBER, BOOL))
        names.binding_types[decl.name.text] = names.types.type(expr)
        bindings += (ir.Binding(decl.name.text, expr, decl.span),)
    names.score_names = tuple(b.name for b in bindings)
    return bindings


def settlement(names: Names, settle: ast.Settle) -> ir.Settlement:
    bindings = []
    earlier: list[str] = []
    for binding in settle.bindings:
        expr = names.expr(binding.expr, names.scope("settle", *names.score_names, *earlier), "a `let` value", LET_TYPES)
        names.binding_types[binding.name.text] = names.types.type(expr)
        bindings.append(ir.Binding(binding.name.text, expr, binding.span))
        earlier.append(binding.name.text)
    scope = names.scope("settle", *names.score_names, *earlier)
    rules = tuple(_payment_rule(names, rule, scope) for rule in settle.rules)
    pot = names.expr(settle.pot, scope, "the pot", (NUMBER,)) if settle.pot is not None else None
    liable = names.expr(settle.liable, scope, "who is liable") if settle.liable is not None else None
    requirements = tuple(ir.Requirement(r.name.text, r.english, names.expr(r.condition, scope), r.span)
                         for r in settle.requirements)
    return ir.Settlement(tuple(bindings), rules, settle.span, pot, liable, requirements)


def _payment_rule(names: Names, rule: ast.PaymentRule, scope: Scope) -> ir.PaymentRule:
    if rule.case.text not in PAYMENT_CASES:
        raise error(f"unknown payment case {rule.case.text!r}", rule.case.span,
                    suggest(rule.case.text, PAYMENT_CASES) or "write `self_drawn:` or `discard:`")
    payments = []
    for payment in rule.payments:
        payer = ("each " if payment.each else "") + payment.payer.text
        if payer not in PAYERS:
            raise error(f"unknown payer {payer!r}", payment.payer.span,
                        suggest(payer, PAYERS) or "payers are: " + ", ".join(PAYERS))
        if payer != "each loser" and rule.case.text == "self_drawn":
            raise error("on a self-drawn win there is no discarder: write `each loser pays ...`",
                        payment.payer.span)
        amount = names.expr(payment.amount, scope, "a payment", (NUMBER,))
        payments.append(ir.Payment(payer, amount, payment.span))
    return ir.PaymentRule(rule.case.text, tuple(payments), rule.span)
