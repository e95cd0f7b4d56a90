"""Hands per second: the interpreter, the compiled checker (one call per hand, and the batch entry
point, and the compact batch entry point score_many), and an independent engine on the same winning
hands, in one run: pymahjonggb (C++) for 国标, riichienv (Rust) for riichi.

    python bench/bench.py [--hands 20000] [--mix {sampler,independent}] [--quick] [SPEC ...]

The hands: for mcr and riichi by default an independent mix built from tiles by kind of hand (bench/mix.py
says how and in what shares), for the other specs the project's own sampler (dsl.cases.samples), whose
hands are cheaper for this checker than an outsider's mix. Only hands that both our checker and the
engine score as a win are kept; how many were dropped, and why, is printed.

Prints Markdown tables: the rates and their ratios; for a mix by kind, the rates per kind of hand; the cost
of a case the checker refuses as impossible; and where the time of a compiled call goes (ns per hand:
reading the case, search and scoring, building the result, the rest of the call) beside the floor of each
stage. The contenders of a row are timed in turn (A B A B ..., the best of N each), so that each sees the
machine in the same state; each engine's inputs are converted beforehand, not timed. The engines are
bench-only dependencies (pip install pymahjonggb riichienv).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import os
import time
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import engines
import mix
import report
from engines import Engine

import dsl
from dsl.cases.encoded import encode
from dsl.cases.samples import random_cases
from dsl.compiled.checkers import Checker
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs

SEED = 2024


@dataclass(frozen=True)
class Settings:
    hands: int  # winning hands per spec
    mix: str | None  # sampler or independent; None: independent where a spec has a mix
    repeats: int  # each timing is the best of this many runs
    interpreter_seconds: float  # the interpreter is timed on the hands it gets through in about this long
    kind_calls: int  # a timing per kind of hand runs over its hands again until it makes this many calls
    refused: int  # refused cases timed per spec


FULL = Settings(hands=20_000, mix=None, repeats=3, interpreter_seconds=3.0, kind_calls=20_000, refused=2_000)
QUICK = Settings(hands=300, mix=None, repeats=1, interpreter_seconds=0.2, kind_calls=300, refused=100)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", metavar="SPEC", help="default: every bundled spec")
    parser.add_argument("--hands", type=int, help=f"hands kept per spec in a mix, hands drawn by the sampler "
                        f"(some then dropped); default {FULL.hands:,}")
    parser.add_argument("--mix", choices=("sampler", "independent"),
                        help="default: independent for the specs that have one (mcr, riichi), else sampler")
    parser.add_argument("--quick", action="store_true", help=f"a smoke run: {QUICK.hands} hands, one run each")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else FULL
    settings = dataclasses.replace(base, hands=args.hands or base.hands, mix=args.mix)
    rows = []
    for name in args.specs or bundled_specs():
        try:
            rows.append(measure(name, settings))
        except UserWarning as exc:  # no compiled checker: nothing to compare
            print(f"{name}: skipped: {exc}")
    for part in (report.overall(rows), report.dropped(rows), report.kinds(rows), report.encoded(rows),
                 report.refused(rows), report.stages(rows), report.machine(settings.repeats)):
        if part:
            print(part, end="\n\n")


# ---------------------------------------------------------------- one spec


@dataclass
class Workload:
    """The hands of a spec and what the engine is given for each, converted beforehand."""

    mix_name: str
    hands: list[mix.Hand]
    inputs: list[object] | None
    built: int
    drops: Counter[str]
    dropped: Counter[str]  # per kind


def measure(name: str, settings: Settings) -> report.Row:
    spec = load_spec(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # benchmark the compiled checker or nothing
        compiled = dsl.load(name)
    engine = engines.engine_for(name)
    work = workload(name, compiled, engine, settings)
    cases = [h.case for h in work.hands]
    row = report.Row(name, work.mix_name, len(cases), work.built, work.drops, engine.name if engine else None,
                     overall_rates(Interpreter(spec), compiled, cases, work.inputs, engine, settings))
    if work.mix_name == "independent":
        row.kinds = kind_rows(name, compiled, work, engine, settings)
    row.refused = refused_rates(compiled, cases, settings)
    row.encoded = encoded_rates(spec, compiled, cases, work.inputs, engine, settings)
    row.stages = stage_profile(compiled, cases, settings.repeats)
    return row


def workload(name: str, compiled: Checker, engine: Engine | None, settings: Settings) -> Workload:
    independent = settings.mix != "sampler" and mix.shares(name) is not None
    drops: Counter[str] = Counter()

    def keep(case: dict) -> bool:
        reason = drop_reason(case, compiled, engine)
        drops[reason or "kept"] += 1
        return reason is None

    if independent:
        made = mix.make_mix(name, settings.hands, SEED, keep)
        hands, dropped = made.hands, made.dropped
    else:
        sampled = random_cases(load_spec(name), settings.hands, seed=SEED, kinds={"winning": 1})
        hands, dropped = [mix.Hand("sampler", c) for c in sampled if consistent(c) and keep(c)], Counter()
        drops["with flags that do not fit the hand"] = sum(not consistent(c) for c in sampled)
    inputs = [engine.convert(h.case) for h in hands] if engine else None
    built = drops.total()
    del drops["kept"]
    return Workload("independent" if independent else "sampler", hands, inputs, built, +drops, dropped)


def drop_reason(case: dict, compiled: Checker, engine: Engine | None) -> str | None:
    """Why a hand is left out, or None when both our checker and the engine score it as a win."""
    ours = compiled.is_winning(case)
    if engine is None:
        return None if ours else "not a win for this checker"
    arguments = engine.convert(case)
    if arguments is None:
        return f"with melds, not given to {engine.name}"
    theirs = engine.wins(arguments)
    if ours == theirs:
        return None if ours else "not a win for either"
    return "a win for this checker only" if ours else f"a win for {engine.name} only"


def consistent(case: dict) -> bool:
    """Flags that fit the hand: no kong replacement without a kong, no robbed kong on a self-draw, not the
    last tile on the first turn (the sampler draws such cases on purpose; the checker refuses them)."""
    kong = any(str(m).split()[0].endswith("kong") for m in case.get("melds", []))
    return not ((case.get("kong_replacement") and not kong) or (case.get("robbing_kong") and case.get("self_drawn"))
                or (case.get("last_tile") and case.get("first_turn")))


# ---------------------------------------------------------------- timings


def each(function: Callable[[object], object], items: Sequence) -> None:
    """One call per item, each result dropped at once (as a game server scoring one hand at a time)."""
    for item in items:
        function(item)


def race(runs: dict[str, Callable[[], object]], repeats: int, warm: bool = True) -> dict[str, float]:
    """The best time of each run, in seconds, the runs taken in turn (A B A B ...) so that a change in the
    machine's state (another process, the clock) falls on all of them alike. `warm`: each run once first,
    untimed, so that what a first call sets up (caches, lazy imports) is not timed even with one repeat."""
    for run in runs.values() if warm else ():
        run()
    best = dict.fromkeys(runs, math.inf)
    for _ in range(repeats):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def overall_rates(interpreter: Interpreter, compiled: Checker, cases: list[dict], inputs: list | None,
                  engine: Engine | None, settings: Settings) -> dict[str, float]:
    """Hands per second of each contender on all the hands."""
    runs: dict[str, Callable[[], object]] = {
        "compiled": lambda: each(compiled.evaluate, cases),
        "batch": lambda: compiled.evaluate_many(cases),
        "compact": lambda: compiled.score_many(cases),  # type: ignore[attr-defined]
    }
    if engine and inputs is not None:
        runs["engine"] = lambda: each(engine.call, inputs)
    rates = {name: len(cases) / seconds for name, seconds in race(runs, settings.repeats).items()}
    # The interpreter is a thousand times slower: timed apart, on as many hands as fit in its time.
    sample = cases[:interpreter_sample(interpreter, cases, settings.interpreter_seconds)]
    seconds = race({"interpreter": lambda: each(interpreter.evaluate, sample)}, settings.repeats,
                   warm=False)["interpreter"]  # warmed by the sampling
    return rates | {"interpreter": len(sample) / seconds}


def interpreter_sample(interpreter: Interpreter, cases: Sequence[dict], seconds: float) -> int:
    """How many hands the interpreter scores in about `seconds`."""
    probe = cases[:50]
    started = time.perf_counter()
    each(interpreter.evaluate, probe)
    per_hand = (time.perf_counter() - started) / max(len(probe), 1)
    return max(len(probe), min(len(cases), int(seconds / max(per_hand, 1e-9))))


def cycled(items: list, calls: int) -> list:
    """The items again and again until there are at least `calls` of them: a kind with few hands still
    gets a timing long enough to measure."""
    return items * max(1, math.ceil(calls / max(len(items), 1)))


def kind_rows(name: str, compiled: Checker, work: Workload, engine: Engine | None,
              settings: Settings) -> list[report.KindRow]:
    """Per kind of hand: ours per call and the engine per call, timed in turn on the kind's hands."""
    rows = []
    for kind, share in (mix.shares(name) or {}).items():
        at = [i for i, h in enumerate(work.hands) if h.kind == kind]
        if not at:
            continue
        cases = cycled([work.hands[i].case for i in at], settings.kind_calls)
        runs: dict[str, Callable[[], object]] = {"compiled": lambda c=cases: each(compiled.evaluate, c)}
        if engine and work.inputs is not None:
            inputs = cycled([work.inputs[i] for i in at], settings.kind_calls)
            runs["engine"] = lambda i=inputs: each(engine.call, i)
        best = race(runs, settings.repeats)
        engine_rate = len(cases) / best["engine"] if "engine" in best else None
        rows.append(report.KindRow(kind, share, len(at), work.dropped[kind], len(cases) / best["compiled"],
                                   engine_rate))
    return rows


STAGES = ("read", "search", "result")  # Checker.stage_times: each stage's own share, in this order


def stage_profile(compiled: Checker, cases: Sequence[dict], repeats: int) -> dict[str, float]:
    """Checker.stage_times (ns per hand) and the time of a whole per-call `evaluate` ("call"), taken in turn
    so that the rest of the call (their difference) is not a difference between two machine states. As in
    stage_times, the best of the runs is taken of the time up to the end of each stage, then split."""
    best: dict[str, float] = {}
    for _ in range(repeats):
        times = compiled.CHECKER.stage_times(cases, 1)  # type: ignore[attr-defined]
        if not times:
            return {}
        started = time.perf_counter_ns()
        each(compiled.evaluate, cases)
        call = (time.perf_counter_ns() - started) / len(cases)
        ends = dict(zip(STAGES, itertools.accumulate(times[s] for s in STAGES), strict=True))
        best = {key: min(ns, best.get(key, math.inf))
                for key, ns in (ends | {"evaluate": times["evaluate"], "call": call}).items()}
    starts = [0.0] + [best[s] for s in STAGES[:-1]]
    return {s: best[s] - start for s, start in zip(STAGES, starts, strict=True)} | {
        "evaluate": best["evaluate"], "call": best["call"]}


def refused_cases(compiled: Checker, cases: Sequence[dict], limit: int) -> list[dict]:
    """The hands made impossible as a careless caller might: a self-drawn kong replacement (杠上开花) on a
    hand without a kong. Kept when the checker refuses them for it (a spec that reads no such key does not)."""
    out: list[dict] = []
    for case in cases:
        if len(out) == limit:
            break
        if any("kong" in m for m in case.get("melds", [])):
            continue
        bad = {k: v for k, v in case.items() if k not in ("last_tile", "robbing_kong")}
        bad |= {"self_drawn": True, "kong_replacement": True}
        result = compiled.evaluate(bad)
        if not result.get("ok") and "'kong_replacement'" in str(result.get("error")):
            out.append(bad)
    return out


def refused_rates(compiled: Checker, cases: Sequence[dict], settings: Settings) -> report.Refused | None:
    """Per call, refused cases and as many scored hands, timed in turn."""
    bad = refused_cases(compiled, cases, settings.refused)
    if not bad:
        return None
    good = list(cases[:len(bad)])
    best = race({"refused": lambda: each(compiled.evaluate, bad), "scored": lambda: each(compiled.evaluate, good)},
                settings.repeats)
    return report.Refused(len(bad), len(bad) / best["refused"], len(good) / best["scored"])


THREADS = os.cpu_count() or 1  # encoded batches scored at once, one per core


def encoded_rates(spec: ir.Spec, compiled: Checker, cases: list[dict], inputs: list | None, engine: Engine | None,
                  settings: Settings) -> report.Encoded | None:
    """score_many on the hands encoded cases can state (dsl.cases.encoded.encode), as dicts and as arrays, in
    one thread and in one thread per core (halves of the arrays), and the engine per call on the same hands."""
    stated = [k for k, case in enumerate(cases) if encodable(spec, case)]
    if not stated:
        return None
    chosen = [cases[k] for k in stated]
    arrays = encode(spec, chosen)
    parts = [encode(spec, chosen[k::THREADS]) for k in range(THREADS)]
    pool = ThreadPoolExecutor(THREADS)
    runs: dict[str, Callable[[], object]] = {
        "dicts": lambda: compiled.score_many(chosen),  # type: ignore[attr-defined]
        "encoded": lambda: compiled.score_many(arrays),  # type: ignore[attr-defined]
        "threads": lambda: list(pool.map(compiled.score_many, parts)),  # type: ignore[attr-defined]
    }
    if engine and inputs is not None:
        engine_inputs = [inputs[k] for k in stated]
        runs["engine"] = lambda: each(engine.call, engine_inputs)
    with pool:
        best = race(runs, settings.repeats)
    return report.Encoded(len(chosen), {name: len(chosen) / seconds for name, seconds in best.items()}, THREADS)


def encodable(spec: ir.Spec, case: dict) -> bool:
    try:
        encode(spec, [case])
    except ValueError:  # red fives, options, ...: a dict only
        return False
    return True


if __name__ == "__main__":
    main()
