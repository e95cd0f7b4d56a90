"""Compiled once: an extension is rebuilt when its .pyx, the runtime contract core.pxd or the Cython version
changes, and only then, whatever the timestamps say (dsl.compiled.incremental). The module compiled here is
a one-line .pyx in a package of the test's own, built in place as `pip install -e` and `mjdsl build` build."""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

import Cython
import pytest

from dsl.compiled import incremental
from dsl.compiled.extensions import compile_modules

SOURCE = "def answer():\n    return 42\n"
RUNTIME_PXD = incremental.RUNTIME_PXD  # the fixture hands the hash a copy


@pytest.fixture
def package(tmp_path, monkeypatch) -> Path:
    """A package `pkg` holding mod.pyx, and a copy of the runtime contract the hash reads."""
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "mod.pyx").write_text(SOURCE, encoding="utf-8")
    contract = tmp_path / "core.pxd"
    contract.write_bytes(RUNTIME_PXD.read_bytes())
    monkeypatch.setattr(incremental, "RUNTIME_PXD", contract)
    return folder


def build(folder: Path, capsys) -> str:
    """Build pkg.mod in place; what the build said about it."""
    capsys.readouterr()
    compile_modules({"pkg.mod": folder / "mod.pyx"}, folder.parent, folder.parent / "build",
                    packages={"pkg": folder})
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("mjdsl:")]
    assert len(said) == 1
    return said[0]


def extension(folder: Path) -> Path:
    return folder / ("mod" + sysconfig.get_config_var("EXT_SUFFIX"))


def test_the_hash_follows_the_source_the_contract_and_cython(package, monkeypatch):
    pyx = package / "mod.pyx"
    first = incremental.content_hash(pyx)
    assert incremental.content_hash(pyx) == first
    pyx.write_text(SOURCE + "# a comment\n", encoding="utf-8")
    changed_source = incremental.content_hash(pyx)
    pyx.write_text(SOURCE, encoding="utf-8")
    os.utime(pyx, (0, 0))  # an older file of the same content: the same hash
    assert incremental.content_hash(pyx) == first
    incremental.RUNTIME_PXD.write_text(RUNTIME_PXD.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    changed_contract = incremental.content_hash(pyx)
    monkeypatch.setattr(Cython, "__version__", Cython.__version__ + ".post1")
    changed_cython = incremental.content_hash(pyx)
    assert len({first, changed_source, changed_contract, changed_cython}) == 4


def test_a_module_is_compiled_when_its_content_changes_and_only_then(package, capsys):
    assert build(package, capsys).startswith("mjdsl: compiling pkg.mod (content hash ")
    built = extension(package)
    stamp = built.with_name(built.name + incremental.STAMP_SUFFIX)
    assert stamp.read_text(encoding="ascii") == incremental.content_hash(package / "mod.pyx")
    made = built.stat().st_ino, built.stat().st_mtime_ns
    # Everything it is made from newer than the extension, as in pip's fresh isolated environment: the same
    # content, so nothing is compiled and the extension is left as it is.
    for path in (package / "mod.pyx", incremental.RUNTIME_PXD):
        os.utime(path, (built.stat().st_mtime + 3600,) * 2)
    said = build(package, capsys)
    assert said == f"mjdsl: pkg.mod is up to date (content hash {stamp.read_text(encoding='ascii')[:12]}), not compiled"
    assert (built.stat().st_ino, built.stat().st_mtime_ns) == made
    # The runtime contract changes: compiled again.
    incremental.RUNTIME_PXD.write_text(RUNTIME_PXD.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert build(package, capsys).startswith("mjdsl: compiling pkg.mod")
    assert build(package, capsys).startswith("mjdsl: pkg.mod is up to date")
    # The source changes, or the extension is gone: compiled again.
    (package / "mod.pyx").write_text(SOURCE.replace("42", "43"), encoding="utf-8")
    assert build(package, capsys).startswith("mjdsl: compiling pkg.mod")
    built.unlink()
    assert build(package, capsys).startswith("mjdsl: compiling pkg.mod")
    assert built.exists()


def test_a_stamp_from_other_content_does_not_count(package, capsys):
    build(package, capsys)
    built = extension(package)
    built.with_name(built.name + incremental.STAMP_SUFFIX).write_text("0" * 64, encoding="ascii")
    assert build(package, capsys).startswith("mjdsl: compiling pkg.mod")
