from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from dsl.frontend.resolve import load_spec

SUITS = {"m": 'suit m 万 "Characters" 1..9 ×4', "p": 'suit p 筒 "Dots" 1..9 ×4', "s": 'suit s 条 "Bamboo" 1..9 ×4'}
HONORS = 'honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"'
SEASONS = 'flowers f 花 "Flowers" ×1: 春 "Spring", 夏 "Summer", 秋 "Autumn", 冬 "Winter"'


def tiles(suits: str = "mp", *more: str) -> str:
    """The `tiles:` block test specs share: these numbered suits (of "mps"), the honors, then `more` lines
    (flowers, red fives)."""
    return "tiles:\n" + "".join(f"    {line}\n" for line in [*(SUITS[code] for code in suits), HONORS, *more])


TINY = 'variant tiny "小麻将" "Tiny"\n' + tiles() + """\
tileset 幺九 "Terminals and honors" = rank 1 9 + 字
context self_drawn, kong_replacement
"""


@pytest.fixture(autouse=True, scope="session")
def checker_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Checkers compiled for the tests' specs go to a folder of this test run, never to the user's ~/.cache."""
    folder = tmp_path_factory.mktemp("checker-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MJDSL_CACHE", str(folder))
        yield folder


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
