"""`mjdsl build`: every generated file of the given specs, written or compared (--check).

A bundled spec builds into generated/ (the index and comparison pages only when every bundled spec is
built, since they are about all of them); a spec of one's own builds beside its file or into --out, and
its checker is compiled into the checker cache, where dsl.load finds it.
"""

from __future__ import annotations

from pathlib import Path

from dsl.book import render
from dsl.book.model import Book
from dsl.compiled import codegen
from dsl.compiled.checkers import cached_module
from dsl.compiled.extensions import compile_modules
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.paths import GENERATED_DIR, bundled_specs

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"


def generated_files(specs: list[ir.Spec], out: Path | None = None) -> dict[Path, str]:
    """Path -> exact content of every file the compiler generates for these specs."""
    bundled, own = _split(specs)
    files: dict[Path, str] = {}
    if bundled:
        files.update(codegen.generate_all(bundled, GENERATED_DIR))
        files.update(render.render_all(bundled, GENERATED_DIR / "docs", shared=_every_bundled(bundled)))
    for spec in own:
        folder = out or Path(spec.path).parent
        files[folder / f"{codegen.module_name(spec)}.pyx"] = codegen.generate(spec)
        files.update(render.render_all([spec], folder, shared=False))
    return files


def book_pages(books: list[Book], out: Path | None = None) -> dict[Path, str]:
    """The pages of `mjdsl doc`: all into `out` when given, else as `mjdsl build` places them."""
    if out is not None:
        return render.render_books(books, out)
    bundled = [b for b in books if codegen.is_bundled(b.spec)]
    files = render.render_books(bundled, GENERATED_DIR / "docs", _every_bundled([b.spec for b in bundled])) \
        if bundled else {}
    for b in books:
        if not codegen.is_bundled(b.spec):
            files.update(render.render_books([b], Path(b.spec.path).parent, shared=False))
    return files


def _split(specs: list[ir.Spec]) -> tuple[list[ir.Spec], list[ir.Spec]]:
    bundled = [s for s in specs if codegen.is_bundled(s)]
    return bundled, [s for s in specs if not codegen.is_bundled(s)]


def _every_bundled(specs: list[ir.Spec]) -> bool:
    return {s.name for s in specs} >= set(bundled_specs())


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
    """Compile the shared runtime and the checkers of bundled specs in place, as dsl.runtime.core and
    dsl.generated.<variant> (what pip does; what is up to date is not rebuilt), and those of other specs
    into the checker cache."""
    bundled, own = _split(specs)
    root = GENERATED_DIR.parent
    modules = {f"dsl.generated.{codegen.module_name(s)}": GENERATED_DIR / f"{codegen.module_name(s)}.pyx"
               for s in bundled}
    modules["dsl.runtime.core"] = RUNTIME_DIR / "core.pyx"
    compile_modules(modules, root, root / "build" / "checkers", progress=progress,
                    packages={"dsl.generated": GENERATED_DIR, "dsl.runtime": RUNTIME_DIR})
    for spec in own:
        cached_module(spec)


def load_all(names: list[str] | None = None) -> list[ir.Spec]:
    return [load_spec(name) for name in (names or bundled_specs())]
