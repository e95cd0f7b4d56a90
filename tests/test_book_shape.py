"""A rule book a referee can rely on: every card opens with a definition in plain words (Chinese and English), the
shapes are defined once, the book runs in the chapters of a published rule book, and it speaks of the game, not of
the software."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from conftest import TINY

from dsl.book import model, render
from dsl.book.chapters import Block, paragraphs
from dsl.book.prose import Prose
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter
from dsl.paths import GENERATED_DIR, bundled_specs

OUT = GENERATED_DIR / "docs"
FIRST = TINY.count("\n") + 1  # the first line a test spec writes after the shared tiles
# The books whose chapters are written from their published rules, and the chapters every bundled book has.
PUBLISHED = ("mcr", "riichi", "zungjung", "taiwan")
CHAPTERS = ("source", "setup", "play", "end", "rotation", "penalties", "glossary")
SOFTWARE_TALK = ("applied by the runtime", "pymahjonggb gives the same 91", "the package says 0", "[interp]",
                 "docs/interface.md", "Checker: rejects the case", "rejects the case", "✓ checked",
                 "value 540003020", "Rule 规则:", "Context key")


@pytest.fixture(scope="module")
def pages() -> dict[Path, str]:
    return render.render_all([load_spec(name) for name in bundled_specs()], OUT)


@pytest.fixture(scope="module")
def books() -> dict[str, model.Book]:
    return {name: model.book(load_spec(name)) for name in bundled_specs()}


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.。])\s", text.strip(), maxsplit=1)[0]


def reads_a_formula_aloud(sentence: str) -> bool:
    """A rule read aloud rather than a definition: it counts things clause by clause, or runs on and on."""
    return sentence.count("the number of") > 2 or len(sentence.split()) > 40


def card_paragraphs(markdown: str, anchor: str) -> list[str]:
    """The paragraphs of one card of a Markdown book, its heading left out."""
    start = markdown.index(f'<a id="{anchor}"></a>')
    body = markdown[markdown.index("\n", start):]
    body = re.split(r"\n#{2,3} ", body, maxsplit=1)[0]  # up to the next card or chapter
    return [p.strip() for p in body.split("\n\n") if p.strip()]


# ---------------------------------------------------------------- definitions


def test_the_detector_flags_a_rule_read_aloud():
    """The old opening of 九莲宝灯 was its rule read aloud; a player's definition passes."""
    spec = load_spec("mcr")
    read_aloud = model.describe_pattern(spec.pattern("九莲宝灯"), Prose(spec))
    assert reads_a_formula_aloud(first_sentence(read_aloud))
    assert not reads_a_formula_aloud("1112345678999 of one suit held concealed, winning on any tile of that suit.")


@pytest.mark.parametrize("name", bundled_specs())
def test_every_card_opens_with_a_plain_definition_in_both_languages(books, pages, name):
    markdown = pages[OUT / f"{name}.md"]
    page = html.unescape(pages[OUT / f"{name}.html"])
    for entry in books[name].patterns + books[name].loser_patterns:
        definition = entry.definition
        assert definition.plain and definition.zh and definition.en, entry.pattern.name
        assert not reads_a_formula_aloud(first_sentence(definition.en)), entry.pattern.name
        assert card_paragraphs(markdown, entry.anchor)[:2] == [definition.zh, definition.en], entry.pattern.name
        card = page[page.index(f'id="{entry.anchor}"'):]
        opening = card[card.index("</header>"):]
        script = books[name].spec.language
        assert opening.startswith(f'</header>\n<p class="definition zh" lang="{script}">{definition.zh}</p>')


@pytest.mark.parametrize("name", bundled_specs())
def test_the_rule_stays_in_a_collapsed_line_as_the_spec_says(books, pages, name):
    entries = books[name].patterns + books[name].loser_patterns
    markdown, page = pages[OUT / f"{name}.md"], html.unescape(pages[OUT / f"{name}.html"])
    says = "規則原文" if books[name].spec.language == "zh-Hant" else "规则原文"  # the book's script
    for entry in entries:
        assert card_paragraphs(markdown, entry.anchor)[-1].startswith(f"As the spec says {says}: `{entry.rule}`")
    assert page.count('<details class="spec"><summary>') >= len(entries)


def idiom(spec_of, condition: str, each: bool = False) -> tuple[str, str]:
    """The definition the idioms read from a fan's rule, in a spec with flowers laid aside."""
    spec = spec_of(f"""\
        variant idioms "成语" "Idioms"
        tiles:
            suit m 万 "Characters" 1..9 ×4
            suit p 筒 "Dots" 1..9 ×4
            suit s 条 "Bamboo" 1..9 ×4
            flowers f 花 "Flowers" ×1: 春, 夏, 秋, 冬, 梅, 兰, 竹, 菊
        melds chow, pung
        meld 花牌 "Flower laid aside" = one of 花
        fan 番 "Fan" 1{" each" if each else ""}: {condition}
        """, tiny=False)
    read = model.book(spec).patterns[0].definition
    assert read.source == "idiom", read
    return read.zh, read.en


def test_a_count_of_each_rank_reads_as_the_tiles(spec_of):
    counts = " and ".join(f"count(held_tiles, rank == {r}) == {3 if r in (1, 9) else 1}" for r in range(1, 10))
    zh, en = idiom(spec_of, f"suits == 1 and {counts}")
    assert en == "1112345678999 held before the winning tile, numbered tiles of one suit only."
    assert zh == "和牌前手中为1112345678999，只有一种花色的数牌。"


def test_a_chow_step_reads_as_chows_stepping_up(spec_of):
    zh, en = idiom(spec_of, "combinations(chows, 3, same(suit) and step == 1) > 0")
    assert en == "Three chows of one suit, each one rank above the last (123 234 345)."
    assert zh == "同一花色的三副顺子，依次递增一（如123 234 345）。"


def test_a_set_of_three_suits_reads_as_different_suits(spec_of):
    zh, en = idiom(spec_of, "combinations(chows, 3, distinct(suit) and step == 0)", each=True)
    assert en == "The same chow in three different suits (123m 123p 123s)."
    assert zh.startswith("三副数字相同、花色各不相同的顺子")


def test_groups_of_a_tile_set_read_as_all_the_flowers(spec_of):
    zh, en = idiom(spec_of, "count(groups, 花牌) == 8")
    assert en == "All eight flowers (春 夏 秋 冬 梅 兰 竹 菊) laid aside."
    assert zh == "八张花牌（春 夏 秋 冬 梅 兰 竹 菊）全部到齐。"


def test_a_rule_no_idiom_reads_needs_a_doc_and_the_doc_wins(spec_of):
    spec = spec_of("""\
        fan 怪 "Odd" 1: count(tiles, rank == 2) + count(tiles, rank == 3) == 5
        fan 清 "Flush" 1: suits == 1
            doc "只有一种花色" "One suit only"
        """)
    odd, flush = (model.book(spec).patterns[i].definition for i in (0, 1))
    assert odd.source == "rule" and not odd.plain  # read aloud: a bundled book may not open a card so
    assert (flush.zh, flush.en, flush.source) == ("只有一种花色。", "One suit only.", "doc")


def test_special_shapes_are_defined_once_and_cards_name_them(books, pages):
    mcr = books["mcr"]
    shapes = {entry.names.en: entry.definition for entry in mcr.shapes}
    assert set(shapes) == {"Thirteen orphans", "Honors and knitted tiles", "Knitted straight", "Sets and a pair",
                           "Seven pairs"}
    # The thirteen orphans, as the rule books define them: one of each terminal and honor, one of them paired.
    assert "One of each terminal" in shapes["Thirteen orphans"].en and "一、九" in shapes["Thirteen orphans"].zh
    orphans = next(e for e in mcr.patterns if e.pattern.name == "十三幺").definition
    assert orphans.en == "Thirteen orphans (see Shapes)." and orphans.zh == "十三幺（见牌型）。"
    markdown = pages[OUT / "mcr.md"]
    assert markdown.count(shapes["Thirteen orphans"].en) == 1
    assert '### <a id="shapes"></a>牌型 · Shapes' in markdown


# ---------------------------------------------------------------- the chapters of a rule book


def chapter_text(markdown: str, kind: str) -> str:
    start = markdown.index(f'## <a id="{kind}"></a>')
    end = markdown.find("\n## ", start + 1)
    return markdown[start:end]


@pytest.mark.parametrize("name", PUBLISHED)
def test_the_published_rule_books_have_every_chapter_in_both_languages(books, pages, name):
    markdown, page = pages[OUT / f"{name}.md"], html.unescape(pages[OUT / f"{name}.html"])
    for kind in CHAPTERS:
        chapter = books[name].chapters[kind]
        assert chapter.zh and chapter.en, (name, kind)
        text = chapter_text(markdown, kind)
        first = chapter.en[0].items[0]
        assert first in text and chapter.zh[0].items[0] in text, (name, kind)
        assert f'<section id="{kind}">' in page and first in page
    assert "## <a id=\"reference\"></a>速查 · Quick reference" in markdown


@pytest.mark.parametrize("name", bundled_specs())
def test_every_bundled_book_has_the_chapters_a_referee_needs(books, pages, name):
    markdown = pages[OUT / f"{name}.md"]
    for kind in CHAPTERS:
        assert books[name].chapters[kind].written, (name, kind)
        assert chapter_text(markdown, kind).count("\n") > 2, (name, kind)
    order = [markdown.index(f'## <a id="{kind}"></a>') for kind in (*CHAPTERS[:-1], "reference", "glossary")]
    assert order == sorted(order)
    entries = books[name].patterns + books[name].loser_patterns
    assert chapter_text(markdown, "reference").count("](#fan-") == len(entries)


def test_the_quick_reference_lists_every_fan_by_value_with_its_exclusions(pages):
    reference = chapter_text(pages[OUT / "mcr.md"], "reference")
    # 大四喜 does not count 三风刻, 碰碰和, 圈风刻, 门风刻, 幺九刻 or 小四喜 (the 国标 fan list).
    row = "| 88 | [大四喜](#fan-大四喜) Big Four Winds | 三风刻, 碰碰和, 圈风刻, 门风刻, 幺九刻, 小四喜 |"
    assert row in reference
    values = [int(row.split("|")[1].split()[0]) for row in reference.splitlines() if row.startswith("| ")
              and row.split("|")[1].strip()[:1].isdigit()]
    assert len(values) == 82 and values == sorted(values, reverse=True)


def test_what_the_spec_models_is_told_in_its_chapter(pages):
    """Penalties, draw checks and the dealer's repeats come from the spec's `round:` rules, in their chapters."""
    competition = chapter_text(pages[OUT / "competition.md"], "penalties")
    assert "**诈和** (False win: fewer than 5 fan): The offender pays 10 to each other player still in." in competition
    assert "**错和** (Wrong win: not a complete hand): The offender pays 20" in competition
    sichuan = chapter_text(pages[OUT / "sichuan.md"], "end")
    assert "**查花猪** (Flower pig): When the payer is 花猪 and the receiver is not 花猪, the payer pays the " \
           "receiver 16." in sichuan
    taiwan = chapter_text(pages[OUT / "taiwan.md"], "rotation")
    assert "next hand sets 連莊 = 連莊 + 1 if dealer_won or drawn else 0" in taiwan
    sichuan_play = chapter_text(pages[OUT / "sichuan.md"], "play")
    assert "`kong concealed_kong: each other pays 2`" in sichuan_play


# ---------------------------------------------------------------- no software talk


@pytest.mark.parametrize("suffix", ["md", "html"])
@pytest.mark.parametrize("name", bundled_specs())
def test_no_book_talks_about_the_software(pages, name, suffix):
    page = html.unescape(pages[OUT / f"{name}.{suffix}"])
    for phrase in SOFTWARE_TALK:
        assert phrase not in page, (name, phrase)
    assert "----" not in page, "a spec's section marker (# ---- 64 fan) leaked into the book"
    assert f"{name}-implementers.md" in page[-2000:], "the implementers' appendix is linked at the end"


def test_the_implementers_appendix_keeps_what_left_the_book(pages):
    appendix = pages[OUT / "mcr-implementers.md"]
    assert "`暗刻数 = count(pungs, concealed)`" in appendix and "| `self_drawn` | flag |" in appendix
    # mcr's examples of cases the checker refuses: a chow of honors is no chow.
    assert "A chow of honors: `456p789s11m9s` + `9s`, `chow 123z` — refused: " in appendix
    assert "docs/interface.md" in appendix


# ---------------------------------------------------------------- the language


RULES = """\
rules setup "准备" "Setup":
    zh \"\"\"
    四人。
    \"\"\"
    en "Four players."
"""


def test_a_rules_chapter_reads_into_the_ir_and_leaves_the_checker_alone(spec_of):
    fan = 'fan 清一色 "Full flush" 3: suits == 1\n'
    plain, written = spec_of(fan), spec_of(fan + RULES)
    [section] = written.rule_sections
    assert (section.kind, section.title, section.english, section.zh, section.en) == \
        ("setup", "准备", "Setup", "四人。", "Four players.")
    assert (section.span.line, section.span.column) == (FIRST + 1, 1)
    case = {"hand": "123m456m789m11m23m", "win": "4m"}
    assert Interpreter(plain).evaluate(case) == Interpreter(written).evaluate(case)


def test_a_child_spec_replaces_its_parents_chapters(books):
    competition, mcr = books["competition"].chapters, books["mcr"].chapters
    assert competition["penalties"].zh != mcr["penalties"].zh
    assert competition["glossary"].en == mcr["glossary"].en  # not written by the child: inherited


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ('rules setpu "准备" "Setup":\n    en "x"\n', 0, 7, r"unknown chapter 'setpu'.*did you mean setup"),
    (RULES + RULES, 5, 7, r"`rules setup` is already written at line"),
    ('rules setup "准备" "Setup":\n    en "x"\n    en "y"\n', 2, 5, r"`rules setup` gives its en text twice"),
    ('rules setup "准备" "Setup":\n    zh "  "\n', 1, 5, r"the zh text of `rules setup` is empty"),
    ('fan 清 "Flush" 1: suits == 1\n    doc "一" "one"\n    doc "二" "two"\n', 2, 5,
     r"a fan has one `doc \"中文\" \"English\"` definition"),
])
def test_mistakes_in_the_prose_are_diagnostics(spec_of, text, line, column, message):
    with pytest.raises(SpecError) as caught:
        spec_of(text)
    where = f"test.mj:{FIRST + line}:{column}: error: "
    assert re.search(re.escape(where) + message, str(caught.value), re.S), str(caught.value)


@pytest.mark.parametrize("name", bundled_specs())
def test_the_contents_list_the_sections_in_the_order_the_page_prints_them(books, pages, name):
    page = pages[OUT / f"{name}.html"]
    nav = page[page.index('<nav class="toc"'):page.index("</nav>")]
    anchors = re.findall(r'href="#([\w-]+)"', nav)
    assert anchors == [anchor for anchor, _, _ in books[name].contents]
    places = [page.index(f'<section id="{anchor}">') for anchor in anchors]
    assert places == sorted(places)


def test_lines_of_a_paragraph_join_as_each_language_writes():
    """English words take a space at a line break; Chinese runs on, and so does text beside full-width marks."""
    text = "- 抓牌：庄家14张，\n  其他人13张。\n\nThe wall has 18\nstacks: 万 条 筒\n1-9."
    assert paragraphs(text) == (Block("ul", ("抓牌：庄家14张，其他人13张。",)),
                                Block("p", ("The wall has 18 stacks: 万 条 筒 1-9.",)))
