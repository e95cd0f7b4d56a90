"""Comparing the compiled checkers with the interpreter: what each answers to a case, and where they differ."""

from __future__ import annotations

import json
import textwrap
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

import dsl
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter

CALLS = ("evaluate", "waits")


def answer(function: Callable[[object], object], case: object) -> str:
    """What a call returns or raises, as text to compare."""
    try:
        return json.dumps(function(case), ensure_ascii=False)
    except Exception as exc:  # noqa: BLE001 - the exception itself is what is compared
        return f"raises {type(exc).__name__}: {exc}"


def disagreements(compiled: object, interpreter: Interpreter, cases: Iterable[object],
                  calls: tuple[str, ...] = CALLS) -> list[tuple[str, object, str, str]]:
    """(call, case, the interpreter's answer, the compiled checker's) wherever the two answer a call differently:
    one accepts what the other refuses, or both refuse in other words."""
    differ = []
    for case in cases:
        for call in calls:
            expected, got = answer(getattr(interpreter, call), case), answer(getattr(compiled, call), case)
            if expected != got:
                differ.append((call, case, expected, got))
    return differ


def compile_text(text: str, folder: Path) -> tuple[object, Interpreter]:
    """(compiled checker, interpreter) of a spec text written into folder and compiled into its cache; falling
    back to the interpreter is a failure."""
    path = folder / f"{text.split()[1]}.mj"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings():
        patch.setenv("MJDSL_CACHE", str(folder / "cache"))
        warnings.simplefilter("error")
        compiled = dsl.load(str(path))
    assert not isinstance(compiled, Interpreter)
    return compiled, Interpreter(load_spec(str(path)))
