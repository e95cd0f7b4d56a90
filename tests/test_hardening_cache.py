"""An unusable checker cache: dsl.load falls back to the interpreter with a warning, never a crash."""

from __future__ import annotations

import pytest

import dsl
from dsl.compiled.checkers import cache_dir
from dsl.interp.interpreter import Interpreter

CASE = {"hand": "123m456m789m11p23p", "win": "4p", "seat_wind": "S"}


@pytest.fixture
def user_spec(tmp_path):
    """A spec of one's own (not bundled), so that its checker would be compiled into the cache."""
    path = tmp_path / "house.mj"
    path.write_text('variant house "家" "House"\nextends sichuan\n', encoding="utf-8")
    return str(path)


@pytest.fixture
def a_file(tmp_path):
    path = tmp_path / "plain-file"
    path.write_text("not a directory", encoding="utf-8")
    return path


def test_cache_under_a_file_falls_back_to_the_interpreter(monkeypatch, user_spec, a_file):
    monkeypatch.setenv("MJDSL_CACHE", str(a_file / "cache"))  # no directory can be made inside a file
    with pytest.warns(UserWarning, match="using the interpreter: cannot use the checker cache"):
        checker = dsl.load(user_spec)
    assert isinstance(checker, Interpreter)
    # 平胡 on a discard: the S seat (1) is paid 1 by seat 0, as the bundled sichuan says
    assert checker.evaluate(CASE)["payments"] == [-1, 1, 0, 0]


def test_unusable_home_falls_back_to_the_interpreter(monkeypatch, user_spec, a_file):
    monkeypatch.delenv("MJDSL_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(a_file))  # ~/.cache/mjdsl would be inside a file
    with pytest.warns(UserWarning, match="set MJDSL_CACHE to a writable directory"):
        checker = dsl.load(user_spec)
    assert isinstance(checker, Interpreter)


def test_the_test_run_compiles_into_a_folder_of_its_own(checker_cache, tmp_path_factory):
    assert cache_dir() == checker_cache and checker_cache.is_relative_to(tmp_path_factory.getbasetemp())
