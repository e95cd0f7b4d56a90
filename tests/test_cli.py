"""The command line: check, test, score in its three forms; help; exit codes."""

from __future__ import annotations

import io
import json
import sys

import pytest

from dsl.cli import main


def run(capsys, *argv, stdin: str | bytes | None = None):
    if isinstance(stdin, bytes):  # raw bytes, as a pipe gives them: the command reads sys.stdin.buffer
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    elif stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def test_check_bundled_specs_is_clean(capsys):
    code, out, err = run(capsys, "check", "specs/sichuan.mj", "specs/shenyang.mj")
    assert code == 0 and err == ""
    assert "sichuan" in out and "shenyang" in out


def test_check_reports_misspelt_fan_in_exclusion(capsys, tmp_path):
    text = open("specs/sichuan.mj", encoding="utf-8").read()
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.strip().startswith("不计 根"))
    lines[number] = lines[number].replace("不计 根", "不计 跟")
    bad = tmp_path / "bad.mj"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(bad))
    column = lines[number].index("跟") + 1
    first, source_line, caret, hint = err.splitlines()[:4]
    assert code == 1
    assert first == f"{bad}:{number + 1}:{column}: error: unknown fan '跟'"
    assert source_line.strip() == lines[number].strip()
    # the caret sits under 跟: the indentation plus "不计 " is (column - 1) characters, 2 of them wide
    assert caret.index("^") == 4 + (column - 1) + 2
    assert hint.strip() == "did you mean 根?"


def test_score_jsonl(capsys):
    cases = [
        {"hand": "123m456m789m11p23p", "win": "4p", "seat_wind": "S"},
        {"hand": "123m456m789m11p23s", "win": "4s"},
        {"hand": "11111m456m789m11p", "win": "2p"},
        "not json",
        {"hand": "1122334455667m", "win": "7m", "self_drawn": True},
    ]
    stdin = "\n".join(c if isinstance(c, str) else json.dumps(c) for c in cases) + "\n"
    code, out, _ = run(capsys, "score", "sichuan", "--jsonl", stdin=stdin)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 5
    # 平胡 1 on a discard: the winner in the S seat (1) is paid 2^0 = 1 by the seat before it (0)
    assert results[0]["fans"] == [{"name": "平胡", "en": "Basic hand", "value": 1, "count": 1}]
    assert results[0]["payments"] == [-1, 1, 0, 0]
    assert results[1] == {"ok": True, "winning": False, "reason": "requirement 缺一门 (Missing a suit) is not met"}
    assert results[2]["ok"] is False and "5 copies of 1m" in results[2]["error"]
    assert results[3]["ok"] is False and "not JSON" in results[3]["error"]
    # 清七对 5 self-drawn: each of three pays 2^4 = 16
    assert results[4]["total"] == 5 and results[4]["payments"] == [48, -16, -16, -16]


def test_score_one_hand_readable_and_json(capsys):
    code, out, _ = run(capsys, "score", "sichuan", "1112223334445m", "--win", "5m", "--self-drawn")
    # 111 222 333 444 55万: 清对 4, self-drawn by the dealer (no seat wind given): each of three pays 2^(4 − 1)
    assert code == 0 and "清对" in out and [" ".join(line.split()) for line in out.splitlines()][2:4] == \
        ["total 4 番", "payments"]
    code, out, _ = run(capsys, "score", "shenyang", "--json", '{"hand": "123m", "win": "1m"}')
    assert code == 1 and json.loads(out)["ok"] is False


def test_help(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("check", "test", "score"):
        assert command in out
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "--jsonl" in capsys.readouterr().out


def test_test_command_runs_examples(capsys):
    code, out, _ = run(capsys, "test", "sichuan")
    assert code == 0 and out.strip().endswith("passed, 0 failed")


def test_unknown_spec(capsys):
    code, _, err = run(capsys, "check", "nosuchspec")
    assert code == 1 and "no spec named 'nosuchspec'" in err


def test_test_coverage_warns_about_unshown_exclusions(capsys):
    # shenyang's 定向飘 不计 飘胡: the seed's own 定向飘 hand is also a 飘胡, so that edge is shown and
    # not warned about; the command still passes (warnings only).
    code, out, err = run(capsys, "test", "shenyang", "--coverage")
    assert code == 0
    assert "不计 飘胡" not in err
    code, out, err = run(capsys, "test", "mcr", "--coverage")
    assert code == 0 and "is never implied" in err and err.count("warning:") >= 1


def test_an_unwritable_folder_is_an_error_message(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "new", "house", "--extends", "sichuan", "--dir", str(blocker / "sub"))
    assert code == 1 and err.startswith("mjdsl: Not a directory: ") and "Traceback" not in err


# ---------------------------------------------------------------- --preset and --option

ITTSU = ["123456789m23p44s", "--win", "4p", "--seat-wind", "S", "--set", "riichi=true"]  # 4 han 30 fu


def test_score_under_a_preset_and_options(capsys):
    # 4 han 30 fu pays 1920 × 4 → 7700; the WRC rules and the option kiriage round it up to a mangan, 8000.
    code, out, _ = run(capsys, "score", "riichi", *ITTSU)
    assert code == 0 and "  seat 0 (East)   -7700  discarder\n  seat 1 (South)  +7700  winner\n" in out
    for flags in (["--preset", "wrc"], ["--option", "kiriage=true"]):
        code, out, _ = run(capsys, "score", "riichi", *ITTSU, *flags)
        assert code == 0 and "  seat 0 (East)   -8000  discarder\n  seat 1 (South)  +8000  winner\n" in out, flags
    code, out, _ = run(capsys, "score", "riichi", *ITTSU, "--preset", "wrc", "--option", "kiriage=false")
    assert "  seat 0 (East)   -7700  discarder\n" in out  # --option on top of --preset
    case = {"hand": "123456789m23p44s", "win": "4p", "seat_wind": "S", "riichi": True, "options": {"kiriage": False}}
    code, out, _ = run(capsys, "score", "riichi", "--json", json.dumps(case), "--preset", "wrc")
    assert json.loads(out)["payments"] == [-7700, 7700, 0, 0]  # the case's own options win
    stdin = json.dumps(case | {"options": {}})
    code, out, _ = run(capsys, "score", "riichi", "--jsonl", "--preset", "wrc", stdin=stdin)
    assert json.loads(out)["payments"] == [-8000, 8000, 0, 0]


@pytest.mark.parametrize(("flags", "message"), [
    (["--preset", "wcr"], "mjdsl: unknown preset 'wcr' (did you mean wrc?); riichi has: majsoul, tenhou, wrc, ema"),
    (["--option", "kirage=true"], "mjdsl: unknown option 'kirage' (did you mean kiriage?); riichi has: open_tanyao"),
    (["--option", "kiriage=3"], "mjdsl: option 'kiriage' takes a value like False, not 3"),
    (["--option", "kiriage"], "mjdsl: --option takes KEY=VALUE, not 'kiriage'"),
])
def test_bad_presets_and_options_exit_2(capsys, flags, message):
    for command in (["score", "riichi", *ITTSU], ["settle", "riichi", "--json", '{"events": []}'],
                    ["test", "riichi"]):
        code, out, err = run(capsys, *command, *flags)
        assert code == 2 and err.startswith(message) and "Traceback" not in err and out == "", command


def test_settle_under_a_preset(capsys):
    # Two players win on the dealer's 8s: pinfu (1000), then pinfu and tanyao (2000).
    wins = [{"win": {"seat": 1, "hand": "234m567m11p345s67s", "win": "8s", "discarder": 0}},
            {"win": {"seat": 2, "hand": "234m678p22p456s67s", "win": "8s", "discarder": 0}}]
    record = json.dumps({"events": wins})
    code, out, _ = run(capsys, "settle", "riichi", "--json", record, "--preset", "tenhou")
    assert code == 0 and json.loads(out)["payments"] == [-3000, 1000, 2000, 0]
    code, out, _ = run(capsys, "settle", "riichi", "--json", record, "--preset", "wrc")  # head bump
    assert code == 1 and "the hand ended at event 1: one player wins on one discard" in json.loads(out)["error"]
    code, out, _ = run(capsys, "settle", "riichi", "--json", record, "--option", "multiple_ron=1")
    assert code == 1


def test_test_under_a_preset_keeps_an_example_own_options(capsys, write_spec):
    path = write_spec("""\
        melds chow, pung
        option big "大番" "Big fans" = false
        fan 清一色 "Full flush" (10 if big else 3): suits == 1 and not any(tiles, 字)
        preset home "家规":
            big = true
        example "plain":
            hand 123m456m789m11m23m
            win 4m
            expect 清一色 3
        example "with its own options":
            options big false
            hand 123m456m789m11m23m
            win 4m
            expect 清一色 3
    """)
    code, out, _ = run(capsys, "test", str(path))
    assert code == 0 and out.endswith("2 passed, 0 failed\n")
    code, out, _ = run(capsys, "test", str(path), "--preset", "home")  # 清一色 is 10 under the preset
    assert code == 1 and "example 'plain' failed" in out and "清一色: expected 3 ×1, got 10 ×1" in out
    assert "with its own options" not in out and out.endswith("1 passed, 1 failed\n")


def test_help_says_what_the_preset_flags_apply_to(capsys):
    for command, scope in (("score", "a case's own \"options\" win"), ("settle", "a record's own \"options\" win"),
                           ("test", "keeps those on top")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "--preset NAME" in help_text and "--option KEY=VALUE" in help_text and scope in help_text, command
