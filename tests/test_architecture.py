"""The arrows between dsl's subpackages point one way (the layers README.md draws): the front end imports no back
end, case reading imports only the IR and notation, the interpreter and the books never import the compiled back
end, the C runtime's Python imports stay within case reading and its fallbacks, and no modules import each other
in a circle.

Every module under dsl/ is read with `ast` (imports inside functions count too); the runtime's .pyx source is read
with a regular expression, as `ast` cannot parse Cython.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import dsl

DSL = Path(dsl.__file__).parent

# Layers, left to right: a module imports modules of its own unit (the package or module named) or of a layer
# further right, never back. So the front end imports no back end; the interpreter neither the compiled back end,
# the books nor the commands; the books and the compiled back end not each other. (README.md draws them.)
LAYERS = (("dsl.cli",), ("dsl.build", "dsl.lint_hands", "dsl.report", "dsl.scaffold", "dsl.runtime"),
          ("dsl.book", "dsl.compiled"), ("dsl.interp",), ("dsl.cases",), ("dsl.frontend",),
          ("dsl.notation", "dsl.paths", "dsl.vocabulary"))
# What the runtime's Python code may import: case reading, and the interpreter with the IR embedded in the checker
# module (together they answer a case the compiled search does not).
RUNTIME_MAY_IMPORT = ("dsl.runtime", "dsl.cases", "dsl.frontend.ir", "dsl.frontend.ir_json", "dsl.frontend.source",
                      "dsl.notation", "dsl.vocabulary", "dsl.interp")
# Importer -> the only modules and packages it may import.
ONLY = {
    "dsl.cases": ("dsl.cases", "dsl.frontend.ir", "dsl.frontend.source", "dsl.notation", "dsl.paths",
                  "dsl.vocabulary"),
    "dsl.runtime": RUNTIME_MAY_IMPORT,
}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# `from dsl.x import y` or `import dsl.x` at the start of a line of Cython; `cimport` is C-level, not an import.
PYX_IMPORT = re.compile(r"^([ \t]*)(?:from\s+(dsl(?:\.\w+)*)\s+import\s+([\w, ()]+)|import\s+(dsl(?:\.\w+)*))", re.M)


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    top_level: bool  # runs when the importer is imported (not inside a function)


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def module_name(path: Path) -> str:
    parts = path.relative_to(DSL.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files() -> list[Path]:
    return sorted(p for p in DSL.rglob("*") if p.suffix in (".py", ".pyx"))


def all_imports() -> list[Import]:
    files = source_files()
    known = {module_name(p) for p in files}
    found: list[Import] = []
    for path in files:
        read = _python_imports if path.suffix == ".py" else _pyx_imports
        # A module's own packages are imported before it anyway (`from dsl import __version__`): no arrow.
        found += [i for i in read(path, known) if not within(i.importer, i.imported)]
    return found


def _target(base: str, name: str, known: set[str]) -> str:
    """`from base import name`: the module name, when it is a module, else base itself."""
    return f"{base}.{name}" if f"{base}.{name}" in known else base


def _python_imports(path: Path, known: set[str]) -> list[Import]:
    importer = module_name(path)
    found = []
    for node, top_level in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: imports in dsl are absolute"
            names = [_target(node.module or "", alias.name, known) for alias in node.names]
        else:
            names = [alias.name for alias in node.names]
        found += [Import(importer, name, node.lineno, top_level) for name in names if within(name, "dsl")]
    return found


def _import_nodes(node: ast.AST, top_level: bool = True) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement below node; top_level while no function encloses it (a class body runs on import)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, top_level
        else:
            yield from _import_nodes(child, top_level and not isinstance(child, FUNCTIONS))


def _pyx_imports(path: Path, known: set[str]) -> list[Import]:
    importer = module_name(path)
    text = path.read_text(encoding="utf-8")
    found = []
    for match in PYX_IMPORT.finditer(text):
        indent, base, names, module = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        targets = [module] if module else [_target(base, n.strip(), known) for n in names.strip("()").split(",")]
        found += [Import(importer, t, line, not indent) for t in targets if t]
    return found


def broken_arrows(imports: Iterable[Import]) -> list[str]:
    """Every import that points back across LAYERS or that ONLY rules out, as "importer:line imports imported"."""
    return [f"{i.importer}:{i.line} imports {i.imported}" for i in imports if _points_back(i) or _not_allowed(i)]


def _unit(name: str) -> tuple[int, str] | None:
    """The layer and unit of a module; None for dsl itself, which only re-exports (lazily)."""
    return next(((depth, unit) for depth, layer in enumerate(LAYERS) for unit in layer if within(name, unit)), None)


def _points_back(i: Import) -> bool:
    importer, imported = _unit(i.importer), _unit(i.imported)
    return importer is not None and imported is not None and importer[1] != imported[1] and importer[0] >= imported[0]


def _not_allowed(i: Import) -> bool:
    return any(within(i.importer, owner) and not any(within(i.imported, p) for p in allowed)
               for owner, allowed in ONLY.items())


def cycles(imports: Iterable[Import]) -> list[list[str]]:
    """The modules that import each other in a circle: strongly connected components (Tarjan) of more than one
    module, or of one that imports itself."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        graph.setdefault(i.importer, set()).add(i.imported)
        graph.setdefault(i.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in sorted(graph[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return all_imports()


def test_every_import_points_the_allowed_way(imports):
    assert broken_arrows(imports) == []


def test_every_module_is_in_a_layer():
    assert [name for name in map(module_name, source_files()) if name != "dsl" and _unit(name) is None] == []


def test_no_modules_import_each_other_in_a_circle_at_module_level(imports):
    assert cycles(i for i in imports if i.top_level) == []


def test_no_circle_hides_behind_an_import_inside_a_function(imports):
    assert cycles(imports) == []


def test_the_reading_sees_imports_in_functions_and_in_the_runtime(imports):
    arrows = {(i.importer, i.imported, i.top_level) for i in imports}
    assert ("dsl.frontend.resolve", "dsl.frontend.parser", True) in arrows
    assert ("dsl.runtime.core", "dsl.cases.case", False) in arrows
    assert ("dsl", "dsl.compiled.checkers", False) in arrows


def test_the_checks_report_a_circle_and_a_forbidden_arrow():
    fake = [Import("dsl.frontend.a", "dsl.frontend.b", 1, True),
            Import("dsl.frontend.b", "dsl.frontend.a", 2, False),  # a circle closed inside a function
            Import("dsl.frontend.b", "dsl.interp.rounds", 3, False),
            Import("dsl.cases.c", "dsl.frontend.parser", 4, True),
            Import("dsl.runtime.core", "dsl.compiled.codegen", 5, False),
            Import("dsl.book.x", "dsl.book.x", 6, True),
            Import("dsl.cases.c", "dsl.frontend.ir", 7, True),
            Import("dsl.runtime.core", "dsl.interp.x", 8, False),
            Import("dsl.book.y", "dsl.compiled.codegen", 9, True),  # same layer, another unit
            Import("dsl.cli", "dsl.interp.rounds", 10, True)]
    assert cycles(fake) == [["dsl.book.x"], ["dsl.frontend.a", "dsl.frontend.b"]]
    assert cycles(i for i in fake if i.top_level) == [["dsl.book.x"]]
    assert broken_arrows(fake) == ["dsl.frontend.b:3 imports dsl.interp.rounds",
                                   "dsl.cases.c:4 imports dsl.frontend.parser",
                                   "dsl.runtime.core:5 imports dsl.compiled.codegen",
                                   "dsl.book.y:9 imports dsl.compiled.codegen"]
