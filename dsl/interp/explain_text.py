"""An explanation (dsl.interp.explain) as a person reads it: the readings, the fans counted and dropped, the
minimum, the cap, the payments with their formulas worked out, and the answers to `--why-not`."""

from __future__ import annotations

from dsl.frontend.source import display_width, printable

MARKS = {True: "✓", False: "✗"}


def explanation_text(out: dict) -> str:
    if not out["ok"]:
        return printable(f"error: {out['error']}")
    unit = out["unit"]
    lines = [out["win"] + "."]
    lines += _readings(out)
    lines += _result(out, unit)
    if "fans" in out:
        lines += _fans(out, unit)
        lines += _dropped(out)
        if "minimum" in out:
            lines += _minimum(out["minimum"], unit)
    if "cap" in out:
        lines += _cap(out["cap"], unit)
    if "payments" in out:
        lines += _payments(out["payments"])
    for answer in out.get("why_not", ()):
        lines += _why_not(answer)
    return "\n".join(map(printable, lines))  # names and texts come from the spec: nothing a terminal acts on


def _readings(out: dict) -> list[str]:
    readings = out["readings"]
    if not readings:
        return ["No reading: the tiles form no winning shape."]
    lines = [f"Readings tried ({len(readings)}; * holds the winning tile, [ ] a declared meld):"]
    for number, r in enumerate(readings, 1):
        mark = "→" if r["chosen"] else " "
        value = f"total {r['total']}" if "total" in r else r["unmet"]
        wait = f", {r['wait']} wait" if r["wait"] else ""
        lines.append(f" {mark}{number:>2}. {r['groups']}  ({r['shape']}{wait}): {value}")
    if "chosen" in out:
        lines.append(f"Chosen: {out['chosen']}.")
    return lines


def _result(out: dict, unit: str) -> list[str]:
    result = out["result"]
    if result.get("winning"):
        return []
    return [f"Not a win: {result.get('reason', '')}."]


def _fans(out: dict, unit: str) -> list[str]:
    lines = ["Counted:"]
    rows = [(f["name"], f["en"] or "", f"{f['value']} × {f['count']} = {f['subtotal']} {unit}", f["where"] or "")
            for f in out["fans"]]
    lines += _table(rows)
    total = sum(f["subtotal"] for f in out["fans"])
    lines.append(f"  total {total} {unit}")
    return lines


def _dropped(out: dict) -> list[str]:
    if not out["dropped"]:
        return []
    counted = {f["name"] for f in out["fans"]}
    rows = []
    for d in out["dropped"]:
        times = f" ×{d['count']}" if d["count"] > 1 else ""
        rest = " (its other occurrences count)" if d["name"] in counted and d["by"] != d["name"] else ""
        rows.append((d["name"] + times, d["en"] or "", _drop_rule(d) + rest, d["where"] or ""))
    return ["Held but not counted:"] + _table(rows)


def _drop_rule(d: dict) -> str:
    if d["rule"] == "不计":
        return f"不计 of {d['by']}"
    if d["rule"] == "exclusive":
        return f"only the largest of its group counts: {d['by']}"
    if d["rule"] == "supersede":
        return f"{d['by']} counts alone (supersede)"
    principles = ", ".join(d["principles"])
    if d["by"] == d["name"]:
        return f"its sets count it once only ({principles})"
    return f"its sets are already counted in {d['by']} ({principles})"


def _minimum(minimum: dict, unit: str) -> list[str]:
    excluding = f" (not counting {', '.join(minimum['excluding'])})" if minimum["excluding"] else ""
    verdict = "met" if minimum["met"] else "NOT met"
    places = [p for p in (minimum["where"], minimum.get("option") and f"the option {minimum['option']}") if p]
    at = f" ({', '.join(places)})" if places else ""
    return [f"Minimum{at}: {minimum['counted']} {unit}{excluding} against {minimum['minimum']}: {verdict}."]


def _cap(cap: dict, unit: str) -> list[str]:
    lifted = f"; {cap['lifted_by']} alone is worth more, so the whole total is paid" if "lifted_by" in cap else ""
    return [f"Cap ({cap['where']}): {cap['cap']} {unit}; total {cap['total']}, paid {cap['paid']}{lifted}."]


def _payments(payments: list[dict]) -> list[str]:
    lines = ["Payments:"]
    for p in payments:
        roles = f" ({', '.join(p['roles'])})" if p["roles"] else ""
        if p.get("liable"):
            lines.append(f"  seat {p['seat']}{roles} is liable ({p['formula']}, {p['where']}): pays all, {p['pays']}")
            continue
        for term in p["terms"]:
            lines.append(f"    {term['name']} = {_worked(term['formula'], term['worked'], term['value'])}")
        value = _worked(p["formula"], p["worked"], p["pays"])
        lines.append(f"  seat {p['seat']}{roles} pays seat {p['to']}: {value}   ({p['where']})")
    return lines


def _worked(formula: str, worked: str, value: object) -> str:
    steps = [formula] + [s for s in (worked, str(value)) if s and s != formula]
    return " = ".join(dict.fromkeys(steps))


def _why_not(answer: dict) -> list[str]:
    head = f"Why not {answer['fan']}" + (f" ({answer['en']})" if answer["en"] else "") + f", {answer['where']}:"
    lines = [head, f"  condition: {answer['condition']}"]
    status = answer["status"]
    if status == "counted":
        lines.append("  it is counted.")
    elif status == "dropped":
        lines.append("  it holds, but is not counted (see above).")
    elif "said" in answer:
        lines.append(f"  {answer['said']}.")
    if "on_chosen" in answer:
        lines.append(f"  on the chosen reading {answer['on_chosen']['groups']}:")
        lines += _checks(answer["on_chosen"]["checks"])
    if "closest" in answer:
        closest = answer["closest"]
        how = "it holds on" if closest["holds"] else "the reading closest to it is"
        worth = f"total {closest['total']}" if closest["total"] is not None else closest["unmet"]
        lines.append(f"  {how} {closest['groups']} ({worth}):")
        lines += _checks(closest["checks"])
    for loser in answer.get("losers", ()):
        lines.append(f"  loser seat {loser['seat']}: {'counted' if loser['counted'] else 'not counted'}")
        lines += _checks(loser["checks"])
    return lines


def _checks(checks: list[dict]) -> list[str]:
    return [f"    {'  ' * c['depth']}{MARKS[c['holds']]} {c['text']}" for c in checks]


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows in aligned columns (CJK characters take two columns)."""
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell + " " * (w - display_width(cell)) for cell, w in zip(row, widths, strict=True))
            .rstrip() for row in rows]
