"""dsl/vocabulary.py is the one place the shared names and sizes are written: the C runtime's enums
(dsl/runtime/core.pxd) and every compiled checker hold the same ones in the same order."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from dsl import vocabulary
from dsl.compiled.codegen import GROUP_FILTERS, KEY_KINDS
from dsl.frontend.resolve import load_spec
from dsl.paths import bundled_specs

ROOT = Path(__file__).resolve().parents[1]
CORE_PXD = ROOT / "dsl" / "runtime" / "core.pxd"
ENUM = re.compile(r"^cdef enum( \w+)?:")


def pxd_enums(text: str) -> dict[str | None, dict[str, int]]:
    """Each `cdef enum` block of a .pxd: its name (None for the unnamed one) -> its members and their values.
    A member without a value is the one before it plus one; a value may add members named before it."""
    enums: dict[str | None, dict[str, int]] = {}
    members: dict[str, int] | None = None
    for line in text.replace("\\\n", "").splitlines():
        code = line.split("#")[0].rstrip()
        if match := ENUM.match(code):
            members = enums.setdefault(match.group(1).strip() if match.group(1) else None, {})
        elif members is not None and code.startswith("    "):
            for item in filter(None, (part.strip() for part in code.split(","))):
                name, _, value = (part.strip() for part in item.partition("="))
                members[name] = _sum(value, members) if value else max(members.values(), default=-1) + 1
        elif code:
            members = None  # the block ended
    return enums


def _sum(expression: str, known: dict[str, int]) -> int:
    return sum(int(term) if term.strip().lstrip("-").isdigit() else known[term.strip()]
               for term in expression.split("+"))


ENUMS = pxd_enums(CORE_PXD.read_text(encoding="utf-8"))


def names(enum: str) -> list[str]:
    """The members of a named enum in the order of their values, which must run 0, 1, 2, ..."""
    members = ENUMS[enum]
    assert sorted(members.values()) == list(range(len(members))), enum
    return sorted(members, key=members.__getitem__)


def test_the_enum_reader_reads_what_the_pxd_declares():
    """The reader itself, on a block written here: values, defaults, sums, comments, continued lines."""
    text = ("cdef enum:\n    A = 4  # four\n    B = A + 1 + 2\n\ncdef enum Kind:\n    X, \\\n        Y\n    Z\n"
            "cdef struct S:\n    int a\n")
    assert pxd_enums(text) == {None: {"A": 4, "B": 7}, "Kind": {"X": 0, "Y": 1, "Z": 2}}


def test_runtime_limits_are_the_vocabulary_s():
    assert ENUMS[None] == vocabulary.RUNTIME_LIMITS


def test_the_arithmetic_limit_is_the_vocabulary_s():
    match = re.search(r'const long long LIMIT "\((\d+)LL\)"', CORE_PXD.read_text(encoding="utf-8"))
    assert match and int(match.group(1)) == vocabulary.LIMIT


def test_shapes_and_waits_are_the_first_texts_in_order():
    expected = [f"T_{name}" for name in vocabulary.SHAPES + vocabulary.WAITS] + ["FIRST_SPEC_TEXT"]
    assert names("Text") == expected


def test_group_kinds_meld_shapes_and_sources_are_in_the_vocabulary_s_order():
    assert names("GroupKind") == [kind.upper() for kind in vocabulary.GROUP_KINDS] + ["FIRST_OWN_KIND"]
    assert names("MeldShape") == [f"SHAPE_{shape.upper()}" for shape in vocabulary.MELD_SHAPES]
    assert names("Source") == [f"SOURCE_{source.upper()}" for source in vocabulary.GROUP_SOURCES]
    assert tuple(GROUP_FILTERS) == vocabulary.GROUP_SOURCES


def test_case_keys_and_context_kinds_are_in_the_vocabulary_s_order():
    expected = [f"KEY_{key.upper()}" for key in vocabulary.STRUCTURAL_KEYS]
    expected += [KEY_KINDS[kind] for kind in vocabulary.CONTEXT_KINDS]
    assert names("KeyKind") == expected
    assert {kind for kind, _ in vocabulary.CONTEXT_KEYS.values()} <= set(vocabulary.CONTEXT_KINDS)
    assert set(vocabulary.ALWAYS_ACCEPTED) <= set(vocabulary.CONTEXT_KEYS)
    indicators = {key for key, (kind, _) in vocabulary.CONTEXT_KEYS.items() if kind == "tiles"}
    assert set(vocabulary.INDICATOR_LIMITS) <= indicators


def test_the_other_names_hang_together():
    assert set(vocabulary.COMBINING_PRINCIPLES) <= set(vocabulary.PRINCIPLES)
    assert set(vocabulary.WILD_SHAPES) <= set(vocabulary.SHAPES)
    assert set(vocabulary.GROUP_SOURCES) | set(vocabulary.SETTLE_SOURCES) <= set(vocabulary.SOURCES)
    assert {shape for _, shape, _, _ in vocabulary.BUILTIN_MELDS.values()} <= set(vocabulary.MELD_SHAPES)
    assert len(vocabulary.SHAPES) == vocabulary.RUNTIME_LIMITS["MAX_SHAPES"]  # a spec may list every shape


@pytest.mark.parametrize("name", bundled_specs())
def test_every_compiled_checker_holds_the_vocabulary_s_texts_and_keys(name):
    spec = load_spec(name)
    module = importlib.import_module(f"dsl.generated.{name}")
    texts = vocabulary.SHAPES + vocabulary.WAITS
    assert module.TEXT_VALUES[:len(texts)] == texts
    assert list(module.KEYS) == list(vocabulary.STRUCTURAL_KEYS) + [key.name for key in spec.context]


def test_the_vocabulary_imports_nothing_of_dsl():
    """So that every stage, the compiled checkers' runtime included, may import it."""
    tree = ast.parse((ROOT / "dsl" / "vocabulary.py").read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert [name for name in imported if name.split(".")[0] == "dsl"] == []
