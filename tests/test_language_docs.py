"""What a new author reads: example comments in books, the case format in the repository, the set-up
notes, and the guide's sketch of a variant of its own (it must check and score as written)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SEASONS, tiles

from dsl.frontend.examples import example_comments
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import SPECS_DIR

ROOT = SPECS_DIR.parent


def test_example_comments_skip_strings_and_rules():
    lines = (
        'example "a # in a title is text":',
        '    doc "so is # this"',
        "    hand 123m  # after a line",
        "    # ------------------------------",
        "    # 123万: one chow,",
        "    # worked out.",
        '    doc """a long string',
        "    # still the string",
        '    """',
    )
    assert example_comments(lines) == "after a line 123万: one chow, worked out."
    assert example_comments(('example "none":', "    hand 1m")) is None


def test_a_section_heading_of_the_spec_is_no_example_comment():
    lines = ('example "a chow":', "    hand 123m", "    # 123万: one chow.", "", "# ---- 64 fan", "# ==== rounds")
    assert example_comments(lines) == "123万: one chow."


def test_a_bundled_book_prints_the_comment_under_its_example():
    spec = load_spec("mcr")
    example = next(e for e in spec.examples if e.title == "大四喜 with 混一色 and four flowers")
    assert example.comments is not None and example.comments.startswith("东 南 西 claimed, 北北北 completed")
    book = (ROOT / "generated" / "docs" / "mcr.md").read_text(encoding="utf-8")
    assert example.comments in book  # mjdsl build --check keeps the committed book fresh


def test_a_worked_round_keeps_its_comments_for_the_book():
    spec = load_spec("sichuan")
    commented = [r for r in spec.round_examples if r.comments]
    assert commented, "sichuan's worked rounds explain their payments in comments"
    book = (ROOT / "generated" / "docs" / "sichuan.md").read_text(encoding="utf-8")
    assert all(r.comments in book for r in commented)


def test_the_case_format_is_in_the_repository_and_every_reference_points_there():
    interface = (ROOT / "docs" / "interface.md").read_text(encoding="utf-8")
    for topic in ("## A case", "## A result", "`paid`", "int LOW..HIGH", '"ok": false'):
        assert topic in interface
    cited = [ROOT / "README.md", ROOT / "grammar" / "README.md", ROOT / "specs" / "README.md",
             *sorted(p for p in (ROOT / "dsl").rglob("*") if p.suffix in (".py", ".pyx", ".pxd"))]
    for path in cited:
        text = path.read_text(encoding="utf-8")
        assert "INTERFACE.md" not in text, path
    assert "docs/interface.md" in (ROOT / "dsl" / "cli.py").read_text(encoding="utf-8")


def test_the_readme_says_what_installing_needs_and_how_long_the_tests_take():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme[readme.index("## Set up"):readme.index("## A tour")]
    assert "C compiler" in setup and "Python headers" in setup
    assert re.search(r"whole suite takes about \d+ minutes", setup)


FLOWER_TILES = 'variant own "自家" "A variant of its own"\n' + tiles("mps", SEASONS + ", 梅, 蘭, 竹, 菊") + """\
meld flower "Flower" = one of 花
"""


def test_the_guide_s_variant_of_its_own_checks_and_scores(tmp_path: Path):
    guide = (ROOT / "specs" / "README.md").read_text(encoding="utf-8")
    section = guide[guide.index("## 7. A variant of its own"):]
    sketch = re.search(r"```mj\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "own.mj"
    path.write_text(FLOWER_TILES + sketch, encoding="utf-8")
    checker = Interpreter(load_spec(str(path)))
    # All eight flowers laid aside and 16 loose tiles (17-tile hands): 八仙過海 8 台. The dealer is seat 0
    # and wins with 連莊 2: 拉莊 2 × 2 + 1 = 5. Total 13 台, under the cap; seat 3 discarded and pays 13.
    flowers = [f"flower {n}f" for n in range(1, 9)]
    result = checker.evaluate({"hand": "1m3m5m7m9m1p3p5p7p9p1s3s5s7s1z2z", "win": "3z", "melds": flowers,
                               "連莊": 2})
    names = {f["name"]: f["value"] * f["count"] for f in result["fans"]}
    assert names == {"八仙過海": 8, "拉莊": 5} and result["total"] == result["paid"] == 13
    assert result["payments"] == [13, 0, 0, -13]
