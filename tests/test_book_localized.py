"""The published books speak the spec's language: headings and labels in the script the spec is written in, and
the unit its totals count. Read from the generated books, as a reader gets them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import TINY

from dsl.book.inline import inline_html
from dsl.frontend.source import SpecError

DOCS = Path(__file__).resolve().parents[1] / "generated" / "docs"

# Chrome words as a Simplified page prints them, with their Traditional spelling (by hand, from the usual
# Simplified/Traditional correspondences: 计/計, 种/種, 点/點, 预/預, 规/規, 则/則).
SIMPLIFIED_TRADITIONAL = {"番种": "番種", "合计": "合計", "预期": "預期", "规则原文": "規則原文", "点炮": "點炮",
                          "不计": "不計", "选项与预设": "選項與預設"}

# The books of specs written in Traditional Chinese, and the unit each counts in by its published rules: Taiwanese
# mahjong is scored in 台 (tai), Zung Jung in points 分, Hong Kong Old Style in 番 (faan).
TRADITIONAL_BOOKS = {"taiwan": ("台", "tai"), "zungjung": ("分", "points"), "hongkong": ("番", "faan")}


def page(name: str) -> str:
    return (DOCS / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(TRADITIONAL_BOOKS))
def test_a_traditional_spec_has_traditional_chrome(name):
    html = page(name)
    assert '<html lang="zh-Hant"' in html
    markdown = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    for simplified, traditional in SIMPLIFIED_TRADITIONAL.items():
        for book in (html, markdown):
            assert simplified not in book, f"{name}: {simplified} in a Traditional book"
            assert traditional in book, traditional


@pytest.mark.parametrize("name", [n for n in sorted(TRADITIONAL_BOOKS) if (DOCS / f"{n}.exclusions.svg").exists()])
def test_a_traditional_exclusion_graph_is_traditional(name):
    figure = (DOCS / f"{name}.exclusions.svg").read_text(encoding="utf-8")
    assert "不计" not in figure and "→ 不計: the fan" in figure


def test_a_simplified_spec_keeps_simplified_chrome():
    html = page("mcr")
    assert '<html lang="zh-Hans"' in html and 'lang="zh-Hant"' not in html
    for simplified in ("番种", "合计", "预期", "规则原文", "不计"):
        assert simplified in html


def test_a_language_other_than_the_two_scripts_is_an_error_at_its_place(spec_of):
    with pytest.raises(SpecError) as info:
        spec_of("language en\nfan 底 5: true\n")
    found = info.value.diagnostics[0]
    assert "language 'en'" in found.message and "zh-Hant" in found.message
    assert found.span is not None and found.span.line == TINY.count("\n") + 1  # the line after the tiles


def fan_cards(html: str) -> list[str]:
    return re.findall(r'<article class="card" id="fan-.*?</article>', html, flags=re.S)


@pytest.mark.parametrize("name", sorted(TRADITIONAL_BOOKS))
def test_every_fan_card_carries_the_spec_unit(name):
    unit, english = TRADITIONAL_BOOKS[name]
    cards = fan_cards(page(name))
    assert cards
    for card in cards:
        value = re.search(r'<span class="value">(.*?)</span></span>', card, flags=re.S).group(1)
        assert f'<span class="zh">{unit}</span><span class="en"> {english}</span>' in value + "</span>"


def test_the_cap_sentence_counts_in_the_unit():
    # Zung Jung: a hand pays at most 320 points (滿糊).
    assert "A hand pays at most 320 points" in page("zungjung")


def book_names() -> list[str]:
    return sorted(p.stem for p in DOCS.glob("*.html") if p.stem not in ("index", "compare"))


@pytest.mark.parametrize("name", book_names())
def test_no_book_shows_raw_markdown_code(name):
    assert "`" not in page(name)


def test_a_code_span_in_a_doc_prints_as_code():
    # competition.mj's doc names its parent book as `mcr`.
    assert "(the <code>mcr</code> rule book)" in page("competition")


@pytest.mark.parametrize(("text", "html"), [
    ("a `x*y*` b", "a <code>x*y*</code> b"),
    ("**strong** and *em*", "<strong>strong</strong> and <em>em</em>"),
    ("<b>&</b>", "&lt;b&gt;&amp;&lt;/b&gt;"),
    ("`<i>`", "<code>&lt;i&gt;</code>"),
    ("[rules](https://a.example/x?y=1&z=2)", '<a href="https://a.example/x?y=1&amp;z=2">rules</a>'),
    ("[here](#fan-平和)", '<a href="#fan-平和">here</a>'),
    ("[bad](javascript:alert)", "[bad](javascript:alert)"),
    ('[q]("onclick=x)', "[q](&#34;onclick=x)"),
    ("55z* and 66z* or 2*3", "55z* and 66z* or 2*3"),
])
def test_inline_markdown_is_escaped_then_styled(text, html):
    assert inline_html(text) == html


def options_table(html: str) -> str:
    section = html[html.index('<section id="options">'):]
    return section[:section.index("</table>")]


@pytest.mark.parametrize("name", [n for n in book_names() if '<section id="options">' in page(n)])
def test_switches_are_on_or_off_in_words(name):
    table = options_table(page(name))
    assert "<code>true</code>" not in table and "<code>false</code>" not in table


def test_a_switch_reads_in_the_book_script():
    # Hong Kong's 全銃 (the discarder pays for all) is off unless a table agrees to it.
    row = re.search(r"<tr><td><code>全銃</code>.*?</tr>", options_table(page("hongkong"))).group(0)
    assert '<span class="zh" lang="zh-Hant">關</span> <span class="en" lang="en">off</span>' in row
    riichi = options_table(page("riichi"))  # a Simplified book: 开 and 关
    for word in ("开", "关"):
        assert f'<span class="zh" lang="zh-Hans">{word}</span>' in riichi


TOTAL = re.compile(r'Total</span></th><th></th><th class="num">(\d+)</th></tr>'
                   r'(?:<tr><th>.{0,120}?Paid</span></th><th>at most the cap</th><th class="num">(\d+)</th>)?')


@pytest.mark.parametrize("name", sorted(TRADITIONAL_BOOKS))
def test_the_paid_row_shows_only_where_the_cap_cuts_the_total(name):
    totals = TOTAL.findall(page(name))
    assert totals
    for total, paid in totals:
        assert not paid or int(paid) < int(total), (total, paid)


def test_a_hand_above_zung_jungs_limit_shows_what_it_pays():
    # Zung Jung pays a sum of patterns at most 320 (滿糊).
    assert any(int(total) > 320 and paid == "320" for total, paid in TOTAL.findall(page("zungjung")))


def test_a_book_without_a_cap_has_no_paid_row():
    assert "Paid</span>" not in page("mcr")


# Families that carry Chinese glyphs on the usual systems (Linux, Android, macOS, iOS, Windows).
CJK_SANS = {"Simplified": ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei"),
            "Traditional": ("Noto Sans CJK TC", "Source Han Sans TC", "PingFang TC", "Microsoft JhengHei")}


def families(rule: str) -> list[str]:
    return [f.strip().strip('"') for f in rule.split(",")]


@pytest.mark.parametrize("name", book_names())
def test_every_book_names_cjk_fonts(name):
    html = page(name)
    body = re.search(r"\nbody \{[^}]*\bfont: ([^;]*);", html).group(1)
    assert set(CJK_SANS["Simplified"]) <= set(families(body))
    traditional = re.search(r"html:lang\(zh-Hant\) body \{ font-family: ([^;]*);", html).group(1)
    assert set(CJK_SANS["Traditional"]) <= set(families(traditional))
    tiles = re.search(r"svg\.tile-defs text \{ font-family: ([^;]*);", html).group(1)
    assert families(tiles)[-1] == "serif" and len(families(tiles)) > 1


def scoring_section(html: str) -> str:
    start = html.index('<section id="scoring">')
    return html[start:html.index('<section id="patterns">', start)]


# 包 as the published rules give it: in Hong Kong the player who fed 大三元's third dragon pung or 大四喜's fourth
# wind pung; in Wuhan (包胡) the robbed player of 抢杠 and the player who gave a 清一色 its third opening.
LIABLE_FANS = {"hongkong": ("大三元", "大四喜"), "wuhan": ("抢杠", "清一色")}


@pytest.mark.parametrize("name", sorted(LIABLE_FANS))
def test_liability_is_told_in_the_settlement_section(name):
    scoring = scoring_section(page(name))
    liability = scoring[scoring.index('<h3 id="liability">'):]
    words = liability[:liability.index("</p>")]
    assert ">包</span>" in words and "pays what every loser would pay" in words
    assert all(fan in words for fan in LIABLE_FANS[name])
    assert (DOCS / f"{name}.md").read_text(encoding="utf-8").count("**包 Liability.**") == 1


def test_a_book_without_liability_says_nothing_of_it():
    assert 'id="liability"' not in page("mcr")
