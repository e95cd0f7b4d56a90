"""mjdsl: mahjong rules as executable specs.

    >>> import dsl
    >>> checker = dsl.load("sichuan")
    >>> checker.evaluate({"hand": "123m456m789m11p23p", "win": "4p"})["fans"][0]["name"]
    '平胡'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .interpreter import Interpreter
from .resolve import check, load_spec
from .source import SpecError

if TYPE_CHECKING:
    from .checkers import Checker
    from .rounds import RoundSettler

__version__ = "0.1.0"
__all__ = ["Interpreter", "SpecError", "check", "load", "load_spec", "settler"]


def settler(name_or_path: str) -> RoundSettler:
    """Settles round records (whole hands of play) of a spec with its checker: `settler("sichuan").settle(record)`."""
    from .rounds import RoundSettler

    return RoundSettler(load_spec(name_or_path), load(name_or_path))


def load(name_or_path: str) -> Checker:
    """The checker of a bundled spec name or a spec file path: its compiled module (dsl.generated.<variant>,
    or compiled on first use into the cache for any other spec file), or the interpreter, with a warning
    saying why, when there is none. Both answer evaluate, evaluate_many, is_winning and waits alike."""
    from .checkers import checker_for  # imports the code generator: only when a checker is wanted

    return checker_for(load_spec(name_or_path))
