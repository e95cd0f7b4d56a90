"""Every way of reading a hand as a declared shape: sets and a pair, seven pairs, thirteen orphans.

Wild tiles: of each wild tile held, every number of copies from none to all is tried as wilds (the
rest are themselves). In sets and a pair, a wild stands for any tile but a wild or flower tile (one
standing for its own kind would just be itself); groups are formed around the lowest tile held, so
a wild may stand for a tile below it in a chow. Wilds left when every held tile is placed form groups
of their own, for any tile. In a `loose` reading a wild used as a wild is a group of kind "wild" that
stands for whatever tile is needed. Other shapes read wild tiles as themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations, product

from dsl.cases.case import Meld
from dsl.frontend import ir
from dsl.vocabulary import WILD_SHAPES


@dataclass(frozen=True)
class Group:
    """One set, pair or single of a decomposition."""

    kind: str  # "chow", "pung", "kong", "pair", "single", or a spec's own meld kind
    tiles: tuple[int, ...]
    declared: bool  # laid down as a meld
    concealed: bool
    opens: bool  # laying it down opened the hand
    with_win: bool = False  # holds the winning tile
    wild: tuple[int, ...] = ()  # the tiles of it that wild tiles stand for
    aside: bool = False  # a single tile laid aside (红中杠): no set, not part of the hand's tiles

    @property
    def is_set(self) -> bool:
        return self.kind not in ("pair", "single", "knitted", "wild") and not self.aside


@dataclass(frozen=True)
class Decomposition:
    shape: str
    groups: tuple[Group, ...]
    wait: str | None  # "edge", "closed", "single", "two_sided", "pung_wait"; None without a winning tile
    tiles: tuple[int, ...] = field(default=(), compare=False)  # the tiles as read: wilds as what they stand for

    @property
    def substituted(self) -> int:
        return sum(len(g.wild) for g in self.groups)

    @cached_property
    def kinds(self) -> Counter[int]:
        return Counter(self.tiles)


def reading_tiles(groups: tuple[Group, ...]) -> tuple[int, ...]:
    """The hand's tiles as this reading reads them: laid-aside tiles and loose wilds left out."""
    return tuple(t for g in groups if not g.aside and g.kind != "wild" for t in g.tiles)


def declared_group(meld: Meld) -> Group:
    shape = meld.kind.shape
    kind = meld.kind.name if shape in ("fixed", "one_of") else shape
    return Group(kind, meld.tiles, declared=True, concealed=meld.kind.concealed, opens=meld.kind.opens,
                 aside=meld.kind.aside)


def decompositions(spec: ir.Spec, counts: list[int], melds: tuple[Meld, ...], win: int | None,
                   self_drawn: bool, wild: frozenset[int] = frozenset()) -> list[Decomposition]:
    """All decompositions of concealed tile counts (winning tile included) under the spec's shapes.

    With a winning tile, each decomposition is repeated once for every group the winning tile can
    complete, since that choice decides the wait and whether a pung counts as concealed.
    """
    fixed = tuple(declared_group(m) for m in melds)
    n_sets = sum(1 for m in melds if not m.kind.aside)
    free = _stand_ins(spec, wild)
    found: list[Decomposition] = []
    for shape in spec.shapes:
        for faces, left in _wild_splits(counts, wild if shape.name in WILD_SHAPES else frozenset()):
            joker_win = win is not None and win in faces and left[win] == 0
            for hand_groups in _shape_groups(spec, shape, left, n_sets, faces, free):
                found.extend(_place_win(spec, shape.name, fixed, hand_groups, win, self_drawn, joker_win))
    return found


def _stand_ins(spec: ir.Spec, wild: frozenset[int]) -> frozenset[int]:
    """The tiles a wild may stand for: any but wild tiles and flowers."""
    if not wild:
        return frozenset()
    flower_suits = {s.code for s in spec.suits if s.flowers}
    return frozenset(t.index for t in spec.tiles if t.suit not in flower_suits and t.index not in wild)


def _wild_splits(counts: list[int], wild: frozenset[int]) -> Iterator[tuple[list[int], list[int]]]:
    """(the wild tiles used as wilds, the counts left) for every split of the wild tiles held: of each
    wild tile (lowest first), none to all of its copies, the first wild tile's number changing slowest."""
    held = [t for t in sorted(wild) if counts[t] > 0]
    for used in product(*(range(counts[t] + 1) for t in held)):
        left = list(counts)
        for t, n in zip(held, used, strict=True):
            left[t] -= n
        yield [t for t, n in zip(held, used, strict=True) for _ in range(n)], left


def _shape_groups(spec: ir.Spec, shape: ir.Shape, counts: list[int], n_melds: int, faces: list[int] | None = None,
                  free: frozenset[int] = frozenset()) -> Iterator[list[tuple]]:
    jokers = len(faces or ())
    if shape.name == "standard":
        sets_needed = (spec.hand_size - 2) // 3 - n_melds
        if jokers == 0:
            yield from sorted(_standard(spec, counts, 0, sets_needed, False, shape.chows), key=_reading_order)
            return
        readings = _standard_wild(spec, counts, 0, sets_needed, False, shape.chows, jokers, free)
        yield from sorted(_unique(readings), key=_reading_order)
    elif shape.name == "loose":
        if sum(counts) + jokers == 3 * ((spec.hand_size - 2) // 3 - n_melds) + 2:
            yield [("single", i) for i, c in enumerate(counts) for _ in range(c)] + [("wild", t) for t in faces or ()]
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
    return sorted((g[1], g[0] == "chow") for g in groups if g[0] != "pair")


def _unique(readings: Iterator[list[tuple]]) -> list[list[tuple]]:
    """Readings in the order found, each once (wilds can form the same groups in another order)."""
    seen: set[tuple] = set()
    unique = []
    for reading in readings:
        key = tuple(sorted(reading))
        if key not in seen:
            seen.add(key)
            unique.append(reading)
    return unique


def _standard_wild(spec: ir.Spec, counts: list[int], start: int, sets: int, paired: bool, chows: bool,
                   jokers: int, free: frozenset[int]) -> Iterator[list[tuple]]:
    """Sets and one pair with `jokers` wilds: each group holds the lowest tile left, its other places held
    tiles or wilds. A group is (kind, first tile, mask of the places wilds fill)."""
    i = start
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        yield from _wilds_alone(spec, sets, paired, chows, jokers, free, 0)
        return
    for kind, size in (("pair", 2), ("pung", 3)):
        if (kind == "pair" and paired) or (kind == "pung" and sets == 0):
            continue
        for held in range(size, 0, -1):
            if counts[i] < held or jokers < size - held or (held < size and i not in free):
                continue
            counts[i] -= held
            rest = _standard_wild(spec, counts, i, sets - (kind == "pung"), True if kind == "pair" else paired,
                                  chows, jokers - (size - held), free)
            for groups in rest:
                yield [(kind, i, (1 << (size - held)) - 1)] + groups
            counts[i] += held
    if sets == 0 or not chows:
        return
    for low in (i, i - 1, i - 2):
        if low < 0 or not _chow_tiles(spec, low) or i - low > 2:
            continue
        place = i - low
        for mask in range(1 << (2 - place)):  # places above the held tile: bit set = a wild
            filled = ((1 << place) - 1) | (mask << (place + 1))
            wanted = [low + k for k in range(3) if filled >> k & 1]
            held = [low + k for k in range(place + 1, 3) if not filled >> k & 1]
            if len(wanted) > jokers or any(t not in free for t in wanted) or any(counts[t] == 0 for t in held):
                continue
            for t in (i, *held):
                counts[t] -= 1
            for groups in _standard_wild(spec, counts, i, sets - 1, paired, chows, jokers - len(wanted), free):
                yield [("chow", low, filled)] + groups
            for t in (i, *held):
                counts[t] += 1


def every_group(spec: ir.Spec) -> tuple[Group, ...]:
    """Each chow, pung, kong and pair the spec's tiles can make, once: the sets a fan's condition can be asked
    about without a hand."""
    flowers = spec.flower_tiles()
    groups = [Group("chow", _tiles_of(spec, "chow", t.index), False, True, False)
              for t in spec.tiles if _chow_tiles(spec, t.index)]
    for kind, size in (("pung", 3), ("kong", 4), ("pair", 2)):
        groups += [Group(kind, (t.index,) * size, False, True, False) for t in spec.tiles
                   if t.copies >= size and t.index not in flowers]
    return tuple(groups)


def _chow_tiles(spec: ir.Spec, low: int) -> bool:
    """A chow can start at this tile: two more of its numbered suit, one and two ranks up."""
    tile = spec.tiles[low]
    if not tile.numbered or low + 2 >= len(spec.tiles):
        return False
    last = spec.tiles[low + 2]
    return spec.tiles[low + 1].suit == last.suit == tile.suit and last.rank == tile.rank + 2


def _wilds_alone(spec: ir.Spec, sets: int, paired: bool, chows: bool, jokers: int, free: frozenset[int],
                 lowest: int) -> Iterator[list[tuple]]:
    """Groups made of wilds only, once every held tile is placed: a pair of any tile first, then sets in
    order (a pung of a tile before a chow starting on it), so that each combination is found once."""
    if jokers != 3 * sets + (0 if paired else 2):
        return
    if not paired:
        for t in sorted(free):
            for groups in _wilds_alone(spec, sets, True, chows, jokers - 2, free, 0):
                yield [("pair", t, 0b11)] + groups
        return
    if sets == 0:
        yield []
        return
    for key in range(lowest, 2 * len(spec.tiles)):
        t, is_chow = divmod(key, 2)
        if is_chow and not (chows and _chow_tiles(spec, t) and {t, t + 1, t + 2} <= free):
            continue
        if not is_chow and t not in free:
            continue
        for groups in _wilds_alone(spec, sets - 1, True, chows, jokers - 3, free, key):
            yield [("chow" if is_chow else "pung", t, 0b111)] + groups


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


def _hand_group(spec: ir.Spec, reading: tuple) -> Group:
    """A group of a reading: (kind, first) or, with wilds, (kind, first, mask of the places wilds fill);
    a loose wild is ("wild", its own tile)."""
    kind, first = reading[0], reading[1]
    if kind == "wild":
        return Group(kind, (first,), declared=False, concealed=True, opens=False, wild=(first,))
    tiles = _tiles_of(spec, kind, first)
    mask = reading[2] if len(reading) > 2 else 0
    wild = tuple(t for k, t in enumerate(tiles) if mask >> k & 1)
    return Group(kind, tiles, declared=False, concealed=True, opens=False, wild=wild)


def _held_part(group: Group) -> list[int]:
    """The tiles of a group that are held tiles, not wilds standing for them."""
    held = list(group.tiles)
    for t in group.wild:
        held.remove(t)
    return held


def _place_win(spec: ir.Spec, shape: str, fixed: tuple[Group, ...], hand_groups: list[tuple], win: int | None,
               self_drawn: bool, joker_win: bool = False) -> Iterator[Decomposition]:
    """One decomposition per distinct group that can hold the winning tile. A winning tile that is a wild
    used as a wild (only when no copy of it is left as itself) sits in a group holding wilds, as the
    first tile they stand for there."""
    groups = [_hand_group(spec, g) for g in hand_groups]
    if win is None:
        all_groups = fixed + tuple(groups)
        yield Decomposition(shape, all_groups, None, reading_tiles(all_groups))
        return
    seen: set[tuple[str, tuple[int, ...], tuple[int, ...]]] = set()
    for n, group in enumerate(groups):
        if joker_win:  # a wild winning tile: in a group of wilds (a loose wild of its own kind)
            holds = bool(group.wild) and (group.kind != "wild" or group.tiles[0] == win)
        else:
            holds = win in _held_part(group)
        if not holds or (group.kind, group.tiles, group.wild) in seen:
            continue
        seen.add((group.kind, group.tiles, group.wild))
        holding = Group(group.kind, group.tiles, False, concealed=self_drawn, opens=False, with_win=True,
                        wild=group.wild)
        placed = fixed + tuple(groups[:n]) + (holding,) + tuple(groups[n + 1:])
        as_tile = group.wild[0] if joker_win else win
        yield Decomposition(shape, placed, _wait(spec, holding, as_tile), reading_tiles(placed))


def _wait(spec: ir.Spec, group: Group, win: int) -> str:
    if group.kind == "knitted":
        return "knitted"
    if group.kind in ("pair", "single", "wild"):
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
