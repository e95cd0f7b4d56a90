"""Contexts no table can produce are refused, by the interpreter and by the compiled checker alike.

Each refused case comes with a control: the same case made possible again, which both checkers accept,
so a rule that refused everything (or nothing) would fail here. Why each case cannot happen is said
beside it; the rules are dsl.cases.case.refuse_impossible (IMPOSSIBLE_RULES), and the indicator limits
checked as a key is read (INDICATOR_LIMITS). Both back ends answer each case in the same words, and
dropping any one rule from either of them makes the comparison fail.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from parity import disagreements

import dsl
from dsl.cases import case as case_module
from dsl.cases.case import IMPOSSIBLE_RULES
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.interp import interpreter as interpreter_module
from dsl.interp.interpreter import Interpreter
from dsl.notation import HandError

MCR_CHOWS = {"hand": "123m456m789m11p23p", "win": "4p"}  # 13 concealed tiles, no meld
MCR_KONG = {"hand": "123m456m789m1p", "win": "1p", "melds": ["kong 5555s"], "self_drawn": True}
RIICHI = {"hand": "123m456p789s11z23s", "win": "4s"}
SICHUAN = {"hand": "123m456m789m11p23p", "win": "4p"}
SHENYANG = {"hand": "123m456p789s11z23s", "win": "4s"}
WUHAN = {"hand": "456p789s11z23s", "win": "4s", "melds": ["pung 777p"], "indicator": "9m"}

# (spec, impossible case, keys the error names, the control: a possible case close to it)
IMPOSSIBLE = {
    "杠上开花 with no kong among the melds: a replacement tile is drawn only after a kong": (
        "mcr", MCR_CHOWS | {"self_drawn": True, "kong_replacement": True}, ["kong_replacement", "melds"],
        MCR_KONG | {"kong_replacement": True}),
    "杠上开花 on a discard: the replacement tile is drawn, never discarded": (
        "mcr", MCR_KONG | {"self_drawn": False, "kong_replacement": True}, ["kong_replacement", "self_drawn"],
        MCR_KONG | {"kong_replacement": True}),
    "抢杠和 self-drawn: the robbed tile is another player's": (
        "mcr", MCR_CHOWS | {"self_drawn": True, "robbing_kong": True}, ["robbing_kong", "self_drawn"],
        MCR_CHOWS | {"robbing_kong": True}),
    "抢杠和 of 4p while holding a 4p: the robbed player has the other three": (
        "mcr", {"hand": "123m456m789m23p44p", "win": "4p", "robbing_kong": True}, ["robbing_kong"],
        {"hand": "123m456m789m23p55p", "win": "4p", "robbing_kong": True}),
    "抢杠 of 4s while seat 2, not the robbed seat 0, shows a pung of 4s": (
        "shenyang", SHENYANG | {"seat": 1, "discarder": 0, "robbing_kong": True,
                                "other_melds": {"2": ["pung 444s"]}}, ["robbing_kong", "other_melds"],
        SHENYANG | {"seat": 1, "discarder": 0, "robbing_kong": True, "other_melds": {"2": ["pung 444p"]}}),
    "9 flowers: the set has 8 (春夏秋冬梅兰竹菊)": (
        "mcr", MCR_CHOWS | {"flowers": 9}, ["flowers"], MCR_CHOWS | {"flowers": 8}),
    "seat 0 is the dealer (0 by default), so its seat wind is E, not S": (
        "riichi", RIICHI | {"seat": 0, "seat_wind": "S"}, ["seat", "seat_wind"],
        RIICHI | {"seat": 1, "seat_wind": "S"}),
    "seat 3 with dealer 2 sits S, not W": (
        "riichi", RIICHI | {"seat": 3, "dealer": 2, "seat_wind": "W"}, ["seat", "dealer", "seat_wind"],
        RIICHI | {"seat": 3, "dealer": 2, "seat_wind": "S"}),
    "no north seat at a table of three": (
        "sanma", {"hand": "123p456p789s11z23s", "win": "4s", "seat_wind": "N"}, ["seat_wind"],
        {"hand": "123p456p789s11z23s", "win": "4s", "seat_wind": "W"}),
    "the last tile on the first turn: the wall is not used up yet": (
        "riichi", RIICHI | {"self_drawn": True, "last_tile": True, "first_turn": True}, ["last_tile", "first_turn"],
        RIICHI | {"self_drawn": True, "last_tile": True}),
    "ippatsu without riichi: it is a win within one turn of declaring riichi": (
        "riichi", RIICHI | {"ippatsu": True}, ["ippatsu", "riichi"], RIICHI | {"ippatsu": True, "riichi": True}),
    "double riichi on an open hand: riichi needs a concealed hand": (
        "riichi", {"hand": "456m789p55s67m", "win": "8m", "melds": ["pung 555z"], "double_riichi": True},
        ["double_riichi", "melds"],
        {"hand": "456m789p55s67m", "win": "8m", "melds": ["concealed_kong 5555z"], "double_riichi": True}),
    "riichi and a first-turn win: riichi is declared with a discard, after the first turn": (
        "riichi", RIICHI | {"self_drawn": True, "riichi": True, "first_turn": True}, ["riichi", "first_turn"],
        RIICHI | {"self_drawn": True, "first_turn": True}),
    "the discarder is the winner: nobody wins on a tile of their own discard": (
        "sichuan", SICHUAN | {"seat": 1, "discarder": 1}, ["discarder", "seat"], SICHUAN | {"seat": 1, "discarder": 2}),
    "the winner has already won and left the hand (血战到底)": (
        "sichuan", SICHUAN | {"seat": 1, "self_drawn": True, "out": [1]}, ["out"],
        SICHUAN | {"seat": 1, "self_drawn": True, "out": [2]}),
    "a discarder on a self-drawn win": (
        "sichuan", SICHUAN | {"self_drawn": True, "seat": 1, "discarder": 0}, ["discarder", "self_drawn"],
        SICHUAN | {"self_drawn": True, "seat": 1}),
    "the default discarder (seat 0, before the winner) has already won and left": (
        "sichuan", SICHUAN | {"seat": 1, "out": [0]}, ["discarder", "out"], SICHUAN | {"seat": 1, "discarder": 2,
                                                                                    "out": [0]}),
    "three seats out of four have left: nobody would pay": (
        "sichuan", SICHUAN | {"seat": 1, "self_drawn": True, "out": [0, 2, 3]}, ["out"],
        SICHUAN | {"seat": 1, "self_drawn": True, "out": [0, 2]}),
    "a seat out twice": (
        "sichuan", SICHUAN | {"seat": 1, "self_drawn": True, "out": [2, 2]}, ["out"],
        SICHUAN | {"seat": 1, "self_drawn": True, "out": [2]}),
    "other_melds for the winner's own seat": (
        "wuhan", WUHAN | {"seat": 1, "other_melds": {"1": ["pung 222z"]}}, ["other_melds"],
        WUHAN | {"seat": 1, "other_melds": {"2": ["pung 222z"]}}),
    "two Wuhan indicator tiles: one tile is turned up after the deal": (
        "wuhan", WUHAN | {"indicator": "9m1s"}, ["indicator"], WUHAN | {"indicator": "1s"}),
    "six dora indicators: the first one and one per kong, four kongs at most": (
        "riichi", RIICHI | {"dora": "123456m"}, ["dora"], RIICHI | {"dora": "12345m"}),
}


@pytest.fixture(scope="module", params=["interpreter", "compiled"])
def checkers(request):
    """Spec name -> its checker: the interpreter, or the compiled module (not the interpreter fallback)."""
    made: dict[str, object] = {}

    def get(name: str):
        if name not in made:
            made[name] = Interpreter(load_spec(name)) if request.param == "interpreter" else dsl.load(name)
            assert request.param == "interpreter" or not isinstance(made[name], Interpreter), name
        return made[name]
    return get


@pytest.mark.parametrize("why", list(IMPOSSIBLE))
def test_an_impossible_context_is_refused_naming_its_keys(checkers, why):
    name, case, keys, _ = IMPOSSIBLE[why]
    result = checkers(name).evaluate(case)
    assert result["ok"] is False, result
    for key in keys:
        assert repr(key) in result["error"], (key, result["error"])


@pytest.mark.parametrize("why", list(IMPOSSIBLE))
def test_the_possible_case_beside_it_is_read(checkers, why):
    name, _, _, control = IMPOSSIBLE[why]
    result = checkers(name).evaluate(control)
    assert result["ok"] is True, result


@pytest.mark.parametrize("why", list(IMPOSSIBLE))
def test_waits_refuse_it_too(checkers, why):
    """A hand without its winning tile keeps the refusals that do not need the tile."""
    name, case, keys, _ = IMPOSSIBLE[why]
    if "robbing_kong" in case and not case.get("self_drawn"):
        pytest.skip("which copies a robbed tile leaves depends on the winning tile")
    if "out" in case and "discarder" not in case and len(case["out"]) == 1:
        pytest.skip("a hand still waiting has no default discarder")
    with pytest.raises(HandError):
        checkers(name).waits(case)


def test_the_bundled_examples_that_were_impossible_now_expect_errors():
    """The riichi and sanma examples of an open-hand riichi and of a north seat at three are errors."""
    for name, title in [("riichi", "Riichi on an open hand cannot happen"), ("sanma", "No north seat")]:
        example = next(e for e in load_spec(name).examples if e.title == title)
        assert example.error is not None


# ---------------------------------------------------------------- the same answers, and a check that can fail


@cache
def both(name: str) -> tuple[object, Interpreter]:
    """(compiled checker, interpreter) of a bundled spec."""
    compiled = dsl.load(name)
    assert not isinstance(compiled, Interpreter), name
    return compiled, Interpreter(load_spec(name))


def differences() -> list[tuple[str, object, str, str]]:
    """Where the two back ends answer an impossible case or its control differently (evaluate or waits)."""
    return [found for name, case, _, control in IMPOSSIBLE.values()
            for found in disagreements(*both(name), [case, control])]


def test_both_back_ends_answer_each_case_in_the_same_words():
    assert differences() == []


# Each refusal rule dropped: one of refuse_impossible's rules, or the indicator limits.
DROPPED = {rule.__name__: ("IMPOSSIBLE_RULES", tuple(r for r in IMPOSSIBLE_RULES if r is not rule))
           for rule in IMPOSSIBLE_RULES} | {"INDICATOR_LIMITS": ("INDICATOR_LIMITS", {})}


def reader_without(attribute: str, replacement: object) -> Callable[[ir.Spec, object], case_module.Hand]:
    """read_case with a refusal rule dropped: the module's attribute replaced while it reads."""
    read_case = case_module.read_case

    def read(spec: ir.Spec, case: object) -> case_module.Hand:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(case_module, attribute, replacement)
            return read_case(spec, case)
    return read


@pytest.mark.parametrize("side", ["interpreter", "compiled"])
@pytest.mark.parametrize("dropped", list(DROPPED))
def test_the_comparison_fails_when_either_back_end_drops_a_rule(side, dropped, monkeypatch):
    """The interpreter reads through its own import of read_case; the compiled checker hands every case a
    rule might refuse to dsl.cases.case.read_case. Replacing one of the two is one back end without the rule,
    and some case above must then be answered differently: every rule has a case, and the comparison sees it."""
    holder = interpreter_module if side == "interpreter" else case_module
    monkeypatch.setattr(holder, "read_case", reader_without(*DROPPED[dropped]))
    assert differences() != []
