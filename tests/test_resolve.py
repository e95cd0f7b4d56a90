"""Resolving: names, tile sets, extends / replace / remove, cycles, scopes — and the errors for each."""

from __future__ import annotations

import pytest

from dsl.frontend import ir
from dsl.frontend.resolve import check, load_spec
from dsl.frontend.source import SpecError


def error_of(spec_of, text: str, **kwargs):
    with pytest.raises(SpecError) as info:
        spec_of(text, **kwargs)
    return info.value.diagnostics[0]


def test_tiles_and_tilesets(spec_of):
    spec = spec_of("tileset 箭 = 白 发 中\ntileset 绿 = 23m + 发 - 3m\n")
    codes = {ts.name: sorted(spec.tiles[i].code for i in ts.tiles) for ts in spec.tilesets}
    assert codes["箭"] == ["5z", "6z", "7z"]
    assert codes["绿"] == ["2m", "6z"]
    assert codes["幺九"] == ["1m", "1p", "1z", "2z", "3z", "4z", "5z", "6z", "7z", "9m", "9p"]
    assert len(spec.tiles) == 25 and spec.tile("5m").name == "五万" and spec.tile("1z").name == "东"


def test_patterns_are_ordered_after_what_they_use(spec_of):
    spec = spec_of("fan 甲 1: 乙 and 丙\nfan 乙 1: suits == 1\nfan 丙 1: self_drawn\n")
    names = [p.name for p in spec.patterns]
    assert names.index("乙") < names.index("甲") and names.index("丙") < names.index("甲")
    assert spec.pattern("甲").order == 0  # declaration order is kept for tie-breaking


def test_cycle_is_an_error(spec_of):
    d = error_of(spec_of, "fan 甲 1: 乙\nfan 乙 1: 甲\n")
    assert "circle" in d.message and "甲 -> 乙 -> 甲" in d.message


def test_alias_resolves_to_the_fan(spec_of):
    spec = spec_of("fan 对对胡 2: count(chows) == 0\n    alias 碰碰胡, 对对和\nfan 甲 1: 碰碰胡\n    不计 对对和\n")
    assert spec.pattern("甲").excludes[0].target == "对对胡"
    assert spec.pattern("甲").condition == ir.PatternRef(spec.pattern("甲").condition.span, "对对胡")


@pytest.mark.parametrize(("text", "fragment", "hint"), [
    ("fan 甲 1: suits == 1\n    不计 乙\n", "unknown fan '乙'", "did you mean 甲?"),
    ("fan 甲 1: sutis == 1\n", "unknown name 'sutis'", "did you mean suits?"),
    ("fan 甲 1: last_tile\n", "declare it with `context last_tile`", None),
    ("fan 甲 1: count(tiles, 幺久)\n", "unknown name '幺久'", "did you mean 幺九?"),
    ("fan 甲 1: loser.dealer\n", "only known when settling", None),
    ("fan 甲 1: win\n", "is a tile", None),
    ("fan 甲 1: true\nfan 甲 1: false\n", "already defined", "replace fan"),
    ("fan 甲 1: true\n    不计 甲\n", "cannot exclude itself", None),
    ("fan 甲 1: true\nfan 乙 1: true\n    不计 甲 ×1\n", "not counted per occurrence", None),
    ("shapes standard, seven_pair\n", "unknown shape", "did you mean seven_pairs?"),
    ("melds pung, chi\n", "unknown meld kind", None),
    ("settle:\n    discard: winner pays 1\n", "unknown payer", None),
    ("settle:\n    self_drawn: discarder pays 1\n", "no discarder", None),
    ("minimum 8 excluding 花牌\n", "unknown fan '花牌'", None),
])
def test_resolve_errors(spec_of, text, fragment, hint):
    d = error_of(spec_of, text)
    assert fragment in d.message
    assert d.span is not None and d.span.line > 0
    if hint:
        assert hint in d.hint


def test_extends_add_replace_remove(write_spec):
    write_spec("fan 甲 1: true\nfan 乙 2: self_drawn\n    不计 甲\nfan 丙 3: suits == 1\n"
               'settle:\n    discard: discarder pays total\n', name="parent")
    child = write_spec('variant child "子"\nextends parent\nreplace fan 乙 5: self_drawn\nremove 丙\n'
                       'fan 丁 1: suits == 2\n', name="child", tiny=False)
    spec = load_spec(str(child))
    assert spec.name == "child" and spec.parent == "parent"
    assert {p.name for p in spec.patterns} == {"甲", "乙", "丁"}
    assert spec.pattern("乙").value.amount == 5 and spec.pattern("乙").excludes == ()
    assert spec.settlement is not None  # inherited


def test_extends_errors(write_spec):
    write_spec("fan 甲 1: true\n", name="parent")
    child = write_spec('variant c "子"\nextends parent\nfan 甲 2: true\n', name="c1", tiny=False)
    with pytest.raises(SpecError, match="already defined in the parent spec"):
        load_spec(str(child))
    child = write_spec('variant c "子"\nextends parent\nreplace fan 乙 2: true\n', name="c2", tiny=False)
    with pytest.raises(SpecError, match="cannot replace '乙'"):
        load_spec(str(child))
    loop = write_spec('variant loop "环"\nextends loop\n', name="loop", tiny=False)
    with pytest.raises(SpecError, match="extends itself"):
        load_spec(str(loop))
    missing = write_spec('variant m "缺"\nextends nowhere\n', name="m", tiny=False)
    with pytest.raises(SpecError, match="no spec named 'nowhere'"):
        load_spec(str(missing))


def test_warning_for_a_fan_that_can_never_count(write_spec):
    path = write_spec("fan 甲 2: suits == 1\n    不计 乙\nfan 乙 1: 甲 and self_drawn\n")
    spec, diagnostics = check(str(path))
    assert spec is not None
    messages = [d.message for d in diagnostics if d.severity == "warning"]
    assert any("'乙' is always excluded" in m for m in messages)


def test_warning_for_an_unused_tileset(write_spec):
    path = write_spec("tileset 没用 = 1m\nfan 甲 1: any(tiles, 幺九)\n")
    _, diagnostics = check(str(path))
    assert [d.message for d in diagnostics] == ["tile set '没用' is never used"]
