"""Choosing a checker for a spec: its compiled module, or the interpreter when there is none.

Bundled specs are compiled by `pip install` and `mjdsl build` into dsl.generated.<variant>. Any other
spec file is compiled on first use into a cache directory ($MJDSL_CACHE, else ~/.cache/mjdsl), one
folder per spec hash holding one module per compiler version, so a changed spec or a new mjdsl never
loads a stale checker.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shutil
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from typing import Protocol

import Cython

from dsl import __version__
from dsl.cases.scores import Scores
from dsl.compiled import codegen
from dsl.compiled.extensions import BuildError, compile_modules
from dsl.frontend import ir
from dsl.interp.interpreter import Interpreter


class Checker(Protocol):
    """What the interpreter and every compiled module answer (docs/interface.md)."""

    def evaluate(self, case: dict) -> dict: ...

    def evaluate_many(self, cases) -> list[dict]: ...

    def is_winning(self, case: dict) -> bool: ...

    def waits(self, case: dict) -> list[str]: ...

    def score_many(self, cases) -> Scores: ...


def checker_for(spec: ir.Spec) -> Checker:
    """The compiled checker of a spec, or its interpreter with a warning saying why."""
    try:
        module = bundled_module(spec) if codegen.is_bundled(spec) else cached_module(spec)
    except (ImportError, BuildError, codegen.CodegenError) as exc:
        warnings.warn(f"{spec.name}: using the interpreter: {exc}", stacklevel=2)
        return Interpreter(spec)
    except (OSError, RuntimeError) as exc:  # an unwritable cache, or no home directory to put it in
        warnings.warn(f"{spec.name}: using the interpreter: cannot use the checker cache {_cache_shown()}: {exc} "
                      "(set MJDSL_CACHE to a writable directory)", stacklevel=2)
        return Interpreter(spec)
    if module.SPEC_HASH != spec.source_hash:
        warnings.warn(f"{spec.name}: using the interpreter: the compiled checker was built from another version "
                      f"of {spec.path} (run `mjdsl build`)", stacklevel=2)
        return Interpreter(spec)
    return module


def bundled_module(spec: ir.Spec) -> ModuleType:
    try:
        return importlib.import_module(f"dsl.generated.{codegen.module_name(spec)}")
    except ImportError as exc:
        codegen.generate(spec)  # a CodegenError says why there is no module: a feature not compiled yet
        raise ImportError(f"its compiled checker is not built ({exc}; run `pip install -e .` or `mjdsl build`)") \
            from exc


def _cache_shown() -> str:
    try:
        return str(cache_dir())
    except RuntimeError:
        return "(no home directory)"


def cache_dir() -> Path:
    return Path(os.environ.get("MJDSL_CACHE") or Path.home() / ".cache" / "mjdsl")


def cached_module(spec: ir.Spec) -> ModuleType:
    """The spec's checker from the cache, compiled there first if needed."""
    source = codegen.generate(spec)
    compiler = hashlib.sha256("\0".join([__version__, Cython.__version__, sys.implementation.cache_tag, source])
                              .encode()).hexdigest()[:12]
    name = f"checker_{compiler}"
    folder = cache_dir() / f"{codegen.module_name(spec)}-{spec.source_hash}"
    path = folder / (name + sysconfig.get_config_var("EXT_SUFFIX"))
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as work:
            pyx = Path(work) / f"{name}.pyx"
            pyx.write_text(source, encoding="utf-8")
            compile_modules({name: pyx}, Path(work), Path(work) / "build")
            shutil.move(str(Path(work) / path.name), path)  # whole or not at all, for a concurrent reader
    loader_spec = importlib.util.spec_from_file_location(name, path)
    assert loader_spec is not None and loader_spec.loader is not None
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    return module

