"""Rule options chosen for every case a checker scores: a spec's preset (a published rule set), then options given
by name, with each case's own `options` on top of both.

`chosen_options` checks the names and values once; `OptionsChecker` puts them under every case it is given, so
that the compiled checker and the interpreter, which take options per case, need no module per preset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dsl.cases.case import read_options
from dsl.cases.encoded import decode_all
from dsl.frontend import ir
from dsl.frontend.source import suggest
from dsl.notation import HandError


class OptionError(ValueError):
    """An unknown preset or option, or an option given a value of another type; the message names it and lists
    the valid ones."""


def chosen_options(spec: ir.Spec, preset: str | None = None,
                   options: Mapping[str, object] | None = None) -> dict[str, object]:
    """The options a preset sets, then `options` on top: the ones named, not the spec's defaults."""
    chosen: dict[str, object] = dict(_preset(spec, preset).settings) if preset is not None else {}
    if options is not None:
        if not isinstance(options, Mapping):
            raise OptionError(f"options are given by name, as a mapping such as {{'kiriage': True}}, not {options!r}")
        try:
            read_options(spec, options)
        except HandError as exc:
            raise OptionError(str(exc)) from None
        chosen |= options
    return chosen


def _preset(spec: ir.Spec, name: str) -> ir.Preset:
    preset = spec.preset(name)
    if preset is None:
        names = [p.name for p in spec.presets]
        hint = suggest(str(name), names)
        raise OptionError(f"unknown preset {name!r}" + (f" ({hint})" if hint else "")
                          + (f"; {spec.name} has: {', '.join(names)}" if names else f"; {spec.name} has none"))
    return preset


def with_options(case: object, options: Mapping[str, object]) -> object:
    """The case with `options` under its own; a case that is not an object, or whose options are not one, is left
    as it is for the case reader to refuse."""
    if not options or not isinstance(case, Mapping):
        return case
    own = case.get("options", {})
    if not isinstance(own, Mapping):
        return case
    return {**case, "options": {**options, **own}}


class OptionsChecker:
    """A checker (compiled or the interpreter) that scores every case under chosen options."""

    def __init__(self, checker: Any, spec: ir.Spec, options: Mapping[str, object]):
        self.checker = checker
        self.spec = spec
        self.options = dict(options)

    def __getattr__(self, name: str) -> Any:  # encoded_columns, fan_names, SPEC_HASH ...: the checker's own
        return getattr(self.checker, name)

    def evaluate(self, case: object) -> dict:
        return self.checker.evaluate(with_options(case, self.options))

    def evaluate_many(self, cases: Iterable[object]) -> list[dict]:
        return self.checker.evaluate_many([with_options(case, self.options) for case in list(cases)])

    def is_winning(self, case: object) -> bool:
        return self.checker.is_winning(with_options(case, self.options))

    def waits(self, case: object) -> list[str]:
        return self.checker.waits(with_options(case, self.options))

    def explain(self, case: object, why_not: Sequence[str] = ()) -> dict:
        return self.checker.explain(with_options(case, self.options), why_not)

    def score_many(self, cases: Iterable[object] | Mapping[str, Any]) -> Any:
        """Case dicts under the options; encoded cases, which carry no options, are decoded to their case dicts
        when the options differ from the spec's defaults (scored as evaluate scores them, not in the arrays'
        fast path), and scored as arrays when they do not."""
        if isinstance(cases, dict):
            defaults = {o.name: o.default for o in self.spec.options}
            if all(defaults[name] == value for name, value in self.options.items()):
                return self.checker.score_many(cases)
            cases = decode_all(self.spec, cases)
        return self.checker.score_many([with_options(case, self.options) for case in list(cases)])
