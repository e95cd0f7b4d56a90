"""Build hook: every generated checker (generated/<variant>.pyx) becomes the extension dsl.generated.<variant>.

pyproject.toml holds the package's metadata; this file only lists the extension modules, which
setuptools cannot declare there.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

checkers = [Extension(f"dsl.generated.{pyx.stem}", [pyx.as_posix()]) for pyx in sorted(Path("generated").glob("*.pyx"))]
setup(ext_modules=cythonize(checkers, language_level=3, quiet=True))
