"""Encoded cases (docs/interface.md): score_many over arrays gives what it gives over the same cases as dicts,
in both back ends, on every bundled spec; threads score batches at once; arrays of the wrong shape are named.

The encoder here is the test's own, written from the interface text: one `counts` column per tile of the
spec, the winning tile's number, melds as (kind number, lowest tile), one `context` column per key of
`encoded_columns` (a seat or wind left out is -1), one `indicators` row per key of `indicator_columns`.
Only cases such arrays can state are encoded: plain tile text, melds written as their kind's tiles, values of
the key's own type. Bad cases among them (too many copies, wrong counts, impossible contexts) stay in.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import references

import dsl
from dsl.cases.samples import random_cases
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs

np = references.extra("numpy", "numpy")

TILE = re.compile(r"(\d+)([a-z])")
PLAIN = re.compile(r"(\d+[a-z])*")
MELD_SIZES = {"chow": 3, "pung": 3, "kong": 4}
FIELDS = ("status", "total", "offsets", "fans", "counts", "values")


def codes(text: str) -> list[str]:
    return [d + s for digits, s in TILE.findall(text) for d in digits]


def value_fits(kind: str, value: object) -> bool:
    if kind == "flag":
        return type(value) is bool
    if kind == "wind":
        return type(value) is str and value in ("E", "S", "W", "N")
    return type(value) is int and value >= 0


def meld_fits(spec: ir.Spec, index: dict[str, int], meld: object) -> bool:
    """A meld written as its kind's tiles: a run of three of one suit, three or four of one tile, or one tile."""
    if not isinstance(meld, str) or len(meld.split()) != 2:
        return False
    kind, text = meld.split()
    shapes = {k.name: k.shape for k in spec.meld_kinds}
    tiles = codes(text)
    if kind not in shapes or not PLAIN.fullmatch(text) or not tiles or any(t not in index for t in tiles):
        return False
    numbers = [index[t] for t in tiles]
    if shapes[kind] == "chow":
        return numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2] and len({t[1] for t in tiles}) == 1
    if shapes[kind] in MELD_SIZES:
        return numbers == [numbers[0]] * MELD_SIZES[shapes[kind]]
    return len(numbers) == 1 and shapes[kind] == "one_of"


def encodable(spec: ir.Spec, checker: object, case: object) -> bool:
    index = {t.code: t.index for t in spec.tiles}
    kinds = {k.name: k.kind for k in spec.context}
    columns, indicators = checker.encoded_columns, checker.indicator_columns
    if not isinstance(case, dict) or set(case) - {"hand", "win", "melds", *columns, *indicators}:
        return False
    hand, win, melds = case.get("hand"), case.get("win"), case.get("melds", [])
    if not (isinstance(hand, str) and isinstance(win, str) and PLAIN.fullmatch(hand) and PLAIN.fullmatch(win)):
        return False
    if len(codes(win)) != 1 or any(t not in index for t in codes(hand) + codes(win)):
        return False
    if not isinstance(melds, list) or len(melds) > 8 or not all(meld_fits(spec, index, m) for m in melds):
        return False
    if not all(value_fits(kinds[k], case[k]) for k in columns if k in case):
        return False
    return all(isinstance(case[k], str) and PLAIN.fullmatch(case[k]) and len(codes(case[k])) <= 5
               and all(t in index for t in codes(case[k])) for k in indicators if k in case)


def encode(spec: ir.Spec, checker: object, cases: list[dict]) -> dict[str, object]:
    index = {t.code: t.index for t in spec.tiles}
    kinds = {name: number for number, name in enumerate(checker.meld_kind_names)}
    columns, indicators = checker.encoded_columns, checker.indicator_columns
    n = len(cases)
    arrays = {"counts": np.zeros((n, len(index)), np.uint8), "win": np.zeros(n, np.int16),
              "melds": np.full((n, 8, 2), -1, np.int16), "context": np.zeros((n, len(columns)), np.int64),
              "indicators": np.full((n, len(indicators), 5), -1, np.int16)}
    key_kinds = {k.name: k.kind for k in spec.context}
    for column, name in enumerate(columns):
        if key_kinds[name] in ("seat", "wind"):
            arrays["context"][:, column] = -1  # left out
    for i, case in enumerate(cases):
        for code in codes(case["hand"]):
            arrays["counts"][i, index[code]] += 1
        arrays["win"][i] = index[codes(case["win"])[0]]
        for m, meld in enumerate(case.get("melds", [])):
            kind, text = meld.split()
            arrays["melds"][i, m] = (kinds[kind], index[codes(text)[0]])
        for column, name in enumerate(columns):
            if name in case:
                value = case[name]
                arrays["context"][i, column] = "ESWN".index(value) if isinstance(value, str) else int(value)
        for row, name in enumerate(indicators):
            for k, code in enumerate(codes(case.get(name, ""))):
                arrays["indicators"][i, row, k] = index[code]
    return arrays


def sample(name: str, count: int, seed: int) -> tuple[ir.Spec, object, list[dict], dict[str, object]]:
    spec = load_spec(name)
    checker = dsl.load(name)
    # Encoded cases state no other player's melds: a random case is taken without them.
    drawn = ({k: v for k, v in c.items() if k != "other_melds"} if isinstance(c, dict) else c
             for c in random_cases(spec, count, seed=seed))
    cases = [c for c in drawn if encodable(spec, checker, c) and "win" in c]
    return spec, checker, cases, encode(spec, checker, cases)


def same_scores(a: object, b: object) -> bool:
    return all(list(getattr(a, f)) == list(getattr(b, f)) for f in FIELDS) and set(a.errors) == set(b.errors)


@pytest.mark.parametrize("name", bundled_specs())
def test_encoded_cases_score_as_the_same_cases_given_as_dicts(name):
    spec, checker, cases, arrays = sample(name, 6000, seed=21)  # sanma keeps few: most draws hold 2m-8m
    assert len(cases) > 30  # the sample reaches the encoded path at all (red fives and options it cannot state)
    by_arrays = checker.score_many(arrays)
    assert same_scores(by_arrays, checker.score_many(cases))
    assert sum(s == 1 for s in by_arrays.status) > 0  # some win, not only error entries
    interpreted = Interpreter(spec).score_many(arrays)  # decoded case by case: the same, errors worded alike
    assert same_scores(interpreted, by_arrays) and interpreted.errors == by_arrays.errors


def test_threads_score_encoded_batches_at_once():
    """Each call scores in room of its own, without the GIL: halves in two threads give the whole."""
    _, checker, cases, arrays = sample("mcr", 3000, seed=4)
    half = len(cases) // 2
    parts = [{k: v[:half] for k, v in arrays.items()}, {k: v[half:] for k, v in arrays.items()}]
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(checker.score_many, parts)
    whole = checker.score_many(arrays)
    assert list(first.status) + list(second.status) == list(whole.status)
    assert list(first.total) + list(second.total) == list(whole.total)
    assert list(first.fans) + list(second.fans) == list(whole.fans)


@pytest.mark.parametrize("fix, named", [
    (lambda a: a.update(counts=a["counts"][:, :-1].copy()), "'counts'"),
    (lambda a: a.update(win=a["win"][:-1].copy()), "'win'"),
    (lambda a: a.update(context=a["context"][:, :-1].copy()), "'context'"),
    (lambda a: a.update(extra=a["win"]), "'extra'"),
    (lambda a: a.pop("counts"), "need the array 'counts'"),
    (lambda a: a.update(win=None), "need the array 'win'"),
])
def test_arrays_of_the_wrong_shape_are_named(fix, named):
    spec, checker, _, arrays = sample("mcr", 200, seed=2)
    fix(arrays)
    for scorer in (checker, Interpreter(spec)):
        with pytest.raises(ValueError, match=named):
            scorer.score_many(arrays)


def test_a_case_the_arrays_state_badly_is_an_error_entry_as_its_dict_would_be():
    """Five copies of 1m (four in the hand, one as the winning tile) and a flag of 2: each is one error entry,
    worded as evaluate words it for the case decoded, and the batch goes on."""
    spec, checker, cases, arrays = sample("mcr", 200, seed=3)
    arrays["counts"][0, :] = 0
    arrays["counts"][0, 0] = 4  # 1111m
    arrays["counts"][0, 9:18] = [1, 1, 1, 1, 1, 1, 1, 1, 1]  # 123456789s
    arrays["win"][0] = 0  # a fifth 1m
    arrays["melds"][0] = -1
    flag = checker.encoded_columns.index("last_tile")
    arrays["context"][1, flag] = 2
    scores = checker.score_many(arrays)
    assert scores.status[0] == -1 and "1m" in scores.errors[0]
    assert scores.status[1] == -1 and "last_tile" in scores.errors[1]
    assert list(scores.status[2:]) == list(checker.score_many(cases[2:]).status)


def test_the_library_encoder_states_cases_as_their_dicts_and_names_what_it_cannot():
    """dsl.cases.encoded.encode (memoryviews, no NumPy) gives arrays that score as the dicts do; a red five has
    no place in the arrays, so such a case is named, not changed."""
    from dsl.cases.encoded import encode

    spec, checker, cases, _ = sample("riichi", 2000, seed=8)
    arrays = encode(spec, cases)
    assert same_scores(checker.score_many(arrays), checker.score_many(cases))
    red = dict(cases[0], hand="0" + cases[0]["hand"][1:])
    with pytest.raises(ValueError, match="case 1 cannot be encoded"):
        encode(spec, [cases[0], red])
