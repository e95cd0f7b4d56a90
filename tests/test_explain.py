"""Explanations: every worked example of every bundled spec explained, and each part checked against `evaluate`
and against the spec's text; `--why-not` on hands worked out from the rule books; the `mjdsl explain` command."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import dsl
from dsl.cli import main
from dsl.frontend.resolve import load_spec
from dsl.interp.explain import explain
from dsl.interp.interpreter import Interpreter
from dsl.paths import bundled_specs

CASES = [(name, i) for name in bundled_specs() for i in range(len(load_spec(name).examples))]


@cache
def interpreter(name: str) -> Interpreter:
    return Interpreter(load_spec(name))


@cache
def compiled(name: str):
    return dsl.load(name)


@cache
def spec_line(where: str) -> str:
    path, _, line = where.rpartition(":")
    return Path(path).read_text(encoding="utf-8").splitlines()[int(line) - 1]


def names_of(spec, name: str) -> set[str]:
    pattern = spec.pattern(name)
    return {pattern.name, *pattern.aliases}


@pytest.mark.parametrize(("name", "index"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_every_worked_example_is_explained_as_it_is_scored(name, index):
    spec = interpreter(name).spec
    case = spec.examples[index].case_dict()
    out = explain(interpreter(name), case)
    result = compiled(name).evaluate(case)
    assert out["ok"] == result["ok"]
    if not result["ok"]:
        assert out["error"] == result["error"]
        return
    if "fans" not in result:  # no reading at all: nothing counted, nothing dropped
        assert "fans" not in out and result["winning"] is False
        return
    assert [(f["name"], f["value"], f["count"]) for f in out["fans"]] == \
        [(f["name"], f["value"], f["count"]) for f in result["fans"]]
    # What held on the chosen reading is what counted plus what a rule dropped, and each drop cites its rule.
    # (Under 套算一次 / 不得相同 a combination of sets may match a fan the principles then count 0 times.)
    present = interpreter(name).present_fans(case)
    dropped = {d["name"] for d in out["dropped"] if d["rule"] != "principles"}
    assert dropped <= present
    assert present - {f["name"] for f in out["fans"]} <= dropped
    combining = {p.name for p in spec.patterns if type(p.condition).__name__ == "Combinations"}
    assert {d["name"] for d in out["dropped"] if d["rule"] == "principles"} <= combining
    for d in out["dropped"]:
        line = spec_line(d["where"])
        if d["rule"] == "不计":
            assert any(n in line for n in names_of(spec, d["name"])), (d, line)
        else:
            assert {"exclusive": "exclusive", "supersede": "supersede", "principles": "principles"}[d["rule"]] \
                in line, (d, line)
    for fan in out["fans"]:
        assert any(n in spec_line(fan["where"]) for n in names_of(spec, fan["name"]))
    if "payments" in result:
        paid = Counter()
        for p in out["payments"]:
            if not p.get("liable"):
                paid[p["seat"]] -= p["pays"]
                paid[p["to"]] += p["pays"]
        liable = [p for p in out["payments"] if p.get("liable")]
        if liable:  # one loser pays what every loser owes
            owed = sum(p["pays"] for p in out["payments"] if not p.get("liable"))
            paid = Counter({s: 0 for s in paid}) + Counter()
            paid[liable[0]["seat"]] -= owed
            paid[liable[0]["to"]] += owed
        assert [paid.get(seat, 0) for seat in range(len(result["payments"]))] == result["payments"]


@pytest.mark.parametrize("name", bundled_specs())
def test_a_compiled_checker_explains_as_the_interpreter_does(name):
    spec = interpreter(name).spec
    case = next((e.case_dict() for e in spec.examples if e.fans), spec.examples[0].case_dict())
    asked = ["自摸"] if any(p.name == "自摸" for p in spec.patterns) else []
    assert compiled(name).explain(case, asked) == interpreter(name).explain(case, asked) == \
        explain(interpreter(name), case, asked)


def test_nine_gates_drops_full_flush_by_its_exclusion_list():
    # 国标 九莲宝灯 (88): not counted with it are 清一色, 不求人, 门前清, 无字 and one 幺九刻 (the rule book's 不计
    # list). 1112345678999m + 5m self-drawn: 九莲宝灯 88, 双暗刻 2 (111m 999m), one 幺九刻 1 of the two, 自摸 1.
    out = explain(interpreter("mcr"), {"hand": "1112345678999m", "win": "5m", "self_drawn": True}, ["清一色"])
    assert [(f["name"], f["count"]) for f in out["fans"]] == [("九莲宝灯", 1), ("双暗刻", 1), ("幺九刻", 1),
                                                              ("自摸", 1)]
    by_nine_gates = {(d["name"], d["count"]) for d in out["dropped"] if d["by"] == "九莲宝灯"}
    assert by_nine_gates == {("清一色", 1), ("不求人", 1), ("无字", 1), ("幺九刻", 1)}
    answer = out["why_not"][0]
    assert answer["status"] == "dropped"
    assert answer["on_chosen"]["checks"][0]["holds"] is True


def test_why_not_pinfu_names_the_pung_and_the_wait():
    # riichi: 234m 567m 22p 345s + 66s, won on 6s: 666s is a pung and the wait is on either pair (shanpon), so
    # 平和 (no pungs, a two-sided wait) fails on exactly those two parts; 立直 and 断幺九 count (1 + 1 han).
    out = explain(interpreter("riichi"), {"hand": "234m567m22p345s66s", "win": "6s", "riichi": True}, ["pinfu"])
    assert [f["name"] for f in out["fans"]] == ["立直", "断幺九"]
    checks = {c["text"]: c["holds"] for c in out["why_not"][0]["on_chosen"]["checks"]}
    assert checks["count(pungs) == 0: 1 ≠ 0"] is False
    assert checks["wait == two_sided: pung_wait ≠ two_sided"] is False
    assert out["why_not"][0]["status"] == "does not hold"


def test_why_not_looks_at_the_reading_closest_to_the_fan():
    # 国标: 111222333m 456p 5z + 5z read as three pungs (一色三节高 24 counts) or as three 123m chows
    # (一色三同顺 24). Both are worth the same; a 一色三同顺 asked about is shown on the chow reading.
    case = {"hand": "111222333m456p5z", "win": "5z"}
    out = explain(interpreter("mcr"), case, ["一色三同顺"])
    answer = out["why_not"][0]
    chosen = [r for r in out["readings"] if r["chosen"]][0]
    if answer["status"] == "counted":
        assert "123m 123m 123m" in chosen["groups"]
    else:
        assert answer["closest"]["holds"] is True
        assert "123m 123m 123m" in answer["closest"]["groups"]


def test_payments_show_their_formula_worked_out():
    # 四川: a 1-fan 平胡 on a discard pays 2 ^ (1 - 1) = 1, from the discarder alone.
    out = explain(interpreter("sichuan"), {"hand": "123m456m789m11p23p", "win": "4p", "discarder": 2})
    (payment,) = out["payments"]
    assert payment["seat"] == 2 and payment["roles"] == ["discarder"] and payment["pays"] == 1
    assert {"name": "value", "formula": "2 ^ (total - 1)", "worked": "2 ^ (1 - 1)", "value": "1"} in payment["terms"]


def test_a_bad_case_or_fan_name_is_an_error_not_a_crash():
    out = explain(interpreter("mcr"), {"hand": "1112345678999m", "win": "5m"}, ["清一"])
    assert out["ok"] is False and "清一" in out["error"]
    assert explain(interpreter("mcr"), {"hand": "11123m"}, [])["ok"] is False


def test_the_explain_command(capsys):
    assert main(["explain", "mcr", "1112345678999m", "--win", "5m", "--self-drawn", "--why-not", "Full Flush"]) == 0
    text = capsys.readouterr().out
    assert "seat 0 (East) wins by self-draw, on 5m" in text
    assert "九莲宝灯" in text and "88 × 1 = 88 番" in text
    assert "不计 of 九莲宝灯" in text
    assert "Why not 清一色 (Full Flush)" in text
    assert main(["explain", "mcr", "--case", '{"hand": "1112345678999m", "win": "5m"}', "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["fans"][0]["name"] == "九莲宝灯"
    assert main(["explain", "mcr", "111m", "--win", "5m"]) == 1
    assert capsys.readouterr().out.startswith("error:")
    assert main(["explain", "mcr", "1112345678999m", "--win", "5m", "--why-not", "nothing"]) == 1
    assert "mcr has no fan of that name" in capsys.readouterr().out


def test_the_readme_example_is_what_the_command_prints(capsys):
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ mjdsl explain ", 1)[1].split("```", 1)[0]
    command, *shown = block.splitlines()
    assert main(["explain", *command.split()]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = [line for line in shown if line and line != "..."]
    assert shown and all(line in printed for line in shown), [line for line in shown if line not in printed]
