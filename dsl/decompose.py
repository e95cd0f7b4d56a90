"""Every way of reading a hand as a declared shape: sets and a pair, seven pairs, thirteen orphans."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations

from . import ir
from .case import Meld


@dataclass(frozen=True)
class Group:
    """One set, pair or single of a decomposition."""

    kind: str  # "chow", "pung", "kong", "pair", "single", or a spec's own meld kind
    tiles: tuple[int, ...]
    declared: bool  # laid down as a meld
    concealed: bool
    opens: bool  # laying it down opened the hand
    with_win: bool = False  # holds the winning tile

    @property
    def is_set(self) -> bool:
        return self.kind not in ("pair", "single", "knitted")


@dataclass(frozen=True)
class Decomposition:
    shape: str
    groups: tuple[Group, ...]
    wait: str | None  # "edge", "closed", "single", "two_sided", "pung_wait"; None without a winning tile


def declared_group(meld: Meld) -> Group:
    shape = meld.kind.shape
    kind = meld.kind.name if shape == "fixed" else shape
    return Group(kind, meld.tiles, declared=True, concealed=meld.kind.concealed, opens=meld.kind.opens)


def decompositions(spec: ir.Spec, counts: list[int], melds: tuple[Meld, ...], win: int | None,
                   self_drawn: bool) -> list[Decomposition]:
    """All decompositions of concealed tile counts (winning tile included) under the spec's shapes.

    With a winning tile, each decomposition is repeated once for every group the winning tile can
    complete, since that choice decides the wait and whether a pung counts as concealed.
    """
    fixed = tuple(declared_group(m) for m in melds)
    found: list[Decomposition] = []
    for shape in spec.shapes:
        for hand_groups in _shape_groups(spec, shape, list(counts), len(melds)):
            found.extend(_place_win(spec, shape.name, fixed, hand_groups, win, self_drawn))
    return found


def _shape_groups(spec: ir.Spec, shape: ir.Shape, counts: list[int], n_melds: int) -> Iterator[list[tuple]]:
    if shape.name == "standard":
        sets_needed = (spec.hand_size - 2) // 3 - n_melds
        yield from sorted(_standard(spec, counts, 0, sets_needed, False, shape.chows), key=_reading_order)
    elif shape.name == "seven_pairs":
        if n_melds == 0 and sum(counts) == 14 and all(c % 2 == 0 for c in counts):
            yield [("pair", i) for i, c in enumerate(counts) for _ in range(c // 2)]
    elif shape.name == "thirteen_orphans":
        orphans = _orphans(spec)
        held = [counts[i] for i in orphans]
        if n_melds == 0 and len(orphans) == 13 and sum(counts) == 14 and sorted(held) == [1] * 12 + [2]:
            pair = orphans[held.index(2)]
            yield [("pair", pair)] + [("single", i) for i in orphans if i != pair]


    elif shape.name == "honors_and_knitted":
        if n_melds == 0 and sum(counts) == 14 and max(counts) == 1:
            honors = [i for i, c in enumerate(counts) if c and not spec.tiles[i].numbered]
            numbered = [i for i, c in enumerate(counts) if c and spec.tiles[i].numbered]
            if any(set(numbered) <= set(k) for k in knitted_straights(spec)) and honors:
                yield [("single", i) for i in numbered + honors]
    elif shape.name == "knitted_straight":
        if n_melds <= 1:
            for number, knitted in enumerate(knitted_straights(spec)):
                if all(counts[i] for i in knitted):
                    for i in knitted:
                        counts[i] -= 1
                    for rest in _standard(spec, counts, 0, 1 - n_melds, False, shape.chows):
                        yield [("knitted", number)] + rest
                    for i in knitted:
                        counts[i] += 1


def _reading_order(groups: list[tuple]) -> list[tuple[int, int]]:
    """Readings are tried set by set in tile order, a pung before a chow on the same tile (pairs aside)."""
    return sorted((first, kind == "chow") for kind, first in groups if kind != "pair")


def knitted_straights(spec: ir.Spec) -> list[tuple[int, ...]]:
    """147 / 258 / 369 spread over the three numbered suits, in every assignment of suits."""
    suits = [s.code for s in spec.suits if s.numbered]
    if len(suits) != 3:
        return []
    codes = spec.notation()
    return [tuple(sorted(codes[f"{rank}{suit}"] for start, suit in zip((1, 2, 3), order, strict=True)
                         for rank in (start, start + 3, start + 6)))
            for order in permutations(suits)]


def _orphans(spec: ir.Spec) -> list[int]:
    """Terminals and honors: ranks 1 and 9 of every numbered suit, and every honor (flowers aside)."""
    flower_suits = {s.code for s in spec.suits if s.flowers}
    return [t.index for t in spec.tiles
            if t.suit not in flower_suits and (not t.numbered or t.rank in (1, 9))]


def _standard(spec: ir.Spec, counts: list[int], start: int, sets: int, paired: bool,
              chows: bool) -> Iterator[list[tuple]]:
    """Sets and one pair from counts, always consuming the lowest tile first so each reading appears once."""
    i = start
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        if sets == 0 and paired:
            yield []
        return
    if not paired and counts[i] >= 2:
        counts[i] -= 2
        for rest in _standard(spec, counts, i, sets, True, chows):
            yield [("pair", i)] + rest
        counts[i] += 2
    if sets > 0 and counts[i] >= 3:
        counts[i] -= 3
        for rest in _standard(spec, counts, i, sets - 1, paired, chows):
            yield [("pung", i)] + rest
        counts[i] += 3
    if sets > 0 and chows and _chow_from(spec, counts, i):
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        for rest in _standard(spec, counts, i, sets - 1, paired, chows):
            yield [("chow", i)] + rest
        for k in (i, i + 1, i + 2):
            counts[k] += 1


def _chow_from(spec: ir.Spec, counts: list[int], i: int) -> bool:
    tile = spec.tiles[i]
    if not tile.numbered or i + 2 >= len(counts):
        return False
    nxt, last = spec.tiles[i + 1], spec.tiles[i + 2]
    return (nxt.suit == last.suit == tile.suit and last.rank == tile.rank + 2
            and counts[i + 1] > 0 and counts[i + 2] > 0)


_SIZES = {"pair": 2, "pung": 3, "single": 1}


def _tiles_of(spec: ir.Spec, kind: str, first: int) -> tuple[int, ...]:
    """The tiles of a hand group; `first` is its lowest tile, or for a knitted straight its number."""
    if kind == "knitted":
        return knitted_straights(spec)[first]
    return (first, first + 1, first + 2) if kind == "chow" else (first,) * _SIZES[kind]


def _place_win(spec: ir.Spec, shape: str, fixed: tuple[Group, ...], hand_groups: list[tuple], win: int | None,
               self_drawn: bool) -> Iterator[Decomposition]:
    groups = [Group(kind, _tiles_of(spec, kind, first), declared=False, concealed=True, opens=False)
              for kind, first in hand_groups]
    if win is None:
        yield Decomposition(shape, fixed + tuple(groups), None)
        return
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for n, group in enumerate(groups):
        if win not in group.tiles or (group.kind, group.tiles) in seen:
            continue
        seen.add((group.kind, group.tiles))
        holding = Group(group.kind, group.tiles, False, concealed=self_drawn, opens=False, with_win=True)
        placed = tuple(groups[:n]) + (holding,) + tuple(groups[n + 1:])
        yield Decomposition(shape, fixed + placed, _wait(spec, holding, win))


def _wait(spec: ir.Spec, group: Group, win: int) -> str:
    if group.kind == "knitted":
        return "knitted"
    if group.kind in ("pair", "single"):
        return "single"
    if group.kind == "pung":
        return "pung_wait"
    position = group.tiles.index(win)
    low = spec.tiles[group.tiles[0]].rank
    if position == 1:
        return "closed"
    if (position == 0 and low == 7) or (position == 2 and low == 1):
        return "edge"
    return "two_sided"
