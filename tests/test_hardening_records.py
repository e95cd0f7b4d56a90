"""Round records that agree with themselves, seat keys that are seats, and no file overwritten by a build.

A case of a round may repeat what the record says of the whole hand (the dealer, the shared context and
integer keys, the declared flags, the options) but not contradict it. A seat named by an object key is
written "0" up to the table's last seat, once. `mjdsl build` and `mjdsl doc` write over no input and no
file they did not write unless told to (--force).
"""

from __future__ import annotations

import json
import random

import pytest
from fuzz_long import fuzz_seat_keys
from test_cli import run

import dsl
from dsl import build
from dsl.book import render
from dsl.book.worked import worked_round
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler

# taiwan's 連莊 round: the dealer (seat 0) wins on seat 3's 8s; with 連莊 N it scores 莊家 1 and 拉莊 2N
# (連N拉N, [B] in the spec), and the next hand gets 連莊 N + 1 (the dealer won).
TAIWAN_DEALER_WIN = {"melds": ["chow 123m"], "hand": "456m789p234s67s33z", "win": "8s", "seat": 0, "discarder": 3}


def settlers(name: str) -> list[RoundSettler]:
    """The settler of a spec with each back end: both must settle a record alike."""
    spec = load_spec(name)
    compiled = dsl.load(name)
    assert not isinstance(compiled, Interpreter), name
    return [RoundSettler(spec, Interpreter(spec)), RoundSettler(spec, compiled)]


def settle_both(name: str, record: dict) -> dict:
    interpreted, compiled = (settler.settle(record) for settler in settlers(name))
    assert interpreted == compiled
    return interpreted


# ---------------------------------------------------------------- a win agrees with its record


def test_a_win_with_another_value_of_a_carried_key_is_refused():
    # Scored with the event's 連莊 2 (拉莊 4) but carried on from the record's 1: the next hand would get 2, not 3.
    result = settle_both("taiwan", {"context": {"連莊": 1}, "events": [{"win": TAIWAN_DEALER_WIN | {"連莊": 2}}]})
    assert result["ok"] is False
    assert result["error"].startswith("event 1 (win): '連莊' 2 contradicts the record: the whole hand has 連莊 1")


def test_a_win_with_an_integer_key_the_record_leaves_out_is_refused():
    # The record's 連莊 is then its lowest value, 0, which `next hand sets` works from.
    result = settle_both("taiwan", {"events": [{"win": TAIWAN_DEALER_WIN | {"連莊": 2}}]})
    assert result["ok"] is False and "'連莊' 2 contradicts the record: the whole hand has 連莊 0" in result["error"]


def test_a_win_that_repeats_the_record_is_scored_and_carried_on_alike():
    result = settle_both("taiwan", {"context": {"連莊": 2}, "events": [{"win": TAIWAN_DEALER_WIN | {"連莊": 2}}]})
    fans = {f["name"]: f["value"] for f in result["events"][0]["fans"]}
    assert fans == {"莊家": 1, "拉莊": 4} and result["next_context"] == {"連莊": 3}


@pytest.mark.parametrize(("record", "dealer"), [({"dealer": 1}, 0), ({}, 2)])
def test_a_win_naming_another_dealer_is_refused(record, dealer):
    result = settle_both("taiwan", record | {"events": [{"win": TAIWAN_DEALER_WIN | {"dealer": dealer}}]})
    expected = record.get("dealer", 0)
    assert result["ok"] is False
    assert f"'dealer' {dealer} contradicts the record: the whole hand has dealer {expected}" in result["error"]


WUHAN_WIN = {"hand": "234m678m345p5m", "win": "5m", "melds": ["kong 7777p"], "indicator": "1s", "seat": 0,
             "discarder": 3}


def test_a_win_with_other_options_or_context_than_the_record_is_refused():
    options = settle_both("wuhan", {"options": {"口口翻": True},
                                    "events": [{"win": WUHAN_WIN | {"options": {"口口翻": False}}}]})
    assert options["ok"] is False and "option '口口翻' False contradicts the record" in options["error"]
    default = settle_both("wuhan", {"events": [{"win": WUHAN_WIN | {"options": {"起胡": 1}}}]})
    assert default["ok"] is False and "option '起胡' 1 contradicts the record: the whole hand has 起胡 3" in \
        default["error"]
    context = settle_both("wuhan", {"context": {"indicator": "2s"}, "events": [{"win": WUHAN_WIN}]})
    assert context["ok"] is False and "'indicator' '1s' contradicts the record" in context["error"]


def test_a_win_may_not_undo_a_declared_flag():
    hand = {"hand": "123m456p789s1m", "melds": ["pung 777z"], "win": "1m", "seat": 0, "discarder": 3,
            "other_melds": {"1": ["chow 234s"], "2": ["chow 567p"], "3": ["chow 345m"]}, "dragons_shown": False}
    result = settle_both("shenyang", {"events": [{"declare": "亮中发白", "seat": 2}, {"win": hand}]})
    assert result["ok"] is False
    assert result["error"].startswith("event 2 (win): 'dragons_shown' False contradicts the record: the whole hand "
                                      "has dragons_shown True (declared or carried)")


SICHUAN_READY = {"hand": "234p567p999p55m67m"}  # waits 5m and 8m
SICHUAN_OTHERS = {"0": {"hand": "13579m12345689p"}, "1": {"hand": "123m456p789s1134s"},
                  "3": {"hand": "22468m13577999s"}}


@pytest.mark.parametrize(("given", "fragment"), [
    ({"seat": 1}, "seat 2's final hand: 'seat' 1: it is the final hand of seat 2 (its key in 'draw')"),
    ({"dealer": 3}, "seat 2's final hand: 'dealer' 3 contradicts the record: the whole hand has dealer 0"),
    ({"out": [1]}, "seat 2's final hand: 'out' is not given in a round"),
])
def test_a_final_hand_at_a_draw_agrees_with_its_seat_and_the_record(given, fragment):
    result = settle_both("sichuan", {"events": [{"draw": SICHUAN_OTHERS | {"2": SICHUAN_READY | given}}]})
    assert result["ok"] is False and result["error"].startswith(f"event 1 (draw): {fragment}")


def test_a_final_hand_is_read_with_the_record_s_context(write_spec):
    """Wuhan: 123m 456m 55p + pung 333p waits on 78s, so 6s or 9s; with the indicator 1s, 9s is a 痞子 (the
    tile before the indicator) and a hand holding one does not win, so only 6s. The settler and the rule
    book both read the final hand with the record's indicator."""
    draw = {"0": {"hand": "1112345678999m"}, "1": {"hand": "1112345678999p"},
            "2": {"hand": "123m456m78s55p", "melds": ["pung 333p"]}, "3": {"hand": "2223334445556z"}}
    result = settle_both("wuhan", {"context": {"indicator": "1s"}, "events": [{"draw": draw}]})
    assert result["events"][0]["waits"] == {"0": [], "1": [], "2": ["6s"], "3": []}
    spec = load_spec(str(write_spec("""\
        variant wuhanbook "武汉" "A worked round"
        extends wuhan
        round "A draw with an indicator":
            with indicator 1s
            draw:
                player 0:
                    hand 1112345678999m
                player 1:
                    hand 1112345678999p
                player 2:
                    hand 123m 456m 78s 55p
                    melds pung 333p
                player 3:
                    hand 2223334445556z
            total 0 0 0 0
    """, tiny=False)))
    shown = worked_round(spec, 1, spec.round_examples[0], Interpreter(spec)).rows[0].hands
    assert [hand.note for hand in shown] == ["not ready", "not ready", "ready on 6s", "not ready"]


# ---------------------------------------------------------------- seat keys are seats

# gaoyou reads other_melds and seats three; wuhan reads them and seats four.
OTHER_MELDS_SPECS = {"wuhan": 4, "gaoyou": 3}


def other_melds_case(name: str) -> dict:
    return next(e.case_dict() for e in load_spec(name).examples if "other_melds" in e.case_dict())


def both_answer(name: str, case: dict) -> dict:
    compiled, interpreter = dsl.load(name), Interpreter(load_spec(name))
    assert not isinstance(compiled, Interpreter)
    answers = [checker.evaluate(case) for checker in (interpreter, compiled)]
    assert answers[0] == answers[1]
    return answers[0]


@pytest.mark.parametrize("name", OTHER_MELDS_SPECS)
@pytest.mark.parametrize("key", ["01", " 2 ", "+3", "１", "-1", "", "x", "1.0", True, -1, 1.5])
def test_other_melds_keys_are_seats_spelt_plainly(name, key):
    result = both_answer(name, other_melds_case(name) | {"other_melds": {key: ["pung 111s"]}})
    last = OTHER_MELDS_SPECS[name] - 1
    assert result == {"ok": False, "error": f"'other_melds' is keyed by seat, \"0\" to \"{last}\", not {key!r}"}


@pytest.mark.parametrize("name", OTHER_MELDS_SPECS)
def test_other_melds_keys_are_seats_of_the_table(name):
    players = OTHER_MELDS_SPECS[name]
    result = both_answer(name, other_melds_case(name) | {"other_melds": {str(players): ["pung 111s"]}})
    assert result["ok"] is False and f"not '{players}'" in result["error"]


def test_a_seat_named_twice_in_other_melds_is_refused():
    """Seat 1 under "1" and again as the int 1 (from Python): read as one seat, the second key's melds would
    replace the first's, which would go uncounted (five 1s here: the winner's pung and seat 1's pung and chow)."""
    case = other_melds_case("wuhan") | {"melds": ["pung 111s"], "hand": "234m678m345p5m",
                                        "other_melds": {"1": ["pung 111s"], 1: ["chow 123s"]}}
    result = both_answer("wuhan", case)
    assert result == {"ok": False, "error": "'other_melds' names seat 1 twice; each seat's melds are given once"}


def test_other_melds_twice_in_json_text_is_refused(capsys):
    case = other_melds_case("wuhan")
    text = json.dumps(case)
    twice = text.replace('"other_melds": {', '"other_melds": {"1": ["pung 111s"], ', 1)
    assert twice.count('"1":') == 2
    code, out, _ = run(capsys, "score", "wuhan", "--json", twice)
    assert code == 1 and json.loads(out) == {"ok": False, "error": "the key '1' is given twice"}


@pytest.mark.parametrize(("value", "message"), [
    (" 2 ", "--set discarder= 2 : a number is written plainly, as 2"),
    ("-0", "--set discarder=-0: a number is written plainly, as 0"),
])
def test_set_takes_a_seat_written_plainly(capsys, value, message):
    code, out, err = run(capsys, "score", "sichuan", "123m456m789m11p23p", "--win", "4p", "--set", f"discarder={value}")
    assert code == 2 and out == "" and err == f"mjdsl score: {message}\n"


@pytest.mark.parametrize(("value", "shown"), [("02", "'02'"), ("+3", "'+3'"), ("１", "'１'"), ("4", "4")])
def test_set_refuses_a_seat_that_is_no_seat(capsys, value, shown):
    code, out, _ = run(capsys, "score", "sichuan", "123m456m789m11p23p", "--win", "4p", "--set", f"discarder={value}")
    assert code == 1 and out == f"error: 'discarder' is a seat from 0 to 3, not {shown}\n"


@pytest.mark.parametrize("argv", [
    ["--set", "discarder=2", "--set", "discarder=3"],
    ["--self-drawn", "--set", "self_drawn=false"],
    ["--set", "win=5p"],
])
def test_set_gives_a_key_once(capsys, argv):
    code, _, err = run(capsys, "score", "sichuan", "123m456m789m11p23p", "--win", "4p", *argv)
    key = argv[-1].split("=")[0]
    assert code == 2 and err == (f"mjdsl score: --set {key}: {key!r} is given already (by HAND, an option or an "
                                 "earlier --set)\n")


def test_seat_key_spellings_are_refused_alike_by_both_back_ends():
    """A short share of the long fuzz run's seat-key family (python -m tests.fuzz_long)."""
    assert fuzz_seat_keys(40, random.Random(5), ["wuhan", "gaoyou", "taiwan"]) == []


# ---------------------------------------------------------------- seats written in a spec

# Lines 8 to 12 of a test spec, after the small tile set (lines 1 to 7): what a spec writes next is line 13.
ROUND_RULES = """\
melds chow, pung, kong
settle:
    discard: discarder pays 1
round:
    one winner per discard
"""


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ('example "e":\n    hand 123m456m789m11p2p\n    win 2p\n    other 1: pung 111p\n    other 1: pung 999p\n',
     "seat 1 has its melds given already", 17, 11),
    ('example "e":\n    hand 123m456m789m11p2p\n    win 2p\n    other 4: pung 111p\n',
     "seat 4: a table of 4 has the seats 0 to 3", 16, 11),
    ('example "e":\n    hand 123m456m789m11p2p\n    win 2p\n    payments -1 1 0\n',
     "3 amounts for a table of 4: one for each seat, in seat order", 16, 5),
    ('round "r":\n    win 4 from 0:\n        hand 123m456m789m11p2p\n        win 2p\n',
     "seat 4: a table of 4 has the seats 0 to 3", 14, 9),
    ('round "r":\n    win 1 from 7:\n        hand 123m456m789m11p2p\n        win 2p\n',
     "seat 7: a table of 4 has the seats 0 to 3", 14, 16),
    ('round "r":\n    dealer 5\n', "seat 5: a table of 4 has the seats 0 to 3", 14, 12),
    ('round "r":\n    win 1 from 0:\n        hand 123m456m789m11p2p\n        win 2p\n    total 1 -1\n',
     "2 amounts for a table of 4: one for each seat, in seat order", 17, 5),
    ('round "r":\n    draw:\n        player 1:\n            hand 1112345678999m\n'
     '        player 1:\n            hand 1112345678999p\n', "seat 1 has a final hand already", 17, 16),
])
def test_seats_and_amounts_written_in_a_spec_are_the_table_s(write_spec, text, message, line, column):
    with pytest.raises(SpecError) as info:
        load_spec(str(write_spec(ROUND_RULES + text)))
    d = info.value.diagnostics[0]
    assert d.message == message and (d.span.line, d.span.column) == (line, column)


# ---------------------------------------------------------------- no file written over


@pytest.fixture
def no_compiling(monkeypatch) -> None:
    """`mjdsl build` of a spec of one's own without spending a minute compiling its checker."""
    monkeypatch.setattr(build, "cached_module", lambda spec: None)
    monkeypatch.setattr(build, "compile_modules", lambda *args, **kwargs: None)


HOUSE = 'variant {name} "家" "House"\nextends sichuan\n'


def test_build_never_writes_over_the_spec_it_reads(tmp_path, capsys, no_compiling):
    """A spec file named like the book it builds (evil.md for the variant evil) stays as it is, --force or not."""
    spec = tmp_path / "sub" / "evil.md"
    spec.parent.mkdir()
    spec.write_text(HOUSE.format(name="evil"), encoding="utf-8")
    for force in ([], ["--force"]):
        code, out, err = run(capsys, "build", str(spec), *force)
        assert code == 1 and out == ""
        assert err == f"mjdsl: refusing to overwrite {spec}: it is a spec file being read; give --out another place\n"
        assert spec.read_text(encoding="utf-8") == HOUSE.format(name="evil")
        assert sorted(p.name for p in spec.parent.iterdir()) == ["evil.md"]  # nothing written beside it either


@pytest.mark.parametrize("command", ["build", "doc"])
def test_a_file_mjdsl_did_not_write_is_kept_unless_forced(tmp_path, capsys, no_compiling, command):
    spec = tmp_path / "house.mj"
    spec.write_text(HOUSE.format(name="notes"), encoding="utf-8")
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n", encoding="utf-8")
    code, out, err = run(capsys, command, str(spec))
    assert code == 1 and out == ""
    assert err == f"mjdsl: refusing to overwrite {notes}: not written by mjdsl; use --force\n"
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["house.mj", "notes.md"]  # refused before writing any
    code, out, _ = run(capsys, command, str(spec), "--force")
    assert code == 0 and f"wrote {notes}" in out.splitlines()
    assert notes.read_text(encoding="utf-8").startswith("<!-- Generated by mjdsl from house.mj")
    notes.write_text(notes.read_text(encoding="utf-8") + "an old line\n", encoding="utf-8")
    code, out, _ = run(capsys, command, str(spec))  # a file it wrote, now out of date: rewritten without --force
    assert code == 0 and f"wrote {notes}" in out.splitlines() and "an old line" not in notes.read_text(encoding="utf-8")


def test_a_folder_or_a_dangling_link_in_the_way_is_not_written_through(tmp_path, capsys):
    spec = tmp_path / "house.mj"
    spec.write_text(HOUSE.format(name="notes"), encoding="utf-8")
    (tmp_path / "notes.md").mkdir()
    assert run(capsys, "doc", str(spec))[2] == f"mjdsl: refusing to overwrite {tmp_path / 'notes.md'}: not written " \
                                              "by mjdsl; use --force\n"
    (tmp_path / "notes.md").rmdir()
    (tmp_path / "notes.md").symlink_to(tmp_path / "elsewhere.md")
    assert run(capsys, "doc", str(spec))[0] == 1 and not (tmp_path / "elsewhere.md").exists()


def test_doc_diff_never_writes_over_a_spec_or_a_file_of_the_user_s(tmp_path, capsys):
    spec = tmp_path / "house.mj"
    spec.write_text(HOUSE.format(name="house"), encoding="utf-8")
    code, _, err = run(capsys, "doc", "--diff", "sichuan", str(spec), "--out", str(spec))
    assert code == 1 and "it is a spec file being read" in err and spec.read_text(encoding="utf-8") == \
        HOUSE.format(name="house")
    mine = tmp_path / "diff.md"
    mine.write_text("mine\n", encoding="utf-8")
    assert run(capsys, "doc", "--diff", "sichuan", str(spec), "--out", str(mine))[0] == 1
    assert mine.read_text(encoding="utf-8") == "mine\n"
    assert run(capsys, "doc", "--diff", "sichuan", str(spec), "--out", str(mine), "--force")[0] == 0
    assert run(capsys, "doc", "--diff", "sichuan", str(spec), "--out", str(mine))[0] == 0  # now it is mjdsl's


@pytest.mark.parametrize("command", ["build", "doc"])
def test_two_specs_of_one_variant_name_are_not_written_into_one_folder(tmp_path, capsys, no_compiling, command):
    """Both would write twin.md, twin.html, ...: the second spec's book would silently replace the first's."""
    first, second = tmp_path / "a" / "twin.mj", tmp_path / "b" / "twin.mj"
    for path, parent in ((first, "sichuan"), (second, "mcr")):
        path.parent.mkdir()
        path.write_text(f'variant twin "双" "Twin"\nextends {parent}\n', encoding="utf-8")
    out = tmp_path / "site"
    code, _, err = run(capsys, command, str(first), str(second), "--out", str(out))
    assert code == 1 and not out.exists()
    assert err == (f"mjdsl: refusing to write the variant twin twice into {out}: {first} and {second} both build it; "
                   "build them into separate folders\n")
    assert run(capsys, command, str(first), str(second))[0] == 0  # each beside its own file
    assert run(capsys, command, str(first), str(first), "--out", str(out))[0] == 0  # one spec named twice


def test_every_file_mjdsl_writes_carries_the_mark(tmp_path):
    """The mark is what lets a later build write over a file: every kind of file written must carry it."""
    spec = tmp_path / "house.mj"
    spec.write_text(HOUSE.format(name="house"), encoding="utf-8")
    own = build.generated_files([load_spec(str(spec))])
    bundled = build.generated_files(build.load_all())
    diffs = {tmp_path / "diff.md": render.render_diff(load_spec("sichuan"), load_spec("mcr")),
             tmp_path / "diff.html": render.render_diff(load_spec("sichuan"), load_spec("mcr"), html=True)}
    files = own | bundled | diffs
    assert {path.suffix for path in files} == {".py", ".pyx", ".md", ".html", ".svg"}
    for path, text in files.items():
        target = tmp_path / "marked" / path.name
        target.parent.mkdir(exist_ok=True)
        target.write_text(text, encoding="utf-8")
        assert build.written_by_mjdsl(target), path
