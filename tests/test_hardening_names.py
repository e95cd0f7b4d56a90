"""Which file a spec name means, and a spec's hash covering every file it is built from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dsl.cli import main
from dsl.frontend.resolve import check, load_spec
from dsl.paths import SPECS_DIR

IMPOSTOR = 'variant impostor "假" "Impostor"\nextends sichuan\n'


@pytest.fixture
def impostor_here(tmp_path, monkeypatch) -> Path:
    """A working directory holding files named like the bundled mcr: `mcr` and `mcr.mj`."""
    for name in ("mcr", "mcr.mj"):
        (tmp_path / name).write_text(IMPOSTOR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_bundled_name_means_the_bundled_spec_even_beside_a_file_of_that_name(impostor_here):
    spec = load_spec("mcr")
    assert spec.name == "mcr" and Path(spec.path).resolve() == (SPECS_DIR / "mcr.mj").resolve()


@pytest.mark.parametrize("path", ["./mcr", "mcr.mj"])
def test_a_path_means_the_file(impostor_here, path):
    assert load_spec(path).name == "impostor"


def test_extends_in_another_folder_is_not_swayed_by_the_working_directory(impostor_here, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "child.mj").write_text('variant child "子" "Child"\nextends mcr\n', encoding="utf-8")
    spec = load_spec(str(elsewhere / "child.mj"))
    assert spec.parent == "mcr" and len(spec.patterns) == len(load_spec(str(SPECS_DIR / "mcr.mj")).patterns)


def test_extends_a_bundled_name_beside_a_file_of_that_name_means_the_bundled_spec(impostor_here):
    # grammar/README.md: `extends NAME` looks for the bundled spec first, then NAME.mj beside the spec
    (impostor_here / "child.mj").write_text('variant child "子" "Child"\nextends mcr\n', encoding="utf-8")
    spec = load_spec("child.mj")
    assert "一色双龙会" in [p.name for p in spec.patterns]  # an MCR fan; the impostor's sichuan has none


def test_extends_a_name_no_bundled_spec_has_means_the_file_beside(tmp_path):
    (tmp_path / "house.mj").write_text('variant house "家" "House"\nextends sichuan\nplayers 3\n', encoding="utf-8")
    (tmp_path / "child.mj").write_text('variant child "子" "Child"\nextends house\n', encoding="utf-8")
    assert load_spec(str(tmp_path / "child.mj")).players == 3


def test_a_file_without_a_slash_or_suffix_gets_a_hint(tmp_path, monkeypatch):
    (tmp_path / "house").write_text(IMPOSTOR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    spec, diagnostics = check("house")
    assert spec is None and diagnostics[0].message == "no spec named 'house'"
    assert diagnostics[0].hint == "'house' is not a bundled spec; for the file, write ./house"


def test_mjdsl_score_uses_the_bundled_spec_beside_a_file_of_its_name(impostor_here, capsys):
    main(["score", "mcr", "--json", '{"hand": "123m456m789m11p23p", "win": "4p"}'])
    assert "清龙" in capsys.readouterr().out  # an MCR fan: the impostor (sichuan's rules) would say 平胡
    assert main(["check", "mcr"]) == 0
    assert "ok: mcr," in capsys.readouterr().out


def _copy_pair(directory: Path) -> tuple[Path, Path]:
    """house.mj (yangzhou) imports the tiles of lib.mj, a copy of mcr under another name."""
    lib = directory / "lib.mj"
    lib.write_text((SPECS_DIR / "mcr.mj").read_text(encoding="utf-8")
                   .replace("variant mcr ", "variant lib ", 1), encoding="utf-8")
    house = directory / "house.mj"
    shutil.copy(SPECS_DIR / "yangzhou.mj", house)
    house.write_text(house.read_text(encoding="utf-8").replace("import mcr", "import lib")
                     .replace("variant yangzhou ", "variant house ", 1), encoding="utf-8")
    return lib, house


def test_the_hash_covers_an_imported_spec(tmp_path):
    lib, house = _copy_pair(tmp_path)
    before = check(str(house))
    assert before[0] is not None, [d.render() for d in before[1]]
    lib.write_text(lib.read_text(encoding="utf-8") + "\n# a comment changes the file, so the hash\n",
                   encoding="utf-8")
    after = load_spec(str(house))
    assert after.source_hash != before[0].source_hash


def test_the_hash_covers_a_parent_and_the_parents_parent(tmp_path):
    (tmp_path / "house.mj").write_text('variant house "家" "House"\nextends sichuan\n', encoding="utf-8")
    (tmp_path / "child.mj").write_text('variant child "子" "Child"\nextends house\n', encoding="utf-8")
    before = load_spec(str(tmp_path / "child.mj")).source_hash
    (tmp_path / "house.mj").write_text('variant house "家" "House"\nextends sichuan\nplayers 4\n', encoding="utf-8")
    assert load_spec(str(tmp_path / "child.mj")).source_hash != before


def test_yangzhou_hash_changes_with_mcr(monkeypatch, tmp_path):
    """Editing the bundled mcr.mj must make yangzhou's compiled checker stale (it imports mcr's tiles)."""
    specs = tmp_path / "specs"
    shutil.copytree(SPECS_DIR, specs)
    monkeypatch.setattr("dsl.paths.SPECS_DIR", specs)
    before = load_spec("yangzhou").source_hash
    (specs / "mcr.mj").write_text((specs / "mcr.mj").read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert load_spec("yangzhou").source_hash != before
