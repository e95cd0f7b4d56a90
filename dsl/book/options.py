"""The options of a rule book and the presets that set them: one row per option with its value under each preset,
and each preset's differences from the spec's defaults, where it is published and what it extends."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.frontend import ir
from dsl.frontend.formula import formula


@dataclass(frozen=True)
class OptionRow:
    option: ir.Option
    default: str  # as a spec writes it: true, 0, a word
    values: tuple[tuple[str, bool], ...]  # under each preset in turn: the value, and whether it is not the default

    @property
    def switch(self) -> bool:
        """An option that is on or off, which the book says in words."""
        return isinstance(self.option.default, bool)


@dataclass(frozen=True)
class PresetEntry:
    preset: ir.Preset
    differences: tuple[str, ...]  # "kiriage true (default false)", in the order of the spec's options

    @property
    def anchor(self) -> str:
        return f"preset-{self.preset.name}"


def option_rows(spec: ir.Spec) -> tuple[OptionRow, ...]:
    return tuple(OptionRow(o, written(o.default), tuple(_value(o, p) for p in spec.presets)) for o in spec.options)


def _value(option: ir.Option, preset: ir.Preset) -> tuple[str, bool]:
    value = dict(preset.settings).get(option.name, option.default)
    return written(value), value != option.default


def preset_entries(spec: ir.Spec) -> tuple[PresetEntry, ...]:
    defaults = {o.name: o.default for o in spec.options}
    return tuple(PresetEntry(p, tuple(f"{name} {written(value)} (default {written(defaults[name])})"
                                      for name, value in p.settings if value != defaults[name]))
                 for p in spec.presets)


def written(value: int | str | bool) -> str:
    """An option's value as a spec writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_value_text(expr: ir.Expr) -> str | None:
    """A fan's value that only options change, with each alternative: `8 if 大三元八番, else 13`, `bonus * 3`;
    None for a value the hand decides."""
    if not _options_only(expr):
        return None
    alternatives = []
    while isinstance(expr, ir.Conditional):
        alternatives.append(f"{formula(expr.then)} if {formula(expr.condition)}")
        expr = expr.otherwise
    return ", ".join([*alternatives, f"else {formula(expr)}"]) if alternatives else formula(expr)


def _options_only(expr: ir.Expr) -> bool:
    """Made of options, numbers and the operators between them alone."""
    return all(isinstance(node, ir.Const | ir.Binary | ir.Not | ir.Negate | ir.Conditional | ir.Call)
               or (isinstance(node, ir.Var) and node.scope == "option") for node in ir.walk(expr))
