"""The tables bench/bench.py prints, in Markdown, from the measurements of one run."""

from __future__ import annotations

import os
import platform
from collections import Counter
from dataclasses import dataclass, field

# What each stage of a compiled 国标 call needs at least, in ns per hand: measured by a throw-away C
# prototype on held-out hands, in the same run as pymahjonggb. They are the targets the stages are held to.
FLOORS = {"read": 200.0, "search": 250.0, "result": 340.0, "call": 14.0}
STAGE_NAMES = {"read": "reading the case", "search": "search and scoring", "result": "building the result",
               "call": "rest of the call"}


@dataclass
class KindRow:
    kind: str
    share: float
    hands: int
    dropped: int
    compiled: float  # hands per second, one call per hand
    engine: float | None


@dataclass
class Refused:
    hands: int
    refused: float  # calls per second on refused cases
    scored: float  # calls per second on as many scored hands, timed in turn with them


@dataclass
class Encoded:
    hands: int  # the hands encoded cases can state
    rates: dict[str, float]  # hands per second: dicts, encoded, threads, engine (per call)
    threads: int


@dataclass
class Row:
    spec: str
    mix: str
    hands: int
    built: int  # hands drawn before some were dropped
    drops: Counter[str]  # why hands were dropped: which engine did not score them as a win
    engine: str | None
    rates: dict[str, float]  # hands per second: interpreter, compiled, batch, compact, engine
    kinds: list[KindRow] = field(default_factory=list)
    refused: Refused | None = None
    encoded: Encoded | None = None
    stages: dict[str, float] = field(default_factory=dict)


def ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}×" if b else "—"


def overall(rows: list[Row]) -> str:
    lines = ["| spec | mix | hands | interpreter | compiled, per call | × interpreter | evaluate_many | score_many "
             "| engine | per call ÷ engine | evaluate_many ÷ engine | score_many ÷ engine |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        rate = r.rates
        cells = [r.spec, r.mix, f"{r.hands:,}", f"{rate['interpreter']:,.0f}/s", f"{rate['compiled']:,.0f}/s",
                 f"{rate['compiled'] / rate['interpreter']:,.0f}×", f"{rate['batch']:,.0f}/s",
                 f"{rate['compact']:,.0f}/s"]
        engine = rate.get("engine")
        cells += ([f"{r.engine} {engine:,.0f}/s"] + [ratio(rate[k], engine) for k in ("compiled", "batch", "compact")]
                  if engine else ["—"] * 4)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def encoded(rows: list[Row]) -> str:
    """score_many on the hands encoded cases can state: from dicts, from arrays, from arrays in threads."""
    shown = [r for r in rows if r.encoded and "engine" in r.encoded.rates]
    if not shown:
        return ""
    lines = ["| spec | hands | engine, per call | score_many, dicts | ÷ engine | score_many, arrays | ÷ engine "
             "| arrays, threads | ÷ engine |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in shown:
        e = r.encoded
        assert e is not None
        engine = e.rates["engine"]
        cells = [r.spec, f"{e.hands:,}", f"{r.engine} {engine:,.0f}/s"]
        for name in ("dicts", "encoded", "threads"):
            label = f" ({e.threads} threads)" if name == "threads" else ""
            cells += [f"{e.rates[name]:,.0f}/s{label}", ratio(e.rates[name], engine)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def dropped(rows: list[Row]) -> str:
    """Per spec, how many hands were drawn and why some were left out."""
    lines = []
    for r in rows:
        why = ", ".join(f"{n:,} {reason}" for reason, n in sorted(r.drops.items())) or "none"
        lines.append(f"- {r.spec} ({r.mix} mix): {r.built:,} hands drawn, {r.hands:,} kept; dropped: {why}")
    return "\n".join(lines)


def kinds(rows: list[Row]) -> str:
    lines = ["| spec | kind | share | hands | dropped | compiled, per call | engine | per call ÷ engine |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        for k in r.kinds:
            engine = f"{r.engine} {k.engine:,.0f}/s" if k.engine else "—"
            lines.append(f"| {r.spec} | {k.kind} | {k.share:.0%} | {k.hands:,} | {k.dropped:,} | {k.compiled:,.0f}/s "
                         f"| {engine} | {ratio(k.compiled, k.engine)} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def refused(rows: list[Row]) -> str:
    lines = ["| spec | refused cases | refused, per call | scored hand, per call | refused ÷ scored |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        if r.refused:
            ns_refused, ns_scored = 1e9 / r.refused.refused, 1e9 / r.refused.scored
            lines.append(f"| {r.spec} | {r.refused.hands:,} | {ns_refused:,.0f} ns | {ns_scored:,.0f} ns "
                         f"| {ns_refused / ns_scored:,.1f}× |")
    return "\n".join(lines) if len(lines) > 2 else ""


def stages(rows: list[Row]) -> str:
    """Checker.stage_times per hand, and the rest of the per-call time timed with it (the Python call,
    freeing the result), each beside its floor."""
    names = list(FLOORS)
    lines = ["| spec | " + " | ".join(f"{STAGE_NAMES[n]} (floor {FLOORS[n]:,.0f} ns)" for n in names)
             + f" | per call (floor {sum(FLOORS.values()):,.0f} ns) |",
             "|---|" + "---:|" * (len(names) + 1)]
    for r in rows:
        if not r.stages:
            continue
        per_call = r.stages["call"]
        ours = {n: r.stages[n] for n in names[:3]} | {"call": max(per_call - r.stages["evaluate"], 0.0)}
        cells = [f"{ours[n]:,.0f} ns ({ours[n] / FLOORS[n]:,.1f}×)" for n in names]
        cells.append(f"{per_call:,.0f} ns ({per_call / sum(FLOORS.values()):,.1f}×)")
        lines.append(f"| {r.spec} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine(repeats: int) -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                  if line.startswith("model name")), platform.processor() or "unknown")
    load = f", load average {os.getloadavg()[0]:.1f} when the run ended" if hasattr(os, "getloadavg") else ""
    return (f"Machine: {os.cpu_count()} cores ({model}), Python {platform.python_version()}{load}; each rate is "
            f"the best of {repeats} runs, the contenders of a table row timed in turn.")
