"""Presets -> IR: each named rule set's settings checked against the spec's options (the option exists, the value
is of its type, each set once), its parent preset found, no preset extending itself; and the options a worked
example or round takes from the preset it names, under its own `options`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dsl.frontend import ast, ir
from dsl.frontend.extends import Declarations
from dsl.frontend.source import error, suggest

Value = int | str | bool


def presets(d: Declarations) -> tuple[ir.Preset, ...]:
    return tuple(_preset(d, p) for p in d.presets.values())


def _preset(d: Declarations, decl: ast.Preset) -> ir.Preset:
    settings = _settings(d, decl, ())
    return ir.Preset(decl.name.text, decl.title, decl.english, decl.parent.text if decl.parent else None,
                     tuple((name, settings[name]) for name in d.options if name in settings), decl.sources,
                     decl.doc, decl.span)


def _settings(d: Declarations, decl: ast.Preset, chain: tuple[str, ...]) -> dict[str, Value]:
    """Every option the preset sets: its parent's settings, then its own on top."""
    inherited: dict[str, Value] = {}
    chain += (decl.name.text,)
    if decl.parent is not None:
        parent = _named(d, decl.parent)
        if parent.name.text in chain:
            through = " -> ".join(chain + (parent.name.text,))
            raise error(f"preset {parent.name.text!r} extends itself through {through}", decl.parent.span)
        inherited = _settings(d, parent, chain)
    own: dict[str, Value] = {}
    for setting in decl.settings:
        name, value = option_setting(d.options, setting.name, setting.value)
        if name in own:
            raise error(f"preset {decl.name.text!r} sets option {name!r} twice", setting.name.span)
        own[name] = value
    return inherited | own


def _named(d: Declarations, name: ast.Name) -> ast.Preset:
    preset = d.presets.get(name.text)
    if preset is None:
        raise error(f"unknown preset {name.text!r}", name.span, suggest(name.text, d.presets)
                    or _listing("presets", d.presets))
    return preset


def option_setting(options: Mapping[str, ast.Option], name: ast.Name, value: Value) -> tuple[str, Value]:
    """A checked `option value` pair: an option of the spec, given a value of its default's type."""
    option = options.get(name.text)
    if option is None:
        raise error(f"unknown option {name.text!r}", name.span, suggest(name.text, options)
                    or _listing("options", options))
    if type(value) is not type(option.default):
        raise error(f"option {name.text!r} takes a value like {option.default!r}, not {value!r}", name.span)
    return name.text, value


def example_options(d: Declarations, preset: ast.Name | None,
                    options: Iterable[tuple[ast.Name, Value]]) -> dict[str, Value]:
    """The options of a worked example or round: its preset's settings, then its own `options` line on top."""
    chosen = _settings(d, _named(d, preset), ()) if preset is not None else {}
    return chosen | dict(option_setting(d.options, name, value) for name, value in options)


def _listing(what: str, names: Iterable[str]) -> str:
    names = list(names)
    return f"the spec's {what}: {', '.join(names)}" if names else f"the spec has no {what}"
