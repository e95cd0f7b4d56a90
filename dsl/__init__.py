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


def settler(name_or_path: str) -> RoundSettler:
    """Settles round records (whole hands of play) of a spec with its checker: `settler("sichuan").settle(record)`."""
    from dsl.frontend.resolve import load_spec
    from dsl.interp.rounds import RoundSettler

    return RoundSettler(load_spec(name_or_path), load(name_or_path))


def load(name_or_path: str) -> Checker:
    """The checker of a bundled spec name or a spec file path: its compiled module (dsl.generated.<variant>,
    or compiled on first use into the cache for any other spec file), or the interpreter, with a warning
    saying why, when there is none. Both answer evaluate, evaluate_many, score_many, is_winning and waits alike."""
    from dsl.compiled.checkers import checker_for  # imports the code generator: only when a checker is wanted
    from dsl.frontend.resolve import load_spec

    return checker_for(load_spec(name_or_path))
