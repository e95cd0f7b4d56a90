"""`mjdsl new NAME --extends PARENT`: the scaffold checks and tests clean as written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from dsl.book.examples import run_examples
from dsl.cli import main
from dsl.frontend.resolve import check, load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import SPECS_DIR


def _new(tmp_path: Path, *args: str) -> int:
    return main(["new", *args, "--dir", str(tmp_path)])


def _clean(path: Path) -> None:
    spec, diagnostics = check(str(path))
    assert spec is not None and diagnostics == [], [d.render() for d in diagnostics]
    outcomes = run_examples(spec, Interpreter(spec))
    assert len(outcomes) == 2 and all(o.passed for o in outcomes), [o.render() for o in outcomes]


@pytest.mark.parametrize("parent", ["sichuan", "mcr", "gaoyou"])
def test_scaffold_extends_its_parent_and_passes(tmp_path, capsys, parent):
    assert _new(tmp_path, "mytown", "--extends", parent) == 0
    path = tmp_path / "mytown.mj"
    text = path.read_text(encoding="utf-8")
    assert "variant mytown " in text and f"\nextends {parent}\n" in text
    for template in ("# replace fan ", "#     不计 ", "# settle:", "# remove "):
        assert template in text
    assert text.count("\nexample ") == 2
    _clean(path)
    assert load_spec(str(path)).parent == parent
    assert f"wrote {path}" in capsys.readouterr().out


def test_parent_without_examples_gets_scored_hands(tmp_path):
    text = (SPECS_DIR / "sichuan.mj").read_text(encoding="utf-8")
    bare = text[:text.index("\nexample ")].replace("variant sichuan ", "variant bare ", 1)
    (tmp_path / "bare.mj").write_text(bare, encoding="utf-8")
    assert load_spec(str(tmp_path / "bare.mj")).examples == ()
    assert _new(tmp_path, "house", "--extends", str(tmp_path / "bare.mj")) == 0
    text = (tmp_path / "house.mj").read_text(encoding="utf-8")
    assert 'example "TODO: a hand on a discard"' in text and "win 9m, self_drawn" in text
    _clean(tmp_path / "house.mj")


def test_parent_given_as_a_file_beside_the_new_one(tmp_path):
    shutil.copy(SPECS_DIR / "sichuan.mj", tmp_path / "base.mj")
    (tmp_path / "base.mj").write_text(
        (tmp_path / "base.mj").read_text(encoding="utf-8").replace("variant sichuan ", "variant base ", 1),
        encoding="utf-8")
    assert _new(tmp_path, "child", "--extends", str(tmp_path / "base.mj")) == 0
    assert "\nextends base\n" in (tmp_path / "child.mj").read_text(encoding="utf-8")
    _clean(tmp_path / "child.mj")


def test_parent_elsewhere_is_refused(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(SPECS_DIR / "sichuan.mj", elsewhere / "base.mj")
    (elsewhere / "base.mj").write_text(
        (elsewhere / "base.mj").read_text(encoding="utf-8").replace("variant sichuan ", "variant base ", 1),
        encoding="utf-8")
    assert _new(tmp_path, "child", "--extends", str(elsewhere / "base.mj")) == 1
    assert "copy" in capsys.readouterr().err
    assert not (tmp_path / "child.mj").exists()


def test_existing_file_is_kept_unless_forced(tmp_path, capsys):
    (tmp_path / "mytown.mj").write_text("mine", encoding="utf-8")
    assert _new(tmp_path, "mytown", "--extends", "sichuan") == 1
    assert "exists" in capsys.readouterr().err
    assert (tmp_path / "mytown.mj").read_text(encoding="utf-8") == "mine"
    assert _new(tmp_path, "mytown", "--extends", "sichuan", "--force") == 0
    _clean(tmp_path / "mytown.mj")


def test_new_directory_is_created(tmp_path):
    assert _new(tmp_path / "rules" / "local", "mytown", "--extends", "sichuan") == 0
    _clean(tmp_path / "rules" / "local" / "mytown.mj")


@pytest.mark.parametrize(("name", "parent", "code", "fragment"), [
    ("9lives", "sichuan", 2, "not a variant name"),
    ("my-town", "sichuan", 2, "not a variant name"),
    ("mytown", "sichaun", 1, "no spec named 'sichaun'"),
])
def test_bad_arguments(tmp_path, capsys, name, parent, code, fragment):
    assert _new(tmp_path, name, "--extends", parent) == code
    assert fragment in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_without_extends_a_standalone_spec_checks_and_tests(tmp_path, capsys):
    assert _new(tmp_path, "mytown") == 0
    path = tmp_path / "mytown.mj"
    text = path.read_text(encoding="utf-8")
    assert "\nextends " not in text and "\ntiles:\n" in text and "\nsettle:\n" in text
    _clean(path)
    spec = load_spec(str(path))
    assert spec.parent is None and spec.name == "mytown"
    assert "a standalone spec" in capsys.readouterr().out


@pytest.mark.parametrize("title", [
    'Tri """ ple',  # would close the doc block early
    "Back \\\\ slash \\\\",  # a backslash, also last: a backslash before the end of a line cannot be read
    "Two\\nlines",
    '""" fan 假 "Fake" 99: self_drawn """',  # text that would become a fan if it left the doc block
])
def test_parent_title_is_pasted_safely(tmp_path, title):
    text = (SPECS_DIR / "sichuan.mj").read_text(encoding="utf-8")
    # the title is written as a one-line string with escapes, then read back: the parent checks
    variant = 'variant odd "' + title.replace('"', '\\"') + '" "Odd"'
    (tmp_path / "odd.mj").write_text(re.sub(r"^variant sichuan .*$", lambda _: variant, text, count=1, flags=re.M),
                                     encoding="utf-8")
    parent = load_spec(str(tmp_path / "odd.mj"))
    assert '"""' in parent.title or "\\" in parent.title or "\n" in parent.title
    assert _new(tmp_path, "child", "--extends", str(tmp_path / "odd.mj")) == 0
    child = load_spec(str(tmp_path / "child.mj"))
    assert [p.name for p in child.patterns] == [p.name for p in parent.patterns]  # no fan slipped in
    _clean(tmp_path / "child.mj")
