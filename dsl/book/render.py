"""Books -> files: the Markdown and HTML pages of each book, the index and the comparison of the variants,
written through the Jinja templates. render_all() refuses a book whose worked example or round disagrees with
the checker, so a wrong example cannot be published."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
from markupsafe import Markup

from dsl.book import figures
from dsl.book.model import Book, Comparison
from dsl.book.model import books as all_books
from dsl.book.principles import PRINCIPLES
from dsl.book.variantdiff import ABSENT, diff
from dsl.book.worked import WorkedExample, WorkedRound
from dsl.frontend import ir
from dsl.frontend.source import SpecError, error

TEMPLATES = Path(__file__).resolve().parent / "templates"


def render_all(specs: list[ir.Spec], out_dir: Path, shared: bool = True) -> dict[Path, str]:
    """Path -> content of every page; a spec example that disagrees with the checker is an error."""
    books = all_books(specs)
    failures = [(b, e) for b in books for e in b.failures]
    if failures:
        raise SpecError([d for b, e in failures for d in error(_failure_text(b, e), e.example.span).diagnostics])
    return render_books(books, out_dir, shared)


def render_books(books: list[Book], out_dir: Path, shared: bool = True) -> dict[Path, str]:
    """Every page of these books, failing examples included (marked as such); with `shared`, also the index
    and the comparison of the variants, which are about all the books together."""
    env = _environment()
    files: dict[Path, str] = {}
    for b in books:
        files[out_dir / f"{b.spec.name}.md"] = _tidy(env.get_template("book.md.j2").render(book=b))
        files[out_dir / f"{b.spec.name}.html"] = env.get_template("book.html.j2").render(book=b)
        if b.graph is not None:
            files[out_dir / f"{b.spec.name}.exclusions.svg"] = b.graph + "\n"
    if not shared:
        return files
    comparison = Comparison.of([b.spec for b in books])
    files[out_dir / "index.html"] = env.get_template("index.html.j2").render(books=books, comparison=comparison)
    files[out_dir / "compare.html"] = env.get_template("compare.html.j2").render(comparison=comparison)
    files[out_dir / "compare.md"] = _tidy(env.get_template("compare.md.j2").render(comparison=comparison))
    return files


def render_diff(a: ir.Spec, b: ir.Spec, html: bool = False) -> str:
    """The diff of two variants as Markdown, or as a standalone HTML page."""
    if html:
        return _environment().get_template("diff.html.j2").render(diff=diff(a, b))
    return _tidy(_environment().get_template("diff.md.j2").render(diff=diff(a, b)))


def failure_report(book_: Book) -> list[str]:
    return [_failure_text(book_, e) for e in book_.failures]


def _failure_text(b: Book, e: WorkedExample | WorkedRound) -> str:
    return f"{b.spec.name}: {e.kind} {e.example.title!r} disagrees with the checker: " + "; ".join(e.problems)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html.j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(tile=_tile_markup, tile_symbols=lambda spec: Markup(figures.tile_symbols(spec)),
                       absent=ABSENT, principles=PRINCIPLES)
    env.filters["md"] = markdown_cell
    env.filters["signed"] = signed
    env.filters["svg"] = Markup
    return env


def _tile_markup(tile: ir.Tile, css_class: str = "tile") -> Markup:
    return Markup(figures.tile(tile, css_class))


def _tidy(markdown: str) -> str:
    """One blank line between blocks: optional template sections leave runs of them behind."""
    return re.sub(r"\n{3,}", "\n\n", markdown)


def markdown_cell(text: object) -> str:
    """Text that stays inside one Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def signed(amount: float) -> str:
    """A payment with its direction: +8 received, -8 paid, 0 untouched."""
    return f"{amount:+}" if amount else "0"
