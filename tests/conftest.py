from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dsl.frontend.resolve import load_spec

TINY = """\
variant tiny "小麻将" "Tiny"
tiles:
    suit m 万 "Characters" 1..9 ×4
    suit p 筒 "Dots" 1..9 ×4
    honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"
tileset 幺九 "Terminals and honors" = rank 1 9 + 字
context self_drawn, kong_replacement
"""


@pytest.fixture
def write_spec(tmp_path: Path):
    """Write a spec file (dedented) and return its path; `tiny=True` prepends a small tile set."""

    def write(text: str, name: str = "test", tiny: bool = True) -> Path:
        path = tmp_path / f"{name}.mj"
        body = textwrap.dedent(text)
        path.write_text((TINY if tiny else "") + body, encoding="utf-8")
        return path

    return write


@pytest.fixture
def spec_of(write_spec):
    def make(text: str, **kwargs):
        return load_spec(str(write_spec(text, **kwargs)))

    return make
