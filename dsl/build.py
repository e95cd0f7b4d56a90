"""`mjdsl build`: every generated file of the bundled specs, written or compared (--check)."""

from __future__ import annotations

from pathlib import Path

from . import codegen, docs, ir
from .extensions import compile_modules
from .paths import GENERATED_DIR, bundled_specs
from .resolve import load_spec

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"


def generated_files(specs: list[ir.Spec]) -> dict[Path, str]:
    """Path -> exact content of every file the compiler generates for these specs."""
    files: dict[Path, str] = {}
    files.update(codegen.generate_all(specs, GENERATED_DIR))
    files.update(docs.render_all(specs, GENERATED_DIR / "docs"))
    return files


def stale_files(files: dict[Path, str]) -> list[Path]:
    """Generated files that are missing or differ from what a fresh build writes."""
    return [path for path, text in sorted(files.items())
            if not path.exists() or path.read_text(encoding="utf-8") != text]


def write_files(files: dict[Path, str]) -> list[Path]:
    changed = stale_files(files)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
    return changed


def compile_checkers(specs: list[ir.Spec], progress: bool = True) -> None:
    """Compile the shared runtime and the generated checkers of these specs in place, as dsl.runtime.core and
    dsl.generated.<variant> (what pip does); what is up to date is not rebuilt."""
    root = GENERATED_DIR.parent
    modules = {f"dsl.generated.{codegen.module_name(s)}": GENERATED_DIR / f"{codegen.module_name(s)}.pyx"
               for s in specs}
    modules["dsl.runtime.core"] = RUNTIME_DIR / "core.pyx"
    compile_modules(modules, root, root / "build" / "checkers", progress=progress,
                    packages={"dsl.generated": GENERATED_DIR, "dsl.runtime": RUNTIME_DIR})


def load_all(names: list[str] | None = None) -> list[ir.Spec]:
    return [load_spec(name) for name in (names or bundled_specs())]
