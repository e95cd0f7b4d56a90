"""Why a hand scores what it scores: the readings tried, the fans counted and dropped (by which rule), the minimum,
the cap, each payment with its formula worked out, and why a named fan does not count.

An explanation runs the reference semantics again with the record kept: the same readings, the same exclusions,
the same payments as `evaluate`, so that it can never disagree with the score it explains. It is a JSON object
(docs/interface.md, "Explanations"); `dsl.interp.explain_text` prints it for a person.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Protocol

from dsl.cases.case import Hand, read_case
from dsl.cases.seats import seat_name, win_text
from dsl.frontend import ir
from dsl.frontend.formula import formula
from dsl.frontend.source import Span, suggest
from dsl.interp.decompose import Decomposition, Group
from dsl.interp.evaluation import (
    Counted,
    Dropped,
    Env,
    EvaluationError,
    Evaluator,
    HandFacts,
    Loser,
    Scored,
    takes_over,
)
from dsl.notation import HandError
from dsl.vocabulary import COMBINING_PRINCIPLES

MAX_READINGS_SHOWN = 24  # a hand with wild tiles may have hundreds of readings; the rest are counted, not listed
FAILED_COMPARISON = {"==": "≠", "!=": "==", "<": "≥", "<=": ">", ">": "≤", ">=": "<"}


class Scorer(Protocol):
    """What an explanation asks of the interpreter (dsl.interp.interpreter.Interpreter): the same steps that
    score a case, one at a time."""

    spec: ir.Spec
    evaluator: Evaluator

    def evaluate_hand(self, hand: Hand) -> dict: ...

    def facts(self, hand: Hand) -> HandFacts: ...

    def scored_readings(self, facts: HandFacts) -> Iterator[tuple[Decomposition, Scored | None, str | None]]: ...

    def reading_env(self, facts: HandFacts, d: Decomposition) -> Env: ...

    def score(self, env: Env, dropped: list[Dropped] | None = None) -> Scored: ...

    def settle_env(self, hand: Hand, best: Scored) -> tuple[Env, dict[int, tuple[list[Counted], int]]]: ...

    def payment_rule(self, hand: Hand) -> ir.PaymentRule | None: ...

    def charges(self, rule: ir.PaymentRule, losers: tuple[Loser, ...], env: Env) -> list[tuple[ir.Payment, Loser,
                                                                                            int]]: ...

    def liable(self, settlement: ir.Settlement, losers: tuple[Loser, ...], env: Env) -> Loser | None: ...


def explain(interpreter: Scorer, case: object, why_not: Sequence[str] = ()) -> dict:
    """The explanation of a case (a JSON object), or {"ok": false, "error": ...} for a case or fan name that is
    wrong."""
    spec = interpreter.spec
    try:
        hand = read_case(spec, case)
        asked = [_fan_named(spec, name) for name in why_not]
    except HandError as exc:
        return {"ok": False, "error": str(exc)}
    try:
        return _Explanation(interpreter, hand).json(asked)
    except EvaluationError as exc:
        return {"ok": False, "error": f"{spec.name} cannot score this hand: {exc}"}


def _fan_named(spec: ir.Spec, name: str) -> ir.Pattern:
    """A fan by its name, one of its aliases or its English name (any case)."""
    wanted = name.strip().casefold()
    for p in spec.patterns + spec.loser_patterns:
        if wanted in {p.name.casefold(), *(a.casefold() for a in p.aliases), (p.english or "").casefold()}:
            return p
    names = [p.name for p in spec.patterns + spec.loser_patterns]
    hint = suggest(name, names)
    raise HandError(f"--why-not {name!r}: {spec.name} has no fan of that name" + (f"; did you mean {hint}?"
                                                                                  if hint else ""))


def where(span: Span | None) -> str | None:
    """A rule's place in its spec as `specs/mcr.mj:82`."""
    return None if span is None else f"{span.path}:{span.line}"


@dataclass(frozen=True)
class Reading:
    """One reading of the hand as it was tried."""

    decomposition: Decomposition
    scored: Scored | None
    unmet: str | None


class _Explanation:
    def __init__(self, interpreter: Scorer, hand: Hand):
        self.interpreter = interpreter
        self.spec = interpreter.spec
        self.evaluator = interpreter.evaluator
        self.hand = hand
        self.result = interpreter.evaluate_hand(hand)
        self.readings: list[Reading] = []
        self.best: Reading | None = None
        if hand.win is not None:
            self.facts = interpreter.facts(hand)
            for d, scored, unmet in interpreter.scored_readings(self.facts):
                reading = Reading(d, scored, unmet)
                self.readings.append(reading)
                if scored is not None and (self.best is None or takes_over(self.spec, scored, self.best.scored)):
                    self.best = reading

    # -- the whole explanation

    def json(self, asked: Sequence[ir.Pattern]) -> dict:
        out: dict = {"ok": True, "spec": self.spec.name, "unit": self.spec.unit, "win": self._win_words(),
                     "result": self.result, "readings": self._readings_json()}
        if self.best is not None:
            out["chosen"] = self._why_chosen()
            dropped = self._dropped()
            out["fans"] = [self._fan_json(c.pattern, c.value, c.count) for c in self.best.scored.fans]
            out["dropped"] = [self._dropped_json(d) for d in dropped]
            if self.spec.minimum or self.spec.rule_span("minimum"):
                out["minimum"] = self._minimum()
            if self.spec.cap is not None:
                out["cap"] = self._cap()
            if self.spec.settlement is not None and self.result.get("winning"):
                out["payments"] = self._payments()
        if asked:
            out["why_not"] = [self._why_not(p) for p in asked]
        return out

    def _win_words(self) -> str:
        hand = self.hand
        if hand.win is None:
            return f"{seat_name(self.spec, hand.seat, hand.dealer)} has no winning tile yet"
        robbed = bool(hand.context.get("robbing_kong", False))
        won = win_text(self.spec, hand.seat, hand.dealer, hand.discarder, robbed)
        return f"{won}, on {self.spec.tiles[hand.win].code}"

    # -- readings

    def _readings_json(self) -> list[dict]:
        shown = []
        for reading in self.readings[:MAX_READINGS_SHOWN]:
            entry: dict = {"groups": self.groups_text(reading.decomposition), "shape": reading.decomposition.shape,
                           "wait": reading.decomposition.wait, "chosen": reading is self.best}
            if reading.scored is None:
                entry["unmet"] = reading.unmet
            else:
                entry["total"] = reading.scored.total
                if reading.scored.rank != reading.scored.total:
                    entry["rank"] = reading.scored.rank
            shown.append(entry)
        return shown

    def groups_text(self, d: Decomposition) -> str:
        """The groups of a reading: `[555p]` a declared meld, `*` the group holding the winning tile."""
        return " ".join(self._group_text(g) for g in d.groups)

    def _group_text(self, g: Group) -> str:
        text = tiles_text(self.spec, g.tiles)
        if g.wild:
            text += f"({tiles_text(self.spec, g.wild)} wild)"
        if g.declared:
            text = f"[{text}]"
        return text + ("*" if g.with_win else "")

    def _why_chosen(self) -> str:
        best = self.best
        assert best is not None and best.scored is not None
        scored = [r for r in self.readings if r.scored is not None]
        measure = "value" if "value" in best.scored.values else "total"
        rank = best.scored.rank
        if len(scored) == 1:
            tried = len(self.readings)
            return f"the only reading that meets the requirements ({tried} tried)" if tried > 1 else "the only reading"
        ties = [r for r in scored if r.scored.rank == best.scored.rank]
        if len(ties) == 1:
            return f"the largest {measure} ({rank}) of {len(scored)} readings"
        preferred = [c.pattern.name for c in best.scored.fans if c.pattern.name in self.spec.preferred]
        if preferred:
            rule = where(self.spec.rule_span("prefer"))
            return (f"{len(ties)} readings share the largest {measure} ({rank}); the `prefer` rule ({rule}) takes "
                    f"the last one with {', '.join(preferred)}")
        return f"{len(ties)} readings share the largest {measure} ({rank}); the first found is taken"

    # -- fans

    def _fan_json(self, pattern: ir.Pattern, value: object, count: int) -> dict:
        return {"name": pattern.name, "en": pattern.english, "value": value, "count": count,
                "subtotal": value * count, "where": where(pattern.span)}

    def _dropped(self) -> list[Dropped]:
        """The fans that held on the chosen reading but do not count, with the rule that took each out."""
        best = self.best
        assert best is not None
        env = self.interpreter.reading_env(self.facts, best.decomposition)
        dropped: list[Dropped] = []
        self.interpreter.score(env, dropped)
        return self._by_principles(env) + dropped

    def _by_principles(self, env: Env) -> list[Dropped]:
        """Combinations of sets that match a fan but are not counted under 套算一次 / 不得相同."""
        dropped = []
        for source, patterns in self.evaluator.combining.items():
            sets = self.evaluator.sorted_sets(source, env)
            counted = [p.name for p in patterns if env.counts.get(p.name, 0) > 0]
            for p in patterns:
                body = p.condition.body  # type: ignore[attr-defined]
                naive = sum(1 for chosen in combinations(sets, p.condition.size)  # type: ignore[attr-defined]
                            if self.evaluator.value(body, env.inside(chosen)))
                extra = naive - env.counts.get(p.name, 0)
                if extra > 0:  # its own name when the fan counts, but fewer times than its sets would give
                    by = p.name if p.name in counted else ", ".join(counted)
                    dropped.append(Dropped(p.name, extra, "principles", by, self.spec.rule_span("principles")))
        return dropped

    def _dropped_json(self, d: Dropped) -> dict:
        pattern = self.spec.pattern(d.name)
        out = {"name": d.name, "en": pattern.english, "count": d.count, "rule": d.rule, "by": d.by,
               "where": where(d.span)}
        if d.rule == "principles":
            out["principles"] = [p for p in self.spec.principles if p in COMBINING_PRINCIPLES]
        return out

    # -- minimum, cap

    def _minimum(self) -> dict:
        best = self.best
        assert best is not None and best.scored is not None
        excluded = [c.pattern.name for c in best.scored.fans if c.pattern.name in self.spec.minimum_excluding]
        counted = sum(c.value * c.count for c in best.scored.fans if c.pattern.name not in self.spec.minimum_excluding)
        minimum = self.spec.minimum
        needed = self.hand.options[minimum] if isinstance(minimum, str) else minimum
        out = {"counted": counted, "minimum": needed, "met": counted >= needed, "excluding": excluded,
               "where": where(self.spec.rule_span("minimum"))}
        if isinstance(minimum, str):
            out["option"] = minimum
        return out

    def _cap(self) -> dict:
        best = self.best
        assert best is not None and best.scored is not None
        spec = self.spec
        paid = spec.paid(best.scored.total, best.scored.env.largest_fan)
        out = {"cap": spec.cap, "total": best.scored.total, "paid": paid,
               "where": where(spec.rule_span("cap"))}
        if spec.cap_unless_more and paid > (spec.cap or 0):
            out["lifted_by"] = max(best.scored.fans, key=lambda c: c.value * c.count).pattern.name
        return out

    # -- payments

    def _payments(self) -> list[dict]:
        best = self.best
        assert best is not None and best.scored is not None
        settlement = self.spec.settlement
        assert settlement is not None
        env, _ = self.interpreter.settle_env(self.hand, best.scored)
        rule = self.interpreter.payment_rule(self.hand)
        if rule is None:
            return []
        liable = self.interpreter.liable(settlement, env.losers, env)
        lines = []
        for payment, loser, amount in self.interpreter.charges(rule, env.losers, env):
            inner = env.inside(None, loser)
            lines.append({"seat": loser.seat, "roles": _roles(loser), "pays": amount,
                          "to": self.hand.seat, "formula": formula(payment.amount),
                          "worked": self.worked(payment.amount, inner), "terms": self._terms(payment.amount, inner),
                          "where": where(payment.span)})
        if liable is not None:
            total = sum(line["pays"] for line in lines)
            lines.append({"seat": liable.seat, "roles": _roles(liable), "pays": total, "to": self.hand.seat,
                          "liable": True, "formula": formula(settlement.liable),  # type: ignore[arg-type]
                          "worked": "", "terms": [], "where": where(settlement.span)})
        return lines

    def _terms(self, expr: ir.Expr, env: Env) -> list[dict]:
        """The `let`s an amount uses, each worked out (the ones it uses first)."""
        terms = []
        for name in dict.fromkeys(self._bindings_used(expr, env)):
            bound = env.bindings[name]
            terms.append({"name": name, "formula": formula(bound), "worked": self.worked(bound, env),
                          "value": _shown(self.evaluator.value(bound, env))})
        return terms

    def worked(self, expr: ir.Expr, env: Env) -> str:
        """The expression with each name and count put in as its value on this hand, and each `if` as the branch
        taken: `2 ^ (4 - 1)`."""
        def leaf(node: ir.Expr) -> str | None:
            if isinstance(node, ir.Conditional):
                taken = self._taken(node, env)
                while isinstance(taken, ir.Conditional):
                    taken = self._taken(taken, env)
                text = self.worked(taken, env)
                return f"({text})" if isinstance(taken, ir.Binary | ir.Not | ir.Negate) else text
            if isinstance(node, ir.Const | ir.Binary | ir.Not | ir.Negate | ir.Call):
                return None
            return _shown(self._value(node, env))

        return formula(expr, leaf)

    def _taken(self, expr: ir.Conditional, env: Env) -> ir.Expr:
        return expr.then if self.evaluator.value(expr.condition, env) else expr.otherwise

    def _value(self, expr: ir.Expr, env: Env) -> object:
        try:
            value = self.evaluator.value(expr, env)
        except (EvaluationError, AttributeError, TypeError, KeyError) as exc:  # an element-only name at the top
            return f"<{type(exc).__name__}>"
        if isinstance(expr, ir.TileOf | ir.NextTile | ir.PreviousTile) and isinstance(value, int) and value >= 0:
            return self.spec.tiles[value].code
        return value

    def _bindings_used(self, expr: ir.Expr, env: Env) -> Iterator[str]:
        """The `let`s an expression reads on this hand (an `if` reads its condition and the branch taken), each
        after the ones it reads."""
        if isinstance(expr, ir.Var) and expr.scope == "binding" and expr.name in env.bindings:
            yield from self._bindings_used(env.bindings[expr.name], env)
            yield expr.name
        elif isinstance(expr, ir.Conditional):
            yield from self._bindings_used(expr.condition, env)
            yield from self._bindings_used(self._taken(expr, env), env)
        elif not isinstance(expr, ir.Aggregate | ir.Combinations):  # their bodies read each element, not the hand
            for child in ir.children(expr):
                yield from self._bindings_used(child, env)

    # -- why not

    def _why_not(self, pattern: ir.Pattern) -> dict:
        out: dict = {"fan": pattern.name, "en": pattern.english, "where": where(pattern.span),
                     "condition": formula(pattern.condition)}
        if self.hand.win is None or not self.readings:
            out["status"] = "no reading"
            out["said"] = self.result.get("reason", "the hand has no winning tile")
            return out
        if pattern.scope == "loser":
            return out | self._why_not_loser(pattern)
        best = self.best or self.readings[0]
        env = self._env(best)
        out["status"] = self._status(pattern, env)
        out["on_chosen"] = {"groups": self.groups_text(best.decomposition), "checks": self.checks(pattern, env)}
        if out["status"] != "counted":
            closest = self._closest(pattern, best)
            if closest is not None:
                reading, holds = closest
                out["closest"] = {"groups": self.groups_text(reading.decomposition), "holds": holds,
                                  "total": None if reading.scored is None else reading.scored.total,
                                  "unmet": reading.unmet, "checks": self.checks(pattern, self._env(reading))}
        return out

    def _why_not_loser(self, pattern: ir.Pattern) -> dict:
        if self.best is None or self.best.scored is None or self.spec.settlement is None:
            return {"status": "no win", "said": "a loser's fan is looked at only when the hand wins"}
        env, shares = self.interpreter.settle_env(self.hand, self.best.scored)
        per_loser = []
        for loser in env.losers:
            counted = any(c.pattern.name == pattern.name for c in shares[loser.seat][0])
            per_loser.append({"seat": loser.seat, "counted": counted,
                              "checks": self.checks(pattern, env.inside(None, loser))})
        return {"status": "loser fan", "losers": per_loser}

    def _env(self, reading: Reading) -> Env:
        if reading.scored is not None:
            return reading.scored.env
        return self.interpreter.reading_env(self.facts, reading.decomposition)

    def _status(self, pattern: ir.Pattern, env: Env) -> str:
        best = self.best
        if best is not None and best.scored is not None and any(c.pattern.name == pattern.name
                                                                  for c in best.scored.fans):
            return "counted"
        if self._holds(pattern, env):
            return "dropped"
        return "does not hold"

    def _holds(self, pattern: ir.Pattern, env: Env) -> bool:
        try:
            return self.evaluator.count(pattern, env) > 0
        except EvaluationError:
            return False

    def _closest(self, pattern: ir.Pattern, best: Reading) -> tuple[Reading, bool] | None:
        """Another reading on which the fan holds, else the one on which most of its conditions hold."""
        others = [r for r in self.readings if r is not best]
        if not others:
            return None
        holding = [r for r in others if self._holds(pattern, self._env(r))]
        if holding:
            return holding[0], True
        scores = [sum(c["holds"] for c in self.checks(pattern, self._env(r)) if c["leaf"]) for r in others]
        return others[scores.index(max(scores))], False

    def checks(self, pattern: ir.Pattern, env: Env) -> list[dict]:
        """The fan's condition taken apart at `and`, `or` and `not`, each part with its value on this reading."""
        return list(self._checks(pattern.condition, env, 0))

    def _checks(self, expr: ir.Expr, env: Env, depth: int) -> Iterator[dict]:
        if isinstance(expr, ir.Binary) and expr.op in ("and", "or"):
            parts = _flattened(expr, expr.op)
            yield {"depth": depth, "text": "all of:" if expr.op == "and" else "any of:",
                   "holds": bool(self._value(expr, env)), "leaf": False}
            for part in parts:
                yield from self._checks(part, env, depth + 1)
        elif isinstance(expr, ir.Not):
            yield {"depth": depth, "text": "not:", "holds": bool(self._value(expr, env)), "leaf": False}
            yield from self._checks(expr.operand, env, depth + 1)
        elif isinstance(expr, ir.Binary) and expr.op in FAILED_COMPARISON:
            left, right = self._value(expr.left, env), self._value(expr.right, env)
            holds = bool(self._value(expr, env))
            op = expr.op if holds else FAILED_COMPARISON[expr.op]
            yield {"depth": depth, "text": f"{formula(expr)}: {_shown(left)} {op} {_shown(right)}", "holds": holds,
                   "leaf": True}
        else:
            value = self._value(expr, env)
            yield {"depth": depth, "text": f"{formula(expr)}: {_shown(value)}", "holds": bool(value) and
                   not (isinstance(value, str) and value.startswith("<")), "leaf": True}


def tiles_text(spec: ir.Spec, tiles: Sequence[int]) -> str:
    """Tiles as a hand is written: runs of one suit share the suit letter (`123m`, `55z`)."""
    codes = [spec.tiles[t].code for t in tiles]
    if not all(len(c) == 2 and c[0].isdigit() for c in codes):
        return " ".join(codes)
    out, run_suit = "", None
    for code in codes:
        if run_suit is not None and code[1] != run_suit:
            out += run_suit
        out += code[0]
        run_suit = code[1]
    return out + (run_suit or "")


def _flattened(expr: ir.Expr, op: str) -> list[ir.Expr]:
    if isinstance(expr, ir.Binary) and expr.op == op:
        return _flattened(expr.left, op) + _flattened(expr.right, op)
    return [expr]


def _roles(loser: Loser) -> list[str]:
    return [role for role, holds in (("dealer", loser.dealer), ("discarder", loser.discarder)) if holds]


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, str):
        return value if value.startswith("<") or value == "" or value.isidentifier() or len(value) <= 3 \
            else repr(value)
    return str(value)
