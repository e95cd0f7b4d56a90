"""What `mjdsl score` and `mjdsl settle FILE` print for a player: who won and from whom, each fan as value ×
count = subtotal in the spec's unit, the total, the cap where it applies, the payments by seat; and spec text
with control characters escaped, in those commands and in `mjdsl check` and `mjdsl test`.

Every expected line is worked out from the rule text of the spec named (specs/*.mj), as each comment says;
lines are compared with runs of spaces collapsed, and the columns are checked separately.
"""

from __future__ import annotations

import json

import pytest
from test_cli import run

import dsl.cli
from dsl.frontend.source import display_width, printable
from dsl.interp.interpreter import Interpreter


def collapsed(out: str) -> list[str]:
    return [" ".join(line.split()) for line in out.splitlines()]


def fan_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if " × " in line]


def assert_aligned(lines: list[str]) -> None:
    """The ×, the = and the end of the subtotal stand in one column on every line (CJK two columns wide)."""
    for mark in (" × ", " = "):
        assert len({display_width(line[:line.index(mark)]) for line in lines}) == 1, lines
    assert len({display_width(line) for line in lines}) == 1, lines


def score(capsys, *argv: str) -> tuple[int, str]:
    code, out, err = run(capsys, "score", *argv)
    assert err == ""
    return code, out


# ---------------------------------------------------------------- mcr (番)


def test_mcr_self_drawn_nine_gates(capsys):
    code, out = score(capsys, "mcr", "1112345678999m", "--win", "5m", "--self-drawn")
    # No seat wind given: E, the dealer's seat 0 (docs/interface.md). 111 234 55 678 999万 self-drawn:
    # 九莲宝灯 88 (不计 清一色, 门前清, 不求人, 缺一门, 无字 and one 幺九刻); 111 and 999 are both concealed:
    # 双暗刻 2; the other terminal pung: 幺九刻 1; 自摸 1 (only 不求人 would exclude it, and 九莲宝灯 excludes
    # 不求人). 88 + 2 + 1 + 1 = 92. Self-drawn, each of the three others pays 8 + 92 = 100.
    assert code == 0
    assert collapsed(out) == [
        "seat 0 (East) wins by self-draw",
        "九莲宝灯 Nine Gates 88 × 1 = 88 番",
        "双暗刻 Two Concealed Pungs 2 × 1 = 2 番",
        "幺九刻 Pung of Terminals or Honors 1 × 1 = 1 番",
        "自摸 Self-Drawn 1 × 1 = 1 番",
        "total 92 番",
        "payments",
        "seat 0 (East) +300 winner",
        "seat 1 (South) -100 pays",
        "seat 2 (West) -100 pays",
        "seat 3 (North) -100 pays",
    ]
    assert_aligned(fan_lines(out))
    total = next(line for line in out.splitlines() if line.strip().startswith("total"))
    assert display_width(total) == display_width(fan_lines(out)[0])  # 92 番 under 88 番


def test_mcr_discard_names_the_discarder_and_counts_flowers(capsys):
    code, out = score(capsys, "mcr", "123m456p789s1122z", "--win", "2z", "--seat-wind", "N", "--round-wind", "S",
                      "--set", "flowers=2")
    # Seat wind N: seat 3; the discarder is the seat before, 2 (West). 123万 456筒 789条: 花龙 8; 南南南
    # (the round wind S, completed by the discard): 圈风刻 2, which takes 幺九刻; concealed on a discard:
    # 门前清 2; two flowers: 花牌 1 ×2. 8 + 2 + 2 + 2 = 14 (12 without flowers, above the minimum of 8).
    # The discarder pays 8 + 14 = 22, the two others 8 each.
    assert code == 0
    assert collapsed(out) == [
        "seat 3 (North) wins on a discard from seat 2 (West)",
        "花龙 Mixed Straight 8 × 1 = 8 番",
        "圈风刻 Prevalent Wind 2 × 1 = 2 番",
        "门前清 Concealed Hand 2 × 1 = 2 番",
        "花牌 Flower Tiles 1 × 2 = 2 番",
        "total 14 番",
        "payments",
        "seat 0 (East) -8 pays",
        "seat 1 (South) -8 pays",
        "seat 2 (West) -22 discarder",
        "seat 3 (North) +38 winner",
    ]
    assert_aligned(fan_lines(out))


def test_mcr_below_the_minimum_is_one_message_without_a_total(capsys):
    code, out = score(capsys, "mcr", "123m456m789s1122z", "--win", "1z", "--seat-wind", "S", "--set", "flowers=2")
    # 123 456万 789条, 东东东 completed by the discard, 南南 pair; seat S, round E. 东 is the round wind:
    # 圈风刻 2 (not 门风刻: 南 is only the pair); 门前清 2; 123 456万: 连六 1; no 筒: 缺一门 1; 花牌 1 ×2.
    # Toward the minimum of 8 (`minimum 8 excluding 花牌`): 2 + 2 + 1 + 1 = 6; with the flowers 8.
    assert code == 0
    lines = collapsed(out)
    assert lines[0] == ("not a win: 6 番 counted toward the minimum of 8 番 (花牌 is not counted toward it); "
                        "total with 花牌 8 番")
    assert lines[1:] == ["圈风刻 Prevalent Wind 2 × 1 = 2 番", "门前清 Concealed Hand 2 × 1 = 2 番",
                         "连六 Short Straight 1 × 1 = 1 番", "缺一门 One Voided Suit 1 × 1 = 1 番",
                         "花牌 Flower Tiles 1 × 2 = 2 番"]
    code, out = score(capsys, "mcr", "123m456m789s1122z", "--win", "1z", "--seat-wind", "S")
    # the same hand without flowers: nothing the minimum leaves out, 6 of 8
    assert collapsed(out)[0] == "not a win: 6 番 is below the minimum of 8 番"
    assert not any(line.startswith(("total", "payments")) for line in collapsed(out))


# ---------------------------------------------------------------- other tables and units


def test_sanma_names_three_seats(capsys):
    code, out = score(capsys, "sanma", "111m456p789s1122z", "--win", "1z", "--seat-wind", "S", "--self-drawn")
    # Seat wind S: seat 1 at a table of three. 111万 456筒 789条, 东东东 self-drawn, 南南 pair: 門前清自摸和 1;
    # 东 is the round wind: 場風 1 (南 the seat wind is only the pair). Fu: 20 + 2 (tsumo) + 8 (111万, a
    # concealed terminal pung) + 8 (东东东 concealed) + 2 (the seat wind's pair) = 40; 40 × 2^(2 + 2) = 640.
    # 原点法: the dealer (seat 0) pays 2 × 640 = 1280 → 1300, seat 2 pays 640 → 700; nobody sits North.
    assert code == 0
    assert collapsed(out)[:4] == ["seat 1 (South) wins by self-draw", "門前清自摸和 Menzen Tsumo 1 × 1 = 1 番",
                                  "場風 Yakuhai (round wind) 1 × 1 = 1 番", "total 2 番"]
    assert collapsed(out)[4].startswith("fu 40, yakuman no, han 2, basic_points 640, ")
    assert collapsed(out)[5:] == ["payments", "seat 0 (East) -1300 pays", "seat 1 (South) +2000 winner",
                                  "seat 2 (West) -700 pays"]


def test_taiwan_counts_tai_and_prints_no_cap_below_it(capsys):
    code, out = score(capsys, "taiwan", "123m456p789s11122z33z", "--win", "3z")
    # The dealer (seat 0, 東) wins on seat 3's discard: 123万 456筒 789条, 東東東, 西西西 completed by the
    # discard, 南南 pair. 莊家 1, 門清 1, 東 pung: 圈風 1 and 門風 1. 4 台, below the cap of 40: no paid
    # line. The discarder pays 底 30 + 10 × 4 = 70; the others nothing.
    assert code == 0
    assert collapsed(out) == [
        "seat 0 (East) wins on a discard from seat 3 (North)",
        "莊家 Dealer 1 × 1 = 1 台",
        "門清 Concealed hand 1 × 1 = 1 台",
        "圈風 Prevalent wind 1 × 1 = 1 台",
        "門風 Seat wind 1 × 1 = 1 台",
        "total 4 台",
        "payments",
        "seat 0 (East) +70 winner",
        "seat 1 (South) 0",
        "seat 2 (West) 0",
        "seat 3 (North) -70 discarder",
    ]


def test_zungjung_points_and_the_cap(capsys):
    code, out = score(capsys, "zungjung", "111222333z5556m", "--win", "6m")
    # 東東東 南南南 西西西 555萬 and 66萬 won on seat 3's discard by the dealer (seat 0, 東). 門前清 5, 混一色
    # 40, 東 the seat wind: 番牌 10, three wind pungs: 大三風 120, 對對和 30, four pungs held concealed (the
    # discard completed the pair): 四暗刻 125. 330 分, above the 320 cap (滿糊): paid 320. The two who did
    # not discard pay the par, 25; the discarder 3 × 320 − 2 × 25 = 910.
    assert code == 0
    lines = collapsed(out)
    assert lines[0] == "seat 0 (East) wins on a discard from seat 3 (North)"
    assert lines[7:] == ["total 330 分", "paid 320 分: the cap (滿糊 Limit) is 320 分", "payments",
                         "seat 0 (East) +960 winner", "seat 1 (South) -25 pays", "seat 2 (West) -25 pays",
                         "seat 3 (North) -910 discarder"]
    code, out = score(capsys, "zungjung", "1112345678999m", "--win", "5m")
    # 九蓮寶燈 480 alone is more than the cap: `cap 320 unless one fan is more` pays it whole
    assert collapsed(out)[1:4] == ["九蓮寶燈 Nine Gates 480 × 1 = 480 分", "total 480 分",
                                   "paid 480 分: above the cap (滿糊 Limit) of 320 分, as one fan alone is worth more"]


# ---------------------------------------------------------------- control characters in a spec's text


# A raw ESC may be written inside a spec string; a CR cannot (it ends the line), so it is the escape \r.
SNEAKY = ('variant sneaky "诡" "Sneaky"\nextends sichuan\n\n'
          'fan 诡 "Tricky\x1b[8m\\r  total 999" 1: true\n\n'
          'example "hidden\x1b[8m":\n    hand 111m 222m 333m 444m 5m\n    win 5m, self_drawn\n'
          '    expect 清对 4, 诡 1, total 5\n')


@pytest.fixture
def sneaky(tmp_path, monkeypatch):
    path = tmp_path / "sneaky.mj"
    path.write_text(SNEAKY, encoding="utf-8")
    # the interpreter answers as the compiled checker does (tests/test_parity.py), without compiling one here
    monkeypatch.setattr(dsl.cli, "checker_for", Interpreter)
    return path


def test_a_fan_name_cannot_forge_or_hide_lines(capsys, sneaky):
    code, out = score(capsys, str(sneaky), "1112223334445m", "--win", "5m", "--self-drawn")
    # sichuan's 清对 4 (111 222 333 444 55万) and the spec's 诡 1: total 5; each of three pays 2^(5 − 1)
    assert code == 0
    assert "\x1b" not in out and "\r" not in out
    assert "诡 Tricky\\x1b[8m\\x0d total 999 1 × 1 = 1 番" in collapsed(out)
    assert [line for line in collapsed(out) if line.startswith("total")] == ["total 5 番"]
    assert collapsed(out)[-4:] == ["seat 0 (dealer) +48 winner", "seat 1 -16 pays", "seat 2 -16 pays",
                                   "seat 3 -16 pays"]
    assert_aligned(fan_lines(out))


def test_json_results_escape_them_and_keep_the_text(capsys, sneaky):
    sneaky.write_text(SNEAKY.replace("\\r", "\u202e\x85"), encoding="utf-8")  # raw, as JSON may carry them
    code, out = score(capsys, str(sneaky), "--json", '{"hand": "1112223334445m", "win": "5m", "self_drawn": true}')
    assert code == 0 and not any(ch in out for ch in "\x1b\u202e\x85")
    assert "\\u202e\\u0085" in out
    assert json.loads(out)["fans"][1]["en"] == "Tricky\x1b[8m\u202e\x85  total 999"


def test_check_and_test_escape_the_specs_text(capsys, sneaky, tmp_path):
    code, out, _ = run(capsys, "test", "-v", str(sneaky))
    assert code == 0 and "\x1b" not in out and f"{sneaky}:6:1: ok: hidden\\x1b[8m" in out
    bad = tmp_path / "bad.mj"
    bad.write_text(SNEAKY.replace("1: true", "1: nosuchname").replace("\\r", "\u202e"), encoding="utf-8")
    code, _, err = run(capsys, "check", str(bad))
    head, source, caret = err.splitlines()[:3]
    assert code == 1 and "\x1b" not in err and "\u202e" not in err
    assert source == '    fan 诡 "Tricky\\x1b[8m\\u202e  total 999" 1: nosuchname'
    # the caret under nosuchname counts the escapes as printed: 4 + the escaped text before it
    assert caret.index("^") == 4 + display_width('fan 诡 "Tricky\\x1b[8m\\u202e  total 999" 1: ')


def test_printable_escapes_what_a_terminal_acts_on():
    assert printable("a\x1b[8mb\rc\x08d\te\x85f\u202eg\u2066h") == "a\\x1b[8mb\\x0dc\\x08d\\x09e\\x85f\\u202eg\\u2066h"
    assert printable("九莲宝灯 Nine Gates ×2 é") == "九莲宝灯 Nine Gates ×2 é"


# ---------------------------------------------------------------- mjdsl settle FILE


def settle(capsys, tmp_path, spec: str, record: dict) -> tuple[int, str]:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run(capsys, "settle", spec, str(path))
    assert err == ""
    return code, out


def test_settle_shows_who_won_from_whom_and_the_fans(capsys, tmp_path):
    record = {"events": [{"kong": "concealed_kong", "seat": 2, "tiles": "5555s"},
                         {"win": {"seat": 3, "discarder": 2, "hand": "123m456m789m11p23p", "win": "4p",
                                  "kong_discard": True}}]}
    code, out = settle(capsys, tmp_path, "sichuan", record)
    # sichuan (no winds; seat 0 deals): 下雨, each other pays 2; then seat 3 wins on seat 2's discard after
    # that kong: 平胡 1 + 杠上炮 1 = 2 → 2^(2 − 1) = 2 from the discarder, and the kong's 6 passed on: 8.
    assert code == 0
    assert collapsed(out) == [
        "seat 0 seat 1 seat 2 seat 3",
        "1. seat 2 makes a kong: concealed_kong -2 -2 +6 -2",
        "2. seat 3 wins on a discard from seat 2 0 0 -8 +8",
        "平胡 Basic hand 1 × 1 = 1 番",
        "杠上炮 Win on a discard after a kong 1 × 1 = 1 番",
        "total 2 番",
        "seat 2 passes on its kong income: +6",
        "total -2 -2 -2 +6",
    ]
    assert_aligned(fan_lines(out))


def test_settle_names_seats_by_the_records_dealer(capsys, tmp_path):
    record = {"dealer": 1, "events": [{"win": {"seat": 2, "hand": "123m456p789s11122z33z", "win": "3z"}}]}
    code, out = settle(capsys, tmp_path, "taiwan", record)
    # Seat 1 deals, so seat 2 sits 南 and seat 1, the seat before it, discards. 東東東 is the round wind:
    # 圈風 1; 門清 1; 2 台, and the losing dealer's 莊家賠 1: 底 30 + 10 × 3 = 60.
    assert code == 0
    assert collapsed(out)[1:5] == ["1. seat 2 (South) wins on a discard from seat 1 (East) 0 -60 +60 0",
                                   "門清 Concealed hand 1 × 1 = 1 台", "圈風 Prevalent wind 1 × 1 = 1 台",
                                   "total 2 台"]
