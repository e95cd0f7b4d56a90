"""Decomposition: every reading of a hand, once each, with the winning tile placed in every possible group."""

from __future__ import annotations

from conftest import tiles

from dsl.cases.case import read_case
from dsl.interp.decompose import decompositions
from dsl.interp.evaluation import HandFacts


def readings(spec, case):
    hand = read_case(spec, case)
    facts = HandFacts.of(spec, hand, lambda any_copy: 0)
    return decompositions(spec, facts.counts, hand.melds, hand.win, hand.self_drawn)


def shapes_of(spec, found):
    return sorted(
        (d.shape, tuple(sorted((g.kind, "".join(spec.tiles[t].code for t in g.tiles)) for g in d.groups)), d.wait)
        for d in found)


def test_triple_run_reads_as_pungs_or_chows(spec_of):
    spec = spec_of("shapes standard\n")
    # 111222333m 456p 77z: the first nine tiles are three pungs or three identical chows.
    # The winning 3m completes the 333m pung (a pung wait) or a 123m chow, where 3 after 12 is an edge wait.
    found = readings(spec, {"hand": "11122233m456p77z", "win": "3m"})
    kinds = {tuple(sorted(g.kind for g in d.groups)) for d in found}
    assert kinds == {("chow", "chow", "chow", "chow", "pair"), ("chow", "pair", "pung", "pung", "pung")}
    assert len(found) == 2  # three identical chows give one placement, not three
    assert {d.wait for d in found} == {"pung_wait", "edge"}


def test_edge_closed_single_waits(spec_of):
    spec = spec_of("shapes standard\n")
    assert {d.wait for d in readings(spec, {"hand": "12m456m789m123p77z", "win": "3m"})} == {"edge"}
    assert {d.wait for d in readings(spec, {"hand": "89m456m789p123p77z", "win": "7m"})} == {"edge"}
    assert {d.wait for d in readings(spec, {"hand": "13m456m789m123p77z", "win": "2m"})} == {"closed"}
    assert {d.wait for d in readings(spec, {"hand": "23m456m789m123p77z", "win": "4m"})} == {"two_sided"}
    assert {d.wait for d in readings(spec, {"hand": "123m456m789m123p7z", "win": "7z"})} == {"single"}


def test_declared_melds_are_kept_and_sets_are_counted(spec_of):
    spec = spec_of("shapes standard\n")
    found = readings(spec, {"hand": "456m789m7z", "win": "7z", "melds": ["pung 111p", "kong 2222z"]})
    (d,) = found
    assert sum(g.declared for g in d.groups) == 2
    assert [g.kind for g in d.groups if g.declared] == ["pung", "kong"]


def test_seven_pairs_with_four_of_a_kind(spec_of):
    spec = spec_of("shapes standard, seven_pairs\n")
    # 1111 22 33 44 55 66m is seven pairs (four 1m as two pairs), and also 11 + 123 123 + 456 456.
    found = readings(spec, {"hand": "1111223344556m", "win": "6m"})
    assert {d.shape for d in found} == {"seven_pairs", "standard"}
    pairs = [d for d in found if d.shape == "seven_pairs"]
    assert len(pairs) == 1 and sum(g.kind == "pair" for g in pairs[0].groups) == 7


def test_thirteen_orphans(spec_of):
    spec = spec_of('variant k "十三幺"\n' + tiles("mps") + "shapes thirteen_orphans\n", tiny=False)
    (d,) = readings(spec, {"hand": "19m19p19s1234567z", "win": "9p"})
    assert d.shape == "thirteen_orphans" and d.wait == "single"
    assert sorted(g.kind for g in d.groups) == ["pair"] + ["single"] * 12
    assert readings(spec, {"hand": "19m19p19s1234566z", "win": "6z"}) == []  # no 中, two extra 发


def test_not_a_hand(spec_of):
    spec = spec_of("shapes standard, seven_pairs\n")
    assert readings(spec, {"hand": "13579m13579p246m", "win": "8m"}) == []
