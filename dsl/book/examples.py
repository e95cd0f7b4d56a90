"""Run a spec's own `example` blocks against a checker: the worked hands of the rule book as tests."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from dsl.cases.presets import with_options
from dsl.frontend import ir
from dsl.frontend.source import Diagnostic, printable
from dsl.interp.explain import explain
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler
from dsl.notation import tile_codes

# A group of a reading as explanations write it: `[555p]` a declared meld, `(5m wild)` the tiles wilds stand for,
# `*` the group holding the winning tile.
_GROUP = re.compile(r"(\[)?([0-9]+[a-z](?:[0-9]+[a-z])*)(?:\([^)]*\))?\]?(\*)?")


@dataclass(frozen=True)
class ExampleOutcome:
    example: ir.Example | ir.RoundExample
    result: dict
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems

    def render(self) -> str:
        """The outcome as `mjdsl test` prints it, the spec's text in it printable()."""
        where = f"{self.example.span}"
        if self.passed:
            return printable(f"{where}: ok: {self.example.title}")
        return printable(f"{where}: example {self.example.title!r} failed:") + "".join(
            "\n    " + printable(p) for p in self.problems)


def run_examples(spec: ir.Spec, checker, options: Mapping[str, object] | None = None) -> list[ExampleOutcome]:
    """The worked hands, then the worked rounds; `options` (checked) under each one's own."""
    options = options or {}
    reference = Interpreter(spec)
    hands = [check_example(e, checker.evaluate(with_options(e.case_dict(), options)), chosen_reading(reference, e))
             for e in spec.examples]
    settler = RoundSettler(spec, checker, options)
    rounds = [ExampleOutcome(r, result := settler.settle(json.loads(r.record)), tuple(round_problems(r, result)))
              for r in spec.round_examples]
    return hands + rounds


def round_problems(r: ir.RoundExample, result: dict) -> list[str]:
    if not result["ok"]:
        return [f"the round is invalid: {result['error']}"]
    problems = []
    for index, win in r.wins:
        line = r.event_spans[index].line
        entry = result["events"][index] | {"ok": True, "winning": True}
        problems += [f"event {index + 1} (line {line}): {p}" for p in _problems(win, entry)]
    for index, expected in r.payments:
        got = tuple(result["events"][index]["payments"])
        if got != expected:
            line = r.event_spans[index].line
            problems.append(f"event {index + 1} (line {line}): expected payments {list(expected)}, got {list(got)}")
    if r.total is not None and tuple(result["payments"]) != r.total:
        problems.append(f"expected total {list(r.total)}, got {result['payments']}")
    if r.next_context is not None:
        got = result.get("next_context", {})
        problems += [f"expected {name} {value} in the next hand, got {got.get(name)}"
                     for name, value in r.next_context if got.get(name) != value]
    return problems


def unexercised_exclusions(spec: ir.Spec, interpreter) -> list[Diagnostic]:
    """不计 edges A -> B where A counts in some example but B never holds beside it.

    A 不计 target is meant to be implied by the fan that excludes it; when no worked hand shows the
    two together, either the edge is never needed or the examples do not cover it.
    """
    present = [(interpreter.present_fans(e.case_dict()), e) for e in spec.examples if e.fans]
    found = []
    for p in spec.patterns:
        with_p = [fans for fans, e in present if any(f.name == p.name for f in e.fans)]
        for exclusion in p.excludes:
            if with_p and not any(exclusion.target in fans for fans in with_p):
                found.append(Diagnostic(
                    "warning", f"不计 {exclusion.target} is never implied: no example where {p.name} counts "
                    f"also holds {exclusion.target}", exclusion.span))
    return found


def check_example(example: ir.Example, result: dict, chosen: str | None = None) -> ExampleOutcome:
    """The example against the checker's result and, when it names a `reading`, the reading the checker chose."""
    problems = _problems(example, result)
    if example.reading is not None and chosen != " ".join(example.reading):
        problems += _reading_problems(example.reading, chosen)
    return ExampleOutcome(example, result, tuple(problems))


def chosen_reading(interpreter: Interpreter, example: ir.Example) -> str | None:
    """The groups of the reading the checker scored, as explanations write them, for an example that names one."""
    if example.reading is None:
        return None
    explanation = explain(interpreter, example.case_dict())
    return next((r["groups"] for r in explanation.get("readings", ()) if r["chosen"]), None)


def _reading_problems(expected: tuple[str, ...], chosen: str | None) -> list[str]:
    if chosen is None:
        return [f"expected the reading {' '.join(expected)}, but the checker scored no reading"]
    if _groups(" ".join(expected)) == _groups(chosen):
        return []
    return [f"expected the reading {' '.join(expected)}, but the checker chose {chosen}"]


def _groups(text: str) -> list[tuple[bool, bool, tuple[str, ...]]]:
    """The groups of a reading, each (declared, holds the winning tile, its tiles), whatever order they are written
    in: `55z` and `5z5z` are one pair."""
    return sorted((bool(declared), bool(win), tuple(sorted(tile_codes(run))))
                  for declared, run, win in _GROUP.findall(text))


def _problems(e: ir.Example, result: dict) -> list[str]:
    if e.error is not None:
        if result.get("ok"):
            return [f"expected the error {e.error!r}, got a result"]
        if e.error in result["error"]:
            return []
        return [f"expected an error containing {e.error!r}, got {result['error']!r}"]
    if not result.get("ok"):
        return [f"the case is invalid: {result['error']}"]
    if e.no_win is not None:
        if result["winning"]:
            return [f"expected no win, got {fans_text(result)}"]
        reason = result.get("reason", "")
        return [] if e.no_win in reason else [f"expected a reason containing {e.no_win!r}, got {reason!r}"]
    if not result["winning"]:
        return [f"expected a win, got: {result.get('reason')}"]
    problems = []
    if e.fans is not None:
        got = {f["name"]: (f["value"], f["count"]) for f in result["fans"]}
        want = {f.name: f for f in e.fans}
        for name, fan in want.items():
            if name not in got:
                problems.append(f"missing fan {name}")
            elif (fan.value is not None and got[name][0] != fan.value) or got[name][1] != fan.count:
                problems.append(f"{name}: expected {fan.value} ×{fan.count}, got {got[name][0]} ×{got[name][1]}")
        for name in got.keys() - want.keys():
            problems.append(f"unexpected fan {name} {got[name][0]} ×{got[name][1]}")
    if e.total is not None and result["total"] != e.total:
        problems.append(f"expected total {e.total}, got {result['total']}")
    if e.payments is not None and tuple(result.get("payments", ())) != e.payments:
        problems.append(f"expected payments {list(e.payments)}, got {result.get('payments')}")
    return problems


def fans_text(result: dict) -> str:
    return ", ".join(f"{f['name']} {f['value']}" + (f" ×{f['count']}" if f["count"] > 1 else "")
                     for f in result.get("fans", [])) + f" (total {result.get('total')})"
