"""Both back ends read cases alike, by construction: every case key the vocabulary names (and each spec's own),
the items of melds, options and other players' melds (and the seats keying them), are given every wrong type
and size, and the compiled checker must accept exactly what the interpreter accepts and refuse the rest in the
same words, in evaluate and in waits. A spec built from the vocabulary's shapes, waits and group sources is
scored alike by both.

The compiled checker reads a plainly valid case itself and hands anything doubtful to dsl.cases.case.read_case;
these tests are what holds its reader to the interpreter's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from parity import compile_text, disagreements

import dsl
from dsl.cases import case as case_module
from dsl.cases.limits import MAX_CASE_ITEMS
from dsl.cases.samples import random_cases
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.interp import interpreter as interpreter_module
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs
from dsl.vocabulary import CONTEXT_KEYS, GROUP_SOURCES, MAX_TEXT, SHAPES, STRUCTURAL_KEYS, WAITS

ABSENT = object()  # the key left out of the case
# A valid value of each kind of context key, to stretch with spaces (a spec's own keys: flag, seat or int).
VALID = {"flag": True, "count": 1, "seat": 1, "wind": "S", "tiles": "1m", "melds_by_seat": {"1": ["pung 111m"]},
         "seats": [1], "int": 0}
TILES = """\
tiles:
    suit m 万 "Characters" 1..9 ×4
    suit p 筒 "Dots" 1..9 ×4
    suit s 条 "Bamboo" 1..9 ×4
    honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"
"""
# A spec whose own names are longer than any string of a case: no case may name them, though the spec does.
LONG = "长" * (MAX_TEXT + 1)
LONG_NAMES = f"""\
variant longnames "长名" "Names no case may hold"
{TILES}context self_drawn
flag {LONG}旗 "A flag"
option {LONG}选 "An option" = false
option mode "A text option" = {LONG}
fan 平 "Plain" 1: shape == standard
fan 旗 "Flag" 1: {LONG}旗
"""


def stretched(value: object, length: int) -> object:
    """The value with every string in it (dict keys too) padded with spaces to `length` characters: tile
    strings and melds skip spaces, so only the size limit can refuse it."""
    if isinstance(value, str):
        return value.ljust(length)
    if isinstance(value, list):
        return [stretched(item, length) for item in value]
    if isinstance(value, dict):
        return {stretched(key, length): stretched(item, length) for key, item in value.items()}
    return value


def wrong_values(valid: object) -> list[object]:
    """What a key may be given instead of a valid value: left out, every JSON type, numbers at the edges of
    what a case holds, too many items, and the valid value stretched to the longest text a case may hold and
    one character more."""
    return [ABSENT, None, True, False, 0, 1, -1, 2 ** 63, 1.0, 0.5, "", "x", "E", "1m", " " * (MAX_TEXT + 1),
            [], [None], [1], ["x"], ["x"] * (MAX_CASE_ITEMS + 1), {}, {"1": None}, {"x": 1}, {"1": ["x"]},
            stretched(valid, MAX_TEXT), stretched(valid, MAX_TEXT + 1)]


def put(base: dict, key: str, value: object) -> dict:
    case = {k: v for k, v in base.items() if k != key}
    if value is not ABSENT:
        case[key] = value
    return case


def places(spec: ir.Spec, base: dict) -> Iterator[tuple[str, object, Callable[[object], dict]]]:
    """(where, a valid value there, the base case with a value put there) for every key and item of a case."""
    own = {key.name: key.kind for key in spec.context if not key.builtin}
    kinds = {name: kind for name, (kind, _) in CONTEXT_KEYS.items()} | own
    structural = {"hand": base["hand"], "win": base["win"], "melds": base.get("melds", []), "options": {}}
    for key in STRUCTURAL_KEYS + tuple(kinds):
        valid = base.get(key, structural.get(key, VALID.get(kinds.get(key, ""))))
        yield key, valid, lambda value, key=key: put(base, key, value)
    melds = base.get("melds", [])
    yield "melds[0]", melds[0] if melds else "pung 111m", lambda value: put(base, "melds", [value, *melds[1:]])
    for option in spec.options:
        yield (f"options.{option.name}", option.default,
               lambda value, name=option.name: put(base, "options", {name: value}))
    yield "other_melds.1", ["pung 111m"], lambda value: put(base, "other_melds", {"1": value})
    yield "other_melds.1[0]", "pung 111m", lambda value: put(base, "other_melds", {"1": [value]})


# What a seat of `other_melds` may be keyed by instead of "0".."N-1": other spellings of a number, seats the table
# lacks (4 at four players, 3 at three), and from Python: ints out of range, a bool, a float, None.
SEAT_KEYS = ["01", " 2 ", "+3", "１", "٣", "1.0", "-1", "", "x", "3", "4", 3, 4, -1, True, 1.0, None]


def seat_key_cases(base: dict) -> Iterator[dict]:
    """The base case with other_melds keyed by each wrong seat key, and by one seat twice (a str and an int)."""
    for key in SEAT_KEYS:
        yield put(base, "other_melds", {key: ["pung 111m"]})
    yield put(base, "other_melds", {"1": ["pung 111m"], 1: ["pung 999m"]})


def base_case(interpreter: Interpreter) -> dict:
    """A valid winning case with declared melds (fewer concealed tiles: its waits are found sooner)."""
    cases = random_cases(interpreter.spec, 300, seed=21, kinds={"winning": 1})
    valid = [case for case in cases if interpreter.evaluate(case).get("winning")]
    return max(valid, key=lambda case: len(case.get("melds", [])))


def wrong_cases(interpreter: Interpreter) -> list[object]:
    base = base_case(interpreter)
    cases: list[object] = [base, None, [], "123m", 1, [base]]  # and cases that are no object at all
    for _, valid, place in places(interpreter.spec, base):
        cases += [place(value) for value in wrong_values(valid)]
    return cases + list(seat_key_cases(base))


@cache
def checkers_of(name: str, folder: Path) -> tuple[object, Interpreter]:
    """(compiled checker, interpreter) of a bundled spec, or of LONG_NAMES compiled into folder."""
    if name == "longnames":
        return compile_text(LONG_NAMES, folder)
    compiled = dsl.load(name)
    assert not isinstance(compiled, Interpreter), name
    return compiled, Interpreter(load_spec(name))


@pytest.fixture(scope="module", params=[*bundled_specs(), "longnames"])
def checkers(request, tmp_path_factory) -> tuple[object, Interpreter]:
    return checkers_of(request.param, tmp_path_factory.getbasetemp())


def test_every_key_with_every_wrong_type_and_size_is_read_alike(checkers):
    compiled, interpreter = checkers
    cases = wrong_cases(interpreter)
    differ = disagreements(compiled, interpreter, cases)
    assert not differ, f"{len(differ)} answers differ, first: {differ[0]}"
    refused = [case for case in cases if not interpreter.evaluate(case)["ok"]]
    assert len(refused) > len(cases) / 2, "most of the wrong values should be refused"


def test_the_check_sees_a_reader_that_takes_null_for_a_key_left_out(monkeypatch, tmp_path):
    """A leak the compiled reader had, put into the interpreter's reader instead: `"melds": null` read as no
    melds. The comparison above must then report it."""
    compiled, interpreter = checkers_of("sichuan", tmp_path)
    read_case = case_module.read_case

    def lenient(spec: ir.Spec, case: object) -> case_module.Hand:
        if isinstance(case, dict):
            case = {key: value for key, value in case.items() if value is not None or key not in STRUCTURAL_KEYS}
        return read_case(spec, case)

    monkeypatch.setattr(interpreter_module, "read_case", lenient)
    differ = disagreements(compiled, interpreter, wrong_cases(interpreter), calls=("evaluate",))
    assert any(case.get("melds", 0) is None for _, case, _, _ in differ if isinstance(case, dict))


# ---------------------------------------------------------------- shapes, waits and group sources


def vocabulary_spec(wild: bool) -> str:
    """A spec with a fan for each built-in shape, wait and group source (a count and a combination of each):
    a back end that lacks one, or reads one otherwise, scores some case differently. `loose` reads every
    hand, so it is worth least: the other shapes are still chosen when they read the hand. With `wild`, the
    tile after the indicator is wild (in the shapes of WILD_SHAPES)."""
    lines = ['variant vocabulary "词汇" "Every built-in name"', TILES + "shapes " + ", ".join(SHAPES),
             "context self_drawn"]
    if wild:
        lines += ["order 东 南 西 北 (中) 发 白", 'wild 癞子 "Wild" = next(indicator)', "context indicator"]
    for shape in SHAPES:
        lines.append(f'fan shape_{shape} "Shape {shape}" {1 if shape == "loose" else 100}: shape == {shape}')
    lines += [f'fan wait_{wait} "Wait {wait}" 10: wait == {wait}' for wait in WAITS]
    for source in GROUP_SOURCES:
        lines.append(f'fan count_{source} "Count of {source}" 1 each: count({source})')
        lines.append(f'fan suited_{source} "Two {source} of a suit" 1 each: combinations({source}, 2, same(suit))')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("wild", [False, True])
def test_every_shape_wait_and_group_source_is_scored_alike(wild, tmp_path):
    compiled, interpreter = compile_text(vocabulary_spec(wild), tmp_path)
    cases = random_cases(interpreter.spec, 3000, seed=7)
    differ = disagreements(compiled, interpreter, cases, calls=("evaluate",))
    assert not differ, f"{len(differ)} of {len(cases)} differ, first: {differ[0]}"
    differ = disagreements(compiled, interpreter, cases[:200], calls=("waits",))
    assert not differ, f"{len(differ)} waits differ, first: {differ[0]}"
    scored = {fan["name"] for case in cases for fan in interpreter.evaluate(case).get("fans", [])}
    assert scored == {pattern.name for pattern in interpreter.spec.patterns}, "every fan should be reached"
