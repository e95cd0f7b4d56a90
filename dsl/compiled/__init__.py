"""The compiled back end: the IR as a Cython checker module (codegen: tables, model, emit, names, layout and the
templates), compiled (extensions), and found or built on demand (checkers).
"""


class CodegenError(Exception):
    """The spec uses something the compiled checker cannot express (yet)."""
