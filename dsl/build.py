"""`mjdsl build`: every generated file of the bundled specs, written or compared (--check)."""

from __future__ import annotations

from pathlib import Path

from . import codegen, docs, ir
from .extensions import compile_modules
from .paths import GENERATED_DIR, bundled_specs
from .resolve import load_spec

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"


def generated_files(specs: list[ir.Spec]) -> dict[Path, str | None]:
    """Path -> exact content of every file the compiler generates for these specs; None for the checker
    of a spec the compiled checker cannot read yet (the interpreter answers for it): it must not exist."""
    files: dict[Path, str | None] = {GENERATED_DIR / "__init__.py": codegen.PACKAGE_INIT}
    left = interpreted(specs)
    for spec in specs:
        files[checker_path(spec)] = None if spec.name in left else codegen.generate(spec)
    files.update(docs.render_all(specs, GENERATED_DIR / "docs"))
    return files


def checker_path(spec: ir.Spec) -> Path:
    return GENERATED_DIR / f"{codegen.module_name(spec)}.pyx"


def interpreted(specs: list[ir.Spec]) -> dict[str, str]:
    """By spec name, why the compiled checker cannot read a spec yet (a feature it does not compile)."""
    reasons = {}
    for spec in specs:
        try:
            codegen.generate(spec)
        except codegen.CodegenError as exc:
            reasons[spec.name] = str(exc)
    return reasons


def stale_files(files: dict[Path, str | None]) -> list[Path]:
    """Generated files that are missing, differ from what a fresh build writes, or must not exist."""
    return [path for path, text in sorted(files.items())
            if (text is None and path.exists())
            or (text is not None and (not path.exists() or path.read_text(encoding="utf-8") != text))]


def write_files(files: dict[Path, str | None]) -> list[Path]:
    changed = stale_files(files)
    for path in changed:
        text = files[path]
        if text is None:  # with its C source and module, else the old checker would still be imported
            for built in [path, *path.parent.glob(f"{path.stem}.c"), *path.parent.glob(f"{path.stem}.*.so"),
                          *path.parent.glob(f"{path.stem}.*.pyd")]:
                built.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return changed


def compile_checkers(specs: list[ir.Spec], progress: bool = True) -> None:
    """Compile the shared runtime and the generated checkers of these specs in place, as dsl.runtime.core and
    dsl.generated.<variant> (what pip does); what is up to date is not rebuilt, what is interpreted is left."""
    root = GENERATED_DIR.parent
    left = interpreted(specs)
    modules = {f"dsl.generated.{codegen.module_name(s)}": checker_path(s) for s in specs if s.name not in left}
    modules["dsl.runtime.core"] = RUNTIME_DIR / "core.pyx"
    compile_modules(modules, root, root / "build" / "checkers", progress=progress,
                    packages={"dsl.generated": GENERATED_DIR, "dsl.runtime": RUNTIME_DIR})


def load_all(names: list[str] | None = None) -> list[ir.Spec]:
    return [load_spec(name) for name in (names or bundled_specs())]
