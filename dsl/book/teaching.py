"""Which worked example teaches a fan: one about it, where it counts and is the point of the hand (its title
names the fan, the earlier the better, or the fan is worth the most of the fans counted); a spec that extends
another may teach an inherited fan with one of its parent's examples, scored under its own rules."""

from __future__ import annotations

import re
from collections.abc import Iterable

from dsl.book.worked import WorkedExample
from dsl.frontend import ir


def example_about(spec: ir.Spec, p: ir.Pattern, examples: Iterable[WorkedExample]) -> WorkedExample | None:
    """Of the examples where the fan counts, the one whose title names it first (`边张: 12万 waiting on 3万`
    before `小四喜 ... and an edge wait`); else the first where it is worth the most of the fans counted (as
    much as the largest is enough)."""
    counted = [e for e in examples if p.name in counted_fans(e.result)]
    named = [(at, i) for i, e in enumerate(counted) if (at := named_in(spec, e.example.title).get(p.name)) is not None]
    if named:
        return counted[min(named)[1]]
    return next((e for e in counted if _worth_most(p.name, e.result)), None)


def counted_fans(result: dict) -> dict[str, int]:
    """Fan name -> what it adds (value × count) as the checker counted it, the losers' share fans included."""
    fans = list(result.get("fans", ())) if result.get("winning") else []
    fans += [f for share in result.get("shares", ()) for f in share["fans"]]
    worth: dict[str, int] = {}
    for f in fans:
        worth[f["name"]] = max(worth.get(f["name"], 0), f["value"] * f["count"])
    return worth


def named_in(spec: ir.Spec, title: str) -> dict[str, int]:
    """The fans a title names, each with where it first does, by name, alias or English name; a longer name is
    read before the names inside it (连七对 is not also 七对), and an English or romanised name only as a whole
    word, its spaces optional (Shou Sangen is written Shousangen too)."""
    names = sorted(((written, p.name) for p in spec.patterns + spec.loser_patterns
                    for written in _spellings(p)), key=lambda pair: -len(pair[0]))
    found: dict[str, int] = {}
    rest = title
    for written, name in names:
        pattern = re.escape(written)
        if written.isascii():
            pattern = rf"(?<![A-Za-z]){pattern}(?![A-Za-z])"
        for match in re.finditer(pattern, rest, flags=re.IGNORECASE):
            found[name] = min(found.get(name, match.start()), match.start())
        rest = re.sub(pattern, lambda m: "\0" * len(m.group()), rest, flags=re.IGNORECASE)
    return found


def _spellings(p: ir.Pattern) -> set[str]:
    english = {p.english, p.english.replace(" ", "")} if p.english else set()
    return {p.name, *p.aliases, *english}


def _worth_most(name: str, result: dict) -> bool:
    worth = counted_fans(result)
    return name in worth and worth[name] == max(worth.values())
