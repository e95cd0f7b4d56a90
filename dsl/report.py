"""What `mjdsl score` and `mjdsl settle FILE` print for a person to read: who won and from whom, each fan as
value × count = subtotal, the total, the cap where it applies, and each seat's payment, in the spec's unit.

Seats are named with their winds as the spec names its wind tiles ("seat 1 (South)"), at a table of the
spec's own size. Every line is printable(): a control character in a fan's name, a reason or an error shows
as its escape, so a spec cannot forge a total or a payment line, nor hide the real ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from dsl.cases.case import Hand, read_case
from dsl.cases.seats import seat_name, win_text
from dsl.frontend import ir
from dsl.frontend.source import display_width, printable

Amount = int | Fraction
SEAT_COLUMN = 8  # the width of a seat's column in a settled round


# ---------------------------------------------------------------- one hand (mjdsl score)


def describe(spec: ir.Spec, case: Mapping, result: dict) -> str:
    """The result of one case as a person reads it; `case` is the case it answers, which says who won and
    from whom."""
    if not result["ok"]:
        return printable(f"error: {result['error']}")
    hand = read_case(spec, case)
    if not result["winning"]:
        lines = _no_win(spec, hand, result)
    else:
        robbed = bool(hand.context.get("robbing_kong", False))
        lines = [win_text(spec, hand.seat, hand.dealer, hand.discarder, robbed),
                 *fan_table(spec, result, "  "), *_scores(spec, result), *_payments(spec, hand, result)]
    return "\n".join(map(printable, lines))


def _no_win(spec: ir.Spec, hand: Hand, result: dict) -> list[str]:
    """Why the hand does not win, then the fans it has, without a total: a hand below the minimum says in
    one message what counted toward the minimum and what the minimum leaves out."""
    fans = result.get("fans")
    counted = sum(f["value"] * f["count"] for f in fans or () if f["name"] not in spec.minimum_excluding)
    minimum = hand.options[spec.minimum] if isinstance(spec.minimum, str) else spec.minimum
    below = fans is not None and counted < minimum  # the checkers test the minimum before any other reason
    lines = [f"not a win: {_below_minimum(spec, result, counted, minimum) if below else result['reason']}"]
    if result.get("waits") is not None:
        lines.append("waits: " + (" ".join(result["waits"]) or "none"))
    return lines + fan_table(spec, {"fans": fans or []}, "  ")


def _below_minimum(spec: ir.Spec, result: dict, counted: Amount, minimum: int) -> str:
    unit = spec.unit
    left_out = [f["name"] for f in result["fans"] if f["name"] in spec.minimum_excluding]
    if not left_out:
        return f"{counted} {unit} is below the minimum of {minimum} {unit}"
    names = ", ".join(left_out)
    verb = "is" if len(left_out) == 1 else "are"
    return (f"{counted} {unit} counted toward the minimum of {minimum} {unit} ({names} {verb} not counted "
            f"toward it); total with {names} {result['total']} {unit}")


def _scores(spec: ir.Spec, result: dict) -> list[str]:
    """The spec's `score:` results (fu, han, points): `value` only ranks readings, and is left out."""
    named = [(b.name, result[b.name]) for b in spec.score if b.name != "value" and b.name in result]
    if not named:
        return []
    return ["  " + ", ".join(f"{name} {_value_text(value)}" for name, value in named)]


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _payments(spec: ir.Spec, hand: Hand, result: dict) -> list[str]:
    """Each seat in order with what it receives (+) or pays (-), the winner and the discarder named."""
    if "payments" not in result:
        return []
    payments = result["payments"]
    names = [seat_name(spec, seat, hand.dealer) for seat in range(len(payments))]
    amounts = [_signed(p) for p in payments]
    name_width = max(map(display_width, names))
    amount_width = max(map(len, amounts))
    lines = ["payments"]
    for seat, (name, amount) in enumerate(zip(names, amounts, strict=True)):
        role = _role(seat, payments[seat], hand)
        lines.append(f"  {_padded(name, name_width)}  {amount:>{amount_width}}  {role}".rstrip())
    if result.get("pot"):
        lines.append(f"  the winner also takes {result['pot']} from the table (the pot)")
    return lines


def _role(seat: int, amount: Amount, hand: Hand) -> str:
    if seat == hand.seat:
        return "winner"
    if seat == hand.discarder:
        return "discarder"
    return "pays" if amount < 0 else "receives" if amount > 0 else ""


# ---------------------------------------------------------------- a whole hand of play (mjdsl settle FILE)


def describe_round(spec: ir.Spec, record: object, result: dict) -> str:
    """A settled round as a person reads it: one line per event with each seat's payment, a win's fans under
    it, then the total; `record` is the round record it settles."""
    if not result["ok"]:
        return printable(f"error: {result['error']}")
    assert isinstance(record, Mapping)  # a record that settles is an object
    dealer = record.get("dealer", 0)
    rows: list[tuple[str, Sequence[Amount] | None]] = []
    for number, (event, entry) in enumerate(zip(record["events"], result["events"], strict=True), 1):
        rows += _event_rows(spec, f"{number:>2}. ", event, entry, dealer)
    rows.append(("    total", result["payments"]))
    if result.get("pot"):
        rows.append((f"    taken from the table (the pot): {result['pot']}", None))
    lines = _columns(rows, len(result["payments"]))
    if result.get("next_hand"):
        lines.append("next hand: " + ", ".join(result["next_hand"]))
    if result.get("next_context"):
        lines.append("next hand's context: " + ", ".join(f"{k} {v}" for k, v in result["next_context"].items()))
    return "\n".join(map(printable, lines))


def _event_rows(spec: ir.Spec, number: str, event: Mapping, entry: dict, dealer: int
                ) -> list[tuple[str, Sequence[Amount] | None]]:
    """The rows of one event: its line with the payments, then (for a win) its fans, (for a draw) its checks."""
    kind = entry["event"]
    if kind == "win":
        case = event["win"]
        dealer = case.get("dealer", dealer)  # a win's own case may name the dealer
        won = win_text(spec, entry["seat"], dealer, entry.get("discarder"), bool(case.get("robbing_kong")))
        rows: list[tuple[str, Sequence[Amount] | None]] = [(number + won, entry["payments"])]
        rows += [(line, None) for line in fan_table(spec, entry, "      ")]
        if "transfer" in entry:
            passer = seat_name(spec, entry["discarder"], dealer)
            rows.append((f"      {passer} passes on its kong income: {_signed(entry['transfer'])}", None))
        return rows
    if kind == "kong":
        return [(f"{number}{seat_name(spec, entry['seat'], dealer)} makes a kong: {entry['kind']}", entry["payments"])]
    if kind == "draw":
        return [(f"{number}exhaustive draw", entry["payments"]),
                *((f"      {check['name']}", check["payments"]) for check in entry["checks"])]
    by = f" by {seat_name(spec, entry['seat'], dealer)}" if "seat" in entry else ""
    return [(f"{number}{entry['name']}{by}", entry["payments"])]


def _columns(rows: list[tuple[str, Sequence[Amount] | None]], seats: int) -> list[str]:
    """The rows as text, each row's payments in a column per seat right of the widest text that has them."""
    shown = [(printable(text), payments) for text, payments in rows]
    width = max(display_width(text) for text, payments in shown if payments is not None) + 2
    header = _padded("", width) + "".join(f"{f'seat {s}':>{SEAT_COLUMN}}" for s in range(seats))
    return [header] + [text if payments is None else _padded(text, width) + _seat_amounts(payments)
                       for text, payments in shown]


def _seat_amounts(payments: Sequence[Amount]) -> str:
    return "".join(f"{_signed(p):>{SEAT_COLUMN}}" for p in payments)


# ---------------------------------------------------------------- shared by both


def fan_table(spec: ir.Spec, result: Mapping, indent: str) -> list[str]:
    """A line per fan, `name  English  value × count = subtotal unit`, aligned (CJK two columns wide); then,
    for a result with a total, the total under the subtotals and the amount paid where the cap applies."""
    unit = spec.unit
    rows = [(printable(f["name"]), printable(f["en"] or ""), str(f["value"]), str(f["count"]),
             str(f["value"] * f["count"])) for f in result["fans"]]
    sums = [("total", str(result["total"]), "")] + _cap(spec, result) if "total" in result else []
    name_width, english_width = (max((display_width(r[i]) for r in rows), default=0) for i in (0, 1))
    value_width, count_width = (max((len(r[i]) for r in rows), default=0) for i in (2, 3))
    subtotal_width = max([len(r[4]) for r in rows] + [len(s[1]) for s in sums], default=0)
    lines = [f"{indent}{_padded(name, name_width)}  {_padded(english, english_width)}  {value:>{value_width}} × "
             f"{count:>{count_width}} = {subtotal:>{subtotal_width}} {unit}"
             for name, english, value, count, subtotal in rows]
    before_subtotal = name_width + english_width + value_width + count_width + 10  # the columns and " × ", " = "
    lines += [f"{indent}{_padded(label + ' ', before_subtotal)}{amount:>{subtotal_width}} {unit}{note}"
              for label, amount, note in sums]
    return lines


def _cap(spec: ir.Spec, result: Mapping) -> list[tuple[str, str, str]]:
    """The `paid` line of a total above the spec's cap: capped, or not under `cap N unless one fan is more`."""
    if spec.cap is None or "paid" not in result or result["total"] <= spec.cap:
        return []
    named = f" ({spec.cap_description})" if spec.cap_description else ""
    if result["paid"] < result["total"]:
        return [("paid", str(result["paid"]), f": the cap{named} is {spec.cap} {spec.unit}")]
    return [("paid", str(result["paid"]),
             f": above the cap{named} of {spec.cap} {spec.unit}, as one fan alone is worth more")]


def _padded(text: str, width: int) -> str:
    """text and the spaces that make it `width` columns wide."""
    return text + " " * max(width - display_width(text), 0)


def _signed(amount: Amount) -> str:
    return f"+{amount}" if amount > 0 else str(amount)
