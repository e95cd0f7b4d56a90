"""Bad input never crashes and never yields a result: each error names the tile, count or key at fault."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dsl

GOOD = {"hand": "123m456m789m11p23p", "win": "4p"}


@pytest.fixture(scope="module")
def sichuan():
    return dsl.load("sichuan")


@pytest.mark.parametrize(("change", "fragment"), [
    ({"hand": "123m456m789m11p23x"}, "unknown tile '2x'"),
    ({"hand": "123m456m789m11p23"}, "cannot read '23'"),
    ({"hand": "123m456m789m11p28z"}, "unknown tile '2z'"),
    ({"win": "4z"}, "unknown tile '4z'"),
    ({"hand": "11111m456m789m11p"}, "5 copies of 1m"),
    ({"hand": "123m456m789m11p234p"}, "14 concealed tiles"),
    ({"hand": "123m456m789m11p"}, "11 concealed tiles"),
    ({"win": "45p"}, "'win' is one tile"),
    ({"melds": ["chow 123p"], "hand": "123m456m789m1p"}, "unknown meld kind 'chow'"),
    ({"melds": ["pung 124p"], "hand": "123m456m789m1p"}, "'pung 124p' is not a pung"),
    ({"melds": ["pung"], "hand": "123m456m789m1p"}, "a meld is written"),
    ({"self_drawn": "yes"}, "'self_drawn' is true or false"),
    ({"seat": 7}, "'seat' is a seat from 0 to 3"),
    ({"seat": 1, "discarder": 1}, "cannot be the winner"),
    ({"round_wind": "E"}, "unknown key 'round_wind'"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"options": {"open_tanyao": True}}, "unknown option 'open_tanyao'"),
])
def test_bad_hands(sichuan, change, fragment):
    result = sichuan.evaluate({**GOOD, **change})
    assert result["ok"] is False
    assert fragment in result["error"]


def test_honor_chow_is_not_a_chow():
    checker = dsl.load("shenyang") if "shenyang" in _bundled() else None
    if checker is None:
        pytest.skip("needs a spec with honors and chows")
    result = checker.evaluate({"hand": "123m456m789p1s", "win": "1s", "melds": ["chow 123z"]})
    assert result["ok"] is False and "'chow 123z' is not a chow" in result["error"]


def _bundled():
    from dsl.paths import bundled_specs
    return bundled_specs()


def test_case_that_is_not_an_object(sichuan):
    assert sichuan.evaluate(["123m"])["ok"] is False
    assert "no 'hand'" in sichuan.evaluate({"win": "1m"})["error"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["hand", "win", "melds", "self_drawn", "seat", "discarder", "dealer", "seat_wind",
                     "kong_replacement", "options", "x"]),
    st.one_of(st.text(alphabet="0123456789mpsz ", max_size=18), st.integers(-2, 20), st.booleans(),
              st.none(), st.lists(st.text(alphabet="0123456789mpsz chowpungkong", max_size=10), max_size=4),
              st.dictionaries(st.text(max_size=4), st.booleans(), max_size=2))))
def test_random_cases_never_crash(sichuan, case):
    result = sichuan.evaluate(case)
    json.dumps(result)
    assert result["ok"] in (True, False)
    if result["ok"]:
        assert isinstance(result["winning"], bool)
        if result["winning"]:
            assert sum(result["payments"]) == 0
    else:
        assert result["error"]
