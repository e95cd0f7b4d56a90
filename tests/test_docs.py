"""The rule reference: complete, deterministic, refusing wrong examples, and rendering in a browser."""

from __future__ import annotations

import html
import inspect
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import tiles

from dsl.book import figures, model, prose, render
from dsl.book.prose import Prose
from dsl.book.variantdiff import ABSENT
from dsl.build import stale_files
from dsl.cli import main
from dsl.frontend import ir
from dsl.frontend.formula import UnknownNodeError, formula
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.paths import GENERATED_DIR, bundled_specs

OUT = GENERATED_DIR / "docs"
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def specs() -> list[ir.Spec]:
    return [load_spec(name) for name in bundled_specs()]


@pytest.fixture(scope="module")
def pages(specs) -> dict[Path, str]:
    return render.render_all(specs, OUT)


def text_of(page: str) -> str:
    """What a reader sees of an HTML page (entities decoded), or a Markdown page as it is."""
    return html.unescape(page)


# ---------------------------------------------------------------- completeness


@pytest.mark.parametrize("suffix", ["md", "html"])
@pytest.mark.parametrize("name", bundled_specs())
def test_book_shows_every_pattern_example_and_exclusion(pages, name, suffix):
    spec = load_spec(name)
    page = text_of(pages[OUT / f"{name}.{suffix}"])
    for p in spec.patterns + spec.loser_patterns:
        assert p.name in page
        assert p.english is None or p.english in page
        for alias in p.aliases:
            assert alias in page
    appendix = text_of(pages[OUT / f"{name}-implementers.md"])
    for example in spec.examples:  # the cases the checker refuses are for implementers, not players
        assert example.title in (page if example.error is None else appendix), example.title
    edges = figures.exclusion_edges(spec)
    excludes = "不計" if spec.language == "zh-Hant" else "不计"  # the book's script
    for pattern, exclusion in edges:
        assert f"{pattern.name} {excludes} {exclusion.target}" in page
    for group in spec.exclusive_groups:
        assert group.name in page and all(m in page for m in group.members)
    assert spec.title in page and (spec.english or "") in page


@pytest.mark.parametrize("name", bundled_specs())
def test_html_book_draws_tiles_and_the_exclusion_graph(pages, name):
    spec = load_spec(name)
    page = pages[OUT / f"{name}.html"]
    for tile in spec.tiles:
        assert f'<symbol id="tile-{tile.code}"' in page
        assert f'aria-label="{tile.name} {tile.code}"' in page
    if figures.exclusion_edges(spec) or spec.exclusive_groups:
        assert 'class="exclusion-graph"' in page
        assert pages[OUT / f"{name}.exclusions.svg"].splitlines()[1].startswith("<svg xmlns=")


@pytest.mark.parametrize("name", bundled_specs())
def test_worked_examples_show_the_checkers_answer(pages, name):
    book = model.book(load_spec(name))
    page = text_of(pages[OUT / f"{name}.html"])
    assert not book.failures
    for worked in book.examples:
        if worked.result.get("winning"):
            assert f"{worked.result['total']}" in page
    # That each one was checked is said once, on the implementers' page, not beside every example.
    appendix = pages[OUT / f"{name}-implementers.md"]
    assert f"Each of its {len(book.examples)} worked examples" in appendix
    assert f"{len(book.rounds)} worked rounds" in appendix or not book.rounds


def test_html_is_self_contained(pages):
    for path, page in pages.items():
        if path.suffix == ".html":
            assert "<link" not in page and " src=" not in page, path
            assert re.findall(r"https?://[^\"' ]+", page) in ([], ["http://www.w3.org/2000/svg"]), path
            assert "@media print" in page and 'name="viewport"' in page


def test_compare_page_has_every_pattern_of_every_variant(pages, specs):
    page = text_of(pages[OUT / "compare.html"])
    for spec in specs:
        assert f"{spec.name}.html" in page
        for p in spec.patterns + spec.loser_patterns:
            assert p.name in page
    assert ABSENT in page
    for a, b in zip(specs, specs[1:], strict=False):
        assert f'id="diff-{a.name}-{b.name}"' in page


def test_sichuan_book_shows_the_round_rules_and_worked_rounds(pages):
    spec = load_spec("sichuan")
    markdown, page = pages[OUT / "sichuan.md"], text_of(pages[OUT / "sichuan.html"])
    # The round rules sit in the chapters of a rule book: play, then the end of a hand, then scoring.
    headings = ['## <a id="play"></a>行牌 · Play', '## <a id="end"></a>流局 · The end of a hand',
                '## <a id="scoring"></a>计分与结算 · Scoring and settlement',
                '## <a id="examples"></a>例 · Worked examples', "局例 · Worked rounds"]
    assert [markdown.index(h) for h in headings] == sorted(markdown.index(h) for h in headings)
    ids = ("play", "end", "scoring", "examples", "rounds")
    sections = [page.index(f'<section id="{s}">') for s in ids]
    assert sections == sorted(sections)
    for text in (markdown, page):
        for rule in ("winners leave until 3 have won", "kong concealed_kong: each other pays 2",
                     "win kong_discard: discarder passes kong income", "花猪 = suits == 3",
                     "draw 查花猪: each 花猪 pays 16 to each not 花猪",
                     "draw 查大叫: each not ready and not 花猪 pays receiver.best to each ready",
                     "draw 退税: each not ready refunds kong income"):
            assert rule in text, rule
        assert "When the payer is not ready and the payer is not 花猪 and the receiver is ready, the payer pays the " \
               "receiver the most the payer would pay if the receiver won on its discard." in text
        assert "the number of numbered suits in the player's hand is 3." in text
        assert "Players still in are those who have not won." in text
        for example in spec.round_examples:
            assert example.title in text
    assert '<a href="#play">' in page and '<a href="#rounds">' in page


def test_worked_round_shows_the_checkers_payments(pages):
    spec = load_spec("sichuan")
    title = "杠上炮: the discarder hands over what its kong just earned"
    example = next(r for r in spec.round_examples if r.title == title)
    assert dict(example.payments)[1] == (0, 0, -8, 8) and example.total == (-2, -2, -2, 6)
    worked = next(w for w in model.book(spec).rounds if w.example is example)
    kong, win = worked.rows
    assert (kong.payments, win.payments, worked.total) == ((-2, -2, 6, -2), (0, 0, -8, 8), (-2, -2, -2, 6))
    assert win.text == "Seat 3 wins on seat 2's discard"
    assert win.score == "平胡 1, 杠上炮 1 (total 2); seat 2 passes on its kong income, 6"
    markdown = pages[OUT / "sichuan.md"]
    assert f"### <a id=\"{worked.anchor}\"></a>{worked.number}. {title}\n" in markdown
    assert "| 2 | Seat 3 wins on seat 2's discard: `123m456m789m11p23p` + `4p` (kong_discard) — 平胡 1, 杠上炮 1 " \
           "(total 2); seat 2 passes on its kong income, 6 | 0 | 0 | -8 | +8 | ✓ |" in markdown
    draw = next(w for w in model.book(spec).rounds if w.example.title.startswith("血战")).rows[3:]
    assert [(row.text, row.payments) for row in draw] == [
        ("Exhaustive draw 流局", (-1, 0, 1, 0)), ("查花猪 (Flower pig)", (0, 0, 0, 0)),
        ("查大叫 (Not ready)", (-1, 0, 1, 0)), ("退税 (Kong refund)", (0, 0, 0, 0))]
    assert [(h.label, h.note) for h in draw[0].hands] == [("Seat 0", "not ready"), ("Seat 2", "ready on 1p 9s")]


def test_spec_without_round_rules_shows_neither_section(pages):
    book = model.book(load_spec("mcr"))
    assert all(chapter.groups == () for chapter in book.chapters.values()) and book.rounds == ()
    for suffix in ("md", "html"):
        page = text_of(pages[OUT / f"mcr.{suffix}"])
        assert "Worked rounds" not in page and "#round" not in page and "### 杠 · Kongs" not in page


def test_compare_table_values():
    comparison = model.Comparison.of([load_spec("sichuan"), load_spec("shenyang")])
    rows = {label: [text for text, _ in cells] for label, _, cells in comparison.rows}
    names = [s.name for s in comparison.specs]
    # Shenyang's 飘胡 (alias 对对胡) and Sichuan's 对对胡 are one row, named as the first variant calls it.
    assert rows["飘胡"][names.index("shenyang")] == "3"
    assert rows["飘胡"][names.index("sichuan")] == "2 (as 对对胡)"
    assert rows["三家闭"][names.index("sichuan")] == ABSENT
    assert rows["中发白碰"][names.index("shenyang")] == "computed each"


def test_index_links_every_book(pages, specs):
    page = pages[OUT / "index.html"]
    for spec in specs:
        assert f'href="{spec.name}.html"' in page and f'href="{spec.name}.md"' in page
    assert 'href="compare.html"' in page


# ---------------------------------------------------------------- determinism and freshness


def test_rendering_is_deterministic(specs, pages, tmp_path, monkeypatch):
    assert render.render_all(specs, OUT) == pages
    monkeypatch.chdir(tmp_path)  # spec paths are reported relative to the working directory
    assert render.render_all([load_spec(name) for name in bundled_specs()], OUT) == pages


def test_generated_docs_are_up_to_date(pages):
    assert stale_files(pages) == [], "run `mjdsl build`"
    on_disk = {p for p in OUT.iterdir() if p.is_file()}
    assert on_disk == set(pages), "generated/docs holds files no spec produces"


# ---------------------------------------------------------------- a wrong example cannot be published

WRONG = """\
fan 清一色 "Full flush" 3: suits == 1
example "清一色 claimed as 4":
    hand 123m 456m 789m 11m 23m
    win 4m
    expect 清一色 4, total 4
"""


def test_wrong_example_is_marked_and_refused(spec_of, tmp_path):
    spec = spec_of(WRONG)
    book = model.book(spec)
    assert [e.example.title for e in book.failures] == ["清一色 claimed as 4"]
    pages = render.render_books([book], tmp_path)
    assert "WRONG EXAMPLE" in pages[tmp_path / "tiny.html"]
    assert "WRONG EXAMPLE" in pages[tmp_path / "tiny.md"]
    assert "must not be published" in pages[tmp_path / "tiny.html"]
    with pytest.raises(SpecError, match="清一色 claimed as 4.*disagrees with the checker"):
        render.render_all([spec], tmp_path)


# A concealed kong is paid 2 by each other player, not 3; the win's 清一色 3 is paid by the discarder alone.
WRONG_ROUND = """\
melds chow, pung, concealed_kong
flag shown "the dragons were shown"
fan 清一色 "Full flush" 3: suits == 1
fan 亮 "Shown" 1: shown
settle:
    self_drawn: each loser pays total
    discard: discarder pays total
round:
    one winner per discard
    kong concealed_kong: each other pays 2
    declare 亮牌 "Show the dragons": sets shown
    penalty 诈和: pays 5 + seat to each other
    let 庄 = dealer or won
    draw 查: each not ready and not 庄 pays payer.suits + receiver.best to each ready or 庄
round "a concealed kong claimed to earn 9":
    kong 1 concealed_kong 5555p
    payments -3 9 -3 -3
    declare 亮牌 by 2
    win 2 from 0:
        hand 123m 456m 789m 11m 23m
        win 4m
    payments -4 0 4 0
    total -6 6 2 -2
"""


def test_wrong_round_is_marked_and_refused(spec_of, tmp_path):
    spec = spec_of(WRONG_ROUND)
    book = model.book(spec)
    title = "a concealed kong claimed to earn 9"
    assert [(w.kind, w.example.title) for w in book.failures] == [("worked round", title)]
    kong, declaration, win = book.rounds[0].rows
    assert kong.payments == (-2, 6, -2, -2) and kong.wrong
    assert declaration.text == "Seat 2 declares 亮牌 (Show the dragons): sets shown on the wins that follow"
    assert win.score == "清一色 3, 亮 1 (total 4)" and win.payments == (-4, 0, 4, 0) and not win.wrong
    assert book.rounds[0].total == (-6, 6, 2, -2) and not book.rounds[0].total_wrong
    pages = render.render_books([book], tmp_path)
    markdown, page = pages[tmp_path / "tiny.md"], text_of(pages[tmp_path / "tiny.html"])
    assert "WRONG ROUND" in markdown and "WRONG ROUND" in page and "must not be published" in page
    assert "| 1 | Seat 1 makes a concealed_kong (Concealed kong): `5555p` | -2 | +6 | -2 | -2 | " \
           "**✗ expected -3 +9 -3 -3** |" in markdown
    [report] = render.failure_report(book)
    assert report.startswith("tiny: worked round 'a concealed kong claimed to earn 9' disagrees with the checker: "
                             "event 1 (line ")
    assert report.endswith("expected payments [-3, 9, -3, -3], got [-2, 6, -2, -2]")
    with pytest.raises(SpecError, match="worked round 'a concealed kong claimed to earn 9' disagrees with the checker"):
        render.render_all([spec], tmp_path)
    assert main(["doc", spec.path, "--out", str(tmp_path / "site")]) == 1


def test_round_rules_read_as_words(spec_of):
    chapters = model.book(spec_of(WRONG_ROUND)).chapters.values()
    rules = {r.rule: r.words for chapter in chapters for group in chapter.groups for r in group.rules}
    assert rules == {
        "one winner per discard": "Only one player may win on a discard.",
        "kong concealed_kong: each other pays 2":
            "When a player makes a concealed_kong (Concealed kong), each other player still in pays it 2.",
        "庄 = dealer or won": "the player is the dealer or the player has won.",
        "draw 查: each not ready and not 庄 pays payer.suits + receiver.best to each ready or 庄":
            "When the payer is not ready and the payer is not 庄 and (the receiver is ready or the receiver is 庄), "
            "the payer pays the receiver the number of numbered suits in the payer's hand + the most the payer would "
            "pay if the receiver won on its discard.",
        "penalty 诈和: pays 5 + seat to each other": "The offender pays 5 + the offender's seat to each other player "
                                                   "still in.",
        "declare 亮牌: sets shown": "Sets the flag shown on every later win of this hand: the dragons were shown.",
    }


def test_doc_command_writes_books_and_fails_on_a_wrong_example(spec_of, tmp_path, capsys):
    path = spec_of(WRONG).path
    out = tmp_path / "site"
    assert main(["doc", path, "--out", str(out)]) == 1
    assert "disagrees with the checker" in capsys.readouterr().err
    assert {p.name for p in out.iterdir()} == {"tiny.md", "tiny.html", "tiny-implementers.md", "index.html",
                                              "compare.html", "compare.md"}


def test_doc_command_for_bundled_specs(tmp_path, capsys):
    assert main(["doc", "--out", str(tmp_path)]) == 0
    written = {p.name for p in tmp_path.iterdir()}
    assert {f"{name}.{suffix}" for name in bundled_specs() for suffix in ("md", "html")} <= written


def test_doc_diff_command(capsys, tmp_path):
    assert main(["doc", "--diff", "shenyang", "sichuan"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2].startswith("# 沈阳麻将 ↔ 四川血战到底")
    assert "| 缺一门 | — | `suits <= 2` |" in out
    assert "| 三门齐 | `suits == 3` | — |" in out
    assert "| 飘胡 | `3: count(chows) == 0` | `2 (as 对对胡): shape == standard and count(chows) == 0` |" in out
    target = tmp_path / "diff.html"
    assert main(["doc", "--diff", "shenyang", "sichuan", "--out", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------- expressions as text


def _expressions(spec: ir.Spec) -> list[ir.Expr]:
    return sorted(model.all_expressions(spec), key=lambda e: (e.span.line, e.span.column))


def _offset(text: str, line: int, column: int) -> int:
    return sum(len(x) for x in text.splitlines(keepends=True)[: line - 1]) + column - 1


def _structure(value: object) -> object:
    """An IR value without its source positions, to compare two readings of the same rule."""
    if isinstance(value, ir.Expr):
        return (type(value).__name__, *(_structure(v) for k, v in vars(value).items() if k != "span"))
    if isinstance(value, tuple):
        return tuple(_structure(v) for v in value)
    return value


@pytest.mark.parametrize("name", bundled_specs())
def test_formula_reads_back_as_the_same_rule(name, tmp_path):
    assert_formulas_read_back(load_spec(name), tmp_path)


def assert_formulas_read_back(spec: ir.Spec, tmp_path: Path) -> None:
    """Every expression of a spec's own file, written back there by formula(), parses to the same IR."""
    text = Path(spec.path).read_text(encoding="utf-8")
    own = [e for e in _expressions(spec) if e.span.path == spec.path]  # not those inherited by `extends`
    for expr in reversed(own):
        start = _offset(text, expr.span.line, expr.span.column)
        end = _offset(text, expr.span.end_line, expr.span.end_column)
        text = text[:start] + formula(expr) + text[end:]
    rewritten = tmp_path / f"{spec.name}-rewritten.mj"
    rewritten.write_text(text, encoding="utf-8")
    again = load_spec(str(rewritten))
    assert [_structure(e) for e in _expressions(again)] == [_structure(e) for e in _expressions(spec)]
    assert own, "no expression was rewritten"


@pytest.mark.parametrize("name", bundled_specs())
def test_every_expression_reads_as_words(name):
    spec = load_spec(name)
    reader = Prose(spec)
    for expr in _expressions(spec):
        words = reader.condition(expr)
        assert words and "Expr" not in words and "None" not in words


def test_pattern_descriptions():
    sichuan, shenyang = load_spec("sichuan"), load_spec("shenyang")

    def describe(spec: ir.Spec, name: str) -> str:
        return model.describe_pattern(spec.pattern(name), Prose(spec))

    assert describe(sichuan, "清一色") == "Scores 3 when the number of numbered suits held is 1."
    assert describe(sichuan, "根") == ("Scores 1 for each of the kinds of tile held that have a number of copies "
                                      "held equal to 4 and were not declared as a kong.")
    assert describe(shenyang, "三家闭") == "Adds 2 to a loser's share when no losers have opened their hand."
    assert describe(shenyang, "定向飘").startswith("Scores 5 when it is 手把一 and the winning tile is not in 字")


MINI_RIICHI = 'variant mini "小立直" "Mini riichi"\n' + tiles("mps", "red fives ×1") + """\
order 东 南 西 北
order 白 发 中
melds chow, pung, kong, concealed_kong
shapes standard
context self_drawn, dora, riichi_sticks
prefer 平和
fan 役満 "Yakuman" 13: count(pungs, 字) == 4
fan 平和 "Pinfu" 1: count(chows) == 4
fan 宝牌 "Dora" 1 each: indicated(dora)
fan 赤宝牌 "Red five" 1 each: red_fives
fan 东 "Pung of the tile after the winning tile" 1: any(pungs, tile == next(win))
supersede from 13 "役満"
score:
    let fu = roundup(20 + 2 * count(pungs), 10)
    let value = fu * 2 ^ (total + 2)
settle:
    self_drawn: each loser pays value
    discard: discarder pays value
    pot: 1000 * riichi_sticks
example "Pinfu with a red five":
    hand 123m 406p 789s 234s 5m
    win 5m
    with dora 4p, riichi_sticks 1
    expect 平和 1, 宝牌 1, 赤宝牌 1, total 3
"""


def test_indicators_red_fives_results_and_pot(spec_of, tmp_path):
    spec = spec_of(MINI_RIICHI, tiny=False)
    book = model.book(spec)
    assert not book.failures
    assert [t.name for t in book.indicator_cycles[0]] == ["东", "南", "西", "北"]
    assert [t.code for t in book.red_tiles] == ["0m", "0p", "0s"]
    assert book.examples[0].results == (("fu", 20), ("value", 640), ("pot", 1000))
    assert "0p" in [t.code for t in book.examples[0].concealed]
    assert model.describe_pattern(spec.pattern("宝牌"), Prose(spec)) == \
        "Scores 1 for each of the tiles of the hand pointed at by the dora indicators."
    pages = render.render_books([book], tmp_path)
    page = text_of(pages[tmp_path / "mini.html"])
    assert '<symbol id="tile-0p"' in page and 'aria-label="赤五筒 0p"' in page
    assert "东 → 南 → 西 → 北 → 东" in page
    assert "A fan worth 13 or more supersedes" in page
    assert "fu is (20 + 2 × the number of pungs (kongs included)) rounded up to a multiple of 10" in page
    assert "1000 × the number of riichi sticks on the table" in page
    assert "a later one with 平和 is taken" in page
    assert_formulas_read_back(spec, tmp_path)


def test_minimum_held_by_an_option(spec_of):
    spec = spec_of("""\
    option 起和 "fan needed to win" = 8
    minimum 起和
    fan 无字 "No honors" 1: not any(tiles, 字)
    """)
    book = model.book(spec)
    assert book.minimum_amount == "the option 起和 (default 8)"
    page = text_of(render.render_books([book], Path("out"))[Path("out/tiny.html")])
    assert "A hand needs at least the option 起和 (default 8) fan to win." in page


def test_every_ir_expression_node_has_a_reading():
    """A node added to dsl/ir.py must be taught to the rule reference before a spec can use it."""
    source = inspect.getsource(prose)
    nodes = [cls.__name__ for cls in vars(ir).values()
             if isinstance(cls, type) and issubclass(cls, ir.Expr) and cls is not ir.Expr]
    assert [name for name in nodes if f"ir.{name}" not in source] == []


@dataclass(frozen=True)
class Mystery(ir.Expr):
    """An expression node the renderers have never heard of."""


def test_unknown_ir_node_fails_loudly():
    spec = load_spec("sichuan")
    node = Mystery(spec.patterns[0].condition.span)
    wrapped = ir.Binary(node.span, "and", ir.Const(node.span, True), node)
    with pytest.raises(UnknownNodeError, match="Mystery at .*sichuan.mj.*teach dsl/frontend/formula.py"):
        formula(wrapped)
    with pytest.raises(UnknownNodeError, match="Mystery"):
        Prose(spec).condition(wrapped)
    with pytest.raises(UnknownNodeError, match="Mystery"):
        Prose(spec).quantity(node)


# ---------------------------------------------------------------- in a browser

# Written into a copy of a page: records script errors and the size of every tile image.
PROBE_HEAD = """<script>window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
var __consoleError = console.error;
console.error = function () {
  window.__errors.push(Array.from(arguments).join(" "));
  __consoleError.apply(console, arguments);
};
</script>"""
PROBE_END = """<script>(function () {
  var images = Array.from(document.querySelectorAll("svg.tile, svg.exclusion-graph")).map(function (e) {
    var box = e.getBoundingClientRect();
    return {kind: e.getAttribute("class"), width: box.width, height: box.height};
  });
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({errors: window.__errors, images: images,
                                    show: document.documentElement.getAttribute("data-show"),
                                    langBarHidden: document.querySelector(".lang").hidden});
  document.body.appendChild(out);
})();</script>"""


def chromium_or_skip() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail("CI must run the browser test: install Debian's chromium (.ci/run does)")
    pytest.skip(f"Chromium not found at {CHROMIUM}: these tests render the rule books in it (Debian, Ubuntu: "
                "apt-get install chromium)")


def render_in_chromium(page: Path, profile: Path) -> tuple[dict, str]:
    """The probe's report from the page as Chromium laid it out, and Chromium's log."""
    command = [str(chromium_or_skip()), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", "--window-size=390,844",
               "--virtual-time-budget=5000", "--dump-dom", page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, f"the page did not run its scripts:\n{done.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1))), done.stderr


@pytest.mark.parametrize("page_name", ["index.html", f"{bundled_specs()[0]}.html", "compare.html"])
def test_page_renders_in_chromium(pages, page_name, tmp_path):
    chromium_or_skip()
    site = tmp_path / "site"
    site.mkdir()
    for path, text in pages.items():
        if path.name == page_name:
            text = text.replace("<head>", "<head>" + PROBE_HEAD, 1).replace("</body>", PROBE_END + "</body>", 1)
        (site / path.name).write_text(text, encoding="utf-8")
    report, log = render_in_chromium(site / page_name, tmp_path / "profile")
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and "rror" in line]
    assert report["errors"] == [] and console_errors == []
    assert report["show"] == "both" and report["langBarHidden"] is False  # the language toggle's script ran
    if page_name not in ("index.html", "compare.html"):
        tiles = [i for i in report["images"] if i["kind"].startswith("tile")]
        assert tiles, "no tile images on the page"
        assert all(i["width"] > 0 and i["height"] > 0 for i in report["images"]), report["images"]
