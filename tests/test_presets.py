"""Presets: named rule sets of option values. Their syntax and the errors it can have (file:line:col), inheritance
between presets and from a parent spec, the order options apply in (a case's own > options= > preset >
defaults) in the interpreter and in the compiled checker, every call of a checker and of a settler, the riichi
presets' worked examples and the rule book's table."""

from __future__ import annotations

import json
from array import array

import pytest

import dsl
from dsl.book.examples import run_examples
from dsl.cases.encoded import encode
from dsl.cases.presets import OptionError, OptionsChecker, chosen_options
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler
from dsl.notation import HandError
from dsl.paths import GENERATED_DIR

RULES = """\
melds chow, pung
option big "大番" "Big fans" = false
option base "底" = 1
option strict "只许一门" = false
require 一门 "One suit when strict": not strict or suits == 1
fan 清一色 "Full flush" (10 if big else 3): suits == 1 and not any(tiles, 字)
fan 平胡 "Basic" 1: not 清一色
settle:
    self_drawn: each loser pays total * base
    discard: discarder pays total * base
"""
PRESETS = """\
preset home "家规" "House rules":
    source "the house rules, rule 3"
    doc "big fans"
    big = true
preset club "俱乐部" extends home:
    base = 2
"""
FLUSH = {"hand": "123m456m789m11m23m", "win": "4m"}  # 清一色 on a discard by seat 3 (the seat before seat 0)
MIXED = {"hand": "123m456m789m11p23m", "win": "4m"}


def where(path, needle: str, line_text: str | None = None) -> str:
    """file:line:col of the first `needle` (on the line holding `line_text`, when given), counted by hand."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line and (line_text is None or line_text in line):
            return f"{path}:{number}:{line.index(needle) + 1}"
    raise AssertionError(f"{needle!r} is not in {path}")


def error_at(write_spec, text: str, needle: str, line_text: str | None = None) -> str:
    path = write_spec(RULES + text)
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    [diagnostic] = info.value.diagnostics
    assert str(diagnostic.span) == where(path, needle, line_text), diagnostic.render()
    return diagnostic.message


# ---------------------------------------------------------------- the language


def test_presets_resolve_with_their_parents_settings(spec_of):
    spec = spec_of(RULES + PRESETS)
    home, club = spec.presets
    assert (home.name, home.title, home.english, home.parent) == ("home", "家规", "House rules", None)
    assert home.sources == ("the house rules, rule 3",) and home.doc == "big fans"
    assert club.parent == "home" and club.english is None
    assert dict(club.settings) == {"big": True, "base": 2}  # home's setting, then its own
    assert spec.preset("club") is club and spec.preset("none") is None
    big = next(o for o in spec.options if o.name == "big")
    base = next(o for o in spec.options if o.name == "base")
    assert (big.description, big.english, base.description, base.english) == ("大番", "Big fans", "底", None)


def test_a_child_setting_wins_over_its_parent_preset(spec_of):
    spec = spec_of(RULES + PRESETS + "preset tight \"紧\" extends club:\n    base = 5\n    strict = true\n")
    assert dict(spec.preset("tight").settings) == {"big": True, "base": 5, "strict": True}


@pytest.mark.parametrize(("text", "needle", "line_text", "message"), [
    ('preset p "p":\n    bigg = true\n', "bigg", None, "unknown option 'bigg'"),
    ('preset p "p":\n    big = 3\n', "big", "big = 3", "option 'big' takes a value like False, not 3"),
    ('preset p "p":\n    base = true\n', "base", "base = true", "option 'base' takes a value like 1, not True"),
    ('preset p "p" extends nope:\n    big = true\n', "nope", None, "unknown preset 'nope'"),
    ('preset p "p" extends p:\n    big = true\n', "p:", "extends", "preset 'p' extends itself through p -> p"),
    ('preset a "a" extends b:\n    big = true\npreset b "b" extends a:\n    base = 2\n', "a:", "preset b",
     "preset 'a' extends itself through a -> b -> a"),
    ('preset p "p":\n    big = true\npreset p "again":\n    base = 2\n', "p ", '"again"',
     "preset 'p' is already defined at line"),
    ('preset p "p":\n    big = true\n    big = false\n', "big", "big = false", "preset 'p' sets option 'big' twice"),
    ('example "e":\n    preset nope\n    hand 123m456m789m11m23m\n    win 4m\n', "nope", None, "unknown preset 'nope'"),
    ('example "e":\n    options bigg true\n    hand 123m456m789m11m23m\n    win 4m\n', "bigg", None,
     "unknown option 'bigg'"),
    ('round:\n    at most bigg winners per discard\n', "bigg", None, "unknown name 'bigg'"),
    ('round:\n    at most big winners per discard\n', "big", "at most", "the most winners on one discard"),
])
def test_preset_errors_name_file_line_and_column(write_spec, text, needle, line_text, message):
    assert message in error_at(write_spec, text, needle, line_text)


def test_a_child_spec_inherits_presets_and_may_replace_or_add(write_spec, tmp_path):
    parent = write_spec(RULES + PRESETS, name="parent")
    child = tmp_path / "child.mj"
    child.write_text(f'variant child "子"\nextends {parent.stem}\n'
                     'preset home "子家规":\n    base = 3\n'
                     'preset away "客":\n    strict = true\n', encoding="utf-8")
    spec = load_spec(str(child))
    assert [p.name for p in spec.presets] == ["home", "club", "away"]
    assert spec.preset("home").title == "子家规" and dict(spec.preset("home").settings) == {"base": 3}
    assert dict(spec.preset("club").settings) == {"base": 2}  # club now extends the child's home, which sets no big


def test_examples_take_the_preset_then_their_own_options(spec_of):
    spec = spec_of(RULES + PRESETS + 'example "e":\n    preset club\n    options base 7\n'
                   '    hand 123m456m789m11m23m\n    win 4m\n')
    [example] = spec.examples
    assert example.preset == "club" and example.case_dict()["options"] == {"big": True, "base": 7}


# ---------------------------------------------------------------- applying options


def test_chosen_options_checks_names_and_types(spec_of):
    spec = spec_of(RULES + PRESETS)
    assert chosen_options(spec) == {}
    assert chosen_options(spec, "club", {"base": 9}) == {"big": True, "base": 9}
    with pytest.raises(OptionError, match=r"unknown preset 'hom' \(did you mean home\?\); tiny has: home, club"):
        chosen_options(spec, "hom")
    with pytest.raises(OptionError, match=r"unknown option 'bse' \(did you mean base\?\); tiny has: big, base, strict"):
        chosen_options(spec, None, {"bse": 1})
    with pytest.raises(OptionError, match="option 'big' takes a value like False, not 'yes'"):
        chosen_options(spec, "home", {"big": "yes"})
    with pytest.raises(OptionError, match="as a mapping"):
        chosen_options(spec, None, [("big", True)])  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="tiny has none"):
        chosen_options(spec_of(RULES), "home")


def test_a_case_options_win_over_given_options_over_the_preset(spec_of):
    spec = spec_of(RULES + PRESETS)
    # 清一色 is 3, or 10 with big; the discarder pays total × base.
    plain = Interpreter(spec)
    assert plain.evaluate(FLUSH)["payments"] == [3, 0, 0, -3]
    club = OptionsChecker(plain, spec, chosen_options(spec, "club"))
    assert club.evaluate(FLUSH)["payments"] == [20, 0, 0, -20]  # big 10 × base 2
    given = OptionsChecker(plain, spec, chosen_options(spec, "club", {"base": 3}))
    assert given.evaluate(FLUSH)["payments"] == [30, 0, 0, -30]
    own = given.evaluate(FLUSH | {"options": {"big": False}})
    assert own["payments"] == [9, 0, 0, -9]  # the case's big false, the given base 3


def test_every_call_applies_the_options(spec_of):
    spec = spec_of(RULES + PRESETS)
    strict = OptionsChecker(Interpreter(spec), spec, {"strict": True})
    assert strict.evaluate(MIXED)["winning"] is False and Interpreter(spec).is_winning(MIXED)
    assert not strict.is_winning(MIXED) and strict.is_winning(FLUSH)
    assert [r["winning"] for r in strict.evaluate_many([FLUSH, MIXED])] == [True, False]
    waiting = {"hand": "123m456m789m11p23m"}  # 1m, 4m and 7m complete it, but not as one suit while strict
    assert Interpreter(spec).waits(waiting) == ["1m", "4m", "7m"] and strict.waits(waiting) == []
    assert list(strict.score_many([FLUSH, MIXED]).status) == [1, 0]
    with pytest.raises(HandError, match="unknown option 'bad'"):
        strict.waits(waiting | {"options": {"bad": 1}})
    assert strict.evaluate("not a case")["ok"] is False  # a bad case is refused as before


# ---------------------------------------------------------------- riichi: both back ends


ITTSU = {"hand": "123456789m23p44s", "win": "4p", "riichi": True, "seat_wind": "S"}  # 4 han 30 fu
RENHOU = {"hand": "234m567m11p345s67s", "win": "8s", "first_turn": True, "seat_wind": "W", "discarder": 0}


def back_ends():
    spec = load_spec("riichi")
    return spec, {"interpreter": Interpreter(spec), "compiled": dsl.load("riichi")}


@pytest.mark.parametrize("back_end", ["interpreter", "compiled"])
def test_precedence_in_both_back_ends(back_end):
    spec, checkers = back_ends()
    checker = checkers[back_end]
    if back_end == "compiled":
        assert not isinstance(checker, Interpreter)
    # 4 han 30 fu: basic 30 × 2^6 = 1920, × 4 → 7700; rounded up to a mangan (kiriage, WRC) it is 8000.
    assert checker.evaluate(ITTSU)["payments"] == [-7700, 7700, 0, 0]
    wrc = OptionsChecker(checker, spec, chosen_options(spec, "wrc"))
    assert wrc.evaluate(ITTSU)["payments"] == [-8000, 8000, 0, 0]
    over = OptionsChecker(checker, spec, chosen_options(spec, "wrc", {"kiriage": False}))
    assert over.evaluate(ITTSU)["payments"] == [-7700, 7700, 0, 0]
    assert over.evaluate(ITTSU | {"options": {"kiriage": True}})["payments"] == [-8000, 8000, 0, 0]


def test_load_takes_a_preset_and_options():
    assert dsl.load("riichi", preset="wrc").evaluate(ITTSU)["payments"] == [-8000, 8000, 0, 0]
    assert dsl.load("riichi", options={"kiriage": True}).evaluate(ITTSU)["payments"] == [-8000, 8000, 0, 0]
    # renhou 5 + pinfu 1 = 6 han, a haneman: 3000 × 4 from the dealer; without renhou, pinfu 1 han 30 fu → 1000.
    renhou = dsl.load("riichi", preset="ema").evaluate(RENHOU)
    assert renhou["total"] == 6 and renhou["payments"] == [-12000, 0, 12000, 0]
    assert dsl.load("riichi").evaluate(RENHOU)["payments"] == [-1000, 0, 1000, 0]
    with pytest.raises(OptionError, match="unknown preset 'wcr' .*riichi has: majsoul, tenhou, wrc, ema"):
        dsl.load("riichi", preset="wcr")
    with pytest.raises(OptionError, match="unknown option 'kirage'"):
        dsl.load("riichi", options={"kirage": True})


def test_score_many_applies_the_preset_to_encoded_cases():
    spec, checkers = back_ends()
    # The renhou hand scores 6 han with renhou (EMA) and 1 without (the defaults, and Mahjong Soul's).
    arrays = encode(spec, [RENHOU, ITTSU])
    for checker in checkers.values():
        assert list(checker.score_many(arrays).total) == [1, 4]
        assert list(OptionsChecker(checker, spec, chosen_options(spec, "ema")).score_many(arrays).total) == [6, 4]
        # Mahjong Soul's settings are the defaults: the arrays are scored as they are.
        same = OptionsChecker(checker, spec, chosen_options(spec, "majsoul")).score_many(arrays)
        assert list(same.total) == [1, 4] and isinstance(same.total, array)


# ---------------------------------------------------------------- whole hands of play


def win(seat: int, hand: str, tile: str, discarder: int = 0) -> dict:
    return {"win": {"seat": seat, "hand": hand, "win": tile, "discarder": discarder}}


# Three players win on the dealer's 8s: pinfu (1000), pinfu and tanyao (2000), pinfu (1000).
THREE_RONS = {"events": [win(1, "234m567m11p345s67s", "8s"), win(2, "234m678p22p456s67s", "8s"),
                         win(3, "123p456p789m55m67s", "8s")]}


def test_the_settler_applies_preset_limits_on_winners_per_discard():
    ema = dsl.settler("riichi", preset="ema").settle(THREE_RONS)  # EMA: double and triple ron
    assert ema["ok"] and ema["payments"] == [-4000, 1000, 2000, 1000]
    tenhou = dsl.settler("riichi", preset="tenhou").settle(THREE_RONS)
    assert not tenhou["ok"] and "event 3: the hand ended at event 1: at most 2 players win on one discard" \
        in tenhou["error"]
    two = {"events": THREE_RONS["events"][:2]}
    assert dsl.settler("riichi", preset="tenhou").settle(two)["payments"] == [-3000, 1000, 2000, 0]
    wrc = dsl.settler("riichi", preset="wrc").settle(two)  # head bump: only the first after the discarder wins
    assert not wrc["ok"] and "one player wins on one discard" in wrc["error"]
    # The record's own options win over the settler's preset.
    assert dsl.settler("riichi", preset="wrc").settle(two | {"options": {"multiple_ron": 2}})["ok"]
    with pytest.raises(OptionError, match="unknown preset"):
        dsl.settler("riichi", preset="nope")


def test_a_draw_reads_the_round_options(spec_of):
    """receiver.best scores the ready player's waits under the round's options too."""
    spec = spec_of(RULES + PRESETS + "round:\n    draw 查 \"Check\": each not ready pays receiver.best to each ready\n")
    record = {"events": [{"draw": {"0": {"hand": "123m456m789m11m23m"}, "1": {"hand": "13579p1234567z2p"},
                                   "2": {"hand": "13579p1234567z4p"}, "3": {"hand": "13579p1234567z6p"}}}]}
    plain = RoundSettler(spec, Interpreter(spec)).settle(record)
    club = RoundSettler(spec, Interpreter(spec), chosen_options(spec, "club")).settle(record)
    # Seat 0 waits on 1m or 4m for 清一色: 3 a discard, and 10 × base 2 = 20 under the club's rules.
    assert plain["payments"] == [9, -3, -3, -3] and club["payments"] == [60, -20, -20, -20]


# ---------------------------------------------------------------- the riichi presets


def test_each_riichi_preset_has_five_worked_examples_where_presets_differ():
    spec = load_spec("riichi")
    checker = Interpreter(spec)
    presets = [p.name for p in spec.presets]
    assert presets == ["majsoul", "tenhou", "wrc", "ema"]
    for name in presets:
        examples = [e for e in spec.examples if e.preset == name]
        differing = [e for e in examples if len({json.dumps(_under(checker, spec, e, other), sort_keys=True)
                                                 for other in presets}) > 1]
        assert len(differing) >= 5, name
        assert all(e.comments and CITED[name] in e.comments for e in examples), name


CITED = {"majsoul": "Mahjong Soul", "tenhou": "Tenhou", "wrc": "WRC", "ema": "EMA"}  # each comment names its rules


def _under(checker, spec, example, preset: str) -> dict:
    """The example's hand scored under another preset (its own options dropped)."""
    case = {k: v for k, v in example.case_dict().items() if k != "options"}
    return OptionsChecker(checker, spec, chosen_options(spec, preset)).evaluate(case)


def test_the_riichi_and_sanma_examples_pass():
    for name in ("riichi", "sanma"):
        spec = load_spec(name)
        failed = [o.render() for o in run_examples(spec, Interpreter(spec)) if not o.passed]
        assert not failed, failed


def test_examples_run_under_a_preset_keep_their_own():
    spec = load_spec("riichi")
    outcomes = {o.example.title: o for o in run_examples(spec, Interpreter(spec), chosen_options(spec, "wrc"))}
    assert outcomes["EMA: 4 han 30 fu is not a mangan"].passed  # its own preset (EMA: no kiriage) wins over WRC's
    assert outcomes["Mahjong Soul: no renhou"].passed  # and so does Mahjong Soul's (no renhou)
    # With neither a preset nor options of its own, a hand is scored under the WRC rules: without its red five
    # it is riichi, tanyao and dora, 3 han 50 fu: 50 × 2^5 = 1600, × 4 = 6400, where the spec expects 8000.
    problems = outcomes["Mangan from 4 han 50 fu"].problems
    assert "expected payments [-8000, 8000, 0, 0], got [-6400, 6400, 0, 0]" in problems


def test_the_riichi_book_has_the_options_and_presets_table():
    book = (GENERATED_DIR / "docs" / "riichi.md").read_text(encoding="utf-8")
    header = ("| 选项 Option | 说明 Meaning | 默认 Default | [majsoul](#preset-majsoul) | [tenhou](#preset-tenhou) "
              "| [wrc](#preset-wrc) | [ema](#preset-ema) |")
    assert header in book
    assert ("| `kiriage` | 四番三十符与三番六十符计满贯（切上满贯） · 4 han 30 fu and 3 han 60 fu are rounded up to "
            "mangan (kiriage) | `false` | `false` | `false` | **`true`** | `false` |") in book
    assert "#### <a id=\"preset-ema\"></a>`ema` · 欧洲麻将协会立直比赛规则 · EMA Riichi Competition Rules" in book
    assert "- Extends 基于: [`wrc`](#preset-wrc)" in book
    assert "- Source 出处: World Riichi Championship Rules, Rule Book 2015" in book
    assert ("- Differs from the defaults 与默认不同: `double_yakuman false (default true)`, "
            "`multiple_ron 2 (default 3)`") in book
    assert "nothing: the defaults are this rule set" in book  # majsoul
    assert "- Context 情境: `preset` wrc, `discarder` 0, `first_turn` yes, `seat_wind` W" in book
