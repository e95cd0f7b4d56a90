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
