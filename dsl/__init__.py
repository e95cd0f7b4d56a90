"""mjdsl: mahjong rules as executable specs.

    >>> import dsl
    >>> checker = dsl.load("sichuan")
    >>> checker.evaluate({"hand": "123m456m789m11p23p", "win": "4p"})["fans"][0]["name"]
    '平胡'
"""

from __future__ import annotations

from .interpreter import Interpreter
from .resolve import check, load_spec
from .source import SpecError

__version__ = "0.1.0"
__all__ = ["Interpreter", "SpecError", "check", "load", "load_spec"]


def load(name_or_path: str) -> Interpreter:
    """The checker of a bundled spec name or a spec file path."""
    return Interpreter(load_spec(name_or_path))
