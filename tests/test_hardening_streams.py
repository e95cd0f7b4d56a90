"""Hostile input to `mjdsl score/settle --jsonl`, `--json` and the Python API: one error result per bad
line, the stream goes on, and no input costs more than a moment."""

from __future__ import annotations

import json
import time

import pytest
from test_cli import run

import dsl
from dsl.cases.limits import MAX_LINE_BYTES
from dsl.frontend.resolve import load_spec
from dsl.interp.interpreter import Interpreter

# 平胡 on a discard in sichuan: the winner (seat 1, the S seat) is paid 2^0 = 1 by seat 0.
GOOD = b'{"hand": "123m456m789m11p23p", "win": "4p", "seat_wind": "S"}'
GOOD_PAYMENTS = [-1, 1, 0, 0]

HOSTILE = {
    "huge integer": b'{"hand": "123m", "honba": ' + b"9" * 5000 + b"}",
    "deep nesting": b"[" * 10_000 + b"]" * 10_000,  # within the line limit: refused for its depth
    "invalid UTF-8": b'\xff\xfe{"hand": "123m"}',
    "truncated UTF-8": b'{"hand": "123m\xe4"}',
    "NaN": b'{"hand": "123m456m789m11p23p", "win": "4p", "honba": NaN}',
    "Infinity": b'{"hand": "123m456m789m11p23p", "win": "4p", "flowers": -Infinity}',
    "float overflow": b'{"hand": "123m456m789m11p23p", "win": "4p", "flowers": 1e999}',
    "empty": b"",
    "blank": b"   \t",
    "duplicate key": b'{"hand": "123m", "hand": "456m"}',
    "lone surrogate": b'{"hand": "\\ud800"}',
    "oversized line": b'{"hand": "' + b"1m" * MAX_LINE_BYTES + b'"}',
    "string instead of object": b'"123m"',
    "bare number": b"7",
}


@pytest.mark.parametrize("command", ["score", "settle"])
def test_every_hostile_line_gets_one_error_line_and_the_stream_goes_on(capsys, command):
    lines = [GOOD, *HOSTILE.values(), GOOD]
    code, out, err = run(capsys, command, "sichuan", "--jsonl", stdin=b"\n".join(lines) + b"\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and "Traceback" not in err
    assert len(results) == len(lines)
    for name, result in zip(HOSTILE, results[1:-1], strict=True):
        assert result["ok"] is False, name
        assert "internal error" not in result["error"], (name, result)
    if command == "score":  # the line after all the hostile ones is answered as if they never came
        assert results[0]["payments"] == results[-1]["payments"] == GOOD_PAYMENTS


def test_messages_say_what_is_wrong_with_the_line(capsys):
    lines = [HOSTILE[k] for k in ("huge integer", "deep nesting", "invalid UTF-8", "NaN", "empty", "duplicate key",
                                  "oversized line")]
    _, out, _ = run(capsys, "score", "sichuan", "--jsonl", stdin=b"\n".join(lines))
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    assert "5000 digits" in errors[0]
    assert "nested more than" in errors[1]
    assert errors[2].startswith("not UTF-8: byte 0xff at byte 1")
    assert "NaN is not a JSON number" in errors[3]
    assert errors[4].startswith("empty line")
    assert "'hand' is given twice" in errors[5]
    assert f"at most {MAX_LINE_BYTES} bytes" in errors[6]


def test_byte_order_mark_and_crlf_are_accepted(capsys):
    _, out, _ = run(capsys, "score", "sichuan", "--jsonl", stdin=b"\xef\xbb\xbf" + GOOD + b"\r\n" + GOOD + b"\r\n")
    assert [json.loads(line)["payments"] for line in out.splitlines()] == [GOOD_PAYMENTS, GOOD_PAYMENTS]


def test_json_option_refuses_a_huge_integer(capsys):
    code, out, err = run(capsys, "score", "riichi", "--json", '{"hand": "123m", "riichi_sticks": 1' + "0" * 4400 + "}")
    assert code == 1 and "Traceback" not in err
    assert json.loads(out)["ok"] is False and "4401 digits" in json.loads(out)["error"]


def test_set_option_with_a_huge_integer_is_an_error_result_not_a_crash(capsys):
    code, out, _ = run(capsys, "score", "riichi", "123m456m789m11p23p", "--win", "4p",
                       "--set", "riichi_sticks=" + "9" * 100)
    # the value is not a number this program reads, so it is taken as text: riichi_sticks is a count
    assert code == 1 and out.startswith("error:") and "riichi_sticks" in out


def test_settle_file_too_large_is_refused(capsys, tmp_path):
    record = tmp_path / "round.json"
    record.write_bytes(b'{"dealer": 0, "pad": "' + b"x" * (2 * MAX_LINE_BYTES) + b'"}')
    code, out, _ = run(capsys, "settle", "sichuan", str(record))
    assert code == 1 and out.startswith("error: the line is") and f"at most {MAX_LINE_BYTES} bytes" in out


@pytest.mark.parametrize("checker", ["compiled", "interpreter"])
def test_a_twenty_megabyte_hand_is_refused_at_once(checker):
    # 20 MB of tiles took 25 s and 1.9 GB when every tile was read before the hand was judged too long
    scorer = dsl.load("sichuan") if checker == "compiled" else Interpreter(load_spec("sichuan"))
    started = time.process_time()  # CPU time, which other work on the machine does not stretch
    result = scorer.evaluate({"hand": "1m" * 10_000_000, "win": "1m"})
    assert time.process_time() - started < 1.0  # a few milliseconds when the text is refused unread
    assert result["ok"] is False and "20000000 characters" in result["error"]


def _nested(value: object, depth: int) -> object:
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("case", [
    {"hand": ["123m"] * 5000},  # too many values
    {"hand": "123m", "melds": _nested(["pung 555p"], 40)},
    {"hand": "123m456m789m11p23p", "win": "4p", "flowers": 10 ** 5000},
])
def test_oversized_python_cases_are_refused(case):
    result = dsl.load("sichuan").evaluate(case)
    assert result["ok"] is False and any(word in result["error"] for word in ("values", "nested", "bits"))


@pytest.mark.parametrize("line", [
    '"' + '\\"' * 21_000,  # an unterminated string of escaped quotes: a backtracking scan took 35 s on it
    "[" + '"[", ' * 10_000 + '"["]',  # brackets inside strings do not nest
    "{" + ",".join(f'"k{i}": 1' for i in range(6500)) + ', "k6499": 2}',  # finding the twice-given key took 1 s
])
def test_lines_near_the_size_limit_are_read_in_linear_time(capsys, line):
    started = time.process_time()  # CPU time, which other work on the machine does not stretch
    code, out, _ = run(capsys, "score", "sichuan", "--jsonl", stdin=line + "\n")
    assert time.process_time() - started < 1.0  # a tenth of that, loading the checker included
    assert json.loads(out)["ok"] is False and "nested" not in json.loads(out)["error"]
