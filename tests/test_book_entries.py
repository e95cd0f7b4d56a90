"""The entries of the generated rule books (generated/docs/*.md) read as a referee reads them: each fan's card, the
worked examples under it, the tiles, the comparison of the variants. Expected texts come from the rule books the
specs are written from, not from the generator."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dsl.frontend.resolve import load_spec
from dsl.paths import GENERATED_DIR

DOCS = GENERATED_DIR / "docs"


@cache
def book(name: str) -> str:
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def section(name: str, anchor: str) -> str:
    """The part of a book under the heading with this anchor, up to the next heading of any level."""
    page = book(name)
    rest = page[page.index(f'<a id="{anchor}"></a>'):]
    heading_end = rest.index("\n")
    following = re.search(r"^#{2,3} ", rest[heading_end:], re.M)
    return rest if following is None else rest[: heading_end + following.start()]


def card(name: str, fan: str) -> str:
    return section(name, f"fan-{fan}")


def example_number(name: str, title: str) -> int:
    titles = [e.title for e in load_spec(name).examples]
    return titles.index(title) + 1


# ---------------------------------------------------------------- comments explain the example below them


def test_a_comment_above_an_example_explains_that_example(spec_of):
    spec = spec_of('''
        example "first":
            hand 123m 456m 789m 11p 2p
            win 2p
            # inside the first block
            expect total 0

        # above the second, no blank line between
        example "second":
            hand 123m 456m 789m 11p 2p
            win 2p
            expect total 0
            # the second's last line

        # a heading of what follows, a blank line below it

        example "third":
            hand 123m 456m 789m 11p 2p
            win 2p
            expect total 0
        ''')
    comments = [e.comments for e in spec.examples]
    assert comments == ["inside the first block", "above the second, no blank line between the second's last line",
                        None]


def test_mcr_example_67_carries_its_own_explanation():
    # Example 67 is the 白-pair hand written with its explanation above it; example 66 (a chow of honors) is
    # explained by one line of its own.
    sixty_six = section("mcr", "example-66")
    sixty_seven = section("mcr", "example-67")
    assert "A chow of honors" in sixty_six and "Honors make no chows." in sixty_six
    assert "三色双龙会 needs a pair of fives" not in sixty_six
    assert "三色双龙会 needs a pair of fives" in sixty_seven


@pytest.mark.parametrize("name", ["mcr", "riichi", "competition"])
def test_no_section_heading_of_the_spec_is_printed_as_an_example_explanation(name):
    # The specs head their example sections `# ---- 88`, `# -------- yakuman`: a line of dashes and a label.
    assert not re.search(r"-{4,} \S", book(name).split("## 例 · Worked examples")[1])
