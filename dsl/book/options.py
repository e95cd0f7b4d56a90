"""The options of a rule book and the presets that set them: one row per option with its value under each preset,
and each preset's differences from the spec's defaults, where it is published and what it extends."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.frontend import ir


@dataclass(frozen=True)
class OptionRow:
    option: ir.Option
    default: str  # as a spec writes it: true, 0, a word
    values: tuple[tuple[str, bool], ...]  # under each preset in turn: the value, and whether it is not the default


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
