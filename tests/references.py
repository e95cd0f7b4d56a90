"""What some tests compare against beyond the project, and why they skip, saying so, without it.

The reference data is not in the repository: it holds hands and calls taken from third-party sources (306
国标 hands scored by pymahjonggb 1.4.0, 336 scoring calls recorded from the `mahjong` package's own test
suite). The tests read it from the folder `shared/reference/` beside the repository (`../shared/reference`
seen from the checkout), or from the folder MJDSL_REFERENCE names. The independent engines are test extras.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType

import pytest

FOLDER = Path(os.environ.get("MJDSL_REFERENCE") or Path(__file__).resolve().parents[2] / "shared" / "reference")


def records(name: str) -> list[dict]:
    """The JSON lines of a reference file; none when it is missing (the tests then skip, see `missing`)."""
    path = FOLDER / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def missing(name: str) -> str:
    """Why the tests of a reference file skip: what is missing and how to get it."""
    return (f"reference data not found: {FOLDER / name}; it is kept outside the repository: put the shared "
            "reference folder at ../shared/reference beside the checkout, or set MJDSL_REFERENCE to the folder "
            "holding it")


def extra(module: str, package: str) -> ModuleType:
    """A module of a test extra (an independent engine, numpy), or a skip that says how to install it."""
    return pytest.importorskip(module, reason=f"{package} is not installed; it is a test extra: "
                                              "pip install -e '.[test]'")
