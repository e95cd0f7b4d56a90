"""IR -> readable Cython checker modules (generated/<variant>.pyx)."""

from __future__ import annotations

from pathlib import Path

from . import ir


def generate_all(specs: list[ir.Spec], out_dir: Path) -> dict[Path, str]:
    return {}
