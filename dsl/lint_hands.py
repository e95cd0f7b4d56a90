"""`mjdsl lint`: warnings found by scoring many hands of a spec, each at the fan, 不计 line or option it is about.

The hands are the spec's worked examples and HANDS random winning hands of dsl.cases.samples (seed SEED), scored
by the interpreter. A fan no hand counts, a 不计 line whose target never holds beside its fan, a fan always counted
with another that it does not exclude (a double count), and an option no hand's result depends on are reported;
so are two fans excluding each other, read from the spec alone. Sampling proves reachability, never its absence:
the messages say how many hands were tried.

A finding the spec means is silenced by a comment on the line it points at: `# lint: allow KIND reason`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from dsl.cases.samples import random_cases
from dsl.frontend import ir
from dsl.frontend.source import Diagnostic, Span
from dsl.interp.evaluation import EvaluationError
from dsl.interp.interpreter import Interpreter

HANDS = 2000  # random winning hands per spec; with the examples, what "no hand" means in a message
SEED = 0
OPTION_HANDS = 300  # of those, the hands each option's other values are scored on (an option costs a rescoring)
EVIDENCE = 20  # a fan counted in fewer hands proves nothing about what holds beside it
KINDS = ("unreachable", "never-fires", "implied", "mutual", "dead-option")
ALLOW = re.compile(r"#\s*lint:\s*allow\s+([\w-]+)")


@dataclass(frozen=True)
class Observed:
    """One winning hand: the fans holding in its chosen reading, and those that count after exclusions."""

    present: frozenset[str]
    counted: frozenset[str]


@dataclass(frozen=True)
class Finding:
    kind: str  # one of KINDS
    message: str
    span: Span

    def diagnostic(self) -> Diagnostic:
        return Diagnostic("warning", f"{self.message} [{self.kind}]", self.span)


def lint(spec: ir.Spec, hands: int = HANDS) -> list[Diagnostic]:
    """The findings about the spec's own file (an inherited fan is linted with its parent) that the file does not
    allow, in file order."""
    found = [f for f in findings(spec, hands) if f.span.path == spec.path and not allowed(f)]
    return [f.diagnostic() for f in sorted(found, key=lambda f: (f.span.line, f.span.column))]


def findings(spec: ir.Spec, hands: int = HANDS) -> list[Finding]:
    interpreter = Interpreter(spec)
    cases = [e.case_dict() for e in spec.examples] + random_cases(spec, hands, SEED, {"winning": 1.0})
    observed = [o for o in map(lambda c: _observe(interpreter, c), cases) if o is not None]
    tried = f"{len(cases)} hands ({len(spec.examples)} examples, {hands} random)"
    return (_unreachable(spec, observed, tried) + _never_fires(spec, observed, tried) + _implied(spec, observed)
            + _mutual(spec) + _dead_options(spec, interpreter, cases[:len(spec.examples) + OPTION_HANDS]))


def allowed(finding: Finding) -> bool:
    """Whether the line the finding points at carries `# lint: allow KIND`."""
    line = finding.span.source.line(finding.span.line)
    return any(m.group(1) == finding.kind for m in ALLOW.finditer(line))


def _observe(interpreter: Interpreter, case: dict) -> Observed | None:
    try:
        best = interpreter.chosen_reading(case)
    except EvaluationError:
        return None
    if best is None:
        return None
    return Observed(frozenset(n for n, k in best.env.counts.items() if k > 0),
                    frozenset(c.pattern.name for c in best.fans))


def _unreachable(spec: ir.Spec, observed: list[Observed], tried: str) -> list[Finding]:
    counted = set().union(*(o.counted for o in observed))
    return [Finding("unreachable", f"fan {p.name!r} counted in none of {tried}", p.span)
            for p in spec.patterns if p.name not in counted]


def _never_fires(spec: ir.Spec, observed: list[Observed], tried: str) -> list[Finding]:
    """不计 lines whose target never holds in a hand where their fan counts."""
    found = []
    for p in spec.patterns:
        with_p = [o for o in observed if p.name in o.counted]
        for exclusion in p.excludes:
            if len(with_p) >= EVIDENCE and not any(exclusion.target in o.present for o in with_p):
                found.append(Finding("never-fires", f"不计 {exclusion.target} never fires: in none of the "
                                     f"{len(with_p)} of {tried} where {p.name} counts does {exclusion.target} "
                                     "hold", exclusion.span))
    return found


def _implied(spec: ir.Spec, observed: list[Observed]) -> list[Finding]:
    """Fans A always counted together with a fan B that A does not exclude: B may be counted twice over. A fan that
    counts in every hand (a base every win scores) comes with any fan, so it is no evidence."""
    found = []
    everywhere = frozenset.intersection(*(o.counted for o in observed)) if observed else frozenset()
    for p in spec.patterns:
        with_p = [o.counted for o in observed if p.name in o.counted]
        if len(with_p) < EVIDENCE:
            continue
        always = frozenset.intersection(*with_p) - {p.name} - everywhere - _excluded_by(spec, p)
        found += [Finding("implied", f"fan {p.name!r} counted with {other!r} in each of the {len(with_p)} sampled "
                          f"hands where it counts, without a 不计 {other}", p.span)
                  for other in sorted(always, key=lambda n: spec.pattern(n).order)]
    return found


def _excluded_by(spec: ir.Spec, p: ir.Pattern) -> set[str]:
    groups = {m for g in spec.exclusive_groups if p.name in g.members for m in g.members}
    return {e.target for e in p.excludes} | groups


def _mutual(spec: ir.Spec) -> list[Finding]:
    """Pairs of fans each excluding the other, reported once, at the later one's 不计."""
    excludes = {(p.name, e.target): e.span for p in spec.patterns for e in p.excludes}
    return [Finding("mutual", f"{a} and {b} exclude each other: only the more valuable (or earlier) ever counts",
                    span) for (a, b), span in excludes.items()
            if (b, a) in excludes and spec.pattern(a).order > spec.pattern(b).order]


def _dead_options(spec: ir.Spec, interpreter: Interpreter, cases: list[dict]) -> list[Finding]:
    """Options with other values to try (not a text) none of which changes a result."""
    tried = [o for o in spec.options if list(_other_values(o.default))]
    return [Finding("dead-option", f"option {o.name} changes no result of {len(cases)} sampled hands under any of "
                    f"{', '.join(map(str, _other_values(o.default)))}", o.span)
            for o in tried if not any(_changes(interpreter, c, o) for c in cases)]


def _changes(interpreter: Interpreter, case: dict, option: ir.Option) -> bool:
    """Whether a valid value of the option other than its default scores the case differently."""
    usual = interpreter.evaluate(_with_option(case, option.name, option.default))
    for value in _other_values(option.default):
        other = interpreter.evaluate(_with_option(case, option.name, value))
        if other.get("ok") and other != usual:
            return True
    return False


def _with_option(case: dict, name: str, value: object) -> dict:
    """The case with the option set, over the case's own setting of it."""
    return {**case, "options": {**case.get("options", {}), name: value}}


def _other_values(default: object) -> Iterator[object]:
    if isinstance(default, bool):
        yield not default
    elif isinstance(default, int):
        yield from sorted(Counter([0, 1, 2, default + 1, default * 2]).keys() - {default})
