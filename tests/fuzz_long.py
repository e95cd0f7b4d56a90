"""Fuzzing of specs and of JSON-lines input: the generators, and the long run (`python -m tests.fuzz_long`).

Mutated specs (tokens deleted, swapped, doubled, renamed; stray characters; bad and good string escapes;
extreme numbers and ranges; deep expressions; bytes that are not UTF-8) must give a clean diagnostic or
a valid spec whose examples score. Hostile JSON lines (not UTF-8, huge integers, deep nesting, huge
strings, every key with every wrong type, NaN, duplicate keys, empty lines, byte order marks, ...) go
through `mjdsl score SPEC --jsonl` and `mjdsl settle SPEC --jsonl` as separate processes: every input
line must get exactly one JSON result line, and no traceback may appear. tests/test_fuzz.py runs a
short share of both in CI.

Seat keys spelt otherwise than "0" up to the table's last seat (other_melds keys "01", " 2 ", "+3", "１",
"4"; one seat twice; seat-valued keys and `out` items as strings, floats or bools; a key twice in the JSON
text; a round's dealer, seats and draw keys alike) must be refused, naming the key, with the same answer
from both back ends; tests/test_hardening_records.py runs a short share.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dsl.book import model, render
from dsl.compiled import codegen
from dsl.frontend.ir import Spec
from dsl.frontend.lint import warnings
from dsl.frontend.parser import MAX_DOC, MAX_NAME, MAX_TITLE, parse
from dsl.frontend.resolve import check, load_spec, resolve
from dsl.frontend.source import MAX_SPEC_BYTES, Source, SpecError
from dsl.interp.interpreter import Interpreter
from dsl.paths import SPECS_DIR, bundled_specs

# ---------------------------------------------------------------- specs

TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
STRAYS = ["，", "：", "（", "）", "、", "。", "“", "”", "×", "..", "\t", "\n", "    ", '"', "#", "不计", "fan", "each",
          "碰碰和", "清一色", "根", "suits", "(", ")", ":", "=", "0", "99999999999999999999", "-1", "_", "é"]
ESCAPES = ["\\N{NOPE}", "\\x4", "\\ud800", "\\udfff", "\\U00110000", "\\", "\\q", "\\\\", '\\"', "\\n", "\\t",
           "\\u00e9", "\\N{BLACK STAR}", "\\0", "\\x00", '"""', "\\\n"]
EXTREMES = ["0", "1", "2", "3", "5", "9", "10", "13", "17", "20", "21", "100", "1000000", "9" * 18, "9" * 19,
            "9" * 5000, "-1", "1..1000000", "0..0", "9..1", "×0", "×100000", "1.5"]
DEEP = ["not " * 3000, "(" * 3000, "1 + " * 3000, "max(" * 1000, "- " * 3000]
MUTATIONS = ("delete", "swap", "stray", "rename", "duplicate", "escape", "number", "range", "deep")


def mutate(text: str, rng: random.Random) -> str:
    """A spec text with one to three random mutations."""
    for _ in range(rng.randint(1, 3)):
        text = _mutate_once(text, rng, rng.choice(MUTATIONS))
    return text


def _mutate_once(text: str, rng: random.Random, kind: str) -> str:
    if kind in COST_MUTATIONS:
        return COST_MUTATIONS[kind](text, rng)
    if kind == "escape":  # inside a string: just after an opening quote
        quotes = [m.end() for m in re.finditer(r'(?<![\\"])"(?!")', text)]
        return _insert(text, rng.choice(quotes) if quotes else 0, rng.choice(ESCAPES))
    if kind in ("number", "range"):
        pattern = r"\d+\.\.\d+" if kind == "range" else r"(?<![\w.])\d+(?![\w.])"
        spots = list(re.finditer(pattern, text))
        if not spots:
            return text
        spot = rng.choice(spots)
        return text[:spot.start()] + rng.choice(EXTREMES) + text[spot.end():]
    if kind == "deep":
        colons = [m.end() for m in re.finditer(r": ", text)]
        return _insert(text, rng.choice(colons) if colons else 0, rng.choice(DEEP))
    tokens = TOKEN.findall(text)
    i = rng.randrange(len(tokens))
    if kind == "delete":
        del tokens[i]
    elif kind == "swap" and i + 2 < len(tokens):
        tokens[i], tokens[i + 2] = tokens[i + 2], tokens[i]
    elif kind == "stray":
        tokens.insert(i, rng.choice(STRAYS))
    elif kind == "rename" and tokens[i].strip():
        tokens[i] = tokens[i][:-1] + rng.choice(["胡", "和", "x", "9", "对"])
    else:
        tokens.insert(i, tokens[i])
    return "".join(tokens)


def _insert(text: str, at: int, piece: str) -> str:
    return text[:at] + piece + text[at:]


# ---------------------------------------------------------------- specs that would make a case costly
# Each family adds to a spec what once made one case take seconds or gigabytes; the spec must be refused with a
# diagnostic, or its examples scored at once (_exercise), the examples these families add included.


def _let_chain(text: str, rng: random.Random) -> str:
    """`let`s each the sum of the one before with itself, read by a fan: 2^n evaluations when read naively."""
    n = rng.randint(10, 40)
    first = rng.choice(["1", "suits", "count(tiles)", "2 ^ 40", "9" * 18])
    lets = f"let 链0 = {first}\n" + "".join(f"let 链{i} = 链{i - 1} + 链{i - 1}\n" for i in range(1, n + 1))
    return _appended(text, lets + f'fan 链链 "Let chain" 1: 链{n} > 0\n')


def _nested_powers(text: str, rng: random.Random) -> str:
    """A power of a power of a power, of numbers or of a value of the hand, as a fan's value or condition."""
    base = rng.choice(["2", "3", "-2", "1", "0", "suits", "count(tiles)"])
    exponent = rng.choice(["10000", "999", "99", "3", "0", "-1", "(suits - 3)"])
    power = f"(({base} ^ {exponent}) ^ {exponent}) ^ {exponent}"
    fan = rng.choice([f'fan 幂幂 "Powers" ({power}): true', f'fan 幂幂 "Powers" 1: {power} > 0'])
    return _appended(text, fan + "\n")


def _flower_melds(text: str, rng: random.Random) -> str:
    """A suit of flowers with many copies, a kind that lays them aside, fans over every few groups, and examples
    that lay many of them aside (one of a 14-tile hand, one of a 17-tile one)."""
    if "tiles:\n" not in text:
        return text
    copies = rng.randint(1, 8)
    blooms = ", ".join(f'Q{i} "Bloom {i}"' for i in range(1, 10))
    text = text.replace("tiles:\n", f'tiles:\n    flowers q 葩 "Blooms" ×{copies}: {blooms}\n', 1)
    fans = "".join(f'fan 葩组{k} "Blooms {k}" 1 each: combinations(groups, {rng.randint(2, 4)}, 葩 and same(suit))\n'
                   for k in range(rng.randint(1, 3)))
    laid = ", ".join(f"葩牌 {1 + i % 9}q" for i in range(rng.randint(1, 9 * copies + 2)))
    examples = "".join(f'example "blooms laid aside":\n    hand {hand}\n    melds {laid}\n    win 4p\n'
                       for hand in ("123m 456m 789m 11p 23p", "123m 456m 789m 11p 23p 789s"))
    return _appended(text, f'meld 葩牌 "Bloom laid aside" = one of 葩\n{fans}{examples}')


FRACTIONS = ['fan 分分 "Half" (1/2): true', 'fan 分分 "Half" 1 each: count(tiles) / 3',
             'fan 分分 "Half" (roundup(count(tiles) / 3, 1)): true', 'fan 分分 "Half" 1: count(tiles) / 3 > 4',
             'fan 分分 "Half" 1: 2 ^ (1/2) > 0', 'fan 分分 "Half" (2 ^ (suits - 3)): true',
             'fan 分分 "Half" 1: 1 / (suits - suits) > 0', 'let 分分 = suits / 2\nfan 分分分 "Half" (分分 * 2): true']


def _fractions(text: str, rng: random.Random) -> str:
    """A division where a whole number is needed, rounded, compared or as an exponent; or a number of the spec
    divided where it stands."""
    if rng.random() < 0.5:
        return _appended(text, rng.choice(FRACTIONS) + "\n")
    spots = list(re.finditer(r"(?<=[ (])\d+(?=[ ):,])", text))
    if not spots:
        return text
    spot = rng.choice(spots)
    return text[:spot.start()] + f"({spot.group()} / {rng.choice(['2', '3', '0'])})" + text[spot.end():]


def _oversize(text: str, rng: random.Random) -> str:
    """The spec just within or past its size bound, or a title, doc or name just within or past its own."""
    kind, over = rng.randrange(4), rng.choice([-1, 1])
    if kind == 0:
        size = len(text.encode("utf-8", "surrogatepass"))
        return text + "#" * max(0, MAX_SPEC_BYTES - size - 1 + over * rng.randint(1, 100)) + "\n"
    if kind == 1:
        return re.sub(r'"[^"\n]*"', lambda m: '"' + "题" * (MAX_TITLE + over) + '"', text, count=1)
    if kind == 2:
        return _appended(text, f'doc """{"文" * (MAX_DOC + over)}"""\n')
    name = "名" * (MAX_NAME + over)
    return _appended(text, f'let {name} = 1\nfan {name[:-1]}番 "Long name" 1: {name} > 0\n')


def _appended(text: str, lines: str) -> str:
    return text + ("" if text.endswith("\n") else "\n") + lines


COST_MUTATIONS = {"let_chain": _let_chain, "nested_powers": _nested_powers, "flower_melds": _flower_melds,
                  "fractions": _fractions, "oversize": _oversize}
MUTATIONS += tuple(COST_MUTATIONS)


def spec_outcome(text: str, path: str) -> str:
    """"error" (with well-formed diagnostics) or "valid" (its first examples score); anything else raises."""
    source = Source(path, text)
    try:
        spec = resolve(parse(source), source)
    except SpecError as exc:
        _check_diagnostics(exc)
        return "error"
    return _exercise(spec)


def file_outcome(data: bytes, folder: Path, name: str, whole: bool = False) -> str:
    """The same for spec bytes written to a file and read as `mjdsl check` reads them (UTF-8 included);
    with `whole`, a valid spec's checker source and rule book are generated too."""
    path = folder / f"{name}.mj"
    path.write_bytes(data)
    spec, diagnostics = check(str(path))
    if spec is None:
        _check_diagnostics(SpecError(diagnostics))
        return "error"
    outcome = _exercise(spec)
    if whole:
        codegen.generate(spec)
        render.render_books([model.book(spec)], folder / "book")
    return outcome


def _check_diagnostics(exc: SpecError) -> None:
    assert exc.diagnostics
    for d in exc.diagnostics:
        assert d.severity == "error" and d.message
        if d.span is not None:
            assert d.span.line >= 1 and d.span.column >= 1
            assert d.render().count("\n") >= 2  # message, source line, caret


def _exercise(spec: Spec) -> str:
    warnings(spec)
    checker = Interpreter(spec)
    for example in spec.examples[:3] + spec.examples[-2:]:  # the last: what a mutation appended
        result = checker.evaluate(example.case_dict())
        assert result["ok"] in (True, False)
        json.dumps(result, allow_nan=False)  # what `mjdsl score --jsonl` writes
    return "valid"


def spec_texts() -> dict[str, str]:
    return {name: (SPECS_DIR / f"{name}.mj").read_text(encoding="utf-8") for name in bundled_specs()}


# ---------------------------------------------------------------- JSON lines

WRONG_VALUES: list[object] = [None, True, False, 0, -1, 7, 2 ** 63, -(2 ** 63), 10 ** 17, 1.5, -0.0, "", "x",
                              "1m" * 200, "\u0000", "\ud800", "東", [], {}, [None], ["pung 555p"] * 50,
                              {"1": ["pung 555p"]}, {"": None}, [[[["1m"]]]]]
RAW_PIECES = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999", b"9" * 5000, b"-" + b"9" * 4400,
              b"1" * 19, b"\"\\ud800\"", b"\"\\udc00x\"", b"[" * 60 + b"]" * 60, b"{\"a\":" * 40 + b"1" + b"}" * 40,
              b"\"" + b"x" * 70000 + b"\"", b"\"\xff\"", b"\"\xc3\"", b"\"\xed\xa0\x80\"", b"\"\x00\"", b"tru",
              b"\"\\u00\"", b"0x10", b"01", b".5", b"+1"]
WHOLE_LINES = [b"", b" ", b"\t", b"\r", b"\xef\xbb\xbf", b"\xef\xbb\xbf{}", b"{}", b"[]", b"null", b"0", b"\"x\"",
               b"\xff\xfe\xfd", b"{" * 100000, b"[" * 30000 + b"]" * 30000, b"\x00", b"{\"hand\": \"123m\"",
               b"}{", b"{\"hand\": \"123m\"}{\"hand\": \"123m\"}", b"\xc0\xaf", b"\x1b[31m",
               b"\"" + b"\\\"" * 20000, b"[\"" + b"\\\\" * 30000,  # long escape runs: no backtracking scan
               b"{" + b",".join(b'"k%d": 1' % i for i in range(5500)) + b', "k5499": 2}']  # many keys, one twice


def base_cases(spec: Spec) -> list[dict]:
    cases = [e.case_dict() for e in spec.examples] or [{"hand": "123m456m789m11p23p", "win": "4p"}]
    return cases[:20]


def base_rounds(spec: Spec) -> list[dict]:
    rounds = [json.loads(e.record) for e in spec.round_examples]
    return rounds or [{"events": [{"win": dict(case, seat=1, self_drawn=True)}]} for case in base_cases(spec)[:5]]


def hostile_lines(bases: list[dict], rng: random.Random, count: int) -> list[bytes]:
    """`count` lines: every key of a base with every wrong value, raw hostile pieces spliced in, whole hostile
    lines, byte damage, duplicate keys, and some untouched bases (which must still be answered)."""
    lines: list[bytes] = []
    while len(lines) < count:
        base = rng.choice(bases)
        kind = rng.randrange(8)
        if kind == 0:
            lines.append(json.dumps(base, ensure_ascii=rng.random() < 0.5).encode())
        elif kind == 1:
            lines.append(_wrong_type(base, rng))
        elif kind == 2:
            lines.append(_splice(json.dumps(base).encode(), rng.choice(RAW_PIECES), rng))
        elif kind == 3:
            lines.append(rng.choice(WHOLE_LINES))
        elif kind == 4:
            lines.append(_damage(json.dumps(base, ensure_ascii=False).encode(), rng))
        elif kind == 5:
            text = json.dumps(base)
            key = rng.choice(list(base) or ["hand"])
            lines.append(("{" + json.dumps(key) + ": 1, " + text[1:]).encode())  # the key twice
        elif kind == 6:
            lines.append(b"\xef\xbb\xbf" + json.dumps(base).encode() + rng.choice([b"", b"\r", b" "]))
        else:
            lines.append(_nested_wrong(base, rng))
    return lines[:count]


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value that can be replaced: key paths into objects and lists."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, prefix + (index,))
    return found


def _replaced(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)  # type: ignore[call-overload]
    copy[path[0]] = _replaced(copy[path[0]], path[1:], new)
    return copy


def _wrong_type(base: dict, rng: random.Random) -> bytes:
    paths = _paths(base) or [("hand",)]
    return json.dumps(_replaced(base, rng.choice(paths), rng.choice(WRONG_VALUES))).encode()


def _nested_wrong(base: dict, rng: random.Random) -> bytes:
    """A new or misspelt key, or a value replaced with a raw piece at a real place in the record."""
    if rng.random() < 0.5:
        return json.dumps(dict(base, **{rng.choice(["han", "Hand", "wins", "", "__class__", "seat "]): 1})).encode()
    paths = _paths(base) or [("hand",)]
    marker = "\u2063MARK\u2063"
    text = json.dumps(_replaced(base, rng.choice(paths), marker), ensure_ascii=False).encode()
    return text.replace(json.dumps(marker, ensure_ascii=False).encode(), rng.choice(RAW_PIECES), 1)


def _splice(line: bytes, piece: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(line) + 1)
    return line[:at] + piece + line[at:]


def _damage(line: bytes, rng: random.Random) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        if not data:
            break
        at = rng.randrange(len(data))
        choice = rng.randrange(3)
        if choice == 0:
            data[at] = rng.randrange(256)
        elif choice == 1:
            del data[at:at + rng.randint(1, 8)]
        else:
            data.insert(at, rng.choice(b"\x80\xff\xc3\xed\x00{}[]\",:\\"))
    return bytes(data).replace(b"\n", b" ").replace(b"\r", b" ")  # one line stays one line


def stream_problems(spec: str, command: str, lines: list[bytes], timeout: float = 600) -> list[str]:
    """Run `mjdsl COMMAND SPEC --jsonl` on the lines: what went wrong (no traceback, one JSON line per line)."""
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "dsl.cli", command, spec, "--jsonl"], input=b"\n".join(lines) + b"\n",
                         capture_output=True, timeout=timeout, check=False)
    problems = []
    if run.returncode != 0 or b"Traceback" in run.stderr:
        problems.append(f"{command} {spec}: exit {run.returncode}: {run.stderr.decode(errors='replace')[-2000:]}")
    out = run.stdout.decode("utf-8").splitlines()
    if len(out) != len(lines):
        problems.append(f"{command} {spec}: {len(lines)} lines in, {len(out)} out")
    for number, text in enumerate(out, 1):
        result = json.loads(text)
        if not isinstance(result, dict) or result.get("ok") not in (True, False):
            problems.append(f"{command} {spec}: line {number}: not a result: {text[:200]}")
        elif "internal error" in str(result.get("error", "")):
            problems.append(f"{command} {spec}: line {number}: {result['error']}; input {lines[number - 1][:200]!r}")
    seconds = time.perf_counter() - started
    print(f"  {command} {spec}: {len(lines)} lines in {seconds:.1f} s, {len(problems)} problems", flush=True)
    return problems


# ---------------------------------------------------------------- seat keys


def seat_spellings(seat: int, players: int) -> list[object]:
    """What may be written where a seat goes instead of the seat itself: other spellings of it (a leading zero,
    spaces, a sign, full-width and Arabic-Indic digits, a decimal point), seats the table lacks, and from Python
    a float or a bool."""
    return [f"0{seat}", f" {seat} ", f"+{seat}", chr(0xFF10 + seat), chr(0x0660 + seat), f"{seat}.0", str(players),
            "-1", "", float(seat), seat % 2 == 1]


def seat_key_case(spec: Spec, base: dict, rng: random.Random) -> tuple[object, str]:
    """A valid case with one seat misspelt (an other_melds key, twice the same seat, a seat-valued key, an `out`
    item, or a key twice in the JSON text) and what the refusal must name."""
    seat, players = rng.randrange(spec.players), spec.players
    bad = rng.choice(seat_spellings(seat, players))
    melds = ["pung 111m"]
    kind = rng.randrange(5)
    if kind == 0:
        return base | {"other_melds": {bad: melds}}, "other_melds"
    if kind == 1:
        return base | {"other_melds": {str(seat): melds, seat: melds}}, "other_melds"
    if kind == 2:
        key = rng.choice(["seat", "dealer", "discarder"] + [k.name for k in spec.context if k.kind == "seat"])
        return base | {key: rng.choice([bad, str(seat)])}, key
    if kind == 3:
        return base | {"out": [rng.choice([bad, str(seat)])]}, "out"
    key = rng.choice(["other_melds", "discarder"])
    value = json.dumps({str(seat): melds}) if key == "other_melds" else str(seat)
    text = json.dumps(base)[:-1] + f', "{key}": {value}, "{key}": {value}}}'
    return text.encode(), "given twice"


def seat_key_round(record: dict, rng: random.Random, players: int) -> dict:
    """A round record with one seat misspelt: the dealer, an event's seat or discarder, a draw's key."""
    seat = rng.randrange(players)
    places = [path for path in _paths(record) if path[-1] in ("dealer", "seat", "from", "discarder")]
    draws = [path for path in _paths(record) if path[-1] == "draw"]
    if draws and rng.random() < 0.3:
        path = rng.choice(draws)
        draw = dict(_value_at(record, path))  # type: ignore[call-overload]
        first = next(iter(draw))
        draw[rng.choice(seat_spellings(int(first), players))] = draw.pop(first)
        return _replaced(record, path, draw)  # type: ignore[return-value]
    bad = rng.choice(seat_spellings(seat, players) + [str(seat)])
    if not places or rng.random() < 0.2:
        return record | {"dealer": bad}
    return _replaced(record, rng.choice(places), bad)  # type: ignore[return-value]


def _value_at(value: object, path: tuple) -> object:
    for step in path:
        value = value[step]  # type: ignore[index]
    return value


def _answered(call, case: object) -> str:
    """What a call answers or raises, as text to compare between the back ends."""
    try:
        return json.dumps(call(case), ensure_ascii=False, sort_keys=True)
    except Exception as exc:  # noqa: BLE001 - what each back end raises is compared too
        return f"raises {type(exc).__name__}: {exc}"


def fuzz_seat_keys(count: int, rng: random.Random, specs: list[str]) -> list[str]:
    """`count` cases and rounds per spec with a seat misspelt: each must be refused, naming the key, and both back
    ends must answer alike (evaluate, waits, settle)."""
    from dsl import load
    from dsl.cli import _answer
    from dsl.interp.rounds import RoundSettler

    problems: list[str] = []
    for name in specs:
        spec = load_spec(name)
        interpreter, compiled = Interpreter(spec), load(name)
        bases = [case for case in base_cases(spec) if interpreter.evaluate(case)["ok"]]
        settlers = [RoundSettler(spec, interpreter), RoundSettler(spec, compiled)]
        for _ in range(count):
            case, named = seat_key_case(spec, rng.choice(bases), rng)
            calls = [(lambda c, f=checker.evaluate: _answer(c, f) if isinstance(c, bytes) else f(c))
                     for checker in (interpreter, compiled)]
            calls += [checker.waits for checker in (interpreter, compiled)] if not isinstance(case, bytes) else []
            answers = [_answered(call, case) for call in calls]
            problems += _seat_problems(name, case, named, answers)
            record = seat_key_round(rng.choice(base_rounds(spec)), rng, spec.players)
            problems += _seat_problems(name, record, "", [_answered(s.settle, record) for s in settlers])
        print(f"  seat keys {name}: {count} cases and rounds, {len(problems)} problems so far", flush=True)
    return problems


def _seat_problems(name: str, given: object, named: str, answers: list[str]) -> list[str]:
    """Pairs of answers (interpreter, compiled) must agree; an evaluate or settle answer must be a refusal that
    names `named`."""
    problems = [f"seat keys {name}: back ends differ on {given!r}: {a} / {b}"
                for a, b in zip(answers[::2], answers[1::2], strict=True) if a != b]
    result = json.loads(answers[0]) if not answers[0].startswith("raises") else None
    if not isinstance(result, dict) or result.get("ok") is not False or named not in result.get("error", ""):
        problems.append(f"seat keys {name}: not a refusal naming {named!r}: {given!r} -> {answers[0][:300]}")
    return problems


# ---------------------------------------------------------------- the long run


SPEC_SECONDS = 30


class TimeLimitError(Exception):
    """A mutated spec took longer than SPEC_SECONDS to check and exercise."""


def _too_long(signum: int, frame: object) -> None:
    raise TimeLimitError(f"over {SPEC_SECONDS} s")


def fuzz_specs(count: int, rng: random.Random) -> list[str]:
    """Mutate bundled specs `count` times; a tenth of them also get bytes that are not UTF-8, and a fifth of
    the valid ones are generated whole (checker source and rule book)."""
    texts = spec_texts()
    problems: list[str] = []
    outcomes = {"error": 0, "valid": 0}
    signal.signal(signal.SIGALRM, _too_long)
    with tempfile.TemporaryDirectory() as folder:
        for number in range(count):
            name = rng.choice(sorted(texts))
            text = mutate(texts[name], rng)
            data = text.encode("utf-8", "surrogatepass")
            if number % 10 == 0:
                data = _splice(data, rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]), rng)
            signal.alarm(SPEC_SECONDS)  # a spec that hangs is a problem too, not the end of the run
            try:
                outcomes[file_outcome(data, Path(folder), f"m{number}", whole=number % 5 == 0)] += 1
            except Exception as exc:  # noqa: BLE001 - the point of the run is to find these
                problems.append(f"spec {number} (from {name}): {type(exc).__name__}: {str(exc)[:300]}")
            finally:
                signal.alarm(0)
    print(f"specs: {count} mutated, {outcomes['error']} diagnosed, {outcomes['valid']} still valid, "
          f"{len(problems)} crashed", flush=True)
    return problems


def fuzz_streams(count: int, rng: random.Random, specs: list[str]) -> list[str]:
    problems: list[str] = []
    for name in specs:
        spec = load_spec(name)
        problems += stream_problems(name, "score", hostile_lines(base_cases(spec), rng, count))
        problems += stream_problems(name, "settle", hostile_lines(base_rounds(spec), rng, count))
    return problems


def slowest_cases(count: int, rng: random.Random, specs: list[str]) -> list[str]:
    """Time hostile lines one by one in this process: no single case may take a second of CPU time."""
    from dsl import load
    from dsl.cli import _answer

    problems = []
    worst = (0.0, "", b"")
    for name in specs:
        checker = load(name)
        _answer(b'{"hand": 5}', checker.evaluate)  # loads the reference interpreter once, before the clock runs
        for line in hostile_lines(base_cases(load_spec(name)), rng, count):
            started = time.process_time()  # CPU time: other work on the machine does not count
            _answer(line, checker.evaluate)
            seconds = time.process_time() - started
            worst = max(worst, (seconds, name, line))
            if seconds > 1.0:
                problems.append(f"score {name}: {seconds:.2f} s for {line[:200]!r}")
    print(f"slowest case: {worst[0] * 1000:.1f} ms ({worst[1]}: {worst[2][:80]!r})", flush=True)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", type=int, default=1000, help="mutated specs (default 1000)")
    parser.add_argument("--lines", type=int, default=3000, help="hostile lines per bundled spec and command")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    problems = (fuzz_specs(args.specs, rng) + fuzz_streams(args.lines, rng, bundled_specs())
                + slowest_cases(args.lines // 10, rng, bundled_specs())
                + fuzz_seat_keys(args.lines // 10, rng, bundled_specs()))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problems in {time.perf_counter() - started:.0f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
