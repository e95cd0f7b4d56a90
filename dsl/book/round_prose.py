"""The `round:` rules in words, grouped by kind (kongs, draw checks, penalties ...): each rule as the spec writes it
and what it means."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.book.prose import Prose, Reading
from dsl.frontend import ir
from dsl.frontend.formula import formula

_KONG_PAYERS = {"each other": "each other player still in", "discarder": "the player whose discard was konged"}


@dataclass(frozen=True)
class RuleGroup:
    """The `round:` rules of one kind (kongs, draw checks ...) and what they have in common."""

    zh: str
    en: str
    intro: str
    rules: tuple[Reading, ...]
    chapter: str = "play"  # the chapter of the rule book it belongs to (dsl.vocabulary.RULE_SECTIONS)


def round_rules(spec: ir.Spec, prose: Prose) -> tuple[RuleGroup, ...]:
    """The `round:` block by kind of rule, each rule as the spec writes it and in words."""
    rules = spec.rounds
    if rules is None:
        return ()
    flags = {k.name: k.description for k in spec.context}
    groups = (
        RuleGroup("杠", "Kongs", "Paid the moment the kong is made; a robbed kong (抢杠) was never made and pays "
                  "nothing.", tuple(_kong_reading(spec, k, prose) for k in rules.kongs)),
        RuleGroup("杠上炮", "Kong income passed on", "", tuple(_transfer_reading(t, flags) for t in rules.transfers)),
        RuleGroup("宣告", "Declarations", "A declaration is made during the hand.",
                  tuple(_declare_reading(d, flags) for d in rules.declarations)),
        RuleGroup("定义", "Named player conditions", "Used by the draw checks; each is about one player.",
                  tuple(_let_reading(b, prose) for b in rules.bindings), "end"),
        RuleGroup("流局", "Draw checks", "At an exhaustive draw the checks run one after another, in this order. "
                  "A payer is any player still in; a receiver, any other player, winners included. A player is "
                  "ready when its final hand has a wait.", tuple(_check_reading(c, prose) for c in rules.checks),
                  "end"),
        RuleGroup("下一局", "The next hand", "When the hand ends, these counts take new values for the next hand.",
                  tuple(_next_hand_reading(s, prose) for s in rules.next_hand_sets), "rotation"),
        RuleGroup("罚分", "Penalties", "A penalty is paid when the offence is found; play goes on afterwards.",
                  tuple(_penalty_reading(p, prose) for p in rules.penalties), "penalties"),
    )
    return (RuleGroup("打法", "Play", _play_intro(rules), _play_rules(rules, prose)),) + tuple(g for g in groups
                                                                                          if g.rules)


def _play_intro(rules: ir.RoundRules) -> str:
    still_in = ("Players still in are those who have not won." if rules.winners_leave is not None
                else "Nobody leaves the hand: every player is still in until it ends.")
    several = ("" if _one_winner(rules) else " Several players may win on one discard (一炮多响); each is settled "
               "alone.")
    return still_in + several


def _play_rules(rules: ir.RoundRules, prose: Prose) -> tuple[Reading, ...]:
    readings = []
    if rules.winners_leave is not None:
        readings.append(Reading("血战到底", None, f"winners leave until {rules.winners_leave} have won",
                                "A player who wins leaves the hand and neither pays nor receives any more; the hand "
                                f"ends when {rules.winners_leave} have won, or at the exhaustive draw."))
    if _one_winner(rules):
        readings.append(Reading("一炮单响", None, "one winner per discard", "Only one player may win on a discard."))
    elif rules.winners_per_discard is not None:
        limit = rules.winners_per_discard
        readings.append(Reading("一炮多响", None, f"at most {formula(limit)} winners per discard",
                                f"The players who may win on one discard are at most {prose.quantity(limit)}; a "
                                "record naming more is not a possible hand."))
    return tuple(readings)


def _one_winner(rules: ir.RoundRules) -> bool:
    return isinstance(rules.winners_per_discard, ir.Const) and rules.winners_per_discard.value == 1


def _kong_reading(spec: ir.Spec, rule: ir.KongRule, prose: Prose) -> Reading:
    payer = prose.about("the payer")
    paying = [p for p in rule.payments if not (isinstance(p.amount, ir.Const) and p.amount.value == 0)]
    payments = "; ".join(f"{_KONG_PAYERS[p.payer]} pays it {payer.quantity(p.amount)}" for p in paying)
    rule_text = f"kong {rule.kind}: " + "; ".join(f"{p.payer} pays {formula(p.amount)}" for p in rule.payments)
    english = next((k.english for k in spec.meld_kinds if k.name == rule.kind and k.english), rule.kind)
    return Reading(english, None, rule_text, f"When a player makes {kind_text(spec, rule.kind)}, "
                   + (f"{payments}." if paying else "nobody pays anything for it."))


def _transfer_reading(rule: ir.TransferRule, flags: dict[str, str]) -> Reading:
    return Reading(rule.flag, None, f"win {rule.flag}: discarder passes kong income",
                   f"A win with the flag {rule.flag}: {flags[rule.flag]}. The discarder then passes what its last "
                   "kong earned to the winner; several winners on that discard each receive it in full.")


def _let_reading(binding: ir.Binding, prose: Prose) -> Reading:
    return Reading(binding.name, None, f"{binding.name} = {formula(binding.expr)}",
                   prose.about("the player").reading(binding.expr) + ".")


def _penalty_reading(rule: ir.PenaltyRule, prose: Prose) -> Reading:
    return Reading(rule.name, rule.english, f"penalty {rule.name}: pays {formula(rule.amount)} to each other",
                   f"The offender pays {prose.about('the offender').quantity(rule.amount)} to each other player "
                   "still in.")


def kind_text(spec: ir.Spec, kind: str) -> str:
    """A meld kind with its article and English name: "an added_kong (Kong added to a pung)"."""
    english = next((k.english for k in spec.meld_kinds if k.name == kind), None)
    return ("an " if kind[0] in "aeiou" else "a ") + kind + (f" ({english})" if english else "")


def _check_reading(check: ir.DrawCheck, prose: Prose) -> Reading:
    payer = prose.about("the payer")
    if check.amount is None or check.receiver is None:
        return Reading(check.name, check.english, f"draw {check.name}: each {formula(check.payer)} refunds kong income",
                       f"When {payer.clause(check.payer)}, it returns what its kongs earned to the players who "
                       "paid for them.")
    rule = (f"draw {check.name}: each {formula(check.payer)} pays {formula(check.amount)} "
            f"to each {formula(check.receiver)}")
    return Reading(check.name, check.english, rule,
                   f"When {payer.clause(check.payer)} and {prose.about('the receiver').clause(check.receiver)}, "
                   f"the payer pays the receiver {payer.quantity(check.amount)}.")


def _declare_reading(rule: ir.DeclareRule, flags: dict[str, str]) -> Reading:
    when = "next hand " if rule.next_hand else ""
    wins = "the wins of the next hand" if rule.next_hand else "every later win of this hand"
    return Reading(rule.name, rule.english, f"declare {rule.name}: {when}sets {rule.flag}",
                   f"Sets the flag {rule.flag} on {wins}: {flags[rule.flag]}.")


def _next_hand_reading(rule: ir.NextHandSet, prose: Prose) -> Reading:
    return Reading(rule.key, None, f"next hand sets {rule.key} = {formula(rule.expr)}",
                   f"In the next hand, {rule.key} is {prose.quantity(rule.expr)}.")
