"""mjdsl: mahjong rules as executable specs.

    >>> import dsl
    >>> checker = dsl.load("sichuan")
    >>> checker.evaluate({"hand": "123m456m789m11p23p", "win": "4p"})["fans"][0]["name"]
    '平胡'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from dsl.compiled.checkers import Checker
    from dsl.frontend.resolve import check, load_spec
    from dsl.frontend.source import SpecError
    from dsl.interp.interpreter import Interpreter
    from dsl.interp.rounds import RoundSettler

# Imported on first use, so that a compiled checker (dsl.generated.<variant>) imports none of the compiler.
_LAZY = {"Interpreter": "dsl.interp.interpreter", "check": "dsl.frontend.resolve", "load_spec": "dsl.frontend.resolve",
         "SpecError": "dsl.frontend.source"}

__version__ = "0.1.0"
__all__ = ["Interpreter", "SpecError", "check", "load", "load_spec", "settler"]


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'dsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def settler(name_or_path: str, preset: str | None = None, options: Mapping[str, object] | None = None
            ) -> RoundSettler:
    """Settles round records (whole hands of play) of a spec with its checker: `settler("sichuan").settle(record)`.
    `preset` and `options` choose rule options for every record, as `load` does; a record's own `options` win."""
    from dsl.cases.presets import chosen_options
    from dsl.compiled.checkers import checker_for
    from dsl.frontend.resolve import load_spec
    from dsl.interp.rounds import RoundSettler

    spec = load_spec(name_or_path)
    return RoundSettler(spec, checker_for(spec), chosen_options(spec, preset, options))


def load(name_or_path: str, preset: str | None = None, options: Mapping[str, object] | None = None) -> Checker:
    """The checker of a bundled spec name or a spec file path: its compiled module (dsl.generated.<variant>,
    or compiled on first use into the cache for any other spec file), or the interpreter, with a warning
    saying why, when there is none. Both answer evaluate, evaluate_many, score_many, is_winning and waits alike.

    `preset` names one of the spec's presets (a published rule set) and `options` gives options by name
    (`{"kiriage": True}`): every case is scored under the preset's options, then `options`, then the case's
    own `options`. An unknown preset or option raises dsl.cases.presets.OptionError naming the valid ones."""
    from dsl.cases.presets import OptionsChecker, chosen_options
    from dsl.compiled.checkers import checker_for  # imports the code generator: only when a checker is wanted
    from dsl.frontend.resolve import load_spec

    spec = load_spec(name_or_path)
    checker = checker_for(spec)
    if preset is None and options is None:
        return checker
    return OptionsChecker(checker, spec, chosen_options(spec, preset, options))
