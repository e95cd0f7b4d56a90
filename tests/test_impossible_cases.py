"""Contexts no table can produce are refused, by the interpreter and by the compiled checker alike.

Each refused case comes with a control: the same case made possible again, which both checkers accept,
so a rule that refused everything (or nothing) would fail here. Why each case cannot happen is said
beside it; the rules are dsl.cases.case.refuse_impossible (IMPOSSIBLE_RULES), and the indicator limits
checked as a key is read (INDICATOR_LIMITS). Both back ends answer each case in the same words, and
dropping any one rule from either of them makes the comparison fail.

The compiled checker decides the rules in C, in the same order, and words a refusal with dsl.cases.case's words
of each refusal, without read_case: every refusal it decides is tried in each spec that reads its keys (mcr,
riichi, sichuan, sanma at three players, and shenyang and wuhan for other players' melds), alone, two at once
(the first rule in order names the problem) and behind an invalid key or hand (validation comes first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import NoReturn

import pytest
from parity import answer, disagreements

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


@contextmanager
def rules_in_c(rules: tuple) -> Iterator[None]:
    """The compiled checkers of the specs above deciding these rules in C, in this order, while it lasts."""
    checkers = [both(name)[0].CHECKER for name in {spec for spec, _, _, _ in IMPOSSIBLE.values()} | set(SPECS)]
    try:
        for checker in checkers:
            checker.refuse_by(rules)
        yield
    finally:
        for checker in checkers:
            checker.refuse_by(IMPOSSIBLE_RULES)


@pytest.mark.parametrize("side", ["interpreter", "compiled"])
@pytest.mark.parametrize("dropped", list(DROPPED))
def test_the_comparison_fails_when_either_back_end_drops_a_rule(side, dropped, monkeypatch):
    """The interpreter reads through its own import of read_case. The compiled checker decides refuse_impossible's
    rules in C (Checker.refuse_by) and hands dsl.cases.case.read_case the cases it cannot judge (`out`, the
    indicator limits). Dropping a rule from one of the two is one back end without it, and some case above must
    then be answered differently: every rule has a case, and the comparison sees it."""
    attribute, replacement = DROPPED[dropped]
    if side == "interpreter":
        monkeypatch.setattr(interpreter_module, "read_case", reader_without(attribute, replacement))
        assert differences() != []
        return
    monkeypatch.setattr(case_module, "read_case", reader_without(attribute, replacement))
    with rules_in_c(replacement if attribute == "IMPOSSIBLE_RULES" else IMPOSSIBLE_RULES):
        assert differences() != []


# ---------------------------------------------------------------- every refusal C decides, in the specs that read it

# Per spec: a possible hand, one with a declared kong (not self-drawn), one holding one copy of its winning tile
# besides it, and one opened by a pung (None: the spec has no riichi).
SANMA = {"hand": "123p456p789s11z23s", "win": "4s"}
RIICHI_OPEN = {"hand": "456m789p55s67m", "win": "8m", "melds": ["pung 555z"]}
SANMA_OPEN = {"hand": "456p789p55s67p", "win": "8p", "melds": ["pung 555z"]}
SPECS = {
    "mcr": (MCR_CHOWS, MCR_KONG | {"self_drawn": False}, {"hand": "123m456m789m123p4p", "win": "4p"}, None),
    "riichi": (RIICHI, RIICHI_OPEN | {"melds": ["kong 5555z"]}, {"hand": "123m456p789s123s4s", "win": "4s"},
               RIICHI_OPEN),
    "sichuan": (SICHUAN, {"hand": "123m456m789m1p", "win": "1p", "melds": ["kong 5555s"]},
                {"hand": "123m456m789m123p4p", "win": "4p"}, None),
    "sanma": (SANMA, SANMA_OPEN | {"melds": ["kong 5555z"]}, {"hand": "123p456p789s123s4s", "win": "4s"}, SANMA_OPEN),
    "shenyang": (SHENYANG, {"hand": "123m456p789s1z", "win": "1z", "melds": ["kong 5555s"]},
                 {"hand": "123m456p789s123s4s", "win": "4s"}, None),
    "wuhan": (WUHAN, WUHAN | {"melds": ["kong 7777p"]}, WUHAN | {"hand": "456p789s123s4s"}, None),
}
W = case_module  # the words of each refusal


@cache
def refusals(name: str) -> tuple[tuple[str, dict, str], ...]:
    """(what cannot happen, the case, the words read_case refuses it with) for each refusal of refuse_impossible's
    rules that C decides, in a spec that reads its keys. A spec reads a case's keys or refuses them, so the refusals
    of keys it does not read are left out."""
    reads = {k.name for k in load_spec(name).context}
    return tuple((why, case, words) for why, case, words in candidates(name)
                 if set(case) - {"hand", "win", "melds"} <= reads)


def candidates(name: str) -> list[tuple[str, dict, str]]:
    """Each refusal C decides, written for a spec's hands whether or not the spec reads its keys."""
    base, kong, holding, opened = SPECS[name]
    players = load_spec(name).players
    found = [
        ("seat 0 sits E by default", base | {"seat": 0, "seat_wind": "S"}, W.seats_disagree(0, 0, False, "S", players)),
        ("seat 2 with dealer 1 sits S", base | {"seat": 2, "dealer": 1, "seat_wind": "W"},
         W.seats_disagree(2, 1, True, "W", players)),
        ("a discarder on a self-drawn win", base | {"self_drawn": True, "seat": 1, "discarder": 0},
         W.discarder_on_self_draw(0)),
        ("the winner discards", base | {"seat": 1, "discarder": 1}, W.discarder_is_winner(1)),
        ("the dealer, seat 0 by default, discards", base | {"discarder": 0}, W.discarder_is_winner(0)),
        ("9 flowers", base | {"flowers": 9}, W.too_many_flowers(9, 8)),
        ("杠上开花 on a discard", kong | {"kong_replacement": True}, W.KONG_REPLACEMENT_ON_A_DISCARD),
        ("杠上开花 without a kong", base | {"self_drawn": True, "kong_replacement": True},
         W.KONG_REPLACEMENT_WITHOUT_A_KONG),
        ("抢杠 self-drawn", base | {"self_drawn": True, "robbing_kong": True}, W.ROBBING_KONG_SELF_DRAWN),
        ("抢杠 of a tile the winner holds", holding | {"robbing_kong": True}, W.robbed_tile_held(1, holding["win"])),
        ("抢杠 of a tile seat 2 shows", base | {"seat": 1, "discarder": 0, "robbing_kong": True,
                                              "other_melds": {"0": ["pung 222z"], "2": [f"pung {base['win'] * 3}"]}},
         W.robbed_tile_shown(2, base["win"], 0)),
        ("抢杠 of a tile the last seat shows, seats as numbers",
         base | {"seat": 1, "robbing_kong": True,
                 "other_melds": {0: ["pung 222z"], players - 1: [f"pung {base['win'] * 3}"]}},
         W.robbed_tile_shown(players - 1, base["win"], 0)),
        ("other_melds of the winner", base | {"seat": 1, "other_melds": {"1": ["pung 222z"]}},
         W.own_seat_in_other_melds(1)),
        ("the last tile on the first turn", base | {"self_drawn": True, "last_tile": True, "first_turn": True},
         W.LAST_TILE_ON_THE_FIRST_TURN),
        ("ippatsu without riichi", base | {"ippatsu": True}, W.IPPATSU_WITHOUT_RIICHI),
        ("riichi and a first-turn win", base | {"self_drawn": True, "double_riichi": True, "first_turn": True},
         W.riichi_on_the_first_turn(["double_riichi"])),
    ]
    if players < 4:
        found.append(("no north seat", base | {"seat_wind": "N"}, W.wind_not_at_table("N", players)))
    if opened is not None:
        found.append(("riichi on an open hand", opened | {"riichi": True, "double_riichi": True},
                      W.riichi_on_an_open_hand(["riichi", "double_riichi"], "pung", "5z5z5z")))
    return found


REFUSALS = [(name, why) for name in SPECS for why, _, _ in refusals(name)]


def refusal(name: str, why: str) -> tuple[dict, str]:
    return next((case, words) for reason, case, words in refusals(name) if reason == why)


@pytest.mark.parametrize(("name", "why"), REFUSALS)
def test_both_back_ends_refuse_in_the_same_words(name, why):
    """The interpreter refuses each case in the words of dsl.cases.case, and the compiled checker answers each call
    exactly as the interpreter does."""
    case, words = refusal(name, why)
    compiled, interpreter = both(name)
    assert interpreter.evaluate(case) == {"ok": False, "error": words}
    assert disagreements(compiled, interpreter, [case]) == []


def test_every_refusal_is_answered_in_some_spec_and_each_spec_has_those_of_its_keys():
    """Every refusal written above is read by some spec; mcr, riichi, sichuan and sanma (three players) have as
    many as their keys allow: no flowers but in mcr, no riichi in mcr and sichuan, no robbed kong or last tile in
    sichuan, the other players' melds (three refusals) only in riichi and sanma."""
    assert {why for name in SPECS for why, _, _ in refusals(name)} == {why for why, _, _ in candidates("sanma")}
    counts = {name: len(refusals(name)) for name in ("mcr", "riichi", "sichuan", "sanma")}
    assert counts == {"mcr": 10, "riichi": 16, "sichuan": 7, "sanma": 17}


def forbidden(*args: object) -> NoReturn:
    raise AssertionError(f"read_case called with {args}")


@pytest.mark.parametrize("name", list(SPECS))
def test_the_compiled_checker_refuses_without_read_case(name, monkeypatch):
    """Each refusal is decided and worded in C: read_case is never called, in evaluate, waits or score_many."""
    compiled, interpreter = both(name)
    cases = [case for _, case, _ in refusals(name)]
    expected = [(answer(interpreter.evaluate, case), answer(interpreter.waits, case)) for case in cases]
    monkeypatch.setattr(case_module, "read_case", forbidden)
    assert [(answer(compiled.evaluate, case), answer(compiled.waits, case)) for case in cases] == expected
    scores = compiled.score_many(cases)
    assert [scores.errors.get(i) for i in range(len(cases))] == [words for _, _, words in refusals(name)]


def test_a_case_c_cannot_judge_still_goes_to_read_case(monkeypatch):
    """A case with `out` is read by read_case (the C reader leaves `out` to it): the test above would see a call."""
    monkeypatch.setattr(case_module, "read_case", forbidden)
    with pytest.raises(AssertionError, match="read_case called"):
        both("sichuan")[0].evaluate(SICHUAN | {"seat": 1, "self_drawn": True, "out": [1]})


# ---------------------------------------------------------------- which refusal comes first


def merged(first: dict, second: dict) -> dict:
    """The first case with the context keys of the second that it does not set: often impossible twice."""
    return first | {key: value for key, value in second.items() if key not in first and key not in ("hand", "win")}


def pairs(name: str) -> list[dict]:
    cases = [case for _, case, _ in refusals(name)]
    return [merged(a, b) for a in cases for b in cases if a is not b]


def pair_differences() -> list[tuple[str, object, str, str]]:
    return [found for name in SPECS for found in disagreements(*both(name), pairs(name))]


def test_a_case_impossible_twice_is_refused_by_the_first_rule_in_order():
    """Two refusals at once: both back ends name the first in the order of IMPOSSIBLE_RULES (and of the checks
    within a rule)."""
    assert pair_differences() == []


def test_the_order_matters_to_that_comparison():
    """With the rules decided in C in the reverse order, some case impossible twice is answered differently."""
    with rules_in_c(tuple(reversed(IMPOSSIBLE_RULES))):
        assert pair_differences() != []


# Validation comes before every rule: read_case refuses these whatever else the case holds.
INVALID = {"an unknown key": {"flavour": 1}, "a hand with a tile too many": {"hand": "1m"},
           "a meld that is no pung": {"melds": ["pung 123m"]}, "a flag that is no flag": {"self_drawn": 1}}


@pytest.mark.parametrize("invalid", list(INVALID))
@pytest.mark.parametrize("name", ["mcr", "riichi", "sichuan", "sanma"])
def test_an_invalid_case_is_refused_as_invalid_before_any_rule(name, invalid):
    compiled, interpreter = both(name)
    change = INVALID[invalid]
    cases = [case | change if "hand" not in change else case | {"hand": change["hand"] + case["hand"]}
             for _, case, _ in refusals(name)]
    words = {words for _, _, words in refusals(name)}
    assert not any(interpreter.evaluate(case)["error"] in words for case in cases)
    assert disagreements(compiled, interpreter, cases) == []
