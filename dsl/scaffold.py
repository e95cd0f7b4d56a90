"""`mjdsl new NAME [--extends PARENT]`: start a spec file that already checks and tests.

With a parent, the new file extends it and changes nothing yet: commented templates show how to revalue,
add or remove a fan and how to replace the payments, and two worked examples (the parent's first two, or
hands scored with the parent's rules when it has none) are ready to be rewritten for the new rules.
Without one, the file is a small standalone spec (tiles, shapes, five fans, payments, two worked
examples) to grow into the new variant.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from dsl.frontend import ir
from dsl.frontend.resolve import check, load_spec
from dsl.interp.interpreter import Interpreter
from dsl.paths import parent_path

NAME = re.compile(r"(?!\d)\w+\Z")
EXAMPLES = 2

TEMPLATE = '''\
# {name} — a local variant of {parent}. Write down only what differs from {parent}; everything else
# is inherited. Then: mjdsl check {name}.mj && mjdsl test {name}.mj && mjdsl doc {name}.mj --out book
variant {name} "{name}" "{name}"
extends {parent}

doc """
{name}: the rules of {title}, except for the changes below. Say where the rules come from, and how
an ambiguous sentence of the rule text is read.
"""

# Revalue a fan of {parent}: the whole definition is written again, under the same name.
# replace {fan_line}
#
# Add a fan; `不计` lists the fans it replaces when it counts.
# fan 新番 "A new fan" 2: ...
#     不计 ...
#
# Remove fans the table does not play.
# remove ...
#
# Change the payments: a `settle:` block replaces the parent's whole block.
# settle:
#     self_drawn: each loser pays total
#     discard: discarder pays total
#
# Change what happens over a whole hand of play (kong payments, draw-end checks, penalties): a `round:`
# block changes the parent's round rules one by one.
# round:
#     kong kong: discarder pays 2
#     penalty 诈和 "False win": pays 10 to each other

# ---------------------------------------------------------------- examples
# Worked hands, run by `mjdsl test` and printed in the rule book. These start as {parent}'s; rewrite
# each one to show a rule that differs, with a comment working out the result from the rule text.

{examples}
'''


STANDALONE = '''\
# {name} — a spec of its own. Then: mjdsl check {name}.mj && mjdsl test {name}.mj && mjdsl doc {name}.mj --out book
variant {name} "{name}" "{name}"

doc """
{name}: say where the rules come from, and how an ambiguous sentence of the rule text is read.
"""

tiles:
    suit m 万 "Characters" 1..9 ×4
    suit p 筒 "Dots" 1..9 ×4
    suit s 条 "Bamboo" 1..9 ×4
    honors z 字 "Honors" ×4: 东 "East", 南 "South", 西 "West", 北 "North", 白 "White", 发 "Green", 中 "Red"

melds chow, pung, kong, concealed_kong
shapes standard, seven_pairs
context self_drawn, seat_wind, round_wind
# unit 台 "tai"                # what a total counts (番 when not written)
# cap 100 "Limit"              # the most a hand's total pays
# context 連莊 int 0..20 "the dealer's wins in a row"
minimum 1

fan 平和 "All Chows" 1: shape == standard and count(pungs) == 0
fan 对对和 "All Pungs" 2: shape == standard and count(chows) == 0
fan 七对 "Seven Pairs" 2: shape == seven_pairs
fan 清一色 "Full Flush" 4: suits == 1 and not any(tiles, 字)
fan 自摸 "Self-drawn" 1: self_drawn

settle:
    self_drawn: each loser pays total
    discard: discarder pays total

# ---------------------------------------------------------------- examples
# Worked hands, run by `mjdsl test` and printed in the rule book; a comment works out each result.

example "All chows on a discard":
    hand 123m 456m 789p 234s 5z
    win 5z
    # 123万 456万 789筒 234条 and a pair of 白: no pung, 平和 1; three suits, no 清一色. Seat 0 wins on
    # seat 3's discard; the discarder pays the total.
    expect 平和 1, total 1
    payments 1 0 0 -1

example "All pungs of one suit, self-drawn":
    hand 111m 222m 333m 444m 5m
    win 5m, self_drawn
    # Read as 111 222 333 444万 + 55万: 对对和 2, 清一色 4, 自摸 1 = 7, more than 123万 ×3 + 444万 + 55万
    # (清一色 4, 自摸 1 = 5). Each of the three others pays 7.
    expect 对对和 2, 清一色 4, 自摸 1, total 7
    payments 21 -7 -7 -7
'''


def add_command(commands: argparse._SubParsersAction) -> None:
    """Register `mjdsl new` on the command line's subcommands."""
    p = commands.add_parser(
        "new", help="start a spec: standalone, or a local variant that extends another spec",
        description="Write NAME.mj. With --extends PARENT: a spec that extends PARENT, with commented "
                    "templates for revaluing, adding and removing fans and for the payments, and two worked "
                    "examples to rewrite. Without it: a small standalone spec (tiles, shapes, fans, payments, "
                    "two worked examples). The new file passes `mjdsl check` and `mjdsl test` as it is.")
    p.add_argument("name", metavar="NAME", help="the variant's name, also the file's name (NAME.mj)")
    p.add_argument("--extends", metavar="PARENT", dest="parent",
                   help="the spec it starts from: a bundled name (sichuan) or a spec file (default: none, a "
                        "standalone spec)")
    p.add_argument("--dir", default=".", type=Path, help="where to write NAME.mj (default: here)")
    p.add_argument("--force", action="store_true", help="overwrite an existing NAME.mj")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not NAME.match(args.name):
        print(f"mjdsl new: {args.name!r} is not a variant name (letters, digits and _, not starting "
              "with a digit)", file=sys.stderr)
        return 2
    target = args.dir / f"{args.name}.mj"
    if target.exists() and not args.force:
        print(f"mjdsl new: {target} exists; choose another name or pass --force", file=sys.stderr)
        return 1
    if args.parent is None:
        args.dir.mkdir(parents=True, exist_ok=True)
        target.write_text(STANDALONE.format(name=args.name), encoding="utf-8")
        return _report(target)
    parent = load_spec(args.parent)  # a missing or broken parent is reported as a SpecError by main
    if not _reachable(parent, args.dir):
        print(f"mjdsl new: `extends {parent.name}` means the bundled spec of that name, else {parent.name}.mj "
              f"beside the new file, so it would not find {parent.path}: copy it into {args.dir} (under a name "
              "no bundled spec has) first", file=sys.stderr)
        return 1
    args.dir.mkdir(parents=True, exist_ok=True)
    target.write_text(scaffold(args.name, parent), encoding="utf-8")
    return _report(target)


def scaffold(name: str, parent: ir.Spec) -> str:
    """The text of a new spec extending `parent` that changes nothing yet."""
    return TEMPLATE.format(name=name, parent=parent.name, title=_in_doc_block(parent.title),
                           fan_line=_sample_fan(parent),
                           examples="\n\n".join(example_blocks(parent)))


def _in_doc_block(text: str) -> str:
    """Text to put inside the triple-quoted doc block, which reads no escapes: one line, double quotes made
    single, so that no three quotes close the block early and no backslash ends a line."""
    return " ".join(text.split()).replace('"', "'")


def example_blocks(parent: ir.Spec) -> list[str]:
    """Two example blocks: the parent's first ones, then hands scored with the parent's own rules."""
    blocks = [_source_of(e) for e in parent.examples[:EXAMPLES]]
    for self_drawn in (False, True)[:EXAMPLES - len(blocks)]:
        blocks.append(_scored_example(parent, self_drawn))
    return blocks


def _source_of(example: ir.Example) -> str:
    """An example block exactly as written in its spec, without the comments that follow it."""
    span = example.span
    last = span.end_line - 1 if span.end_column == 1 else span.end_line
    lines = span.source.text.splitlines()[span.line - 1:last]
    while lines and (not lines[-1].strip() or lines[-1].startswith("#")):
        lines.pop()  # blank lines and section comments belong to what comes next
    return "\n".join(lines)


def _scored_example(spec: ir.Spec, self_drawn: bool) -> str:
    """A plain hand of the spec's first numbered suit, with the expectation the spec gives it."""
    case = _plain_case(spec, self_drawn)
    result = Interpreter(spec).evaluate(case)
    how = "self-drawn" if self_drawn else "on a discard"
    lines = [f'example "TODO: a hand {how}":', f"    hand {case['hand']}",
             f"    win {case['win']}" + (", self_drawn" if self_drawn else ""),
             "    # TODO: work out the result from the rule text, then correct the expectation.",
             *_expectation(result)]
    return "\n".join(lines)


def _plain_case(spec: ir.Spec, self_drawn: bool) -> dict:
    """Chows 123 456 789, then pungs of 2, 5 and 8, and a pair of 9s (the 9 won), in one suit."""
    suit = next((s.code for s in spec.suits if s.numbered), None)
    if suit is None:
        suit = spec.suits[0].code  # a spec without numbered suits: any tiles, the result says why
    sets = ["123", "456", "789", "222", "555", "888"][:(spec.hand_size - 2) // 3]
    return {"hand": " ".join(f"{s}{suit}" for s in sets) + f" 9{suit}", "win": f"9{suit}",
            "self_drawn": self_drawn}


def _expectation(result: dict) -> list[str]:
    if not result["ok"]:
        return [f'    expect error "{_quoted(result["error"])}"']
    if not result["winning"]:
        return [f'    expect no win "{_quoted(result["reason"])}"']
    fans = [f"{f['name']} {f['value']}" + (f" ×{f['count']}" if f["count"] > 1 else "") for f in result["fans"]]
    lines = ["    expect " + ", ".join([*fans, f"total {result['total']}"])]
    if "payments" in result and all(isinstance(p, int) for p in result["payments"]):
        lines.append("    payments " + " ".join(str(p) for p in result["payments"]))
    return lines


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _sample_fan(spec: ir.Spec) -> str:
    """The first one-line definition of a fixed-value fan, as written in the parent, to copy and change."""
    for pattern in spec.patterns:
        line = pattern.span.source.line(pattern.span.line).split("#")[0].rstrip()
        if pattern.value.kind == "fixed" and line.startswith("fan ") and not line.endswith(":"):
            return line
    return 'fan 番名 "English name" 2: ...'


def _reachable(parent: ir.Spec, directory: Path) -> bool:
    """Does `extends NAME` in a spec of `directory` find the parent (a bundled spec, or NAME.mj beside it)?"""
    found = parent_path(parent.name, directory)
    return found is not None and found.resolve() == Path(parent.path).resolve()


def _report(target: Path) -> int:
    spec, diagnostics = check(str(target))
    for d in diagnostics:
        print(d.render(), file=sys.stderr)
    if spec is None:
        return 1
    start = f"extends {spec.parent}" if spec.parent else "a standalone spec"
    print(f"wrote {target}: {start}, {len(spec.examples)} examples to rewrite")
    print(f"next: edit it, then `mjdsl check {target}` and `mjdsl test {target}`")
    return 0
