"""Compile generated checker modules (.pyx) into extension modules: Cython, then the C compiler.

Every checker cimports the shared runtime dsl.runtime.core (dsl/runtime/core.pxd); it is compiled once
with the bundled checkers, and found by later builds next to the installed package.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


class BuildError(Exception):
    """Cython or the C compiler failed, or is missing."""


def compile_modules(modules: dict[str, Path], out_dir: Path, temp_dir: Path,
                    packages: dict[str, Path] | None = None, progress: bool = False) -> None:
    """Build each `module name -> .pyx` into out_dir, or with `packages` (package -> its directory) in place
    in those directories, as `pip install -e` does. A module whose extension is there, built from the same
    content, is not rebuilt (dsl.compiled.incremental); with progress, each step is reported on stderr."""
    try:
        from setuptools import Distribution, Extension

        from dsl.compiled.incremental import ContentBuild
    except ImportError as exc:  # pragma: no cover - both are dependencies of mjdsl
        raise BuildError(f"cannot compile checkers: {exc}") from exc
    extensions = [Extension(name, [str(pyx)]) for name, pyx in sorted(modules.items())]
    started = time.perf_counter()
    try:
        dist = Distribution({"name": "mjdsl-checkers", "ext_modules": extensions,
                             "cmdclass": {"build_ext": ContentBuild},
                             "package_dir": {name: str(path) for name, path in (packages or {}).items()}})
        build = dist.get_command_obj("build_ext")
        build.inplace = bool(packages)
        build.build_lib = str(temp_dir / "lib" if packages else out_dir)
        build.build_temp = str(temp_dir)
        build.parallel = _jobs(len(extensions))
        build.quiet = not progress
        dist.run_command("build_ext")
    except (Exception, SystemExit) as exc:  # setuptools reports compiler failures as SystemExit
        raise BuildError(f"compiling {', '.join(sorted(modules))} failed: {exc}") from exc
    if progress:
        _report("done", started)


def _report(step: str, started: float) -> None:
    print(f"[{time.perf_counter() - started:5.1f}s] {step}", file=sys.stderr, flush=True)


def _jobs(count: int) -> int:
    return max(1, min(count, os.cpu_count() or 1))
