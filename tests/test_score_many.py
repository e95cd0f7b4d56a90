"""score_many and evaluate_many on input that changes under them or is not quite plain: a list that grows
while it is scored, a list whose __len__ lies, winds and dora indicators given as str subclasses, results
whose numbers the compact arrays cannot hold; and the interpreter's score_many, equal to the compiled one."""

from __future__ import annotations

import enum
import subprocess
import sys
import warnings
from collections.abc import Iterator, Mapping

import pytest

import dsl
from dsl.cases.scores import Scores
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter

NUMBERS = """\
variant numbers "数" "Numbers"
tiles:
    suit m 万 "Characters" 1..9 ×4
    suit p 筒 "Dots" 1..9 ×4
    honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"
melds chow, pung
context self_drawn
option power "Power of two" = 1
fan 平 "Plain" 1: shape == standard
fan 幂 "Power" (2 ^ power): shape == standard
"""

PLAIN = {"hand": "123m456m789m123p5p", "win": "5p"}  # four chows and a pair: a standard hand, no more


class Wind(enum.StrEnum):
    E = "E"
    S = "S"


class Tiles(enum.StrEnum):
    FOUR_DOTS = "4p"


class Lying(list):
    """A list that says it holds one case, whatever it holds."""

    def __len__(self) -> int:
        return 1


class Growing(Mapping):
    """A case (not a dict, so the checker reads it in Python) that appends more cases to `batch` each time it
    is read: the batch grows while it is scored."""

    def __init__(self, case: dict, batch: list):
        self.case, self.batch = case, batch

    def __getitem__(self, key: str) -> object:
        self.batch.extend([PLAIN] * 5)
        return self.case[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.case)

    def __len__(self) -> int:
        return len(self.case)


@pytest.fixture(scope="module")
def numbers(tmp_path_factory) -> tuple:
    """(compiled checker, interpreter) of NUMBERS, compiled into a cache of this module's own."""
    folder = tmp_path_factory.mktemp("numbers")
    path = folder / "numbers.mj"
    path.write_text(NUMBERS, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings():
        patch.setenv("MJDSL_CACHE", str(folder / "cache"))
        warnings.simplefilter("error")  # a fallback to the interpreter is a failure here
        compiled = dsl.load(str(path))
    assert not isinstance(compiled, Interpreter)
    return compiled, Interpreter(load_spec(str(path)))


@pytest.fixture(scope="module")
def mcr():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return dsl.load("mcr"), Interpreter(load_spec("mcr"))


def columns(scores: Scores) -> dict[str, object]:
    """Everything a Scores holds, to compare two of them."""
    return {name: getattr(scores, name) for name in Scores.__slots__}


def expected_columns(checker, cases: list) -> dict[str, list]:
    """What score_many must give, case by case from evaluate (results that fit 64-bit integers)."""
    status, totals, fans = [], [], []
    for case in cases:
        result = checker.evaluate(case)
        status.append(int(bool(result["winning"])) if result["ok"] else -1)
        totals.append(result.get("total", 0))
        fans.append([(f["name"], f["value"], f["count"]) for f in result.get("fans", [])])
    return {"status": status, "total": totals, "fans": fans}


def read_columns(scores: Scores) -> dict[str, list]:
    return {"status": list(scores.status), "total": list(scores.total),
            "fans": [scores.fans_of(i) for i in range(len(scores))]}


def test_a_list_growing_while_it_is_scored_gives_one_entry_per_case_it_held(mcr):
    compiled, _ = mcr
    batch: list = [PLAIN, {"hand": "xx"}]
    batch += [Growing(PLAIN, batch), PLAIN]
    held = list(batch)
    scores = compiled.score_many(batch)
    assert len(batch) > len(held)  # it grew during the call
    assert read_columns(scores) == expected_columns(compiled, held)
    batch[:] = held
    assert len(compiled.evaluate_many(batch)) == len(held) and len(batch) > len(held)


def test_a_list_whose_length_lies_is_scored_by_what_it_holds(mcr):
    compiled, interpreter = mcr
    batch = Lying([PLAIN, {"hand": "xx"}, PLAIN | {"win": "6p"}] * 20)
    held = list(batch)
    assert len(batch) == 1 and len(held) == 60
    scores = compiled.score_many(batch)
    assert len(scores) == 60 and read_columns(scores) == expected_columns(compiled, held)
    assert compiled.evaluate_many(batch) == [compiled.evaluate(case) for case in held]
    assert columns(interpreter.score_many(batch)) == columns(scores)


def test_an_iterator_is_scored_as_the_list_it_yields(mcr):
    compiled, interpreter = mcr
    cases = [PLAIN, {"hand": "xx"}]
    for checker in (compiled, interpreter):
        assert columns(checker.score_many(iter(cases))) == columns(checker.score_many(cases))
        assert checker.evaluate_many(iter(cases)) == checker.evaluate_many(cases)


def test_winds_given_as_a_str_enum_score_their_wind_fans(mcr):
    # mcr's example "字一色 with 双箭刻 and both winds": 东 白 claimed, 南 concealed, 中 on the discard, pair
    # 北北; seat wind S, round wind E. 字一色 64, 双箭刻 6, and 圈风刻 2 (东, the round wind), 门风刻 2
    # (南, the seat wind): 74. Winds given as enum members read as the letters they are.
    case = {"melds": ["pung 111z", "pung 555z"], "hand": "222z44z77z", "win": "7z"}
    expected = [("字一色", 64, 1), ("双箭刻", 6, 1), ("圈风刻", 2, 1), ("门风刻", 2, 1)]
    for checker in mcr:
        for winds in ({"seat_wind": Wind.S, "round_wind": Wind.E}, {"seat_wind": Wind.S}):
            result = checker.evaluate(case | winds)
            assert [(f["name"], f["value"], f["count"]) for f in result["fans"]] == expected
            assert result == checker.evaluate(case | {key: str(value) for key, value in winds.items()})
        scores = checker.score_many([case | {"seat_wind": Wind.S, "round_wind": Wind.E}])
        assert scores.fans_of(0) == expected and scores.total[0] == 74
    wrong = mcr[0].evaluate(case | {"seat_wind": Tiles.FOUR_DOTS})
    assert wrong == mcr[1].evaluate(case | {"seat_wind": Tiles.FOUR_DOTS})
    assert wrong["error"] == "'seat_wind' is one of E, S, W, N, not <Tiles.FOUR_DOTS: '4p'>"


def test_a_dora_indicator_given_as_a_str_enum_counts_its_dora():
    # Riichi on 123 456 789万 123筒 and the pair 55筒: the indicator 4筒 points at 5筒, held twice: ドラ 1 × 2,
    # with 立直 1 and 一気通貫 2.
    compiled, interpreter = dsl.load("riichi"), Interpreter(load_spec("riichi"))
    case = {"hand": "123m456m789m123p5p", "win": "5p", "riichi": True}
    expected = [("立直", 1, 1), ("一気通貫", 2, 1), ("ドラ", 1, 2)]
    for checker in (compiled, interpreter):
        result = checker.evaluate(case | {"dora": Tiles.FOUR_DOTS})
        assert result == checker.evaluate(case | {"dora": "4p"})
        assert [(f["name"], f["value"], f["count"]) for f in result["fans"]] == expected
        scores = checker.score_many([case | {"dora": Tiles.FOUR_DOTS}, case | {"dora": "4p"}])
        assert scores.fans_of(0) == scores.fans_of(1) == expected and not scores.errors


def test_numbers_beyond_the_arrays_are_error_entries_of_their_own(numbers):
    compiled, interpreter = numbers
    # 平 1, 幂 2 ^ power. Option power 1: 1 + 2 = 3. Power 62: 1 + 2^62 fits 64 bits; power 63: 2^63 + 1 does
    # not (the largest is 2^63 - 1); power 200: 2^200 is past the 128 bits any value of a spec may take.
    options = [{}, {"power": 200}, {"power": 62}, {"power": 63}, {}]
    cases = [PLAIN | {"options": o} for o in options] + [{"hand": "1x"}]
    results = [compiled.evaluate(case) for case in cases]
    assert [r.get("total") for r in results] == [3, None, 2 ** 62 + 1, 2 ** 63 + 1, 3, None]
    assert "2 ^ 200 is beyond 128 bits" in results[1]["error"]
    scores = compiled.score_many(cases)
    assert list(scores.status) == [1, -1, 1, -1, 1, -1]
    assert list(scores.total) == [3, 0, 2 ** 62 + 1, 0, 3, 0]
    assert scores.fans_of(2) == [("平", 1, 1), ("幂", 2 ** 62, 1)] and scores.fans_of(1) == []
    assert scores.error_of(0) is None and scores.error_of(5) == results[5]["error"]
    assert scores.error_of(1) == results[1]["error"]
    assert scores.error_of(3).startswith(f"the total is {2 ** 63 + 1}, beyond 64 bits")
    assert columns(interpreter.score_many(cases)) == columns(scores)


# ---------------------------------------------------------------- a small thread stack

SMALL_STACK = """
import json, sys, threading
import dsl
from dsl.cases.samples import random_cases
from dsl.frontend.resolve import load_spec

def answers(name):
    checker = dsl.load(name)
    cases = random_cases(load_spec(name), 150, seed=11)
    waiting = [{k: v for k, v in c.items() if k != "win"} for c in cases]
    out = [checker.evaluate(c) for c in cases]
    out += [checker.waits(c) if checker.evaluate(c).get("ok") else None for c in waiting]
    scores = checker.score_many(cases)
    out += [list(scores.status), list(scores.total)]
    return out

names = sys.argv[2:]
expected = {name: answers(name) for name in names}  # on the main thread's large stack
threading.stack_size(int(sys.argv[1]) * 1024)
found = {}
thread = threading.Thread(target=lambda: found.update({name: answers(name) for name in names}))
thread.start()
thread.join()
print(json.dumps(found == expected))
"""


def test_a_compiled_call_runs_in_a_64_kib_thread_stack():
    """musl's threads get 128 KiB of stack; a compiled call keeps its large room on the heap, so even 64 KiB (Python's
    own frames included) is enough. Run in a child process: an overflow is a segmentation fault, not an exception."""
    specs = ("mcr", "riichi", "wuhan", "taiwan", "sichuan")  # wilds, 16-tile hands, flowers laid aside, no chows
    run = subprocess.run([sys.executable, "-c", SMALL_STACK, "64", *specs], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "true"
