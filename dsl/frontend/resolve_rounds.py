"""The `round:` rules and the worked rounds of a spec -> IR: players' attributes, meld kinds, flags.

Round rules resolve their expressions with the spec's own Names, through resolvers that know a player's
attributes instead of a hand's.
"""

from __future__ import annotations

import json

from dsl.frontend import ast, ir
from dsl.frontend.builtin_names import FUNCTIONS
from dsl.frontend.examples import amounts, distinct_seats, example, example_comments, seat_number
from dsl.frontend.expressions import ExprResolver, Names, Scope
from dsl.frontend.presets import example_options
from dsl.frontend.source import Span, error, suggest
from dsl.frontend.typecheck import BOOL, FRACTION, NUMBER, PLAYER_TYPES, ROUND_END_TYPES, TRUTHY

# Only a draw check's amount sees both sides, and only there is `best` known (it needs a payer).
PAIR_ATTRS = PLAYER_TYPES
PLAYER_ATTRS = [name for name in PLAYER_TYPES if name != "best"]
PAIR_SIDES = ("payer", "receiver")
KONG_PAYERS = ("each other", "discarder")


def round_rules(r: Names, decl: ast.RoundRules) -> ir.RoundRules:
    bindings: list[ir.Binding] = []
    for b in decl.bindings:
        expr = _player_expr(r, b.expr, [x.name for x in bindings], "a `let` value", (NUMBER, FRACTION, BOOL))
        r.binding_types[b.name.text] = r.types.type(expr)
        bindings.append(ir.Binding(b.name.text, expr, b.span))
    names = [b.name for b in bindings]
    if decl.winners_leave is not None and not any(k.name == "out" for k in r.declared.context):
        raise error("`winners leave` needs the context key `out` (the seats that have left): add `context out`",
                    decl.span)
    return ir.RoundRules(
        tuple(bindings), decl.winners_leave, _winners_per_discard(r, decl.winners_per_discard),
        tuple(_kong_rule(r, k, names) for k in decl.kongs),
        tuple(ir.TransferRule(_flag(r, t.flag), t.span) for t in decl.transfers),
        tuple(_check(r, c, names) for c in decl.checks),
        tuple(ir.PenaltyRule(p.name.text, p.english, _player_expr(r, p.amount, names, "a penalty", (NUMBER,)),
                             p.span) for p in decl.penalties),
        tuple(ir.DeclareRule(d.name.text, d.english, d.next_hand, _flag(r, d.flag), d.span)
              for d in decl.declarations),
        decl.span, tuple(_next_hand_set(r, s) for s in decl.next_hand_sets))


def _winners_per_discard(r: Names, e: ast.Expr | None) -> ir.Expr | None:
    """`at most N winners per discard`: N a number, or an expression of options (a preset's choice)."""
    if e is None:
        return None
    expr = OptionResolver(r, Scope("round_end"), False).resolve(e)
    r.types.expect(expr, (NUMBER,), "the most winners on one discard")
    return expr


def _kong_rule(r: Names, rule: ast.KongRule, names: list[str]) -> ir.KongRule:
    _kong_kind(r, rule.kind.text, rule.kind.span)
    payments = []
    for payment in rule.payments:
        payer = ("each " if payment.each else "") + payment.payer.text
        if payer not in KONG_PAYERS:
            raise error(f"a kong is paid by {' or '.join(KONG_PAYERS)}, not {payer!r}", payment.payer.span)
        amount = _player_expr(r, payment.amount, names, "a payment", (NUMBER,))
        payments.append(ir.Payment(payer, amount, payment.span))
    return ir.KongRule(rule.kind.text, tuple(payments), rule.span)


def _check(r: Names, check: ast.DrawCheck, names: list[str]) -> ir.DrawCheck:
    payer = _player_expr(r, check.payer, names, "who pays")
    if check.amount is None:
        return ir.DrawCheck(check.name.text, check.english, payer, None, None, check.span)
    amount = _player_expr(r, check.amount, names, "an amount", (NUMBER,), sides=True)
    receiver = _player_expr(r, check.receiver, names, "who receives")
    return ir.DrawCheck(check.name.text, check.english, payer, amount, receiver, check.span)


def _next_hand_set(r: Names, decl: ast.NextHandSet) -> ir.NextHandSet:
    keys = [k.name for k in r.declared.context if k.kind == "int"]
    if decl.key.text not in keys:
        raise error(f"{decl.key.text!r} is not an integer context key of the spec", decl.key.span,
                    suggest(decl.key.text, keys) or "declare it with `context NAME int LOW..HIGH \"...\"`")
    expr = RoundEndResolver(r, Scope("round_end"), False).resolve(decl.expr)
    return ir.NextHandSet(decl.key.text, r.checked(expr, (NUMBER,), "the value of a context key"), decl.span)


def _kong_kind(r: Names, name: str, span: Span) -> None:
    """A meld kind that is a kong: four of a kind, or a tile laid aside (红中杠), which also draws a replacement."""
    if name not in r.declared.meld_kinds:
        raise error(f"unknown meld kind {name!r}", span, suggest(name, r.declared.meld_kinds))
    kind = r.declared.meld_kinds[name]
    if kind.shape != "kong" and not kind.aside:
        kongs = [k.name for k in r.declared.meld_kinds.values() if k.shape == "kong" or k.aside]
        raise error(f"{name!r} is not a kind of kong; the kongs are: {', '.join(kongs) or 'none'}", span)


def _flag(r: Names, name: ast.Name) -> str:
    flags = [k.name for k in r.declared.context if k.kind == "flag"]
    if name.text not in flags:
        raise error(f"{name.text!r} is not a flag the spec reads", name.span,
                    suggest(name.text, flags) or "declare it with `flag NAME \"...\"`")
    return name.text


def _player_expr(r: Names, e: ast.Expr, names: list[str], what: str, wanted: tuple[str, ...] = TRUTHY,
                 sides: bool = False) -> ir.Expr:
    return r.checked(PlayerExprResolver(r, Scope("player", bindings=tuple(names)), sides).resolve(e), wanted, what)


class PlayerExprResolver(ExprResolver):
    """Names in a round rule: the player's attributes, `let`s of the round block, options, constants;
    in a draw check's amount also `payer.X` and `receiver.X`."""

    def __init__(self, names: Names, scope: Scope, sides: bool):
        super().__init__(names, scope)
        self.sides = sides

    def _lookups(self):
        return [self._binding, self._player, self._option, self._constant]

    def _player(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "player", name) if name in PLAYER_ATTRS else None

    def _known_names(self) -> list[str]:
        return list(PLAYER_ATTRS) + list(self.scope.bindings) + list(self.r.d.options)

    def _attribute(self, e: ast.Attribute) -> ir.Expr:
        owner, attr = e.owner.text, e.attr.text
        if owner not in PAIR_SIDES or not self.sides:
            sides = " or ".join(f"`{s}.`" for s in PAIR_SIDES)
            raise error(f"unknown name {owner!r}" + (f"; a draw check's amount may use {sides}" if owner in PAIR_SIDES
                                                      else ""), e.owner.span)
        if attr not in PAIR_ATTRS:
            raise error(f"a player has no {attr!r}", e.attr.span, suggest(attr, PAIR_ATTRS))
        return ir.Item(e.span, owner, attr)

    def _call(self, e: ast.Call) -> ir.Expr:
        if e.function.text not in FUNCTIONS:
            raise error(f"unknown function {e.function.text!r} in a round rule", e.function.span,
                        suggest(e.function.text, FUNCTIONS))
        return super()._call(e)


class RoundEndResolver(PlayerExprResolver):
    """Names in `next hand sets KEY = ...`: how the hand ended (dealer_won, drawn, winners), the integer
    context keys (their values in this hand), options, constants."""

    def _lookups(self):
        return [self._round_end, self._int_key, self._option, self._constant]

    def _round_end(self, name: str, span: Span) -> ir.Expr | None:
        return ir.Var(span, "round_end", name) if name in ROUND_END_TYPES else None

    def _int_key(self, name: str, span: Span) -> ir.Expr | None:
        is_int_key = any(k.name == name and k.kind == "int" for k in self.r.declared.context)
        return ir.Var(span, "flag", name) if is_int_key else None

    def _known_names(self) -> list[str]:
        int_keys = [k.name for k in self.r.declared.context if k.kind == "int"]
        return list(ROUND_END_TYPES) + int_keys + list(self.r.d.options)


class OptionResolver(PlayerExprResolver):
    """Names in `at most N winners per discard`, decided before any player wins: options and constants."""

    def _lookups(self):
        return [self._option, self._constant]

    def _known_names(self) -> list[str]:
        return list(self.r.d.options)


# ---------------------------------------------------------------- worked rounds


def round_example(r: Names, e: ast.RoundExample, rules: ir.RoundRules | None) -> ir.RoundExample:
    if rules is None:
        raise error("a worked round needs the spec's `round:` rules", e.span)
    record: dict[str, object] = {"events": [_event(r, ev, rules) for ev in e.events]}
    if e.dealer is not None:
        record["dealer"] = seat_number(r, e.dealer)
    options = example_options(r.d, e.preset, e.options)
    if options:
        record["options"] = dict(sorted(options.items()))
    if e.carried:
        record["carried"] = [_flag(r, name) for name in e.carried]
    if e.context:
        keys = [k.name for k in r.declared.context]
        for name, _ in e.context:
            if name.text not in keys:
                raise error(f"the spec does not read {name.text!r}", name.span, suggest(name.text, keys))
        record["context"] = {name.text: value for name, value in e.context}
    payments = tuple((i, amounts(r, ev.payments)) for i, ev in enumerate(e.events) if ev.payments is not None)
    wins = tuple((i, example(r, ev.case)) for i, ev in enumerate(e.events)
                 if ev.case is not None and (ev.case.fans is not None or ev.case.total is not None))
    return ir.RoundExample(e.title, e.doc, json.dumps(record, ensure_ascii=False, sort_keys=True), payments, wins,
                           tuple(ev.span for ev in e.events), amounts(r, e.total), e.span, example_comments(e.lines),
                           _next_context(r, e.next_context, rules), e.preset.text if e.preset else None)


def _next_context(r: Names, given: tuple | None, rules: ir.RoundRules) -> tuple[tuple[str, int], ...] | None:
    """`next hand 連莊 3`: the values the round's `next hand sets` rules must give the next hand."""
    if given is None:
        return None
    keys = {k.name: k for k in r.declared.context if k.kind == "int"}
    set_by_rules = {s.key for s in rules.next_hand_sets}
    expected = []
    for name, value in given:
        if name.text not in set_by_rules:
            raise error(f"no `next hand sets {name.text} = ...` rule gives {name.text!r} to the next hand", name.span,
                        suggest(name.text, sorted(set_by_rules)))
        key = keys[name.text]
        if isinstance(value, bool) or not isinstance(value, int) or not key.low <= value <= key.high:
            raise error(f"{name.text!r} is a whole number from {key.low} to {key.high}, not {value!r}", name.span)
        expected.append((name.text, value))
    return tuple(expected)


def _event(r: Names, ev: ast.RoundEvent, rules: ir.RoundRules) -> dict:
    fields = {key: seat_number(r, value) if isinstance(value, ast.Seat) else value for key, value in ev.fields}
    match ev.kind:
        case "kong":
            _kong_kind(r, fields["kong"], ev.span)
            return fields
        case "declare":
            _known(fields["declare"], [d.name for d in rules.declarations], "declaration", ev.span)
            return fields
        case "penalty":
            _known(fields["penalty"], [p.name for p in rules.penalties], "penalty", ev.span)
            return fields
        case "win":
            return {"win": _win_case(r, ev, fields)}
        case "draw":
            seats = distinct_seats(r, [seat for seat, _ in ev.hands], "a final hand")
            return {"draw": {str(seat): _final_hand(r, hand) for seat, (_, hand) in zip(seats, ev.hands, strict=True)}}
    raise AssertionError(ev.kind)


def _known(name: str, names: list[str], what: str, span: Span) -> None:
    if name not in names:
        raise error(f"unknown {what} {name!r}", span, suggest(name, names) or f"the `round:` rules name no {what}s")


def _win_case(r: Names, ev: ast.RoundEvent, fields: dict) -> dict:
    assert ev.case is not None
    case = example(r, ev.case).case_dict()
    for key in ("seat", "discarder", "self_drawn"):
        if key in case:
            raise error(f"the `win SEAT from SEAT:` line already says {key!r}", ev.span)
    case["seat"] = fields["seat"]
    if "from" in fields:
        case["discarder"] = fields["from"]
    else:
        case["self_drawn"] = True
    return case


def _final_hand(r: Names, hand: ast.Example) -> dict:
    return example(r, hand).case_dict()
