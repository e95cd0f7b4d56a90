"""IR -> readable Cython checker modules (generated/<variant>.pyx).

dsl.compiled.tables and dsl.compiled.model turn a spec's IR into what the Jinja2 templates under templates/
lay out: its tables, and one C function per fan, `let`, requirement, own shape and settlement rule, whose
expressions dsl.compiled.emit writes; dsl.compiled.names names them, dsl.compiled.layout writes values.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from dsl.compiled import CodegenError, layout
from dsl.compiled.emit import GROUP_FILTERS
from dsl.compiled.layout import shown_path
from dsl.compiled.model import Model
from dsl.compiled.tables import KEY_KINDS
from dsl.frontend import ir
from dsl.paths import SPECS_DIR

__all__ = ["GROUP_FILTERS", "KEY_KINDS", "CodegenError", "generate", "generate_all", "is_bundled", "module_name",
           "shown_path"]

TEMPLATES = Path(__file__).resolve().parent / "templates"
PACKAGE_INIT = '"""Compiled checkers, one extension module per bundled spec (generated/<variant>.pyx)."""\n'


def generate_all(specs: list[ir.Spec], out_dir: Path) -> dict[Path, str]:
    """generated/__init__.py and one <variant>.pyx per spec."""
    files = {out_dir / "__init__.py": PACKAGE_INIT}
    for spec in specs:
        files[out_dir / f"{module_name(spec)}.pyx"] = generate(spec)
    return files


def module_name(spec: ir.Spec) -> str:
    if not spec.name.isidentifier() or not spec.name.isascii():
        raise CodegenError(f"{spec.path}: the variant name {spec.name!r} is not an ASCII identifier, so it cannot "
                           "name a Python module")
    return spec.name


def generate(spec: ir.Spec) -> str:
    """The text of the checker module of one spec; the same IR always gives the same bytes."""
    model = Model.of(spec)
    return _environment().get_template("checker.pyx.j2").render(m=model, tables=model.tables)


def is_bundled(spec: ir.Spec) -> bool:
    return Path(spec.path).resolve() == (SPECS_DIR / f"{spec.name}.mj").resolve()


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False,
                             extensions=["jinja2.ext.do"])
    env.globals.update(zip=zip)
    env.filters.update(comment=layout.comment, pystr=layout.literal, pytuple=layout.pytuple, c_array=layout.c_array,
                       hexmask=layout.hexmask, hexmask_of=lambda tiles: layout.hexmask(layout.mask(tiles)),
                       tile_code=lambda t, spec: spec.tiles[t].code,
                       fan_name=lambda index, model: model.fans[index].name,
                       fan_constant=lambda index, model: model.fans[index].constant,
                       index_or_none=lambda items, x: items.index(x) if x in items else -1,
                       wrap=layout.wrap,
                       option_kind=lambda kind: f"OPTION_{ {'bool': 'BOOL', 'int': 'INT', 'str': 'TEXT'}[kind]}")
    return env
