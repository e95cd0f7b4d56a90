"""The entries of the generated rule books (generated/docs/*.md) read as a referee reads them: each fan's card, the
worked examples under it, the tiles, the comparison of the variants. Expected texts come from the rule books the
specs are written from, not from the generator."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dsl.frontend.resolve import load_spec
from dsl.paths import GENERATED_DIR, bundled_specs

DOCS = GENERATED_DIR / "docs"


@cache
def book(name: str) -> str:
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def section(name: str, anchor: str) -> str:
    """The part of a book under the heading with this anchor, up to the next heading of any level."""
    page = book(name)
    rest = page[page.index(f'<a id="{anchor}"></a>'):]
    heading_end = rest.index("\n")
    following = re.search(r"^#{2,3} ", rest[heading_end:], re.M)
    return rest if following is None else rest[: heading_end + following.start()]


def card(name: str, fan: str) -> str:
    return section(name, f"fan-{fan}")


def example_number(name: str, title: str) -> int:
    """An example's number in its book, which numbers the examples that teach (those expecting an error are
    in the implementers' page)."""
    titles = [e.title for e in load_spec(name).examples if e.error is None]
    return titles.index(title) + 1


# ---------------------------------------------------------------- comments explain the example below them


def test_a_comment_above_an_example_explains_that_example(spec_of):
    spec = spec_of('''
        example "first":
            hand 123m 456m 789m 11p 2p
            win 2p
            # inside the first block
            expect total 0

        # above the second, no blank line between
        example "second":
            hand 123m 456m 789m 11p 2p
            win 2p
            expect total 0
            # the second's last line

        # a heading of what follows, a blank line below it

        example "third":
            hand 123m 456m 789m 11p 2p
            win 2p
            expect total 0
        ''')
    comments = [e.comments for e in spec.examples]
    assert comments == ["inside the first block", "above the second, no blank line between the second's last line",
                        None]


def test_mcr_example_67_carries_its_own_explanation():
    # The 白-pair hand is written with its explanation above it, right after the example of a chow of honors
    # (explained by one line of its own). The book shows the 白-pair hand with its explanation; the chow of
    # honors, a case the checker refuses, is listed on the implementers' page without it.
    white_pair = example_number("mcr", "三色双龙会 shape with a 白 pair: no 三色双龙会")
    assert "三色双龙会 needs a pair of fives" in section("mcr", f"example-{white_pair}")
    refusals = (DOCS / "mcr-implementers.md").read_text(encoding="utf-8")
    honors = next(line for line in refusals.splitlines() if line.startswith("- A chow of honors"))
    assert "三色双龙会" not in honors


@pytest.mark.parametrize("name", ["mcr", "riichi", "competition"])
def test_no_section_heading_of_the_spec_is_printed_as_an_example_explanation(name):
    # The specs head their example sections `# ---- 88`, `# -------- yakuman`: a line of dashes and a label.
    assert not re.search(r"-{4,} \S", book(name).split('<a id="examples"></a>例 · Worked examples')[1])


# ---------------------------------------------------------------- what the accounting principles leave out


def principle_exclusions(name: str, fan: str) -> dict[str, set[str]]:
    """Principle -> the fans a card's `不计 Excludes, by PRINCIPLE:` lines name."""
    lines = re.findall(r"^- 不计 Excludes, by (\S+): (.*)$", card(name, fan), re.M)
    return {principle: set(re.findall(r"\[([^\]]+)\]\(#fan-", text)) for principle, text in lines}


# The 国标 rule book's 不计 lists of these fans, which the spec leaves to the principles: the two-set fans their own
# sets make (123 456 789: 连六 twice and 老少副; 777 in three suits: 双同刻; 123 in three suits: 喜相逢).
@pytest.mark.parametrize("name", ["mcr", "competition"])
@pytest.mark.parametrize(("fan", "inside"), [("清龙", {"连六", "老少副"}), ("三同刻", {"双同刻"}),
                                             ("三色三同顺", {"喜相逢"})])
def test_a_three_set_fan_says_which_smaller_fans_it_does_not_count(name, fan, inside):
    assert principle_exclusions(name, fan) == {"不拆移": inside}


def test_a_fan_whose_not_counted_neighbours_are_listed_says_them_once():
    # 一色四步高's own 不计 list already names 一色三步高, 连六 and 老少副 (the 国标 list): no second line.
    assert principle_exclusions("mcr", "一色四步高") == {}
    listed = "- 不计 Excludes: [一色三步高](#fan-一色三步高), [连六](#fan-连六), [老少副](#fan-老少副)"
    assert listed in card("mcr", "一色四步高")


def test_a_three_chow_fan_says_what_a_fourth_chow_adds():
    # 套算一次: 123456789万 + 123筒 counts 清龙 and one 喜相逢 (mcr example 27), so the card says a further chow
    # combines once.
    assert re.search(r"^- 套算一次: a further chow may combine once with one of its chows", card("mcr", "清龙"), re.M)


def test_a_two_chow_fan_says_how_often_it_counts():
    # 不得相同: 123万 123万 123条 count one 喜相逢, not two; 套算一次: four chows count at most three two-chow fans.
    text = card("mcr", "喜相逢")
    assert "- 不得相同 · 套算一次: a chow already in this fan does not make it again with another chow" in text
    assert "4 chows make at most 3 fans of two chows" in text


def principle(name: str, which: str) -> str:
    found = re.search(rf"^- \*\*{which}\*\*: (.*)$", book(name), re.M)
    assert found is not None, which
    return found.group(1)


def test_the_principles_are_worded_as_the_rule_book_states_them():
    # 不拆移: a counted fan's sets are not split up and recombined; 一色四步高 123 234 345 456 is not also 连六.
    split = principle("mcr", "不拆移")
    assert "not split up and combined again into other fans" in split and "一色四步高" in split and "连六" in split
    assert "never share tiles" not in book("mcr")
    # 套算一次: a set not yet combined combines once with one already combined, so 234567条 234567筒 counts three
    # two-chow fans (喜相逢 ×2, 连六 once), not four.
    once = principle("mcr", "套算一次")
    assert "combines once" in once and "at most three fans of two sets" in once
    assert "234567条 234567筒" in once and "喜相逢 ×2 and 连六 once" in once
    assert "same fan" in principle("mcr", "不得相同")


# ---------------------------------------------------------------- "each" only on fans that can count again


def fans_valued_each(name: str) -> set[str]:
    return set(re.findall(r'^### <a id="fan-[^"]+"></a>(\S+) · .* — \d+ each', book(name), re.M))


# 国标: of the fans written per occurrence only these can count more than once in one hand; 大四喜, 清龙, 三同刻 and
# every other fan of three or four sets count once, 箭刻 and 双箭刻 once (two dragon pungs are 双箭刻, three 大三元).
MCR_REPEATING = {"一般高", "喜相逢", "连六", "老少副", "四归一", "双同刻", "幺九刻", "花牌"}


def test_only_fans_that_can_count_again_say_each():
    assert fans_valued_each("mcr") == MCR_REPEATING
    assert fans_valued_each("competition") == MCR_REPEATING - {"花牌"}  # no flowers in the competition rules
    table = re.findall(r"^\| \[(\S+)\]\(#fan-\S+\) \| [^|]* \| (\d+ each) \|", book("mcr"), re.M)
    assert {name for name, _ in table} == MCR_REPEATING


def test_each_on_a_fan_of_three_sets_under_the_principles_is_an_error(write_spec):
    from dsl.frontend.source import SpecError
    path = write_spec('''
        principles 套算一次
        fan 龙 "Straight" 16 each: combinations(chows, 3, same(suit) and step == 3)
        ''')
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    line = path.read_text(encoding="utf-8").splitlines().index('fan 龙 "Straight" 16 each: '
                                                               'combinations(chows, 3, same(suit) and step == 3)') + 1
    d = info.value.diagnostics[0]
    assert (d.span.path, d.span.line, d.span.column) == (str(path), line, 5) and "'龙' counts at most once" in d.message


# ---------------------------------------------------------------- the tile count


def tiles_line(name: str) -> str:
    return book(name).split('<a id="equipment"></a>牌具 · Equipment\n\n')[1].split("\n")[0]


@pytest.mark.parametrize(("name", "opening"), [
    ("mcr", "144 tiles: the 136 below and 8 flowers"),  # 国标: 136 suit and honor tiles and 8 flowers
    ("competition", "136 tiles, no flowers."),  # 比赛规则: 取消花牌
    ("riichi", "136 tiles, no flowers."),
    ("taiwan", "144 tiles, 8 of them flowers."),  # 台灣十六張: 春夏秋冬 梅蘭竹菊 among the tiles
])
def test_the_tiles_section_counts_the_flowers(name, opening):
    assert tiles_line(name).startswith(opening)


def test_the_tile_count_agrees_with_the_overview():
    # The mcr overview opens "144 tiles: ... and eight flowers"; the Tiles section must not say 136.
    assert load_spec("mcr").doc.strip().startswith("144 tiles")
    assert tiles_line("mcr").startswith("144 tiles")


# ---------------------------------------------------------------- one row per pattern in the comparison


def comparison_rows() -> list[str]:
    page = (DOCS / "compare.md").read_text(encoding="utf-8")
    table = page.split("\n\n## ")[0]
    return [line for line in table.splitlines() if line.startswith("| ") and "](" in line]


# Each pattern as each variant names it (国标, Japanese riichi, Zung Jung v3.3): one pattern, one row.
SAME_PATTERN = {
    "Nine Gates": {"mcr": "九莲宝灯", "riichi": "九蓮宝燈", "zungjung": "九蓮寶燈"},
    "Thirteen Orphans": {"mcr": "十三幺", "riichi": "国士無双", "zungjung": "十三么九"},
    "Seven Pairs": {"mcr": "七对", "riichi": "七対子", "zungjung": "七對子"},
    "All Green": {"mcr": "绿一色", "riichi": "緑一色"},
    "Four Kongs": {"mcr": "四杠", "riichi": "四槓子", "zungjung": "四槓"},
    "All Terminals": {"mcr": "清幺九", "riichi": "清老頭", "zungjung": "清么九"},
    "All Terminals and Honors": {"mcr": "混幺九", "riichi": "混老頭", "zungjung": "混么九"},
}


@pytest.mark.parametrize("pattern", SAME_PATTERN)
def test_the_comparison_has_one_row_for_a_pattern_of_several_names(pattern):
    links = {f"({spec}.md#fan-{fan})" for spec, fan in SAME_PATTERN[pattern].items()}
    rows = [row for row in comparison_rows() if any(link in row for link in links)]
    assert len(rows) == 1, rows
    assert all(link in rows[0] for link in links)
    cells = [cell.strip() for cell in rows[0].split("|")[2:-1]]
    specs = sorted(bundled_specs())
    for spec in SAME_PATTERN[pattern]:
        assert cells[specs.index(spec)] != "—", (spec, rows[0])


def test_one_name_for_two_patterns_makes_two_rows():
    # 清幺九 is all terminals in 国标 and terminals in every set of one suit in Sichuan: two patterns.
    rows = [row for row in comparison_rows() if row.startswith("| 清幺九 ")]
    assert len(rows) == 2 and sum("(sichuan.md#fan-清幺九)" in row for row in rows) == 1
    assert sum("(mcr.md#fan-清幺九)" in row for row in rows) == 1


def test_an_id_names_one_pattern_across_variants(write_spec, tmp_path):
    parent = write_spec('''
        fan 十三幺 "Thirteen Orphans" 88: count(kinds) == 13
            id thirteen_orphans
        fan 大 "Big" 8: count(pungs) == 4
            id all_pungs
        ''', name="parent")
    child = tmp_path / "child.mj"
    child.write_text('variant child "子" "Child"\nextends parent\nreplace fan 十三幺 "Thirteen Orphans" 40: '
                     'count(kinds) == 13\n', encoding="utf-8")
    assert load_spec(str(parent)).pattern("十三幺").identity == "thirteen_orphans"
    assert load_spec(str(child)).pattern("十三幺").identity == "thirteen_orphans"  # a replaced fan keeps it


@pytest.mark.parametrize(("clauses", "message", "at"), [
    ("    id ThirteenOrphans\n", "is not lower-case ASCII", "ThirteenOrphans"),
    ("    id kokushi\nfan 国士 1: count(kinds) == 12\n    id kokushi\n", "both have the id 'kokushi'", "kokushi\n"),
    ("    id kokushi\n    id orphans\n", "has two ids", "orphans"),
])
def test_a_wrong_id_is_an_error_where_it_is_written(write_spec, clauses, message, at):
    from dsl.frontend.source import SpecError
    path = write_spec('fan 十三幺 "Thirteen Orphans" 88: count(kinds) == 13\n' + clauses)
    text = path.read_text(encoding="utf-8")
    where = text.rindex(at) if at.endswith("\n") else text.index(at)
    line = text.count("\n", 0, where) + 1
    column = where - text.rindex("\n", 0, where)
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    d = info.value.diagnostics[0]
    assert message in d.message and (d.span.line, d.span.column) == (line, column)


# ---------------------------------------------------------------- the reading an explanation names


def test_riichi_example_36_reads_the_hand_as_the_checker_does():
    # 2233445566778m + 8m self-drawn: pinfu needs the reading 234 234 678 678m + 55m, the 8m ending 67m (a
    # two-sided wait); 234 234 567 567m + 88m is a single wait on the pair and has no pinfu.
    number = example_number("riichi", "Mahjong Soul: 13 han without a yakuman is a counted yakuman (kazoe)")
    text = section("riichi", f"example-{number}")
    assert "- Reading 读法: `234m 234m 55m 678m* 678m`" in text
    assert "234 234 678 678m + 55m: the 8m ends 67m, a two-sided wait" in text
    assert "[平和](#fan-平和)" in text


READS = '''
    example "读法":
        hand 123m 456m 789m 111p 9p
        win 9p
        reading {groups}
        expect total 0
    '''


def test_an_example_whose_reading_is_not_the_checkers_fails(spec_of):
    from dsl.book.examples import run_examples
    from dsl.interp.interpreter import Interpreter
    right = spec_of(READS.format(groups="123m 456m 789m 111p 99p*"), name="right")
    # `99p*` and `9p9p*` are one pair, however it is written, and the groups may come in any order.
    also_right = spec_of(READS.format(groups="9p9p* 111p 789m 456m 123m"), name="also_right")
    wrong = spec_of(READS.format(groups="123m* 456m 789m 111p 99p"), name="wrong")
    assert [o.problems for o in run_examples(right, Interpreter(right))] == [()]
    assert [o.problems for o in run_examples(also_right, Interpreter(also_right))] == [()]
    problems = run_examples(wrong, Interpreter(wrong))[0].problems
    assert problems == ("expected the reading 123m* 456m 789m 111p 99p, but the checker chose "
                        "123m 456m 789m 111p 99p*",)


def test_a_reading_naming_an_unknown_tile_is_an_error_where_it_is_written(write_spec):
    from dsl.frontend.source import SpecError
    path = write_spec(READS.format(groups="123m 456m 789m 111p 9q*"))
    line = path.read_text(encoding="utf-8").splitlines().index("    reading 123m 456m 789m 111p 9q*") + 1
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    d = info.value.diagnostics[0]
    assert "unknown tile '9q'" in d.message and (d.span.line, d.span.column) == (line, 5)


# ---------------------------------------------------------------- Taiwan: 人胡, 地聽, and the round rules in words


def test_taiwan_renhu_is_a_non_dealers_and_says_whose_reading():
    text = card("taiwan", "人胡")
    assert "— 8" in text.splitlines()[0]  # [D]: 人胡 8
    assert "the winner is not the dealer" in text
    assert "[D]" in text and "sources differ on the dealer" in text


def test_taiwan_has_diting_worth_4_with_a_worked_example():
    # [A] 台灣麻將運動協會 台數計算: 地聽 4 台.
    text = card("taiwan", "地聽")
    assert text.splitlines()[0].endswith("— 4") and "[A]" in text
    linked = re.search(r"- Example 例: \[.*\]\(#example-(\d+)\)", text)
    assert linked is not None
    example = section("taiwan", f"example-{linked.group(1)}")
    assert "| [地聽](#fan-地聽) " in example


@pytest.mark.parametrize("name", ["taiwan", "sichuan", "shenyang", "wuhan"])
def test_round_rules_read_as_a_person_writes_them(name):
    page = book(name)
    assert "pays it 0" not in page  # a kong that pays nothing is said to pay nothing
    assert "2N + 1 + 1" not in page  # a whole-number key is read by its name, not by its description


def test_taiwan_kongs_and_next_hand_in_words():
    page = book("taiwan")
    assert "When a player makes a concealed_kong (Concealed kong), nobody pays anything for it." in page
    assert ("In the next hand, 連莊 is 連莊 + 1 if the dealer won this hand or the hand ended in an exhaustive draw, "
            "otherwise 0.") in page


# ---------------------------------------------------------------- every card teaches its fan by an example about it


def cards(name: str) -> dict[str, str]:
    """Fan name -> its card in the book."""
    spec = load_spec(name)
    return {p.name: card(name, p.name) for p in spec.patterns + spec.loser_patterns}


def counted_in(name: str, number: int) -> dict[str, int]:
    """The fans a worked example shows as counted, each with the points it adds: the winner's in the fan table,
    each loser's in the payments table (`输家小对碰 1 ×2 = 2`)."""
    text = section(name, f"example-{number}")
    rows = re.findall(r"^\| \[([^\]]+)\]\(#fan-[^)]+\)[^|]*\| [^|]*\| (-?\d+) \|$", text, re.M)
    counted = {fan: int(points) for fan, points in rows}
    for share in re.findall(r"^\| \d+ \| [^|]* \| ([^|]*) = -?\d+ \| [^|]* \|$", text, re.M):
        for fan, value, times in re.findall(r"(\S+) (-?\d+)(?: ×(\d+))?", share):
            counted[fan] = max(counted.get(fan, 0), int(value) * int(times or 1))
    return counted


def spellings(p) -> list[str]:
    english = [p.english, p.english.replace(" ", "")] if p.english else []
    return [p.name, *p.aliases, *english]


@pytest.mark.parametrize("name", sorted(bundled_specs()))
def test_every_card_links_to_an_example_about_its_fan(name):
    from dsl.interp.interpreter import Interpreter
    spec = load_spec(name)
    for fan, text in cards(name).items():
        link = re.search(r"^- Example 例: \[(.+)\]\((\w*)(?:\.md)?#example-(\d+)\)", text, re.M)
        assert link is not None, f"{name}: the card of {fan} links to no example"
        title, home, number = link.group(1), link.group(2) or name, int(link.group(3))
        counted = counted_in(home, number)
        assert fan in counted or home != name, f"{name}: {fan}'s example {number} does not count it"
        if home != name:  # a parent's example: the fan counts in it under this variant's own rules too
            parent_example = load_spec(home).examples[number - 1]
            result = Interpreter(spec).evaluate(parent_example.case_dict())
            counted = {f["name"]: f["value"] * f["count"] for f in result.get("fans", ())}
            assert fan in counted, f"{name}: {fan} does not count in {home} example {number} under {name}'s rules"
        named = any(written.lower() in title.lower() for written in spellings(spec.pattern(fan)))
        assert named or counted[fan] == max(counted.values()), f"{name}: {home} example {number} is not about {fan}"


def test_a_card_prefers_the_example_named_after_its_fan():
    # mcr 边张 used to link to the 小四喜 hand, the first where 边张 counts; an example titled 边张 exists.
    assert "- Example 例: [边张: 12万 waiting on 3万 alone](#example-" in card("mcr", "边张")
    assert "- Example 例: [花龙" not in card("mcr", "边张")
