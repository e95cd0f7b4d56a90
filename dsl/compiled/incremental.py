"""Compiling only what changed, decided by content: the build command of setup.py and `mjdsl build`.

A compiled module is made from its .pyx, the runtime contract every module cimports
(dsl/runtime/core.pxd) and the Cython that translates them; their hash is written beside the extension
once it is built (`<extension file>.build-hash`). A later build skips an extension whose file is there
with that hash, and compiles the others. Timestamps cannot decide it: pip builds in a fresh isolated
environment, whose Cython (its libc/*.pxd included) is newer than any extension, so Cython and
setuptools would compile every module on every install.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import Cython
from Cython.Build import cythonize
from setuptools.command.build_ext import build_ext

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the directory holding dsl/: cimport dsl.runtime.core
RUNTIME_PXD = PACKAGE_ROOT / "dsl" / "runtime" / "core.pxd"
STAMP_SUFFIX = ".build-hash"


def content_hash(pyx: Path) -> str:
    """The hash of what the extension of a .pyx is made from."""
    digest = hashlib.sha256()
    for part in (pyx.read_bytes(), RUNTIME_PXD.read_bytes(), Cython.__version__.encode()):
        digest.update(len(part).to_bytes(8, "little"))  # lengths first: no two inputs hash alike by shifting bytes
        digest.update(part)
    return digest.hexdigest()


def is_current(built: Path, stamp: Path, digest: str) -> bool:
    """The extension is there, built from content of this hash."""
    return built.exists() and stamp.exists() and stamp.read_text(encoding="ascii") == digest


class ContentBuild(build_ext):
    """build_ext for extensions given by their .pyx: those whose content hash matches the stamp of their
    extension are skipped with a line saying so; the others are translated by Cython (every module at
    once, one per core) and compiled, and stamped."""

    quiet = False  # Cython's own report of each module it translates

    def run(self) -> None:
        digests = {ext.name: content_hash(Path(ext.sources[0])) for ext in self.extensions}
        stale = []
        for ext in self.extensions:
            digest = digests[ext.name]
            if is_current(self.built_path(ext.name), self.stamp_path(ext.name), digest):
                print(f"mjdsl: {ext.name} is up to date (content hash {digest[:12]}), not compiled",
                      file=sys.stderr, flush=True)
            else:
                print(f"mjdsl: compiling {ext.name} (content hash {digest[:12]})", file=sys.stderr, flush=True)
                stale.append(ext)
        if not stale:
            return
        translated = cythonize(stale, language_level=3, include_path=[str(PACKAGE_ROOT)], force=True,
                               nthreads=min(len(stale), os.cpu_count() or 1), quiet=self.quiet)
        for ext, c_module in zip(stale, translated, strict=True):  # keep what finalize_options set on each
            ext.sources = c_module.sources
        self.extensions = stale
        super().run()
        for ext in self.extensions:
            stamp = self.stamp_path(ext.name)
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digests[ext.name], encoding="ascii")

    def built_path(self, name: str) -> Path:
        """Where the extension ends up: in its package's directory when built in place (`pip install -e`,
        `mjdsl build`), else in the build directory."""
        return Path(self.get_ext_fullpath(name))

    def stamp_path(self, name: str) -> Path:
        """Beside the extension when built in place; else in the build's temporary directory, so that no
        stamp is packed with the extensions into a wheel."""
        if self.inplace:
            built = self.built_path(name)
            return built.with_name(built.name + STAMP_SUFFIX)
        return Path(self.build_temp) / (name + STAMP_SUFFIX)
