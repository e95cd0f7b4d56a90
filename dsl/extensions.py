"""Compile generated checker modules (.pyx) into extension modules: Cython, then the C compiler."""

from __future__ import annotations

import os
from pathlib import Path


class BuildError(Exception):
    """Cython or the C compiler failed, or is missing."""


def compile_modules(modules: dict[str, Path], out_dir: Path, temp_dir: Path, package: str | None = None) -> None:
    """Build each `name -> .pyx` into out_dir, as `package.name` when a package is given.

    Files that are up to date are not rebuilt (Cython and setuptools compare timestamps).
    """
    if not modules:
        return
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as exc:  # pragma: no cover - both are dependencies of mjdsl
        raise BuildError(f"cannot compile checkers: {exc}") from exc
    prefix = f"{package}." if package else ""
    extensions = [Extension(prefix + name, [str(pyx)]) for name, pyx in sorted(modules.items())]
    try:
        compiled = cythonize(extensions, language_level=3, quiet=True, nthreads=_jobs(len(extensions)))
        dist = Distribution({"name": "mjdsl-checkers", "ext_modules": compiled,
                             "package_dir": {package: str(out_dir)} if package else {}})
        build = dist.get_command_obj("build_ext")
        build.inplace = bool(package)  # into the package's directory, as `pip install -e` does
        build.build_lib = str(temp_dir / "lib" if package else out_dir)
        build.build_temp = str(temp_dir)
        build.parallel = _jobs(len(extensions))
        dist.run_command("build_ext")
    except (Exception, SystemExit) as exc:  # setuptools reports compiler failures as SystemExit
        raise BuildError(f"compiling {', '.join(sorted(modules))} failed: {exc}") from exc


def _jobs(count: int) -> int:
    return max(1, min(count, os.cpu_count() or 1))
