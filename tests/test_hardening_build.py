"""`mjdsl build` and `mjdsl doc` for a spec of one's own write beside it (or into --out), never into the
project's generated/; building some bundled specs leaves the index and comparison pages alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsl import build
from dsl.cli import main
from dsl.paths import GENERATED_DIR

SHARED_PAGES = ("index.html", "compare.html", "compare.md")


def snapshot() -> dict[Path, bytes]:
    """Every generated source and page (not the compiled extensions, which the tests do not rebuild)."""
    return {p: p.read_bytes() for p in GENERATED_DIR.rglob("*") if p.suffix in (".pyx", ".py", ".md", ".html", ".svg")}


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """Record the checkers the command would compile, without spending a minute compiling them."""
    names: list[str] = []
    monkeypatch.setattr(build, "cached_module", lambda spec: names.append(f"cache:{spec.name}"))
    monkeypatch.setattr(build, "compile_modules", lambda modules, *args, **kwargs: names.extend(modules))
    return names


@pytest.fixture
def own_spec(tmp_path) -> Path:
    path = tmp_path / "house.mj"
    path.write_text('variant house "家" "House"\nextends sichuan\n', encoding="utf-8")
    return path


def test_building_a_spec_of_ones_own_writes_beside_it(own_spec, compiled, capsys):
    before = snapshot()
    assert main(["build", str(own_spec)]) == 0
    assert snapshot() == before
    folder = own_spec.parent
    assert {p.name for p in folder.iterdir()} == {"house.mj", "house.pyx", "house.md", "house.html",
                                                 "house-implementers.md", "house.exclusions.svg"}
    assert "SPEC_HASH" in (folder / "house.pyx").read_text(encoding="utf-8")
    assert compiled == ["dsl.runtime.core", "cache:house"]  # the runtime its checker cimports is kept up to date
    assert main(["build", str(own_spec), "--check"]) == 0  # what was written is what a build writes


def test_building_into_out(own_spec, compiled, tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(own_spec), "--out", str(out)]) == 0
    assert (out / "house.pyx").exists() and (out / "house.html").exists()
    assert not (own_spec.parent / "house.pyx").exists()


def test_doc_of_a_spec_of_ones_own_writes_beside_it(own_spec):
    before = snapshot()
    assert main(["doc", str(own_spec)]) == 0
    assert snapshot() == before
    assert (own_spec.parent / "house.md").exists() and not (own_spec.parent / "index.html").exists()


def test_building_some_bundled_specs_leaves_the_shared_pages(compiled):
    before = snapshot()
    assert main(["build", "sichuan"]) == 0
    assert snapshot() == before  # generated/ is up to date, and the index still lists every variant
    assert compiled == ["dsl.generated.sichuan", "dsl.runtime.core"]
    files = build.generated_files(build.load_all(["sichuan"]))
    assert not any(p.name in SHARED_PAGES for p in files)
    assert GENERATED_DIR / "sichuan.pyx" in files


def test_building_every_bundled_spec_writes_the_shared_pages():
    files = build.generated_files(build.load_all())
    assert {p.name for p in files if p.parent == GENERATED_DIR / "docs"} >= set(SHARED_PAGES)
