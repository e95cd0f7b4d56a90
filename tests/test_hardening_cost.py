"""No spec makes one case cost much: `let`s are worked out once per reading, every number an expression computes is
bounded, combinations over tiles laid aside are bounded from the spec, spec files, strings and rule books are
bounded in size, and values that leave a spec are whole numbers (fractions only in between).

Work is bounded by counts (evaluations, sizes, refusals); what must finish runs in a child process with a limit
of CPU seconds, never against a clock."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest
from fuzz_long import COST_MUTATIONS, file_outcome, spec_texts
from test_cli import run

import dsl
from dsl.book import figures, model
from dsl.frontend.bounds import MAX_COMBINATIONS
from dsl.frontend.parser import MAX_DOC, MAX_NAME, MAX_TITLE, parse
from dsl.frontend.resolve import check, load_spec
from dsl.frontend.source import MAX_SPEC_BYTES, Source, SpecError
from dsl.interp.evaluation import Evaluator
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler

HEAD = 'variant t "T" "T"\nextends sichuan\n'
# In sichuan, 123m 456m 789m 11p with 23p waiting, won on 4p, reads one way only: four chows and the pair 11p.
# Won on a discard by seat 0 (east, the dealer); the discarder is the seat before it, seat 3.
HAND = {"hand": "123m456m789m11p23p", "win": "4p"}


def chain(name: str, first: str, length: int, indent: str = "") -> str:
    """`let NAME0 = first`, then each `let` the sum of the one before it with itself: NAME{length} is
    first * 2^length, and read naively NAME0 is worked out 2^length times."""
    lines = [f"{indent}let {name}0 = {first}\n"]
    lines += [f"{indent}let {name}{i} = {name}{i - 1} + {name}{i - 1}\n" for i in range(1, length + 1)]
    return "".join(lines)


def write(tmp_path: Path, text: str, name: str = "t") -> Path:
    path = tmp_path / f"{name}.mj"
    path.write_text(text, encoding="utf-8")
    return path


def only_error(path: Path) -> tuple[str, str]:
    """The one error of a spec file: (`path:line:column`, message)."""
    spec, diagnostics = check(str(path))
    assert spec is None and len(diagnostics) == 1, [d.render() for d in diagnostics]
    d = diagnostics[0]
    assert d.severity == "error" and d.span is not None
    return str(d.span), d.message


def position(path: Path, text: str) -> str:
    """`path:line:column` of the first place `text` is written in the file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return f"{path}:{number}:{line.index(text) + 1}"
    raise AssertionError(text)


# ---------------------------------------------------------------- 1. `let`s are worked out once


CHAINS = HEAD + chain("a", "suits", 12) + 'fan 链 "Chain" 1: a12 > 0\nscore:\n' + chain("s", "total", 12, "    ") \
    + "settle:\n" + chain("b", "total", 12, "    ") + "    self_drawn: each loser pays b12\n" \
    + "    discard: discarder pays b12\n"


def test_each_let_is_worked_out_once_per_reading_score_and_loser(tmp_path, monkeypatch):
    spec = load_spec(str(write(tmp_path, CHAINS)))
    firsts = {id(b.expr): b.name for b in spec.definitions + spec.score + spec.settlement.bindings
              if b.name in ("a0", "s0", "b0")}
    evaluations: Counter[str] = Counter()
    value = Evaluator.value

    def counted(self, expr, env):
        if id(expr) in firsts:
            evaluations[firsts[id(expr)]] += 1
        return value(self, expr, env)

    monkeypatch.setattr(Evaluator, "value", counted)
    result = Interpreter(spec).evaluate(HAND)
    # 平胡 1 + 链 1 (a12 = 2 suits * 2^12 > 0) = 2; s12 = b12 = 2 * 2^12 = 8192, paid by the discarder, seat 3
    assert result["total"] == 2 and result["s12"] == 8192 and result["payments"] == [8192, 0, 0, -8192]
    # one reading, one score, one loser who pays: each chain's first `let` once (read naively, 2^12 times)
    assert evaluations == {"a0": 1, "s0": 1, "b0": 1}


def test_a_round_let_is_worked_out_once_per_player(tmp_path, monkeypatch):
    spec = load_spec(str(write(tmp_path, HEAD + "round:\n" + chain("r", "suits", 12, "    ")
                               + '    draw 查链 "Chain": each r12 > 0 and not ready pays 1 to each ready\n')))
    first = next(b.expr for b in spec.rounds.bindings if b.name == "r0")
    evaluations = Counter()
    value = Evaluator.value

    def counted(self, expr, env):
        evaluations[expr is first] += 1
        return value(self, expr, env)

    monkeypatch.setattr(Evaluator, "value", counted)
    draw = {"0": {"hand": "123m456p789s1134s"}, "1": {"hand": "13579m12345689p"},  # three suits; no wait
            "2": {"hand": "234p567p999p55m67m"}, "3": {"hand": "345p678p111p22s34s"}}  # ready on 5m 8m; 2s 5s
    result = RoundSettler(spec, Interpreter(spec)).settle({"events": [{"draw": draw}]})
    checks = {c["name"]: c["payments"] for c in result["events"][0]["checks"]}
    assert checks["查链"] == [-2, -2, 2, 2]  # seats 0 and 1 are not ready: each pays 1 to seats 2 and 3
    assert evaluations[True] == 4  # the payer's condition for each of the four players (naively 4 * 2^12)


def test_a_score_let_redefining_a_top_level_one_is_its_own_value(tmp_path):
    spec = load_spec(str(write(tmp_path, HEAD + 'let x = suits\nfan 影 "Shadow" 1: x == 2\nscore:\n'
                                               "    let x = total + 100\n")))
    result = Interpreter(spec).evaluate(HAND)
    # 影 reads the top-level x (2 suits) and counts: 平胡 1 + 影 1 = 2; the result's x is score's, 2 + 100
    assert result["total"] == 2 and result["x"] == 102


def test_a_let_cannot_read_counted_fans(tmp_path):
    path = write(tmp_path, HEAD + "let n = counted_fans\n")
    where, message = only_error(path)
    assert where == position(path, "counted_fans") and "'counted_fans' is only known to a fan's own" in message


# ---------------------------------------------------------------- both back ends, in a child process


# Long chains (2^30 evaluations when read naively), a power past any bound, a negative power and a division by
# zero, each chosen by the option `base`.
COSTLY = HEAD + """\
option base "Which hazard" = 1
fan 大 "Big" 1: base == 2 and ((base ^ 10000) ^ 10000) ^ 10000 > 0
fan 负 "Negative" (2 ^ (suits - 3)): base == 3
fan 零 "Zero" 1: base == 4 and 1 / (suits - 2) > 0
settle:
""" + chain("b", "total", 30, "    ") + "    self_drawn: each loser pays b30\n    discard: discarder pays b30\n"

IN_A_CHILD = """
import json, resource, sys, warnings
import dsl
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
resource.setrlimit(resource.RLIMIT_CPU, (10, 10))
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
path, cases = sys.argv[1], json.loads(sys.argv[2])
with warnings.catch_warnings():
    warnings.simplefilter("error")  # the compiled checker itself, not the interpreter in its place
    compiled = dsl.load(path)
interpreter = Interpreter(load_spec(path))
print(json.dumps([[compiled.evaluate(case), interpreter.evaluate(case)] for case in cases]))
"""


def test_costly_specs_finish_at_once_in_both_back_ends(tmp_path):
    path = write(tmp_path, COSTLY, "costly")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not isinstance(dsl.load(str(path)), Interpreter)  # compiled here, where no CPU limit applies
    cases = [HAND | {"options": {"base": base}} for base in (1, 2, 3, 4)]
    child = subprocess.run([sys.executable, "-c", IN_A_CHILD, str(path), json.dumps(cases)], capture_output=True,
                           text=True, check=False)
    assert child.returncode == 0, child.stderr[-2000:]
    answers = json.loads(child.stdout)
    for compiled, interpreted in answers:
        assert compiled == interpreted
    plain, big, negative, zero = (compiled for compiled, _ in answers)
    # 平胡 1 alone: b30 = 1 * 2^30, paid by the discarder
    assert plain["total"] == 1 and plain["payments"] == [2 ** 30, 0, 0, -2 ** 30]
    assert big == {"ok": False, "error": f"t cannot score this hand: {position(path, 'base ^ 10000')}: 2 ^ 10000 "
                                         "is beyond 128 bits, the bound on every number a spec computes"}
    assert negative["ok"] is False and negative["error"].endswith(
        f"{position(path, '2 ^ (suits')}: 2 ^ -1 is not a whole number (write 1 / 2 ^ 1)")  # two suits: 2 ^ -1
    assert zero["ok"] is False and zero["error"].endswith(f"{position(path, '1 / (suits')}: 1 / 0: division by zero")


# ---------------------------------------------------------------- 2. every number is bounded


def test_a_constant_power_past_the_bound_is_a_diagnostic(tmp_path):
    path = write(tmp_path, HEAD + 'fan 幂 "Power" 1: ((2 ^ 10000) ^ 10000) ^ 10000 > 0\n')
    # the innermost power, 2 ^ 10000, has 10,001 bits
    assert only_error(path) == (position(path, "2 ^ 10000"), "2 ^ 10000 is beyond 128 bits, the bound on every "
                                                             "number a spec computes")


@pytest.mark.parametrize(("expression", "part", "message"), [
    ("2 ^ 127 * 2", "2 ^ 127 * 2", f"{2 ** 127} * 2 is beyond 128 bits"),  # 2^128 has 129 bits
    ("1 / 0", "1 / 0", "1 / 0: division by zero"),
    ("suits + 2 ^ 200", "2 ^ 200", "2 ^ 200 is beyond 128 bits"),
    ("suits ^ (1 - 2)", None, None),  # a whole base to a negative power is whole for 1 and -1: known per hand
])
def test_constant_parts_of_an_expression_are_checked_where_the_spec_is_checked(tmp_path, expression, part, message):
    path = write(tmp_path, HEAD + f'fan 常 "Constant" 1: {expression} > 0\n')
    if part is None:
        assert check(str(path))[0] is not None
    else:
        where, found = only_error(path)
        assert where == position(path, part) and found.startswith(message)


def test_products_past_the_bound_are_refused_where_they_are_written(tmp_path):
    # 3 ^ 80 has 127 bits and is within the bound; its square has 254
    path = write(tmp_path, HEAD + 'option n "N" = 80\nfan 积 "Product" 1: (3 ^ n) * (3 ^ n) > 0\n')
    result = Interpreter(load_spec(str(path))).evaluate(HAND)
    assert result["ok"] is False
    assert result["error"] == f"t cannot score this hand: {position(path, '(3 ^ n) *')}: {3 ** 80} * {3 ** 80} is " \
                              "beyond 128 bits, the bound on every number a spec computes"
    within = Interpreter(load_spec(str(path))).evaluate(HAND | {"options": {"n": 40}})  # 3^80: 127 bits
    assert within["total"] == 2  # 平胡 1 + 积 1


# ---------------------------------------------------------------- 3. combinations over tiles laid aside

FLOWERS = 'variant fl "花" "Flowers"\ntiles:\n    suit m 萬 "Characters" 1..9 ×4\n    suit p 筒 "Dots" 1..9 ×4\n' \
          '    flowers f 花 "Flowers" ×8: ' + ", ".join(f'F{i} "Flower {i}"' for i in range(9)) + "\n" \
          '    flowers g 葉 "Leaves" ×8: ' + ", ".join(f'G{i} "Leaf {i}"' for i in range(9)) + "\n" \
          'tileset 花葉 "Flowers and leaves" = 花 + 葉\nmelds chow, pung, kong\n' \
          'meld 花牌 "Laid aside" = one of 花葉\nshapes standard\ncontext self_drawn\n'


def test_combinations_over_many_tiles_laid_aside_are_a_diagnostic(tmp_path):
    # 2 x 9 flowers x 8 copies = 144 tiles may be laid aside: with a 14-tile hand, 158 groups, C(158, 4) ways
    path = write(tmp_path, FLOWERS + 'fan 四花 "Four flowers" 1 each: combinations(groups, 4, 花葉 and same(suit))\n')
    where, message = only_error(path)
    assert where == position(path, "combinations(")
    assert "combinations of 4 of up to 158 groups (144 tiles laid aside at most)" in message
    assert f"could examine {158 * 157 * 156 * 155 // 24:,} in one reading" in message


def test_the_combination_bound_counts_every_combination_of_the_spec(tmp_path):
    # taiwan's hand: 17 tiles and 8 flowers, 25 groups: C(25, 4) = 12,650 ways, under the bound; a second such fan
    # makes 25,300, over it
    text = (Path("specs/taiwan.mj").read_text(encoding="utf-8").replace("variant taiwan ", "variant tw ", 1)
            + 'fan 四花 "Four flowers" 1 each: combinations(groups, 4, 花 and same(suit))\n')
    assert check(str(write(tmp_path, text, "one")))[0] is not None
    assert 12_650 <= MAX_COMBINATIONS < 2 * 12_650
    path = write(tmp_path, text + 'fan 又四花 "Four flowers again" 1 each: combinations(groups, 4, 花)\n', "two")
    where, message = only_error(path)
    assert where == position(path, "combinations(groups, 4, 花)") and "could examine 25,300 in one reading" in message


def test_a_combination_inside_a_count_is_counted_once_per_element(tmp_path):
    # sichuan's hand holds 14 tiles: count(tiles, ...) looks at 14 + 4 tiles at most (each kong's fourth), and
    # for each the combinations of 4 of at most 14 groups, C(14, 4) = 1,001: 18,018, under the bound. A second
    # such fan passes it: 36,036.
    path = write(tmp_path, HEAD + 'fan 组 "Groups" 1: count(tiles, combinations(groups, 4, 幺九) > 0) > 0\n'
                                  'fan 又组 "Again" 1: count(tiles, combinations(groups, 4, same(suit)) > 0) > 0\n')
    where, message = only_error(path)
    assert where == position(path, "combinations(groups, 4, same") and "could examine 36,036 in one" in message


def test_a_case_lays_aside_no_more_flowers_than_the_set_has(tmp_path):
    # taiwan's flowers are one of each: a ninth flower laid aside is a second copy of one of them
    melds = [f"花牌 {n}f" for n in range(1, 9)] + ["花牌 1f"]
    case = {"hand": "123m456m789m11p23p456s", "win": "4p", "melds": melds}
    for checker in (dsl.load("taiwan"), Interpreter(load_spec("taiwan"))):
        assert checker.evaluate(case) == {"ok": False, "error": "2 copies of 1f (春); the set has 1"}


# ---------------------------------------------------------------- 4. spec files, strings and books


def test_a_spec_file_past_the_size_bound_is_refused_at_its_first_line(tmp_path):
    path = write(tmp_path, HEAD + "#" * MAX_SPEC_BYTES + "\n")
    assert only_error(path) == (f"{path}:1:1", f"the spec is over {MAX_SPEC_BYTES:,} bytes long; a spec file is at "
                                               f"most {MAX_SPEC_BYTES:,} bytes")
    source = Source(str(path), HEAD + "#" * MAX_SPEC_BYTES)  # a text made in memory: refused as it is parsed
    with pytest.raises(SpecError, match=f"the spec is {len(source.text):,} bytes long"):
        parse(source)


@pytest.mark.parametrize(("line", "column", "message"), [
    (f'variant t "{"长" * (MAX_TITLE + 1)}" "T"\nextends sichuan\n', 11,
     f"a string of {MAX_TITLE + 1} characters is too long (at most {MAX_TITLE})"),
    (HEAD + f'doc """{"x" * (MAX_DOC + 1)}"""\n', 5, f"a doc of {MAX_DOC + 1:,} characters is too long (at most "
                                                     f"{MAX_DOC:,})"),
    (HEAD + f"let {'n' * (MAX_NAME + 1)} = 1\n", 5, f"a name of {MAX_NAME + 1:,} characters is too long (at most "
                                                   f"{MAX_NAME:,})"),
])
def test_strings_and_names_past_their_bounds_are_diagnostics(tmp_path, line, column, message):
    path = write(tmp_path, line)
    where, found = only_error(path)
    assert where.endswith(f":{column}") and found == message


def test_a_diagnostic_shows_a_long_line_around_its_span(tmp_path):
    path = write(tmp_path, f'variant t "{"x" * 500}" "T"\n')
    shown = check(str(path))[1][0].render().splitlines()
    assert len(shown[1]) < 200 and shown[2].strip() and len(shown[2]) < 200


def exclusion_chain(fans: int) -> str:
    """Fans each excluding every fan after it: fans * (fans - 1) / 2 不计 edges."""
    lines = [HEAD]
    for i in range(fans):
        later = ", ".join(f"F{j}" for j in range(i + 1, fans))
        lines.append(f'fan F{i} "Fan {i}" 1: suits >= 1\n' + (f"    不计 {later}\n" if later else ""))
    return "".join(lines)


def test_a_book_reads_the_exclusions_once_and_draws_no_figure_past_its_bound(tmp_path, monkeypatch):
    reads = Counter()
    edges = figures.exclusion_edges

    def counted(spec):
        reads["edges"] += 1
        return edges(spec)

    monkeypatch.setattr(figures, "exclusion_edges", counted)
    chained = load_spec(str(write(tmp_path, exclusion_chain(40))))  # 40 * 39 / 2 = 780 edges, and sichuan's 2
    book = model.book(chained)
    assert len(book.edges) == 782 and book.graph is None
    # once for the book's entries, once for its figure (which stops at the count): not once per fan
    assert reads["edges"] == 2
    assert 192 <= figures.MAX_FIGURE_LINKS < 782
    small = load_spec(str(write(tmp_path, exclusion_chain(20), "small")))  # 190 + 2 edges: drawn
    assert model.book(small).graph is not None


# ---------------------------------------------------------------- 5. fractions


@pytest.mark.parametrize(("text", "part", "message"), [
    ('fan 半 "Half" (1/2): suits >= 1', "1/2", "a fan value must be a whole number, but `1/2` may be a fraction"),
    ('fan 半 "Half" 1 each: suits / 2', "suits / 2", "the count of a per-occurrence fan must be a whole number, but "
                                                    "`suits / 2` may be a fraction"),
    ('fan 方 "Root" 1: 2 ^ (1/2) > 0', "1/2", "the exponent of `^` must be a whole number, but `1/2` may be a "
                                             "fraction"),
    ("let 半 = suits / 2\nsettle:\n    self_drawn: each loser pays 半 * 3", "半 * 3",
     "a payment must be a whole number, but `半 * 3` may be a fraction"),
    ("score:\n    let fu = total / 3", "total / 3", "a `score` value must be a whole number"),
])
def test_a_value_that_may_be_a_fraction_where_a_whole_number_is_needed_is_a_diagnostic(tmp_path, text, part, message):
    path = write(tmp_path, HEAD + text + "\n")
    where, found = only_error(path)
    assert where == position(path, part) and found.startswith(message)


def test_a_fraction_may_be_compared_and_rounded(tmp_path):
    # 平胡 1, 半 counts (2 suits / 2 = 1 >= 1), 整 (a value of 3 / 2 rounded up: 2): total 1 + 1 + 2 = 4. The
    # discarder pays 4 * 3 / 2 = 6, rounded up to a multiple of 4: 8.
    path = write(tmp_path, HEAD + 'fan 半 "Half" 1: suits / 2 >= 1\nfan 整 "Whole" (roundup(3 / 2, 1)): true\n'
                                  "settle:\n    let 半价 = total * 3 / 2\n"
                                  "    self_drawn: each loser pays roundup(半价, 4)\n"
                                  "    discard: discarder pays roundup(半价, 4)\n", "rounded")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled = dsl.load(str(path))
    for checker in (compiled, Interpreter(load_spec(str(path)))):
        result = checker.evaluate(HAND)
        assert result["total"] == 4 and result["payments"] == [8, 0, 0, -8]
        assert json.loads(json.dumps(result)) == result


def test_scoring_with_a_spec_that_divides_into_a_value_shows_the_diagnostic(capsys, tmp_path):
    path = write(tmp_path, HEAD + 'fan 半 "Half" (1/2): suits >= 1\n')
    code, out, err = run(capsys, "score", str(path), "123m456m789m11p23p", "--win", "4p")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"{position(path, '1/2')}: error: a fan value must be a whole number")
    code, out, err = run(capsys, "score", str(path), "--jsonl", stdin=json.dumps(HAND))
    assert code == 1 and out == "" and "whole number" in err


def test_fractions_in_between_leave_whole_numbers(tmp_path):
    # 分: max(roundup(2 suits / 3, 1), min(1, 2)) = max(1, 1) = 1; it counts: |-(2/3)| < 1, and the ranks of the
    # tiles over 9 sum to (45 + 1 + 1 + 2 + 3 + 4) / 9 = 56/9 > 1. Total 平胡 1 + 分 1 = 2: the discarder pays
    # 2 ^ (2 - 1) = 2.
    spec = load_spec(str(write(tmp_path, HEAD + 'fan 分 "Parts" (max(roundup(suits / 3, 1), min(1, 2))): '
                                                "abs(-(suits / 3)) < 1 and sum(tiles, rank / 9) > 1\n")))
    result = Interpreter(spec).evaluate(HAND)
    assert result["total"] == 2 and result["payments"] == [2, 0, 0, -2]
    values = [f["value"] for f in result["fans"]] + [f["count"] for f in result["fans"]] + result["payments"]
    assert all(type(v) is int for v in values), values


# ---------------------------------------------------------------- the long fuzz's families, a short share


@pytest.mark.parametrize("family", sorted(COST_MUTATIONS))
def test_each_cost_family_of_the_long_fuzz_gives_a_diagnostic_or_a_spec_that_scores(tmp_path, family):
    rng = random.Random(family)
    texts = spec_texts()
    for name in ("sichuan", "taiwan"):
        data = COST_MUTATIONS[family](texts[name], rng).encode("utf-8", "surrogatepass")
        assert file_outcome(data, tmp_path, f"{family}-{name}") in ("error", "valid")


def test_the_bound_knows_every_source_a_count_or_combination_may_take():
    from dsl.frontend.bounds import Sizes
    from dsl.vocabulary import SOURCES
    assert set(SOURCES) <= set(Sizes.of_spec(load_spec("mcr")).of)
