"""The `mjdsl` command line: check specs, score hands, run a spec's examples."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from dsl import lint_hands, scaffold
from dsl.book import model, render
from dsl.book.examples import run_examples, unexercised_exclusions
from dsl.build import OverwriteError, book_pages, compile_checkers, generated_files, load_all, stale_files, write_files
from dsl.cases.limits import MAX_LINE_BYTES, InputError, read_json_line
from dsl.cases.presets import OptionError, OptionsChecker, chosen_options, with_options
from dsl.compiled.checkers import checker_for
from dsl.compiled.codegen import CodegenError
from dsl.compiled.extensions import BuildError
from dsl.frontend import ir
from dsl.frontend.resolve import check, load_spec
from dsl.frontend.source import SpecError, printable, printable_json
from dsl.interp.explain import explain
from dsl.interp.explain_text import explanation_text
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler
from dsl.report import describe, describe_round


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # text from undecodable arguments must not end the program
            stream.reconfigure(errors="backslashreplace")
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except SpecError as exc:
        print(exc, file=sys.stderr)
        return 1
    except OptionError as exc:  # --preset or --option names what the spec does not have
        print(f"mjdsl: {exc}", file=sys.stderr)
        return 2
    except OverwriteError as exc:
        print(f"mjdsl: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file or folder that cannot be read or written: say which, without a traceback
        print(f"mjdsl: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 1


FORCE_HELP = ("write over a file of the same name that mjdsl did not write (a generated file says so in its first "
              "lines); a spec file being read is never written over")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjdsl", description="Compile mahjong rule specs: check them, score hands, run their examples.",
        epilog="SPEC is a spec file (specs/sichuan.mj) or the name of a bundled spec (sichuan, shenyang).")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = commands.add_parser("check", help="report errors and warnings in specs",
                            description="Check specs and print diagnostics as file:line:col. Exit 1 on any error.")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--werror", action="store_true", help="treat warnings as errors")
    p.set_defaults(run=_check)

    p = commands.add_parser("test", help="run the example hands written in specs",
                            description="Score every `example` block of the specs and compare with its expectation.")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing examples too")
    p.add_argument("--coverage", action="store_true",
                   help="also warn about 不计 targets that no example shows beside the fan excluding them")
    _add_option_flags(p, "every example and worked round; one with its own `preset` or `options` line keeps those "
                         "on top")
    p.set_defaults(run=_test)

    p = commands.add_parser("lint", help="report what scoring many hands finds suspicious in specs",
                            description="Score each spec's examples and random winning hands and warn about fans no "
                                        "hand counts, 不计 lines that never fire, fans always counted with one they "
                                        "do not exclude, fans excluding each other and options that change no "
                                        "result. A line ending `# lint: allow KIND reason` silences its KIND. "
                                        "Exit 1 on any finding.")
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--hands", type=int, default=lint_hands.HANDS, metavar="N",
                   help=f"random winning hands per spec (default {lint_hands.HANDS})")
    p.set_defaults(run=_lint)

    p = commands.add_parser("build", help="regenerate the checkers and rule books of specs",
                            description="Write generated/ for the given bundled specs (default: every one; the "
                                        "index and comparison pages only for all of them) and compile the checkers "
                                        "in place. A spec of your own builds beside its file (or into --out) and "
                                        "its checker into the cache. With --check, write nothing and exit 1 if a "
                                        "file is out of date.")
    p.add_argument("specs", nargs="*", metavar="SPEC")
    p.add_argument("--check", action="store_true", help="only compare generated/ with a fresh build")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="where the files of a spec of your own go (default: beside it); bundled specs build into "
                        "generated/")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.set_defaults(run=_build)

    p = commands.add_parser(
        "doc", help="write the rule books of specs, or the diff of two variants",
        description="Write the Markdown and HTML rule book of each spec (default: every bundled spec), an index "
                    "and a comparison page, into --out, else generated/docs/ for bundled specs (the index and "
                    "comparison only for all of them) and beside the file for a spec of your own. With --diff A B, "
                    "print what differs between two variants as Markdown (or write it to --out, as HTML if it ends "
                    "in .html). Exit 1 if a worked example disagrees with the checker (the book marks it).")
    p.add_argument("specs", nargs="*", metavar="SPEC")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), help="compare two variants")
    p.add_argument("--out", metavar="PATH", help="directory for the books, or file for --diff")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.set_defaults(run=_doc)

    p = commands.add_parser(
        "score", help="score hands",
        description="Score one hand (human-readable), one JSON case (--json) or JSON lines on stdin (--jsonl). "
                    "Cases follow docs/interface.md.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--jsonl", action="store_true",
                   help="read one JSON case per line on stdin, write one result per line")
    p.add_argument("--json", metavar="CASE", help="score one case given as JSON and print the JSON result")
    _add_case_flags(p)
    _add_option_flags(p, "every case; a case's own \"options\" win")
    p.set_defaults(run=_score)

    p = commands.add_parser(
        "explain", help="say why a hand scores what it scores",
        description="Explain one hand: the readings tried and the one chosen, each fan counted (with the spec line "
                    "defining it), each fan that held but was dropped and the rule that dropped it, the minimum, "
                    "the cap and each payment with its formula worked out. --why-not FAN shows the fan's "
                    "condition part by part on this hand.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")
    p.add_argument("--case", metavar="CASE", help="the case as JSON (docs/interface.md) instead of HAND and flags")
    p.add_argument("--why-not", action="append", default=[], metavar="FAN",
                   help="why this fan is not counted (its name, an alias or its English name); repeatable")
    _add_case_flags(p)
    _add_option_flags(p, "the case's own \"options\" win")
    p.set_defaults(run=_explain)

    p = commands.add_parser(
        "settle", help="settle whole hands of play: kongs, several winners, draw-end checks",
        description="Settle round records (one hand of play each, as JSON: see specs/README.md): a FILE holding "
                    "one round is shown event by event; --jsonl reads one round per line on stdin and writes one "
                    "result per line; --json settles one round given on the command line. A result gives the "
                    "payments of each event and the total.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("file", nargs="?", metavar="FILE", help="a round record (JSON) to show event by event")
    p.add_argument("--jsonl", action="store_true", help="read one JSON round per line on stdin")
    p.add_argument("--json", metavar="ROUND", help="settle one round given as JSON")
    _add_option_flags(p, "every round; a record's own \"options\" win")
    p.set_defaults(run=_settle)

    scaffold.add_command(commands)
    return parser


def _add_case_flags(p: argparse.ArgumentParser) -> None:
    """A hand given on the command line: its tiles, winning tile, melds and context."""
    p.add_argument("hand", nargs="*", help="concealed tiles before the winning tile, e.g. 123m456p789s11z or, "
                                           "as examples write them, 123m 456p 789s 11z")
    p.add_argument("--win", metavar="TILE", help="the winning tile")
    p.add_argument("--meld", action="append", default=[], metavar="'KIND TILES'",
                   help="a declared meld, e.g. 'pung 555p'")
    p.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn")
    p.add_argument("--seat-wind", choices="ESWN")
    p.add_argument("--round-wind", choices="ESWN")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="another context key, each once, its value as JSON (a number written plainly) or a bare "
                        "word, e.g. --set kong_replacement=true --set discarder=2")


def _add_option_flags(p: argparse.ArgumentParser, scope: str) -> None:
    """--preset and --option, read back by _options_from_flags; `scope` says what they apply to."""
    p.add_argument("--preset", metavar="NAME",
                   help=f"score under a preset of the spec (a published rule set, e.g. tenhou): {scope}")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option, on top of the preset, e.g. --option kiriage=true (true/false, a number or "
                        "a word)")


def _options_from_flags(args, spec: ir.Spec) -> dict[str, object]:
    """The options --preset and --option choose (dsl.cases.presets.chosen_options); an OptionError names a preset
    or option the spec does not have, or a value of the wrong type."""
    given: dict[str, object] = {}
    for item in args.option:
        key, sep, text = item.partition("=")
        if not sep:
            raise OptionError(f"--option takes KEY=VALUE, not {item!r}")
        given[key] = _option_value(text)
    return chosen_options(spec, args.preset, given)


def _option_value(text: str) -> int | str | bool:
    """A value as a spec writes it: true, false, a whole number, or a word."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _check(args) -> int:
    failed = False
    for name in args.specs:
        spec, diagnostics = check(name)
        for d in diagnostics:
            print(d.render(), file=sys.stderr)
        errors = [d for d in diagnostics if d.severity == "error" or args.werror]
        failed |= bool(errors)
        if spec is not None and not errors:
            rounds = f", {len(spec.round_examples)} worked rounds" if spec.round_examples else ""
            print(printable(f"{spec.path}: ok: {spec.name}, {len(spec.patterns) + len(spec.loser_patterns)} fans, "
                            f"{len(spec.examples)} examples{rounds}"))
    return 1 if failed else 0


def _test(args) -> int:
    failures = 0
    for name in args.specs:
        spec = load_spec(name)
        interpreter = Interpreter(spec)
        outcomes = run_examples(spec, interpreter, _options_from_flags(args, spec))
        if args.coverage:
            for warning in unexercised_exclusions(spec, interpreter):
                print(warning.render(), file=sys.stderr)
        for outcome in outcomes:
            if args.verbose or not outcome.passed:
                print(outcome.render())
        bad = sum(not o.passed for o in outcomes)
        failures += bad
        print(printable(f"{spec.path}: {len(outcomes) - bad} passed, {bad} failed"))
    return 1 if failures else 0


def _lint(args) -> int:
    found = 0
    for name in args.specs:
        spec = load_spec(name)
        diagnostics = lint_hands.lint(spec, args.hands)
        for d in diagnostics:
            print(d.render())
        found += len(diagnostics)
        print(printable(f"{spec.path}: {len(diagnostics)} findings"))
    return 1 if found else 0


def _build(args) -> int:
    specs = load_all(args.specs or None)
    try:
        files = generated_files(specs, args.out)
        if args.check:
            stale = stale_files(files)
            for path in stale:
                print(f"{path}: out of date; run `mjdsl build`", file=sys.stderr)
            return 1 if stale else 0
        for path in write_files(files, [spec.path for spec in specs], args.force):
            print(f"wrote {path}")
        compile_checkers(specs)
    except (CodegenError, BuildError, OSError) as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return 1
    return 0


def _doc(args) -> int:
    if args.diff:
        a, b = (load_spec(name) for name in args.diff)
        out = Path(args.out) if args.out else None
        text = render.render_diff(a, b, html=out is not None and out.suffix == ".html")
        if out is None:
            print("\n".join(map(printable, text.split("\n"))), end="")  # the diff quotes the specs' text
        else:
            write_files({out: text}, [a.path, b.path], args.force)
            print(f"wrote {out}")
        return 0
    books = model.books(load_all(args.specs or None))
    pages = book_pages(books, Path(args.out) if args.out else None)
    for path in write_files(pages, [book.spec.path for book in books], args.force):
        print(f"wrote {path}")
    problems = [line for book in books for line in render.failure_report(book)]
    for line in problems:
        print(printable(f"error: {line}"), file=sys.stderr)
    return 1 if problems else 0


def _score(args) -> int:
    spec = load_spec(args.spec)
    checker = OptionsChecker(checker_for(spec), spec, _options_from_flags(args, spec))
    if args.jsonl:
        return _stream(checker.evaluate)
    if args.json is not None:
        result = _answer(args.json, checker.evaluate)
        print(_dumps(result))
        return 0 if result["ok"] else 1
    if not args.hand:
        print("mjdsl score: give a HAND, --json CASE or --jsonl", file=sys.stderr)
        return 2
    case = _case_from_flags(args)
    if isinstance(case, str):
        print(f"mjdsl score: {case}", file=sys.stderr)
        return 2
    case = with_options(case, checker.options)  # the report reads the minimum an option may set
    result = _answer_value(case, checker.evaluate)
    print(describe(spec, case, result))
    return 0 if result["ok"] else 1


def _explain(args) -> int:
    spec = load_spec(args.spec)
    if args.case is not None:
        case = _read(args.case)
    elif args.hand:
        case = _case_from_flags(args)
    else:
        print("mjdsl explain: give a HAND or --case CASE", file=sys.stderr)
        return 2
    if isinstance(case, str):
        print(f"mjdsl explain: {case}", file=sys.stderr)
        return 2
    # An explanation scores the case again with the reference interpreter, keeping the record of each step.
    case = with_options(case, _options_from_flags(args, spec))
    out = _answer_value(case, lambda value: explain(Interpreter(spec), value, args.why_not))
    print(_dumps(out) if args.json else explanation_text(out))
    return 0 if out["ok"] else 1


def _stream(answer: Callable[[object], dict]) -> int:
    """One result line per input line, in order, whatever a line holds: a bad line gets an error result."""
    for line in _input_lines(getattr(sys.stdin, "buffer", sys.stdin)):
        print(_dumps(_answer(line, answer)), flush=True)
    return 0


def _input_lines(stream: BinaryIO | TextIO) -> Iterator[bytes | str | InputError]:
    """The lines of a stream without their line ends; an overlong line is skipped unread, as an InputError."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not _ends_line(line):
            size = len(line) + _skip_rest_of_line(stream)
            yield InputError(f"the line is {size} bytes or more; a case or a round is at most {MAX_LINE_BYTES} bytes")
            continue
        yield line.rstrip(b"\r\n" if isinstance(line, bytes) else "\r\n")


def _ends_line(line: bytes | str) -> bool:
    return line.endswith(b"\n" if isinstance(line, bytes) else "\n")


def _skip_rest_of_line(stream: BinaryIO | TextIO) -> int:
    skipped = 0
    while chunk := stream.readline(MAX_LINE_BYTES):
        skipped += len(chunk)
        if _ends_line(chunk):
            break
    return skipped


def _answer(line: bytes | str | InputError, answer: Callable[[object], dict]) -> dict:
    """The result for one line of input: its JSON value answered, or why it cannot be read."""
    return _answer_value(_read(line), answer)


def _read(line: bytes | str | InputError) -> object:
    """The JSON value of one line of input, or the InputError saying why it cannot be read."""
    if isinstance(line, InputError):
        return line
    try:
        return read_json_line(line)
    except InputError as exc:
        return exc


def _answer_value(value: object, answer: Callable[[object], dict]) -> dict:
    if isinstance(value, InputError):
        return {"ok": False, "error": str(value)}
    try:
        return answer(value)
    except Exception as exc:  # noqa: BLE001 - the last guard of a stream: one case must not end the others
        return {"ok": False, "error": f"internal error on this input: {type(exc).__name__}: {str(exc)[:200]}"}


def _dumps(result: dict) -> str:
    """A result as one JSON line; a result that JSON cannot carry becomes an error result."""
    try:
        text = json.dumps(result, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        return json.dumps({"ok": False, "error": f"the result cannot be written as JSON: {str(exc)[:200]}"})
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a \ud800 escape in the input, quoted in a message
        text = json.dumps(result, allow_nan=False)
    return printable_json(text)  # a spec's text may hold control characters


def _settle(args) -> int:
    spec = load_spec(args.spec)
    settler = RoundSettler(spec, checker_for(spec), _options_from_flags(args, spec))
    if args.jsonl:
        return _stream(settler.settle)
    if args.file is not None:
        try:
            with Path(args.file).open("rb") as file:
                data = file.read(MAX_LINE_BYTES + 1)
        except OSError as exc:
            print(f"mjdsl settle: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
        record = _read(data)
        result = _answer_value(record, settler.settle)
        print(describe_round(spec, record, result))
        return 0 if result["ok"] else 1
    if args.json is None:
        print("mjdsl settle: give a FILE, --json ROUND or --jsonl", file=sys.stderr)
        return 2
    result = _answer(args.json, settler.settle)
    print(_dumps(result))
    return 0 if result["ok"] else 1


def _case_from_flags(args) -> dict | str:
    case: dict = {"hand": "".join("".join(args.hand).split())}  # 123m 456p, one argument or several
    if args.win:
        case["win"] = args.win
    if args.meld:
        case["melds"] = args.meld
    if args.self_drawn:
        case["self_drawn"] = True
    for key in ("seat_wind", "round_wind"):
        if getattr(args, key):
            case[key] = getattr(args, key)
    for item in args.set:
        key, sep, text = item.partition("=")
        if not sep:
            return f"--set takes KEY=VALUE, not {item!r}"
        if key in case:
            return f"--set {key}: {key!r} is given already (by HAND, an option or an earlier --set)"
        try:
            value = read_json_line(text)
        except InputError:
            value = text  # a bare word, such as a tile: the value is the text itself
        if isinstance(value, int) and not isinstance(value, bool) and text != str(value):
            return f"--set {key}={text}: a number is written plainly, as {value}"  # " 2 " or -0 for seat 2 or 0
        case[key] = value
    return case


if __name__ == "__main__":
    sys.exit(main())
