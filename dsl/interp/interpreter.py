"""The reference semantics: validate, decompose, evaluate patterns, resolve exclusions, score, settle.

Kept plain on purpose: the compiled checkers must give exactly these results. What one reading of a hand
means is dsl.interp.evaluation; this module tries every reading and settles the best.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from dsl.cases.case import Hand, Meld, read_case, without_win
from dsl.cases.encoded import Columns, decode_all
from dsl.cases.scores import Scores, scores_of
from dsl.frontend import ir
from dsl.interp.decompose import Decomposition, Group, declared_group, decompositions, reading_tiles
from dsl.interp.evaluation import (
    Counted,
    Dropped,
    Env,
    EvaluationError,
    Evaluator,
    HandFacts,
    Loser,
    Scored,
    resolve_exclusions,
    takes_over,
)
from dsl.notation import HandError

# ---------------------------------------------------------------- the checker


class Interpreter:
    """Scores cases of docs/interface.md by the reference semantics of a spec."""

    def __init__(self, spec: ir.Spec):
        self.spec = spec
        self.evaluator = Evaluator(spec)
        self.flowers = spec.flower_tiles()
        self.definitions = {b.name: b.expr for b in spec.definitions}
        self.fan_names = tuple(p.name for p in spec.patterns + spec.loser_patterns)  # a compiled module's FAN_NAMES

    # -- public API

    def evaluate(self, case: dict) -> dict:
        try:
            hand = read_case(self.spec, case)
        except HandError as exc:
            return {"ok": False, "error": str(exc)}
        return self.evaluate_hand(hand)

    def evaluate_hand(self, hand: Hand) -> dict:
        """The result for a case already read."""
        try:
            if hand.win is None:
                return {"ok": True, "winning": False, "reason": "no winning tile given",
                        "waits": [self.spec.tiles[t].code for t in self._waits(hand)]}
            return self._result(hand)
        except EvaluationError as exc:  # the spec's arithmetic has no value for this hand (2 ^ 10^12)
            return {"ok": False, "error": f"{self.spec.name} cannot score this hand: {exc}"}

    def evaluate_many(self, cases: Iterable[dict]) -> list[dict]:
        """One result per case the iterable held when the call began."""
        return [self.evaluate(case) for case in list(cases)]

    def score_many(self, cases: Iterable[dict] | Mapping[str, Any]) -> Scores:
        """The results in compact arrays, as a compiled checker's score_many gives them (docs/interface.md);
        `cases` may be encoded cases, a dict of arrays, each decoded to the case it stands for."""
        batch = decode_all(self.spec, cases) if isinstance(cases, dict) else list(cases)
        return scores_of(map(self.evaluate, batch), self.fan_names)

    @property
    def encoded_columns(self) -> tuple[str, ...]:
        """The context keys of the `context` array of encoded cases, in column order."""
        return tuple(k.name for k in Columns.of(self.spec).context)

    @property
    def indicator_columns(self) -> tuple[str, ...]:
        """The tile keys of the `indicators` array of encoded cases, in order."""
        return Columns.of(self.spec).indicators

    @property
    def meld_kind_names(self) -> tuple[str, ...]:
        """The meld kinds of the `melds` array of encoded cases, by number."""
        return tuple(k.name for k in self.spec.meld_kinds)

    def present_fans(self, case: dict) -> set[str]:
        """Fans that hold in the chosen reading before exclusions (for authoring checks); empty if none wins."""
        best = self.chosen_reading(case)
        return {name for name, n in best.env.counts.items() if n > 0} if best else set()

    def chosen_reading(self, case: dict) -> Scored | None:
        """The reading scored for a valid case with a winning tile (minimum and settlement aside), else None."""
        try:
            hand = read_case(self.spec, case)
        except HandError:
            return None
        return self._best(hand)[0] if hand.win is not None else None

    def explain(self, case: dict, why_not: Sequence[str] = ()) -> dict:
        """Why the case scores what it scores (dsl.interp.explain): the readings, the fans counted and dropped,
        the minimum, the cap, the payments worked out, and why the fans named in `why_not` do not count."""
        from dsl.interp.explain import explain  # the explanation reads this module's steps, not the other way

        return explain(self, case, why_not)

    def is_winning(self, case: dict) -> bool:
        return bool(self.evaluate(case).get("winning"))

    def waits(self, case: dict) -> list[str]:
        """Tiles that would complete the hand (the case without its winning tile); an invalid case raises
        HandError."""
        hand = read_case(self.spec, without_win(case))
        return [self.spec.tiles[t].code for t in self._waits(hand)]

    # -- internals

    def _result(self, hand: Hand) -> dict:
        best, reason = self._best(hand)
        if best is None:
            return {"ok": True, "winning": False, "reason": reason}
        counted_total = sum(c.value * c.count for c in best.fans
                            if c.pattern.name not in self.spec.minimum_excluding)
        fans = [{"name": c.pattern.name, "en": c.pattern.english, "value": c.value, "count": c.count}
                for c in best.fans]
        minimum = hand.options[self.spec.minimum] if isinstance(self.spec.minimum, str) else self.spec.minimum
        if counted_total < minimum:
            unit = "fan" if self.spec.unit == "番" else self.spec.unit
            return {"ok": True, "winning": False, "fans": fans, "total": best.total,
                    "reason": f"{counted_total} {unit} is below the minimum of {minimum}"}
        result: dict = {"ok": True, "winning": True, "fans": fans, "total": best.total}
        if self.spec.cap is not None:
            result["paid"] = self.spec.paid(best.total, best.env.largest_fan)
        result.update(best.values)
        if self.spec.settlement is not None:
            settled = self._settle(hand, best)
            if settled.get("winning") is False:
                return {"ok": True, "winning": False, "fans": fans, "total": best.total, "reason": settled["reason"]}
            result.update(settled)
        return result

    def facts(self, hand: Hand) -> HandFacts:
        known: dict[bool, int] = {}

        def waits(any_copy: bool) -> int:
            if any_copy not in known:
                known[any_copy] = len(self._waits(hand, any_copy))
            return known[any_copy]

        return HandFacts.of(self.spec, hand, waits)

    def _best(self, hand: Hand) -> tuple[Scored | None, str]:
        best: Scored | None = None
        failed: str | None = None
        read = False
        for _, scored, unmet in self.scored_readings(self.facts(hand)):
            read = True
            if scored is None:
                failed = failed or unmet
            elif best is None or takes_over(self.spec, scored, best):
                best = scored
        if not read:
            return None, self.no_shape_reason()
        return best, failed or ""

    def scored_readings(self, facts: HandFacts) -> Iterator[tuple[Decomposition, Scored | None, str | None]]:
        """Each reading of the hand, in the order they are compared: scored, or the requirement it fails."""
        for d in self._readings(facts):
            env = self.reading_env(facts, d)
            unmet = self._unmet_requirement(env)
            yield d, (None if unmet is not None else self.score(env)), unmet

    def reading_env(self, facts: HandFacts, d: Decomposition) -> Env:
        return Env(facts, d, bindings=dict(self.definitions))

    def no_shape_reason(self) -> str:
        return "the tiles do not form a winning shape (" + ", ".join(
            [s.name.replace("_", " ") for s in self.spec.shapes] + [s.name for s in self.spec.shape_rules]) + ")"

    def _unmet_requirement(self, env: Env) -> str | None:
        for r in self.spec.requirements:
            if not self.evaluator.value(r.condition, env):
                english = f" ({r.english})" if r.english else ""
                return f"requirement {r.name}{english} is not met"
        return None

    def score(self, env: Env, dropped: list[Dropped] | None = None) -> Scored:
        """The reading of `env` scored; the fans that held but do not count are added to `dropped`, if given."""
        fans = resolve_exclusions(self.spec, self._present(env, late=False), dropped)
        env.counted_fans = sum(1 for c in fans if c.pattern.name not in self.spec.minimum_excluding)
        fans = sorted(fans + self._present(env, late=True), key=lambda c: c.pattern.order)
        limit = self.spec.supersede
        if limit is not None and any(c.value >= limit for c in fans):
            if dropped is not None:
                by = next(c.pattern.name for c in fans if c.value >= limit)
                dropped += [Dropped(c.pattern.name, c.count, "supersede", by, self.spec.rule_span("supersede"))
                            for c in fans if c.value < limit]
            fans = [c for c in fans if c.value >= limit]
        env.total = sum(c.value * c.count for c in fans)
        env.largest_fan = max((c.value * c.count for c in fans), default=0)
        env.bindings = env.bindings | {b.name: b.expr for b in self.spec.score}
        values = {b.name: self.evaluator.let(b.name, env) for b in self.spec.score}
        return Scored(env.decomposition, tuple(fans), env.total, env, values)

    def _present(self, env: Env, late: bool) -> list[Counted]:
        present = []
        for p in self.spec.patterns:
            if p.late == late and (n := self.evaluator.count(p, env)) > 0:
                present.append(Counted(p, self.evaluator.worth(p, env), n))
        return present

    def _waits(self, hand: Hand, any_copy: bool = False) -> list[int]:
        """Tiles that complete the hand's shape and meet every requirement (minimums aside).

        With any_copy, a tile whose every copy is already held still counts (a wait of the shape).
        """
        held = Counter(hand.concealed)
        for m in hand.melds:
            held.update(m.tiles)
        waits = []
        for tile in self.spec.tiles:
            if tile.index in self.flowers or (held[tile.index] >= tile.copies and not any_copy):
                continue
            if self._completes(replace(hand, win=tile.index, win_aside=None)):
                waits.append(tile.index)
        return waits

    def _completes(self, hand: Hand) -> bool:
        def no_waits(any_copy: bool) -> int:
            raise EvaluationError("a requirement cannot depend on `waits`")

        facts = HandFacts.of(self.spec, hand, no_waits)
        return any(self._unmet_requirement(self.reading_env(facts, d)) is None
                   for d in self._readings(facts))

    def _readings(self, facts: HandFacts) -> list[Decomposition]:
        """Every reading of the hand: the declared shapes' decompositions, then the spec's own shapes that hold."""
        hand = facts.hand
        if hand.win_aside is not None:  # a winning flower completes no set: only the spec's own shapes
            return self._own_shapes(facts)
        found = decompositions(self.spec, facts.counts, hand.melds, hand.win, hand.self_drawn, hand.wild)
        return found + self._own_shapes(facts)

    def _own_shapes(self, facts: HandFacts) -> list[Decomposition]:
        """A spec's own shape reads the hand without sets: its declared melds, then each concealed tile alone
        (the winning tile included); the reading counts when the shape's condition holds for it."""
        if not self.spec.shape_rules:
            return []
        hand = facts.hand
        groups = [declared_group(m) for m in hand.melds]
        held = hand.concealed
        if hand.win_aside is not None:
            groups.append(replace(declared_group(Meld(hand.win_aside, (hand.win,))), declared=False, with_win=True))
        elif hand.win is not None:
            held += (hand.win,)
        win_placed = hand.win_aside is not None
        for tile in sorted(held):
            with_win = tile == hand.win and not win_placed
            win_placed = win_placed or with_win
            groups.append(Group("single", (tile,), declared=False, concealed=True, opens=False, with_win=with_win))
        readings = []
        for rule in self.spec.shape_rules:
            reading = Decomposition(rule.name, tuple(groups), None, reading_tiles(tuple(groups)))
            if self.evaluator.value(rule.condition, self.reading_env(facts, reading)):
                readings.append(reading)
        return readings

    # -- settlement

    def _losers(self, hand: Hand) -> tuple[Loser, ...]:
        losers = []
        out = hand.context.get("out", ())
        for seat in range(self.spec.players):
            if seat == hand.seat or seat in out:
                continue
            melds = hand.other_melds.get(seat, ())
            losers.append(Loser(seat, seat == hand.dealer, seat == hand.discarder,
                                any(m.kind.opens for m in melds), tuple(declared_group(m) for m in melds)))
        return tuple(losers)

    def _settle(self, hand: Hand, best: Scored) -> dict:
        """Payments per seat; or, when a settlement requirement is not met, why the hand does not win."""
        settlement = self.spec.settlement
        assert settlement is not None
        env, shares = self.settle_env(hand, best)
        losers = env.losers
        for r in settlement.requirements:
            if not self.evaluator.value(r.condition, env):
                english = f" ({r.english})" if r.english else ""
                return {"winning": False, "reason": f"requirement {r.name}{english} is not met"}
        rule = self.payment_rule(hand)
        if rule is None:
            return {}
        owed = {loser.seat: 0 for loser in losers}
        for _, loser, amount in self.charges(rule, losers, env):
            owed[loser.seat] += amount
        liable = self.liable(settlement, losers, env)
        if liable is not None:  # one loser pays what every loser owes
            owed = {seat: (sum(owed.values()) if seat == liable.seat else 0) for seat in owed}
        payments = [0] * self.spec.players
        for seat, amount in owed.items():
            payments[seat] -= amount
            payments[hand.seat] += amount
        result: dict = {"payments": payments}
        if settlement.pot is not None:
            result["pot"] = self.evaluator.value(settlement.pot, env)
        if self.spec.loser_patterns:
            result["shares"] = [{"seat": seat, "fans": [_fan_json(c) for c in fans], "total": total}
                                for seat, (fans, total) in shares.items()]
        return result

    def settle_env(self, hand: Hand, best: Scored) -> tuple[Env, dict[int, tuple[list[Counted], int]]]:
        """What settlement reads for the chosen reading (the losers, the total, the settlement's `let`s), and each
        loser's share of loser fans and its total."""
        settlement = self.spec.settlement
        assert settlement is not None
        losers = self._losers(hand)
        env = Env(best.env.facts, best.env.decomposition, best.env.counts, losers=losers, total=best.total,
                  largest_fan=best.env.largest_fan,
                  bindings=best.env.bindings | {b.name: b.expr for b in settlement.bindings})
        shares = {loser.seat: self._share(env.inside(None, loser)) for loser in losers}
        env.shares.update({seat: total for seat, (_, total) in shares.items()})
        return env, shares

    def payment_rule(self, hand: Hand) -> ir.PaymentRule | None:
        """The settlement's payments for how the hand was won (self-drawn or on a discard), if it has any."""
        assert self.spec.settlement is not None
        case = "self_drawn" if hand.self_drawn else "discard"
        return next((r for r in self.spec.settlement.rules if r.case == case), None)

    def charges(self, rule: ir.PaymentRule, losers: tuple[Loser, ...], env: Env) -> list[tuple[ir.Payment, Loser, int]]:
        """What each payment of a rule charges each loser it names, in the rule's order."""
        return [(payment, loser, self.evaluator.value(payment.amount, env.inside(None, loser)))
                for payment in rule.payments for loser in self._payers(payment.payer, losers)]

    def liable(self, settlement: ir.Settlement, losers: tuple[Loser, ...], env: Env) -> Loser | None:
        """The first loser (seat order) for whom `liable:` holds, if any."""
        if settlement.liable is None:
            return None
        return next((loser for loser in losers if self.evaluator.value(settlement.liable, env.inside(None, loser))),
                    None)

    def _payers(self, payer: str, losers: tuple[Loser, ...]) -> list[Loser]:
        if payer == "each loser":
            return list(losers)
        if payer == "discarder":
            return [loser for loser in losers if loser.discarder]
        return [loser for loser in losers if not loser.discarder]

    def _share(self, env: Env) -> tuple[list[Counted], int]:
        """The loser fans of one loser's share, after their own exclusions."""
        present = []
        for p in self.spec.loser_patterns:
            n = self.evaluator.count(p, env)
            if n > 0:
                present.append(Counted(p, self.evaluator.worth(p, env), n))
        fans = resolve_exclusions(self.spec, present)
        return fans, sum(c.value * c.count for c in fans)


def _fan_json(c: Counted) -> dict:
    return {"name": c.pattern.name, "en": c.pattern.english, "value": c.value, "count": c.count}
