"""IR -> the rule reference: Markdown and HTML books, an index and a variant comparison."""

from __future__ import annotations

from pathlib import Path

from . import ir


def render_all(specs: list[ir.Spec], out_dir: Path) -> dict[Path, str]:
    return {}
