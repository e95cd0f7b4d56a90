"""The compiled checkers answer exactly as the interpreter: same results, same errors, same waits."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from conftest import tiles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parity import answer

import dsl
from dsl.build import stale_files
from dsl.cases.case import read_case
from dsl.cases.samples import random_cases
from dsl.cases.scores import Scores
from dsl.compiled import codegen
from dsl.compiled.checkers import checker_for
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.notation import HandError
from dsl.paths import GENERATED_DIR, bundled_specs

SPECS = bundled_specs()
HANDS = 10_000


@pytest.fixture(scope="module", params=SPECS)
def pair(request):
    """(compiled checker, reference interpreter) of one bundled spec."""
    spec = load_spec(request.param)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing or stale extension is a failure here, not a fallback
        compiled = dsl.load(request.param)
    return compiled, Interpreter(spec)


def test_random_cases_score_as_the_interpreter(pair):
    compiled, interpreter = pair
    cases = random_cases(interpreter.spec, HANDS, seed=4)
    differ = [(case, answer(interpreter.evaluate, case), answer(compiled.evaluate, case)) for case in cases]
    differ = [d for d in differ if d[1] != d[2]]
    assert not differ, f"{len(differ)} of {HANDS} differ, first: {differ[0]}"
    outcomes = {json.loads(answer(interpreter.evaluate, c)).get("winning") for c in cases[:500]}
    assert outcomes == {True, False, None}, "the cases should hold wins, non-wins and errors"


def test_random_cases_reach_integer_keys_and_own_shapes(pair):
    """The random cases the parity tests compare give every integer key both ends of its range, and
    reach each of the spec's own shapes (a spec without them passes trivially)."""
    _, interpreter = pair
    spec = interpreter.spec
    cases = random_cases(spec, 2000, seed=4)
    for key in (k for k in spec.context if k.kind == "int"):
        given = {case.get(key.name) for case in cases}
        assert {key.low, key.high} <= given, key.name
    reached: set[str] = set()
    for case in cases:
        try:
            hand = read_case(spec, case)
        except HandError:
            continue
        if hand.win is not None:
            reached |= {d.shape for d in interpreter._own_shapes(interpreter.facts(hand))}
    assert reached == {rule.name for rule in spec.shape_rules}


def test_batch_entry_point_matches_single_calls(pair):
    compiled, interpreter = pair
    cases = random_cases(interpreter.spec, 500, seed=5)
    assert compiled.evaluate_many(cases) == [interpreter.evaluate(c) for c in cases]
    assert compiled.evaluate_many(iter(cases[:10])) == compiled.evaluate_many(cases[:10])


def test_waits_and_is_winning_match(pair):
    compiled, interpreter = pair
    for case in random_cases(interpreter.spec, 400, seed=6):
        assert answer(compiled.waits, case) == answer(interpreter.waits, case), case
        assert compiled.is_winning(case) == interpreter.is_winning(case), case


def test_input_that_is_not_a_plain_case(pair):
    compiled, interpreter = pair
    odd = [None, [], "123m", {"hand": None}, {"hand": "1m" * 13, "win": None}, {"hand": b"123m"},
           {"hand": "123m456m789m1122p", "win": "3p", "melds": ("pung 111p",)}]
    for case in odd:
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case
        assert answer(compiled.waits, case) == answer(interpreter.waits, case), case


@st.composite
def hand_cases(draw, spec):
    """Hands drawn tile by tile from a few neighbouring tiles, so that some of them win."""
    tiles = [t for t in spec.tiles if not any(s.flowers and s.code == t.suit for s in spec.suits)]
    start = draw(st.integers(0, max(len(tiles) - 12, 0)))
    pool = st.sampled_from([t.code for t in tiles[start:start + 12]])
    case = {"hand": "".join(draw(st.lists(pool, min_size=12, max_size=14))), "win": draw(pool)}
    for key in spec.context:
        if key.kind == "flag" and draw(st.booleans()):
            case[key.name] = draw(st.booleans())
    return case


@pytest.mark.parametrize("name", SPECS)
def test_hypothesis_hands(name):
    spec = load_spec(name)
    compiled, interpreter = checker_for(spec), Interpreter(spec)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hand_cases(spec))
    def check(case):
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case)

    check()


def test_generated_checkers_are_up_to_date():
    files = codegen.generate_all([load_spec(name) for name in SPECS], GENERATED_DIR)
    assert stale_files(files) == [], "run `mjdsl build`"
    assert sorted(p.name for p in GENERATED_DIR.glob("*.pyx")) == sorted(f"{n}.pyx" for n in SPECS)


def test_generation_is_deterministic():
    spec = load_spec("sichuan")
    assert codegen.generate(spec) == codegen.generate(load_spec("sichuan"))


def test_a_stale_extension_falls_back_to_the_interpreter():
    spec = dataclasses.replace(load_spec("sichuan"), source_hash="0" * 16)
    with pytest.warns(UserWarning, match="another version"):
        checker = checker_for(spec)
    assert isinstance(checker, Interpreter)


def test_unsupported_ir_is_named():
    spec = load_spec("sichuan")
    unknown = dataclasses.replace(spec, principles=("新原则",))
    with pytest.raises(codegen.CodegenError, match="新原则"):
        codegen.generate(unknown)

    @dataclasses.dataclass(frozen=True)
    class Mystery(ir.Expr):
        pass

    fan = dataclasses.replace(spec.patterns[0], condition=Mystery(spec.patterns[0].span))
    with pytest.raises(codegen.CodegenError, match="Mystery"):
        codegen.generate(dataclasses.replace(spec, patterns=(fan, *spec.patterns[1:])))


TWO_FLOWERS = 'flowers f 花 "Flowers" ×1: 春 "Spring", 夏 "Summer"'
FEATURES = 'variant features "功能" "Every feature"\n' + tiles("mp", TWO_FLOWERS) + """\
tileset 幺九 "Terminals and honors" = rank 1 9 + 字
meld 亮 "Shown" = 白 发 中
shapes standard, seven_pairs, thirteen_orphans
context self_drawn, seat_wind, round_wind, flowers, kong_replacement, other_melds
option bonus "Bonus" = 2
option strict "Strict" = false
require 有幺九 "A terminal or honor": any(tiles, 幺九) or not strict
let 门清 = not opened
fan 平 "Plain" 1: shape == standard
fan 半 "Half" (bonus * 3): count(pungs) == 4
fan 七 "Pairs" 4: shape == seven_pairs
    不计 平
fan 幺 "Orphans" 13: shape == thirteen_orphans
fan 风 "Wind" 1 each: count(pungs, tile == seat_wind) + count(pungs, tile == round_wind)
fan 花 "Flowers" 1 each: flowers
fan 分 "Half" (roundup(bonus / 2, 1)) each: count(pairs, 幺九)
fan 顺 "Runs" 1 each: combinations(chows, 2, same(suit) and step == 3)
fan 门 "Closed" 2: 门清 and abs(suits - 2) <= max(1, min(bonus, 3))
fan 亮牌 "Shown" 1: any(groups, 亮)
fan 他 "Others' melds" 1 each:
    count(other_melds, kong and concealed) + sum(other_melds, 1 if 幺九 else 0) + (1 if any(other_melds, 亮) else 0)
fan 无 "Nothing else" 1: counted_fans == 0
loser fan 庄 "Dealer" 1: loser.dealer or is_dealer
loser fan 闭 "Closed loser" 1: not loser.opened
    不计 庄
settle:
    let base = 2 ^ (total - 1) + loser_total
    let 底 = table(total - 2:
        -1 -> 1, 0 -> 2, 1 → 4, 3..5 -> 16, 8 -> 64,
        else 128)
    self_drawn: each loser pays base + 底 + table(total: 9 -> 2 ^ 60, else 0)
    discard: discarder pays sum(losers, base); each other pays roundup(total / 3, 1) + table(loser.dealer:
        1 -> 5, else 2)
"""


RESULTS = 'variant results "结果" "Results and indicators"\n' + tiles("mps", "red fives ×1") + """\
order 东 南 西 北
order 白 发 中
tileset 幺九 "Terminals and honors" = rank 1 9 + 字
shapes knitted_straight, standard, seven_pairs, honors_and_knitted
context self_drawn, seat_wind, dora, honba, riichi_sticks
option need "Fan needed" = 1
principles 套算一次
prefer 连
minimum need excluding 宝
supersede from 13
fan 大 "Big" 13: count(pungs) == 4
fan 平 "Plain" 1: shape == standard or shape == knitted_straight
fan 对 "Pairs" 2: shape == seven_pairs
fan 龙 "Knitted" 3: shape == honors_and_knitted or shape == knitted_straight
fan 头 "Pair tile" 1: pair in 幺九 or next(pair) == win
fan 连 "Runs" 1 each: combinations(chows, 2, same(suit) and step == 3)
fan 同 "Same" 2: combinations(chows, 3, distinct(suit) and step == 0)
fan 宝 "Dora" 1 each: indicated(dora) if counted_fans > 0 else 0
fan 红 "Red" 1 each: red_fives
score:
    let points = roundup(total * 150, 100)
    let value = points * 10 + total
settle:
    self_drawn: each loser pays roundup(points / 3, 100) + 100 * honba
    discard: discarder pays points + 300 * honba
    pot: 1000 * riichi_sticks
"""


def compiled_on_demand(text: str, tmp_path: Path, monkeypatch) -> tuple:
    """(compiled checker, interpreter) of a spec written to a file; falling back to the interpreter fails."""
    monkeypatch.setenv("MJDSL_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "features.mj"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    spec = load_spec(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = dsl.load(str(path))
    return compiled, Interpreter(spec)


@pytest.mark.parametrize("text", [FEATURES, RESULTS], ids=["features", "results"])
def test_every_feature_compiles_on_demand_and_matches(text, tmp_path, monkeypatch):
    compiled, interpreter = compiled_on_demand(text, tmp_path, monkeypatch)
    spec = interpreter.spec
    assert compiled.SPEC_HASH == spec.source_hash and list((tmp_path / "cache").glob("*/checker_*"))
    for case in random_cases(spec, 3000, seed=7):
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case
    assert dsl.load(str(tmp_path / "features.mj")) is not None  # the second load comes from the cache


# ---------------------------------------------------------------- the shared runtime, escaping, overflow


def test_importing_a_checker_imports_nothing_of_the_compiler():
    code = ("import sys, dsl.generated.sichuan; "
            "print(sorted(m for m in ('lark', 'jinja2', 'dsl.compiled.codegen', 'dsl.frontend.resolve', 'Cython')"
            " if m in sys.modules))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


def test_score_many_matches_evaluate(pair):
    compiled, interpreter = pair
    cases = random_cases(interpreter.spec, 500, seed=8) + [{"hand": "xx"}]
    scores = compiled.score_many(cases)
    assert len(scores) == len(cases)
    for i, case in enumerate(cases):
        result = compiled.evaluate(case)
        expected = -1 if not result["ok"] else int(bool(result["winning"]))
        assert scores.status[i] == expected, case
        assert scores.total[i] == result.get("total", 0), case
        fans = [(f["name"], f["value"], f["count"]) for f in result.get("fans", [])]
        assert scores.fans_of(i) == fans, case
        assert scores.error_of(i) == (None if result["ok"] else result["error"]), case
    some = cases[:100] + cases[-1:]
    by_interpreter, compiled_scores = interpreter.score_many(some), compiled.score_many(some)
    for column in Scores.__slots__:
        assert getattr(by_interpreter, column) == getattr(compiled_scores, column), column


def test_a_winning_tile_is_among_the_waits_of_the_hand_without_it(pair):
    """Waits are searched only on tiles that may complete a shape: a winning hand's tile must never be
    left out. The interpreter confirms a sample (it tries every tile)."""
    compiled, interpreter = pair
    spec = interpreter.spec
    flowers = {spec.tiles[t].code for t in spec.flower_tiles()}
    winning = [c for c in random_cases(spec, 600, seed=11, kinds={"winning": 1})
               if compiled.evaluate(c).get("winning") and c["win"] not in flowers]  # a flower is drawn, not waited on
    assert len(winning) > 20, "the sample should hold wins"
    for number, case in enumerate(winning):
        waiting = {k: v for k, v in case.items() if k != "win"}
        win = "5" + case["win"][1:] if case["win"].startswith("0") else case["win"]  # a red five is a five
        assert win in compiled.waits(waiting), case
        if number < 15:
            assert compiled.waits(waiting) == interpreter.waits(waiting), case


def test_case_keys_need_not_be_the_objects_seen_before(pair):
    """Keys, option names and text values are found by address once seen; fresh string objects (a case
    read from JSON, or built piece by piece), more of them than the cache holds, read the same."""
    compiled, interpreter = pair
    cases = random_cases(interpreter.spec, 300, seed=12)
    fresh = [json.loads(json.dumps(case)) for case in cases]
    built = [{"".join(list(key)): value for key, value in case.items()} for case in cases]
    expected = [answer(interpreter.evaluate, case) for case in cases]
    assert [answer(compiled.evaluate, case) for case in fresh] == expected
    assert [answer(compiled.evaluate, case) for case in built] == expected
    assert [answer(compiled.evaluate, case) for case in cases] == expected


def test_results_share_no_objects(pair):
    """Each result is its own: changing one (its fans, its payments) changes no other."""
    compiled, interpreter = pair
    case = next(c for c in random_cases(interpreter.spec, 200, seed=13, kinds={"winning": 1})
                if compiled.evaluate(c).get("winning") and compiled.evaluate(c).get("fans"))
    first = compiled.evaluate(case)
    first["fans"][0]["count"] = -1
    first["fans"][0]["name"] = "changed"
    first["fans"].append("changed")
    for payment in range(len(first.get("payments", []))):
        first["payments"][payment] = 10 ** 6
    first["total"] = -1
    assert compiled.evaluate(case) == interpreter.evaluate(case)


def test_a_spec_path_with_a_newline_runs_no_code(tmp_path):
    folder = tmp_path / 'd\nimport os; os.system("echo X > PWNED")\n#'
    folder.mkdir()
    (folder / "evil.mj").write_text('variant evil "e" "e"\nextends sichuan\n', encoding="utf-8")
    env = {**os.environ, "MJDSL_CACHE": str(tmp_path / "cache")}
    mjdsl = Path(sys.executable).with_name("mjdsl")
    shown = subprocess.run([str(mjdsl), "score", str(folder / "evil.mj"), "123m456m789m11p23p", "--win", "4p"],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert not list(tmp_path.rglob("PWNED"))
    assert shown.returncode == 0, shown.stderr
    assert list((tmp_path / "cache").glob("*/checker_*"))  # it was compiled, not left to the interpreter


# Titles, docs and names with quotes, backslashes, line breaks and template markup.
TRICKY = "\n".join([
    'variant tricky "怪 \\\\ {{ x }} %} end" "Odd \\\\ {% if %} title"',
    "extends mcr",
    'doc """',
    "A doc with three quotes \\\"\\\"\\\" and \'\'\' , a backslash \\ in a line",
    "{{ braces }} {% block %} %} and # a hash",
    '"""',
    'fan 怪 "Odd \\\\ {{ y }} %}" 1: suits <= 3',
    '    doc """line one',
    '    line two {{ z }} %} \\ """',
    "",
])


def test_spec_text_that_looks_like_code_generates_a_module_that_compiles(tmp_path, monkeypatch):
    monkeypatch.setenv("MJDSL_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "tricky.mj"
    path.write_text(TRICKY, encoding="utf-8")
    spec = load_spec(str(path))
    assert "\\" in spec.doc and "\n" in spec.doc and "{{" in spec.title  # the text reaches the generator
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = dsl.load(str(path))
    interpreter = Interpreter(spec)
    for case in random_cases(spec, 300, seed=9):
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case
    names = [f["name"] for f in compiled.evaluate({"hand": "123m456m789m1122p", "win": "2p"})["fans"]]
    assert "怪" in names


# 2^53 is the largest number the compiled arithmetic holds; 2^53 + 1 is worked out here, exactly, by hand.
OVERFLOW = """\
variant overflow "溢出" "Overflow"
extends mcr
fan 和 "Sum" (9007199254740992 + 1): suits <= 3
fan 积 "Product" (4294967296 * 4294967296): suits <= 3
"""


def test_values_beyond_64_bit_arithmetic_are_answered_exactly(tmp_path, monkeypatch):
    monkeypatch.setenv("MJDSL_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "overflow.mj"
    path.write_text(OVERFLOW, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = dsl.load(str(path))
    assert not isinstance(compiled, Interpreter)
    result = compiled.evaluate({"hand": "123m456m789m1122p", "win": "2p"})
    values = {f["name"]: f["value"] for f in result["fans"]}
    assert values["和"] == 9007199254740993
    assert values["积"] == 2 ** 64  # 4294967296 = 2^32
    assert result["total"] > 2 ** 64  # more than a 64-bit total holds: counted exactly


SEATS = 'variant seats "座位" "Seats in conditions"\n' + tiles() + """\
context self_drawn, seat_wind, seat, dealer, discarder
fan 放 "The dealer discarded" 1: discarder == dealer
fan 坐 "Seat number" 1 each: seat
fan 庄 "Dealer number" 1 each: dealer
settle:
    self_drawn: each loser pays total
    discard: discarder pays total
"""


def _resolved_seats(case: dict) -> tuple[int, int, int]:
    """(seat, dealer, discarder) as docs/interface.md defaults them; -1: no discarder (self-drawn)."""
    dealer = case.get("dealer", 0)
    seat = case.get("seat", (dealer + "ESWN".index(case.get("seat_wind", "E"))) % 4)
    discarder = -1 if case.get("self_drawn") else case.get("discarder", (seat - 1) % 4)
    return seat, dealer, discarder


def test_conditions_read_seat_dealer_and_discarder_with_their_defaults(tmp_path, monkeypatch):
    compiled, interpreter = compiled_on_demand(SEATS, tmp_path, monkeypatch)
    base = {"hand": "123m456m789p123p5p", "win": "5p"}
    cases = []
    for wind in (None, "E", "S", "W", "N"):
        for dealer in (None, 0, 2):
            for discarder in (None, 1, 2):
                for self_drawn in (False, True):
                    more = {"seat_wind": wind, "dealer": dealer, "discarder": discarder,
                            "self_drawn": self_drawn or None}
                    cases.append(base | {k: v for k, v in more.items() if v is not None})
    checked = 0
    for case in cases:
        expected = answer(interpreter.evaluate, case)
        assert answer(compiled.evaluate, case) == expected, case
        result = json.loads(expected)
        seat, dealer, discarder = _resolved_seats(case)
        if seat == discarder:
            assert not result["ok"] and "cannot be the winner" in result["error"], case
            continue
        if case.get("self_drawn") and "discarder" in case:  # nobody discarded a tile drawn
            assert not result["ok"] and "on a self-drawn win" in result["error"], case
            continue
        fans = {f["name"]: f["count"] for f in result["fans"]}
        assert fans.get("放", 0) == int(discarder == dealer), case
        assert (fans.get("坐", 0), fans.get("庄", 0)) == (seat, dealer), case
        checked += 1
    assert checked > len(cases) // 2

