"""Where the bundled grammar, specs and generated files live (source tree or installed package)."""

from __future__ import annotations

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


def spec_path(name_or_path: str) -> Path | None:
    """A spec file from a path, or the bundled spec of that name."""
    path = Path(name_or_path)
    if path.suffix == ".mj" or path.exists():
        return path if path.exists() else None
    bundled = SPECS_DIR / f"{name_or_path}.mj"
    return bundled if bundled.exists() else None
