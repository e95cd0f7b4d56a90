"""Where the bundled grammar, specs and generated files live (source tree or installed package)."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_ROOT = _PACKAGE.parent


def _first_existing(*candidates: Path) -> Path:
    return next((c for c in candidates if c.exists()), candidates[-1])


GRAMMAR_DIR = _first_existing(_PACKAGE / "grammar", _ROOT / "grammar")
SPECS_DIR = _first_existing(_PACKAGE / "specs", _ROOT / "specs")
GENERATED_DIR = _ROOT / "generated"


def bundled_specs() -> list[str]:
    return sorted(p.stem for p in SPECS_DIR.glob("*.mj"))


def is_path(name_or_path: str) -> bool:
    """A spec is named by a path when the text has a slash or ends in .mj; otherwise it names a bundled spec,
    so that a file called `mcr` in the working directory never stands in for the bundled mcr."""
    return "/" in name_or_path or os.sep in name_or_path or name_or_path.endswith(".mj")


def spec_path(name_or_path: str) -> Path | None:
    """The file of a path (`./mcr`, `house.mj`), or the bundled spec of a name (`mcr`)."""
    if is_path(name_or_path):
        path = Path(name_or_path)
        return path if path.exists() else None
    return _bundled(name_or_path)


def parent_path(name: str, directory: Path) -> Path | None:
    """The spec that `extends NAME` or `import NAME` means in a spec of `directory`: the bundled spec of
    that name first, then NAME.mj beside the spec."""
    sibling = directory / f"{name}.mj"
    return _bundled(name) or (sibling if sibling.exists() else None)


def _bundled(name: str) -> Path | None:
    bundled = SPECS_DIR / f"{name}.mj"
    return bundled if name and not is_path(name) and bundled.exists() else None
