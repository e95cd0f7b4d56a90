"""Build hook: the shared runtime dsl.runtime.core, and every generated checker (generated/<variant>.pyx) as
the extension dsl.generated.<variant>, which cimports the runtime.

pyproject.toml holds the package's metadata; this file only lists the extension modules, which
setuptools cannot declare there. Extensions whose compiled module is newer than their sources are not
rebuilt; the C compiler runs on every core.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

runtime = Extension("dsl.runtime.core", ["dsl/runtime/core.pyx"], depends=["dsl/runtime/core.pxd"])
checkers = [Extension(f"dsl.generated.{pyx.stem}", [pyx.as_posix()], depends=["dsl/runtime/core.pxd"])
            for pyx in sorted(Path("generated").glob("*.pyx"))]
jobs = os.cpu_count() or 1
setup(ext_modules=cythonize([runtime, *checkers], language_level=3, include_path=["."], nthreads=jobs),
      options={"build_ext": {"parallel": jobs}})
