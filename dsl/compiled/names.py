"""The C names a checker module gives what its spec declares.

A spec may name things anything (an option `BOOL`, a shape `NONE`), and a checker module shares one namespace
with its own fixed names (`N_TILES`, `OPTION_KIND`) and the shared runtime's (`from dsl.runtime.core cimport *`).
So every name made from a spec starts with the prefix of its family, and no fixed name starts with one of these
prefixes (tests/test_generated_names.py reads the runtime, the templates and the code generator for them):

- a named family's prefix is followed by the spec's name when that is an ASCII identifier, else by a number,
  which no spec name can be (`OPT_BOOL`, `CTX_5`);
- a numbered family's prefix is followed by the thing's number, then the words of its English name
  (`FAN_05_SEVEN_PAIRS`, `let_3`): no fixed name has a digit after these prefixes.
"""

from __future__ import annotations

import re

from dsl.frontend import ir

# Names that expressions compare, as small ints (suit codes, text options' values, own shapes): `T_m`. The
# runtime's texts (the shapes and waits, core.pxd's `Text`) are named the same way, so a spec text equal to one
# of them is that text.
TEXT = "T_"
OPTION = "OPT_"  # option slots
CONTEXT = "CTX_"  # context slots
TILE_SET = "TILES_"  # tile set masks: the name, else the English name's words
MELD_KIND = "KIND_"  # a spec's own meld kinds, as kinds of group
NAMED = (TEXT, OPTION, CONTEXT, TILE_SET, MELD_KIND)

FAN_CONSTANT = "FAN_"  # FAN_05_SEVEN_PAIRS: the fan's index, as rules read it (c.n[FAN_05_SEVEN_PAIRS])
FAN_FUNCTION = "fan_"  # fan_05_seven_pairs(c): its occurrences, fan_05_seven_pairs_value(c): its value
LET = "let_"  # a top-level `let`
SETTLE_LET = "let_settle_"  # a settlement `let`
SCORE = "score_"  # a `score:` result
AGGREGATES = ("count", "all", "any", "sum", "combinations")  # count_07_groups(c): a helper for one count(...)
TABLE = "table_"  # table_00(key): a table(...) looked up in its array TABLE_00
NUMBERED = (FAN_CONSTANT, FAN_FUNCTION, LET, SETTLE_LET, SCORE, TABLE, TABLE.upper(), *(f"{a}_" for a in AGGREGATES))


def named(prefix: str, name: str, number: int) -> str:
    return f"{prefix}{name}" if spelled(name) else f"{prefix}{number}"


def numbered(prefix: str, number: int, title: str | None, digits: int = 1) -> str:
    """`fan_05_seven_pairs` from fan 5, "Seven Pairs": the number keeps it unique, the words make it readable."""
    words = _words(title)
    return f"{prefix}{number:0{digits}d}" + (f"_{words.lower()}" if words else "")


def fan_functions(spec: ir.Spec) -> dict[str, str]:
    """Fan name -> the C function counting it, hand fans first, then loser fans (their index in the checker)."""
    return {p.name: numbered(FAN_FUNCTION, i, p.english, 2)
            for i, p in enumerate(spec.patterns + spec.loser_patterns)}


def fan_constant(function: str) -> str:
    """The fan's index in C, as rules read it: FAN_05_SEVEN_PAIRS for fan_05_seven_pairs."""
    return FAN_CONSTANT + function.removeprefix(FAN_FUNCTION).upper()


def tile_set_names(tilesets: tuple[ir.TileSet, ...]) -> list[str]:
    """The C name of each tile set: its name when an ASCII identifier (`TILES_m`), else its English name's words
    (`TILES_TERMINALS_AND_HONORS`), else its number (`TILES_8`). A choice an earlier set took passes to the
    next; a number is never one of the words chosen, so no two sets share a name."""
    names: list[str] = []
    for i, tileset in enumerate(tilesets):
        words = _words(tileset.english).upper()
        choices = [tileset.name if spelled(tileset.name) else "", "" if words.isdigit() else words]
        names.append(TILE_SET + next((c for c in choices if c and TILE_SET + c not in names), str(i)))
    return names


def spelled(name: str) -> bool:
    """A C name can spell this spec name (else a comment next to it says the name)."""
    return name.isidentifier() and name.isascii()


def _words(text: str | None, most: int = 39) -> str:
    """`full_flush` from "Full flush": the ASCII words of a name joined by `_`, as many as fit in `most` characters
    (the first in part when alone)."""
    words = re.findall(r"[a-z0-9]+", (text or "").lower()) if (text or "").isascii() else []
    joined = words[0][:most] if words else ""
    for word in words[1:]:
        if len(joined) + 1 + len(word) > most:
            break
        joined += "_" + word
    return joined
