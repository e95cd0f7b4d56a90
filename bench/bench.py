"""Hands per second: the interpreter, the compiled checker (one call per hand, and the batch entry
point, and the compact batch entry point score_many), and an independent engine on the same random
winning hands, in one run: pymahjonggb (C++) for 国标, riichienv (Rust) for riichi.

    python bench/bench.py [--hands 20000] [SPEC ...]

Prints a Markdown table with the ratios, one with where the time of a compiled call goes (ns per hand:
reading the case, search and scoring, building the result, the rest of the call), and the machine it ran
on. The engines are bench-only dependencies (pip install pymahjonggb riichienv); each is given its own
input format, converted beforehand, and timed on the hands it also scores as a win.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import time
import warnings
from collections.abc import Callable, Sequence

import dsl
from dsl.cases.samples import random_cases
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs

SEED = 2024
REPEATS = 3  # each timing is the best of this many runs
INTERPRETER_SECONDS = 3.0  # the interpreter is timed on the hands it gets through in about this long


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", metavar="SPEC", help="default: every bundled spec")
    parser.add_argument("--hands", type=int, default=20_000, help="random winning hands per spec")
    args = parser.parse_args()
    rows = []
    for name in args.specs or bundled_specs():
        try:
            rows.append(measure(name, args.hands))
        except UserWarning as exc:  # no compiled checker: nothing to compare
            print(f"{name}: skipped: {exc}")
    print(table(rows))
    print()
    print(stages(rows))
    print()
    print(machine())


def measure(name: str, count: int) -> dict[str, object]:
    spec = load_spec(name)
    interpreter = Interpreter(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # benchmark the compiled checker or nothing
        compiled = dsl.load(name)
    cases = [c for c in random_cases(spec, count, seed=SEED, kinds={"winning": 1})
             if consistent(c) and compiled.is_winning(c)]
    engine = reference_engine(name, cases)
    if engine is not None:
        cases = engine[0]
    row: dict[str, object] = {"spec": name, "hands": len(cases)}
    sample = cases[:interpreter_sample(interpreter, cases)]
    row["interpreter"] = rate(lambda: each(interpreter.evaluate, sample), len(sample))
    row["compiled"] = rate(lambda: each(compiled.evaluate, cases), len(cases))
    row["batch"] = rate(lambda: compiled.evaluate_many(cases), len(cases))
    row["compact"] = rate(lambda: compiled.score_many(cases), len(cases))
    if engine is not None:
        _, calculate, inputs = engine
        row["engine"] = rate(lambda: each(calculate, inputs), len(inputs))
    row["stages"] = compiled.CHECKER.stage_times(cases, REPEATS)
    return row


def consistent(case: dict) -> bool:
    """Flags that fit the hand: no kong replacement without a kong, no robbed kong on a self-draw, not the
    last tile on the first turn (dsl.cases.case.read_case judges such cases; the checkers hand them over)."""
    kong = any(str(m).split()[0].endswith("kong") for m in case.get("melds", []))
    return not ((case.get("kong_replacement") and not kong) or (case.get("robbing_kong") and case.get("self_drawn"))
                or (case.get("last_tile") and case.get("first_turn")))


def each(function: Callable[[object], object], items: Sequence) -> None:
    """One call per item, each result dropped at once (as a game server scoring one hand at a time)."""
    for item in items:
        function(item)


def interpreter_sample(interpreter: Interpreter, cases: Sequence[dict]) -> int:
    """How many hands the interpreter scores in about INTERPRETER_SECONDS."""
    started = time.perf_counter()
    for case in cases[:200]:
        interpreter.evaluate(case)
    per_hand = (time.perf_counter() - started) / min(200, len(cases))
    return max(200, min(len(cases), int(INTERPRETER_SECONDS / max(per_hand, 1e-9))))


def rate(run: Callable[[], object], hands: int) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return hands / best


# ---------------------------------------------------------------- pymahjonggb, for 国标

PYMAHJONGGB_TILES = {"m": "W", "s": "T", "p": "B"}
PYMAHJONGGB_HONORS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # 东 南 西 北 白 发 中
PYMAHJONGGB_PACKS = {"chow": "CHI", "pung": "PENG", "kong": "GANG", "added_kong": "GANG", "concealed_kong": "GANG"}
WINDS = ("E", "S", "W", "N")


def reference_engine(name: str, cases: list[dict]) -> tuple[list[dict], Callable, list] | None:
    """The hands an independent engine also scores as a win, one call per hand, and its inputs."""
    if name == "mcr":
        return pymahjonggb_engine(cases)
    if name == "riichi":
        return riichienv_engine(cases)
    return None


def pymahjonggb_engine(cases: list[dict]) -> tuple[list[dict], Callable, list] | None:
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        return None
    kept, inputs = [], []
    for case in cases:
        arguments = pymahjonggb_input(case)
        try:
            MahjongFanCalculator(**arguments)
        except TypeError:  # not a win for it (below 8 fan, or a reading it does not know)
            continue
        kept.append(case)
        inputs.append(arguments)
    return kept, lambda arguments: MahjongFanCalculator(**arguments), inputs


def pymahjonggb_input(case: dict) -> dict:
    def tile(code: str) -> str:
        digit, suit = code[0], code[1]
        return PYMAHJONGGB_HONORS[int(digit) - 1] if suit == "z" else PYMAHJONGGB_TILES[suit] + digit

    def codes(text: str) -> list[str]:
        return [d + s for digits, s in re.findall(r"(\d+)([mpsz])", text) for d in digits]

    def pack(meld: str) -> tuple[str, str, int]:
        kind, text = meld.split()
        middle = sorted(codes(text), key=lambda c: (c[1], c[0]))[1]  # a chow is named by its middle tile
        return PYMAHJONGGB_PACKS[kind], tile(middle), 0 if kind == "concealed_kong" else 1

    return {"pack": tuple(pack(m) for m in case.get("melds", [])), "hand": tuple(tile(c) for c in codes(case["hand"])),
            "winTile": tile(case["win"]), "flowerCount": case.get("flowers", 0),
            "isSelfDrawn": case.get("self_drawn", False), "is4thTile": case.get("fourth_tile", False),
            "isAboutKong": case.get("kong_replacement", False) or case.get("robbing_kong", False),
            "isWallLast": case.get("last_tile", False), "seatWind": WINDS.index(case.get("seat_wind", "E")),
            "prevalentWind": WINDS.index(case.get("round_wind", "E"))}


# ---------------------------------------------------------------- riichienv, for riichi

RIICHIENV_SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}  # its tile kinds: 1m..9m, 1p..9p, 1s..9s, 1z..7z


def riichienv_engine(cases: list[dict]) -> tuple[list[dict], Callable, list] | None:
    """Concealed hands (riichienv takes melds as its own objects: hands with melds are left out)."""
    try:
        import riichienv
        from riichienv import _riichienv as engine
    except ImportError:
        return None
    winds = (riichienv.EAST, riichienv.SOUTH, riichienv.WEST, riichienv.NORTH)

    def calculate(arguments: tuple) -> object:
        tiles, win, dora, ura, conditions = arguments
        return engine.HandEvaluator(tiles, []).calc(win, dora, ura, conditions)

    kept, inputs = [], []
    for case in cases:
        arguments = riichienv_input(case, engine.Conditions, winds)
        if arguments is not None and calculate(arguments).is_win:
            kept.append(case)
            inputs.append(arguments)
    return kept, calculate, inputs


def riichienv_input(case: dict, conditions: type, wind_values: tuple) -> tuple | None:
    """Tiles as riichienv's 136 ids (kind * 4 + copy; a red five is copy 0 of its kind), or None."""
    if case.get("melds") or case.get("other_melds"):
        return None
    used: dict[int, int] = {}

    def ids(text: str) -> list[int]:
        out = []
        for digits, suit in re.findall(r"(\d+)([mpsz])", text):
            for digit in digits:
                kind = RIICHIENV_SUITS[suit] + (4 if digit == "0" else int(digit) - 1)
                copy = 0 if digit == "0" else used.get(kind, 0) + (1 if kind % 9 == 4 and suit != "z" else 0)
                used[kind] = used.get(kind, 0) + 1
                out.append(kind * 4 + min(copy, 3))
        return out

    tiles, win = ids(case["hand"]), ids(case["win"])
    winds = (wind_values[WINDS.index(case.get("seat_wind", "E"))],
             wind_values[WINDS.index(case.get("round_wind", "E"))])
    flags = conditions(tsumo=case.get("self_drawn", False), riichi=case.get("riichi", False),
                       double_riichi=case.get("double_riichi", False), ippatsu=case.get("ippatsu", False),
                       haitei=case.get("last_tile", False) and case.get("self_drawn", False),
                       houtei=case.get("last_tile", False) and not case.get("self_drawn", False),
                       rinshan=case.get("kong_replacement", False), chankan=case.get("robbing_kong", False),
                       player_wind=winds[0], round_wind=winds[1], honba=case.get("honba", 0),
                       riichi_sticks=case.get("riichi_sticks", 0))
    used.clear()
    return tiles, win[0], ids(case.get("dora", "")), ids(case.get("ura", "")), flags


# ---------------------------------------------------------------- report


def table(rows: list[dict[str, object]]) -> str:
    lines = ["| spec | hands | interpreter | compiled, per call | × interpreter | evaluate_many | score_many "
             "| engine | per call ÷ engine | evaluate_many ÷ engine | score_many ÷ engine |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        interp, compiled, batch, compact = (float(r[k]) for k in  # type: ignore[arg-type]
                                            ("interpreter", "compiled", "batch", "compact"))
        engine = float(r["engine"]) if "engine" in r else None  # type: ignore[arg-type]
        cells = [str(r["spec"]), f"{r['hands']:,}", f"{interp:,.0f}/s", f"{compiled:,.0f}/s",
                 f"{compiled / interp:,.0f}×", f"{batch:,.0f}/s", f"{compact:,.0f}/s"]
        name = {"mcr": "pymahjonggb", "riichi": "riichienv"}.get(str(r["spec"]), "")
        cells += ([f"{name} {engine:,.0f}/s", f"{compiled / engine:.1f}×", f"{batch / engine:.1f}×",
                   f"{compact / engine:.1f}×"] if engine else ["—"] * 4)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def stages(rows: list[dict[str, object]]) -> str:
    """Where the time of one compiled call goes, in ns per hand: Checker.stage_times, and the rest of the
    per-call time (the Python call, freeing the result)."""
    lines = ["| spec | reading the case | search and scoring | building the result | rest of the call | per call |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        times: dict[str, float] = r["stages"]  # type: ignore[assignment]
        if not times:
            continue
        per_call = 1e9 / float(r["compiled"])  # type: ignore[arg-type]
        cells = [times["read"], times["search"], times["result"], max(per_call - times["evaluate"], 0.0), per_call]
        lines.append(f"| {r['spec']} | " + " | ".join(f"{ns:,.0f} ns" for ns in cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                  if line.startswith("model name")), platform.processor() or "unknown")
    return (f"Machine: {os.cpu_count()} cores ({model}), Python {platform.python_version()}; "
            f"each rate is the best of {REPEATS} runs.")


if __name__ == "__main__":
    main()
