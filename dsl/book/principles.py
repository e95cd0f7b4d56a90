"""The accounting principles (计番原则) in the book: each worded as the 国标 rule book states it, with its standard
example, and what they leave uncounted beside each fan made of several sets, found from the spec's own conditions
(dsl.interp.combinations)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.frontend import ir
from dsl.interp.combinations import two_set_limit
from dsl.interp.interpreter import Interpreter

PRINCIPLES = {
    "不重复": "a fan whose conditions necessarily bring another with them scores alone: the one brought along is "
             "not counted again (the 不计 lists); 清一色 does not also count 缺一门 and 无字.",
    "不拆移": "once a fan is counted, its own sets are not split up and combined again into other fans: 一色四步高 "
             "123 234 345 456 does not also count 连六 for 123 and 456, nor 一色三步高 for three of its chows.",
    "不得相同": "a set already combined into a fan does not make the same fan again with another set: 123万 123万 "
               "123条 count 一般高 and one 喜相逢, not 喜相逢 twice.",
    "套算一次": "a set not yet combined into a fan may combine once with one set that already is. So four sets make "
               "at most three fans of two sets: the first fan combines two sets, and each of the other two combines "
               "once more. 234567条 234567筒 pairs four ways (234条+234筒 and 567条+567筒 喜相逢, 234+567 连六 in each "
               "suit) but counts three fans: 喜相逢 ×2 and 连六 once.",
    "就高不就低": "when a hand can be read in more than one way, the reading worth the most is counted.",
}

_SETS = {"chows": ("chow", "chows"), "pungs": ("pung", "pungs"), "kongs": ("kong", "kongs"), "sets": ("set", "sets"),
         "pairs": ("pair", "pairs"), "groups": ("group", "groups")}


@dataclass(frozen=True)
class PrincipleNote:
    """What the accounting principles leave uncounted beside one fan: the principles, the fans, why."""

    principles: str  # "不拆移", "不得相同 · 套算一次"
    fans: tuple[str, ...]  # the fans not counted (none: a limit on how often, said in words)
    words: str


def principle_notes(spec: ir.Spec, checker: Interpreter) -> dict[str, tuple[PrincipleNote, ...]]:
    """Fan name -> the notes on its card: the fans its own sets make that do not count with it (不拆移), what a
    further set may add (套算一次), and how often fans of two sets count (不得相同, 套算一次)."""
    combined = spec.combined_patterns()
    inside = checker.evaluator.made_inside() if combined else {}
    sets = (spec.hand_size - 2) // 3
    notes = {}
    for p in combined:
        condition = p.condition
        assert isinstance(condition, ir.Combinations)
        pairs = tuple(q.name for q in combined if _combines(q, condition.source, 2))
        found = (_not_split(p, inside.get(p.name, ()), condition.source),
                 _once_more(condition, pairs, sets), _two_sets(condition, pairs, sets))
        notes[p.name] = tuple(n for n in found if n is not None)
    return notes


def _combines(p: ir.Pattern, source: str, size: int) -> bool:
    return isinstance(p.condition, ir.Combinations) and p.condition.source == source and p.condition.size == size


def _not_split(p: ir.Pattern, inside: tuple[str, ...], source: str) -> PrincipleNote | None:
    """The smaller fans a fan's own sets make, when its 不计 list does not already name them."""
    listed = {x.target for x in p.excludes}
    uncounted = tuple(name for name in inside if name not in listed)
    many = _SETS.get(source, (source, source))[1]
    them = "them" if len(uncounted) > 1 else "it"
    return PrincipleNote("不拆移", uncounted, f"its own {many} make {them} too, but are not split up and combined "
                         f"again into {them}") if uncounted else None


def _once_more(condition: ir.Combinations, pairs: tuple[str, ...], sets: int) -> PrincipleNote | None:
    """A fan of three sets in a hand of more: what the set beyond them may add."""
    if condition.size != 3 or not pairs or sets <= 3:
        return None
    one, many = _SETS.get(condition.source, (condition.source, condition.source))
    return PrincipleNote("套算一次", (), f"a further {one} may combine once with one of its {many}: of "
                         f"{', '.join(pairs)}, the first it makes counts, once")


def _two_sets(condition: ir.Combinations, pairs: tuple[str, ...], sets: int) -> PrincipleNote | None:
    """A fan of two sets: how often it and its kind count."""
    if condition.size != 2:
        return None
    one, many = _SETS.get(condition.source, (condition.source, condition.source))
    words = (f"a {one} already in this fan does not make it again with another {one}; {sets} {many} make at most "
             f"{two_set_limit(sets)} fans of two {many}")
    if len(pairs) > 1:
        words += f", and when they would make more, repeats of the later of {', '.join(pairs)} are dropped first"
    return PrincipleNote("不得相同 · 套算一次", (), words)
