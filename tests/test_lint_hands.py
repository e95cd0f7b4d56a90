"""`mjdsl lint`: each kind of finding at the line of the fan, 不计 or option it is about; annotations silence them;
the bundled specs lint clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl.cli import main
from dsl.frontend.resolve import load_spec
from dsl.lint_hands import lint
from dsl.paths import bundled_specs

HANDS = 500  # enough for each fan below that can count to count in more than lint_hands.EVIDENCE hands

# Each fan is built to be found by one check; why, beside it:
SPEC = """\
option 加倍 "Doubles nothing" = false
fan 三门 "Three suits" 8: suits == 3
fan 清一色 "Full flush" 6: suits == 1 and not any(tiles, honor)
fan 混一色 "Half flush" 3: suits == 1
fan 自摸 "Self-drawn" 1: self_drawn
    不计 杠上开花
fan 杠上开花 "Win on a kong replacement" 2: kong_replacement and not self_drawn and self_drawn
fan 门清 "Concealed" 1: count(groups, declared) == 0
    不计 碰碰
fan 碰碰 "All pungs" 2: count(chows) == 0
    不计 门清
"""
# 加倍 is read by nothing: dead. The tiles have two suits (万 筒), so 三门 never holds, nor 杠上开花 (self_drawn and
# not self_drawn). A hand of one suit without honors also has one suit: 清一色 always comes with 混一色, and does
# not exclude it. 杠上开花 never holds, so 自摸's 不计 never fires. 门清 and 碰碰 exclude each other; when both hold,
# 碰碰 (worth more) drops 门清, so where 门清 counts 碰碰 never holds: its 不计 never fires either.
# (the line's start, the word the finding points at, its kind)
EXPECTED = [("option 加倍", "option", "dead-option"), ("fan 三门", "三门", "unreachable"),
            ("fan 清一色", "清一色", "implied"), ("不计 杠上开花", "杠上开花", "never-fires"),
            ("fan 杠上开花", "杠上开花", "unreachable"), ("不计 碰碰", "碰碰", "never-fires"),
            ("不计 门清", "门清", "mutual")]


def position(path: Path, start: str, word: str) -> tuple[int, int]:
    """Line and column of `word` on the line that starts with `start`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(start):
            return number, line.index(word) + 1
    raise AssertionError(start)


def test_each_kind_is_reported_at_its_line(write_spec):
    path = write_spec(SPEC)
    found = [(d.span.line, d.span.column, d.message.rsplit("[", 1)[1].rstrip("]")) for d in
             lint(load_spec(str(path)), HANDS)]
    expected = [(*position(path, start, word), kind) for start, word, kind in EXPECTED]
    assert sorted(found) == sorted(expected)


def test_messages_say_how_many_hands_were_tried(write_spec):
    messages = [d.message for d in lint(load_spec(str(write_spec(SPEC))), HANDS)]
    assert f"fan '三门' counted in none of {HANDS} hands (0 examples, {HANDS} random) [unreachable]" in messages


def test_an_annotation_silences_its_kind_on_its_line_only(write_spec):
    annotated = SPEC.replace('= false', '= false  # lint: allow dead-option kept for the next version')
    annotated = annotated.replace("suits == 3", "suits == 3  # lint: allow implied wrong kind, not silenced")
    kinds = {d.message.rsplit("[", 1)[1] for d in lint(load_spec(str(write_spec(annotated))), HANDS)}
    assert "dead-option]" not in kinds and "unreachable]" in kinds


def test_the_command_prints_file_line_col_and_fails_on_a_finding(write_spec, capsys):
    path = write_spec(SPEC)
    assert main(["lint", "--hands", str(HANDS), str(path)]) == 1
    line, column = position(path, "fan 三门", "三门")
    assert f"{path}:{line}:{column}: warning: fan '三门'" in capsys.readouterr().out


@pytest.mark.parametrize("spec", [str(p) for p in bundled_specs()])
def test_the_bundled_specs_lint_clean(spec):
    assert [d.render() for d in lint(load_spec(spec))] == []
