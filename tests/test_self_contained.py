"""A compiled checker answers every case on its own: the interpreter runs on the IR the module embeds, so
no spec file and none of the front end (lark, the parser, resolve) or the compiler is needed."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import dsl
from dsl.compiled import codegen
from dsl.frontend import ir_json
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import GENERATED_DIR, bundled_specs

OWN = """\
fan 和 "Sum" (9007199254740992 + 1): suits <= 2
fan 平 "Plain" 1: shape == standard
"""
OVERFLOWING = {"hand": "123m456m789m1122p", "win": "2p"}  # 和 is worth 2^53 + 1: beyond the C arithmetic
MALFORMED = [
    {"hand": "xx"},
    {"win": "2p"},
    {"hand": 5, "win": "2p"},
    {"hand": "123m456m789m1122p", "win": "9z"},
    {"hand": "1111m456m789m1122p", "win": "1m"},
    {"hand": "123m456m789m1122p", "win": "2p", "seat_wind": "X"},
]
FRONT_END = ("lark", "jinja2", "Cython", "dsl.compiled.codegen", "dsl.frontend.resolve", "dsl.frontend.parser")


def answer(function, case) -> str:
    """What a call returns or raises, as text to compare."""
    try:
        return json.dumps(function(case), ensure_ascii=False)
    except Exception as exc:  # noqa: BLE001 - the exception itself is what is compared
        return f"raises {type(exc).__name__}: {exc}"


# Loads a checker (a compiled module's file, or a bundled module's name), answers a malformed and an
# overflowing case, and lists the modules imported.
ISOLATED = """
import importlib, importlib.util, json, sys
from pathlib import Path
where = sys.argv[1]
if Path(where).is_file():
    spec = importlib.util.spec_from_file_location(Path(where).name.split(".")[0], where)
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
else:
    checker = importlib.import_module(where)
results = [checker.evaluate(json.loads(case)) for case in sys.argv[2:]]
print(json.dumps({"results": results, "modules": sorted(sys.modules)}))
"""


def run_isolated(where: str, *cases: dict) -> tuple[list[dict], list[str]]:
    """The results of the cases in a fresh process, and which modules of FRONT_END it imported."""
    shown = json.loads(subprocess.run([sys.executable, "-c", ISOLATED, where, *map(json.dumps, cases)],
                                      capture_output=True, text=True, check=True).stdout)
    return shown["results"], [m for m in FRONT_END if m in shown["modules"]]


def test_without_its_spec_file_a_checker_answers_as_the_interpreter(write_spec, tmp_path, monkeypatch):
    monkeypatch.setenv("MJDSL_CACHE", str(tmp_path / "cache"))
    path = write_spec(OWN, name="own")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback to the interpreter is a failure here
        compiled = dsl.load(str(path))
    assert not isinstance(compiled, Interpreter)
    interpreter = Interpreter(load_spec(str(path)))
    path.unlink()  # before any case reaches the checker's interpreter
    for case in MALFORMED:
        assert compiled.evaluate(case)["ok"] is False, case
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case
        assert answer(compiled.waits, case) == answer(interpreter.waits, case), case  # waits read no "win"
    result = compiled.evaluate(OVERFLOWING)
    assert {f["name"]: f["value"] for f in result["fans"]}["和"] == 2 ** 53 + 1
    assert result == interpreter.evaluate(OVERFLOWING)

    results, imported = run_isolated(compiled.__file__, MALFORMED[0], OVERFLOWING)
    assert imported == []
    assert results == [interpreter.evaluate(MALFORMED[0]), result]


def test_a_bundled_checker_answers_a_malformed_case_without_the_front_end_or_the_compiler():
    results, imported = run_isolated("dsl.generated.sichuan", MALFORMED[0])
    assert imported == []
    assert results == [Interpreter(load_spec("sichuan")).evaluate(MALFORMED[0])]


@pytest.mark.parametrize("name", bundled_specs())
def test_each_bundled_checker_embeds_the_ir_it_was_compiled_from(name):
    spec = load_spec(name)
    embedded = ir_json.loads(importlib.import_module(f"dsl.generated.{name}").SPEC_IR)
    assert embedded.path == codegen.shown_path(spec.path) == f"specs/{name}.mj"
    assert dataclasses.replace(embedded, path=spec.path) == spec  # Span.source, not compared, keeps no text


def test_the_generated_module_is_the_same_from_any_working_directory(tmp_path, monkeypatch):
    """Spec paths reach the embedded IR as generated code shows them, so `mjdsl build --check` holds
    wherever it runs."""
    monkeypatch.chdir(tmp_path)
    spec = load_spec("competition")  # extends mcr: spans point into two files
    assert Path(spec.path).is_absolute()
    assert codegen.generate(spec) == (GENERATED_DIR / "competition.pyx").read_text(encoding="utf-8")


def test_ir_text_of_another_ir_definition_is_refused():
    head, _, body = ir_json.dumps(load_spec("sichuan")).partition("\n")
    header = json.loads(head)
    header["fields"]["Tile"] = [*header["fields"]["Tile"], "added"]
    with pytest.raises(ir_json.IRFormatError, match="ir.Tile"):
        ir_json.loads(json.dumps(header) + "\n" + body)
    header["format"] = ir_json.FORMAT + 1
    with pytest.raises(ir_json.IRFormatError, match="format"):
        ir_json.loads(json.dumps(header) + "\n" + body)
