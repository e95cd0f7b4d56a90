"""The names in a generated checker module: a spec's names can never redeclare a name of the module or of the
shared runtime, tile sets are named after the spec, and each rule's code says the file and line it comes from."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import tiles
from parity import answer, compile_text

from dsl.cases.samples import random_cases
from dsl.compiled import codegen, emit, model, names, tables
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.paths import GENERATED_DIR, SPECS_DIR
from dsl.vocabulary import SHAPES, WAITS

# Options, context keys, lets, tile sets, meld kinds and own shapes named like the checker module's own names
# (OPTION_SLOTS, N_TILES, ...) and the runtime's (CHOW, KONG, T_NONE was one): each used to redeclare a C name.
CLASH = 'variant clash "撞名" "Spec names that spell generated names"\n' + tiles("mp") + """\
tileset NONE "None" = rank 1 9
tileset TILES_m "Characters" = rank 2 3
tileset 中张 "N_TILES" = rank 4 5 6
tileset 八 "8" = rank 8
meld KONG "A red laid aside" = 中
meld FAN_ORDER "A fixed kong" = 白 白 白 白
melds chow, pung, kong
shapes standard, seven_pairs
context self_drawn
flag FANS "a flag named like the number of fans"
context N_TILES int 0..3 "a number named like the number of tiles"
player CONTEXT_SLOTS "a seat"
option BOOL "a flag option" = true
option INT "a number option" = 2
option TEXT "a text option" = NONE
option KIND "a number option" = 1
option SLOTS "a flag option" = false
option DEFAULT "a number option" = 3
let CHOW_START = count(pungs)
let FAN_SLOTS = count(groups, FAN_ORDER)
shape NONE "None": count(groups, KONG) == 1 and count(tiles, NONE) == 13
shape CHOW "A chow": count(groups, KONG) == 2 and all(tiles, 中张) and N_TILES == 3
shape PAIR "A pair": count(groups, KONG) == 2 and count(tiles, 八) == 12
fan 平 "Plain" 1: shape == standard and BOOL
fan 对 "Pairs" (INT): shape == seven_pairs
fan 断 "Ends" 1: all(tiles, NONE) and not SLOTS
fan 刻 "Pungs" (KIND) each: CHOW_START + FAN_SLOTS
fan 无 "None" (DEFAULT): shape == NONE or shape == CHOW or shape == PAIR or TEXT == p
fan 旗 "Flag" 1: FANS and N_TILES > 1 and CONTEXT_SLOTS >= 0
fan 八 "Eights" 1: any(tiles, 八) and any(tiles, TILES_m) and any(tiles, 中张)
"""

CORE_PXD = Path(__file__).resolve().parents[1] / "dsl" / "runtime" / "core.pxd"
JINJA = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.S)
# A C name in code: not next to a Jinja expression (\0 stands for one), which may complete it (`T_{{ shape }}`).
WORD = re.compile(r"(?<![\w\0])[A-Za-z_]\w*(?![\w\0])")
NUMBERED = re.compile("(" + "|".join(re.escape(p) for p in names.NUMBERED) + r")\d")
LOCATION = re.compile(r"\s*# (specs/\w+\.mj):(\d+)")


def test_spec_names_that_spell_generated_names_compile_and_score_as_the_interpreter(tmp_path):
    compiled, interpreter = compile_text(CLASH, tmp_path)  # no fallback to the interpreter
    cases = random_cases(interpreter.spec, 1500, seed=17)
    for case in cases:
        assert answer(compiled.evaluate, case) == answer(interpreter.evaluate, case), case
    # the options, the integer key and the own shapes at work
    case = {"hand": "111m222m333m444m5m", "win": "5m", "FANS": True, "N_TILES": 2, "CONTEXT_SLOTS": 1,
            "options": {"KIND": 3, "TEXT": "p"}}
    fans = {f["name"]: f["value"] * f["count"] for f in compiled.evaluate(case)["fans"]}
    assert fans == {"平": 1, "刻": 12, "无": 3, "旗": 1} and compiled.evaluate(case) == interpreter.evaluate(case)


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are no docstrings: the C it writes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def fixed_names() -> set[str]:
    """Every word of the runtime contract, the templates (their Jinja left out) and the C the code generator
    writes: the names a checker module has whatever its spec."""
    texts = [CORE_PXD.read_text(encoding="utf-8")]
    texts += [JINJA.sub("\0", p.read_text(encoding="utf-8")) for p in Path(codegen.TEMPLATES).glob("*.j2")]
    for module in (codegen, emit, model, tables):
        texts += _code_strings(Path(module.__file__))
    return {word for text in texts for word in WORD.findall(text)}


def test_no_fixed_name_starts_as_a_spec_s_names_do():
    taken = {name for name in fixed_names() if name.startswith(names.NAMED) or NUMBERED.match(name)}
    assert taken == {f"{names.TEXT}{text}" for text in SHAPES + WAITS}  # the runtime's texts, named as a spec's


def test_the_fixed_names_are_read_from_each_place():
    fixed = fixed_names()
    assert {"FIRST_SPEC_TEXT", "OPTION_KIND", "hand_waits", "KEY_FLAG"} <= fixed  # core.pxd, templates, emit, tables


def _tileset(name: str, english: str | None) -> ir.TileSet:
    return ir.TileSet(name, english, frozenset({0}), None)


def test_tile_sets_are_named_after_the_spec_uniquely():
    sets = (_tileset("万", "Characters"), _tileset("m", "Characters"), _tileset("幺九", "Terminals and honors"),
            _tileset("二五八", None), _tileset("八", "8"), _tileset("风", "Winds, 发 and 白"), _tileset("m2", "m"),
            _tileset("x", "Characters"), _tileset("字", "Honors of a very long name that goes on and on"))
    assert names.tile_set_names(sets) == [
        "TILES_CHARACTERS", "TILES_m", "TILES_TERMINALS_AND_HONORS", "TILES_3", "TILES_4", "TILES_5", "TILES_m2",
        "TILES_x", "TILES_HONORS_OF_A_VERY_LONG_NAME_THAT_GOES_ON"]
    assert names.tile_set_names(sets[1:2] + sets[:1]) == ["TILES_m", "TILES_CHARACTERS"]


def test_mcr_s_tile_sets_read_as_the_spec_does():
    code = (GENERATED_DIR / "mcr.pyx").read_text(encoding="utf-8")
    assert "cdef unsigned long long TILES_TERMINALS_AND_HONORS = 0x3fc060301ULL  # 幺九 (Terminals and honors)" in code
    assert "((c.held_tiles & ~TILES_GREEN_TILES) == 0)" in code and "TILESET_" not in code


def _defines(code_line: str, fans: dict[str, str]) -> str:
    """What the spec line under a `# FILE:LINE` comment must start with, from the line of code below it."""
    code = code_line.strip()
    function = re.match(r"cdef [\w ]+? (\w+)\(", code)
    if function:
        name = function.group(1)
        if name.startswith(names.FAN_FUNCTION):
            return rf"(replace )?(loser )?fan {re.escape(fans[name.removesuffix('_value')])}\b"
        return {"pot": "pot:", "liable": "liable:"}.get(name, "let ")  # a let, of `score:` and `settle:` too
    written = re.match(r"# (require |shape )?(\S+?):", code)
    assert written, code_line
    if written.group(1):
        return re.escape(written.group(1) + written.group(2))
    if written.group(2) in ("self_drawn", "discard"):
        return r"(self_drawn|discard|each|discarder)\b.* pays "
    return rf"(replace )?fan {re.escape(written.group(2))}\b"  # a combination fan, tested in fan_of_SOURCE


@pytest.mark.parametrize("name", ["mcr", "competition", "riichi", "wuhan", "taiwan"])
def test_each_rule_says_the_spec_line_it_comes_from(name):
    """`# specs/mcr.mj:82` above the code of a fan, `let`, requirement, own shape or settlement rule: the line that
    defines it (in the parent's file for what a child variant inherits)."""
    spec = load_spec(name)
    fans = {function: fan for fan, function in names.fan_functions(spec).items()}
    lines = (GENERATED_DIR / f"{name}.pyx").read_text(encoding="utf-8").splitlines()
    files, located = set(), set()
    for comment, code in zip(lines, lines[1:], strict=False):
        where = LOCATION.fullmatch(comment)
        if where is None:
            continue
        path, number = where.groups()
        line = (SPECS_DIR / Path(path).name).read_text(encoding="utf-8").splitlines()[int(number) - 1].strip()
        defines = _defines(code, fans)
        assert re.match(defines, line), (comment, code, line)
        files.add(path)
        located.add(defines)
    assert all(any(re.match(d, f"fan {fan}") for d in located) for fan in fans.values())  # every fan
    assert files == {f"specs/{name}.mj"} | ({"specs/mcr.mj"} if name == "competition" else set())
