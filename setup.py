"""Build hook: the shared runtime dsl.runtime.core, and every generated checker (generated/<variant>.pyx) as
the extension dsl.generated.<variant>, which cimports the runtime.

pyproject.toml holds the package's metadata; this file only lists the extension modules, which
setuptools cannot declare there. An extension is compiled only when what it is made from changed (its
.pyx, the runtime contract core.pxd, the Cython version: dsl/compiled/incremental.py); the others are
named in the build log as up to date. Cython and the C compiler run on every core.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the build command is part of the package it builds
from dsl.compiled.incremental import ContentBuild  # noqa: E402

runtime = Extension("dsl.runtime.core", ["dsl/runtime/core.pyx"])
checkers = [Extension(f"dsl.generated.{pyx.stem}", [pyx.as_posix()])
            for pyx in sorted(Path("generated").glob("*.pyx"))]
setup(ext_modules=[runtime, *checkers], cmdclass={"build_ext": ContentBuild},
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
