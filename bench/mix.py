"""An independent mix of winning hands for the benchmark, built from tiles, not by this project's sampler.

A hand is built constructively from a seeded `random.Random`: sets and pairs are drawn tile by tile from a
full set (four copies of each of the 34 tiles, never a fifth one), by kind of hand, then the winning tile
is drawn from the hand's own concealed tiles and the context as it comes at a table. Nothing here asks a
checker how to build a hand; `make_mix` only asks, once a hand is built, whether it is kept: the benchmark
keeps the hands that both our checker and the independent engine score as a win, and counts the others
as dropped. Each kind is drawn until its share of the kept hands is reached, so the shares below are
those of the kept hands (largest remainder rounding), and the list is shuffled so that kinds interleave.

国标 (spec `mcr`), shares of the kept hands:
- regular 60%: four sets and a pair over all tiles, each set a chow (55%), a pung (35%) or a kong (10%);
  0–4 of the sets declared (uniform, at least the kongs): a chow, a pung, a kong exposed or concealed;
- seven pairs 10%: seven different pairs, one in ten of them with a pair doubled (four of a kind);
- knitted straight 8% (组合龙): 147, 258, 369 in three different suits, a set (declared one time in three,
  a kong always) and a pair;
- honors and knitted 8% (全不靠, 七星不靠 when all seven honors): 14 of the 16 tiles of a knitted straight
  and the seven honors;
- thirteen orphans 6%: the thirteen terminals and honors and one of them again;
- full flush 8% (清一色, concealed): four sets (chows 70%, pungs 30%) and a pair in one suit, the hands
  with the most readings.
Context: self-drawn or on a discard (even), seat and round wind (uniform), flowers as dealt (each of the 8
is the winner's with probability 1/4), and at most one of: the last tile (4%), a kong replacement (30% of
the self-drawn wins with a kong), robbing a kong (5% of the discard wins on a tile of which the winner
holds no other copy); 和绝张 when the winner shows three copies in the melds, otherwise one time in four
when the winner holds no other copy (never with robbing a kong, which it is part of).

Riichi (spec `riichi`), concealed hands only (the engine is given no melds):
- regular 70%: four sets (chows 60%, pungs 40%) and a pair over all tiles;
- seven pairs 12%: seven different pairs;
- full flush 12%: four sets and a pair in one suit;
- thirteen orphans 6%.
A five is red with the chance that one of the copies held is the red one (one red five per suit); riichi
55% (double riichi 3%), ippatsu 20% of them, self-drawn 40%, seat wind uniform, round wind east or south,
the last tile 3%, robbing a kong 2% of the discard wins whose tile the winner does not hold; one dora
indicator (two 12%, three 3%) drawn from the tiles left, as many ura indicators under riichi; honba 0–2.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# Tiles are 0..33: 1m..9m, 1p..9p, 1s..9s, then 1z..7z = 东 南 西 北 白 发 中.
HONORS = tuple(range(27, 34))
ORPHANS = tuple(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
KNITTED_RANKS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369 as ranks 0..8
WINDS = ("E", "S", "W", "N")
FIVES = (4, 13, 22)
ATTEMPTS_PER_HAND = 50  # a kind that keeps far fewer hands than this is reported short, not drawn forever

MCR_SHARES = {"regular": 0.60, "seven pairs": 0.10, "knitted straight": 0.08, "honors and knitted": 0.08,
              "thirteen orphans": 0.06, "full flush": 0.08}
RIICHI_SHARES = {"regular": 0.70, "seven pairs": 0.12, "full flush": 0.12, "thirteen orphans": 0.06}


@dataclass(frozen=True)
class Hand:
    kind: str
    case: dict


@dataclass
class Mix:
    hands: list[Hand] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)  # per kind: built, then not kept


@dataclass(frozen=True)
class Set:
    kind: str  # chow, pung or kong
    tiles: tuple[int, ...]


class NoTilesLeftError(Exception):
    """The draws ran out of tiles for this hand: build another."""


def shares(spec: str) -> dict[str, float] | None:
    """The kinds of hands of a spec's mix and their shares, or None when it has no mix."""
    return {"mcr": MCR_SHARES, "riichi": RIICHI_SHARES}.get(spec)


def make_mix(spec: str, count: int, seed: int, keep: Callable[[dict], bool]) -> Mix:
    """`count` hands that `keep` takes, each kind in its share, in a shuffled order."""
    makers = {"mcr": MCR_MAKERS, "riichi": RIICHI_MAKERS}[spec]
    rng = random.Random(seed)
    mix = Mix()
    for kind, quota in quotas(shares(spec) or {}, count).items():
        mix.hands += draw_kind(rng, kind, makers[kind], quota, keep, mix.dropped)
    rng.shuffle(mix.hands)
    return mix


def quotas(kinds: dict[str, float], count: int) -> dict[str, int]:
    """Hands per kind: the shares of `count`, rounded by largest remainder so that they add up to it."""
    exact = {kind: share * count for kind, share in kinds.items()}
    out = {kind: int(value) for kind, value in exact.items()}
    for kind in sorted(exact, key=lambda k: out[k] - exact[k])[:count - sum(out.values())]:
        out[kind] += 1
    return out


def draw_kind(rng: random.Random, kind: str, make: Callable[[random.Random], dict], quota: int,
              keep: Callable[[dict], bool], dropped: Counter[str]) -> list[Hand]:
    hands: list[Hand] = []
    for _ in range(quota * ATTEMPTS_PER_HAND):
        if len(hands) == quota:
            break
        try:
            case = make(rng)
        except NoTilesLeftError:
            continue
        if keep(case):
            hands.append(Hand(kind, case))
        else:
            dropped[kind] += 1
    return hands


# ---------------------------------------------------------------- tiles and sets


def text(tiles: Sequence[int], red: Counter[int] | None = None) -> str:
    """The mpsz notation, grouped by suit ('123m0p11z'); `red` counts the red fives among the tiles."""
    out = []
    for s, suit in enumerate("mpsz"):
        digits = sorted(str(t % 9 + 1) for t in tiles if t // 9 == s)
        for _ in range((red or Counter())[s * 9 + 4]):
            digits[digits.index("5")] = "0"
        out.append("".join(digits) + suit if digits else "")
    return "".join(out)


def take(used: Counter[int], tiles: Sequence[int]) -> None:
    """Take tiles from the set, or raise NoTilesLeftError when one of them has no copy left."""
    if any(used[t] + n > 4 for t, n in Counter(tiles).items()):
        raise NoTilesLeftError
    used.update(tiles)


def draw_set(rng: random.Random, used: Counter[int], suits: Sequence[int], honors: bool,
             weights: dict[str, float]) -> Set:
    """A set of a kind drawn by `weights` from the tiles of `suits` (and the honors), with copies left."""
    kind = rng.choices(list(weights), list(weights.values()))[0]
    if kind == "chow":
        first = rng.choice(suits) * 9 + rng.randrange(7)
        tiles: tuple[int, ...] = (first, first + 1, first + 2)
    else:
        pool = [s * 9 + r for s in suits for r in range(9)] + (list(HONORS) if honors else [])
        tiles = (rng.choice(pool),) * (3 if kind == "pung" else 4)
    take(used, tiles)
    return Set(kind, tiles)


def draw_pair(rng: random.Random, used: Counter[int], pool: Sequence[int]) -> tuple[int, int]:
    t = rng.choice(pool)
    take(used, (t, t))
    return t, t


def knitted(rng: random.Random) -> list[int]:
    """The nine tiles of a knitted straight: 147, 258 and 369 in three different suits."""
    return [s * 9 + r for s, ranks in zip(rng.sample(range(3), 3), KNITTED_RANKS, strict=True) for r in ranks]


def sets_and_pair(rng: random.Random, suits: Sequence[int], honors: bool,
                  weights: dict[str, float]) -> tuple[list[Set], tuple[int, int]]:
    used: Counter[int] = Counter()
    sets = [draw_set(rng, used, suits, honors, weights) for _ in range(4)]
    pool = [s * 9 + r for s in suits for r in range(9)] + (list(HONORS) if honors else [])
    return sets, draw_pair(rng, used, pool)


# ---------------------------------------------------------------- 国标


MCR_SETS = {"chow": 0.55, "pung": 0.35, "kong": 0.10}


def mcr_regular(rng: random.Random) -> dict:
    sets, pair = sets_and_pair(rng, range(3), True, MCR_SETS)
    kongs = [i for i, s in enumerate(sets) if s.kind == "kong"]  # a kong is always declared
    others = [i for i, s in enumerate(sets) if s.kind != "kong"]
    declared = set(kongs + rng.sample(others, max(len(kongs), rng.randint(0, 4)) - len(kongs)))
    concealed = [t for i, s in enumerate(sets) if i not in declared for t in s.tiles] + list(pair)
    return mcr_case(rng, concealed, [mcr_meld(rng, sets[i]) for i in sorted(declared)])


def mcr_meld(rng: random.Random, s: Set) -> tuple[str, tuple[int, ...]]:
    return (rng.choice(("kong", "concealed_kong")) if s.kind == "kong" else s.kind), s.tiles


def mcr_seven_pairs(rng: random.Random) -> dict:
    kinds = rng.sample(range(34), 7)
    if rng.random() < 0.1:
        kinds[-1] = kinds[0]  # a four of a kind counts as two pairs
    return mcr_case(rng, [t for k in kinds for t in (k, k)], [])


def mcr_knitted_straight(rng: random.Random) -> dict:
    tiles = knitted(rng)
    used = Counter(tiles)
    group = draw_set(rng, used, range(3), True, MCR_SETS)
    pair = draw_pair(rng, used, range(34))
    declared = group.kind == "kong" or rng.random() < 1 / 3
    concealed = tiles + list(pair) + ([] if declared else list(group.tiles))
    return mcr_case(rng, concealed, [mcr_meld(rng, group)] if declared else [])


def mcr_honors_and_knitted(rng: random.Random) -> dict:
    return mcr_case(rng, rng.sample(knitted(rng) + list(HONORS), 14), [])


def thirteen_orphans(rng: random.Random) -> list[int]:
    return list(ORPHANS) + [rng.choice(ORPHANS)]


def full_flush(rng: random.Random) -> list[int]:
    sets, pair = sets_and_pair(rng, [rng.randrange(3)], False, {"chow": 0.7, "pung": 0.3})
    return [t for s in sets for t in s.tiles] + list(pair)


def mcr_case(rng: random.Random, concealed: list[int], melds: list[tuple[str, tuple[int, ...]]]) -> dict:
    """The case of a hand whose winning tile is drawn from its concealed tiles, in a context as it comes."""
    concealed = sorted(concealed)
    win = concealed.pop(rng.randrange(len(concealed)))
    case = {"hand": text(concealed), "win": text([win])}
    if melds:
        case["melds"] = [f"{kind} {text(tiles)}" for kind, tiles in melds]
    shown = sum(tiles.count(win) for _, tiles in melds)
    has_kong = any(kind.endswith("kong") for kind, _ in melds)
    return case | mcr_context(rng, has_kong, shown, hidden=concealed.count(win))


def mcr_context(rng: random.Random, has_kong: bool, shown: int, hidden: int) -> dict:
    """`shown`: copies of the winning tile in the winner's melds; `hidden`: in the concealed hand."""
    self_drawn = rng.random() < 0.5
    last = rng.random() < 0.04
    replacement = not last and self_drawn and has_kong and rng.random() < 0.3
    robbing = not last and not self_drawn and shown + hidden == 0 and rng.random() < 0.05
    fourth = shown == 3 or (shown + hidden == 0 and not robbing and rng.random() < 0.25)
    return {"self_drawn": self_drawn, "seat_wind": rng.choice(WINDS), "round_wind": rng.choice(WINDS),
            "flowers": sum(rng.random() < 0.25 for _ in range(8)), "last_tile": last,
            "kong_replacement": replacement, "robbing_kong": robbing, "fourth_tile": fourth}


MCR_MAKERS: dict[str, Callable[[random.Random], dict]] = {
    "regular": mcr_regular, "seven pairs": mcr_seven_pairs, "knitted straight": mcr_knitted_straight,
    "honors and knitted": mcr_honors_and_knitted,
    "thirteen orphans": lambda rng: mcr_case(rng, thirteen_orphans(rng), []),
    "full flush": lambda rng: mcr_case(rng, full_flush(rng), []),
}


# ---------------------------------------------------------------- riichi


def riichi_regular(rng: random.Random) -> list[int]:
    sets, pair = sets_and_pair(rng, range(3), True, {"chow": 0.6, "pung": 0.4})
    return [t for s in sets for t in s.tiles] + list(pair)


def riichi_seven_pairs(rng: random.Random) -> list[int]:
    return [t for k in rng.sample(range(34), 7) for t in (k, k)]


def reds(rng: random.Random, tiles: Sequence[int]) -> Counter[int]:
    """The red fives among the tiles: one of the four copies of each suit's five is red."""
    return Counter(five for five in FIVES if rng.random() < tiles.count(five) / 4)


def riichi_case(rng: random.Random, tiles: list[int]) -> dict:
    """A concealed hand won on one of its own tiles, in a context as it comes."""
    red = reds(rng, tiles)
    at = rng.randrange(len(tiles))
    win, concealed = tiles[at], tiles[:at] + tiles[at + 1:]
    win_red = Counter([win]) if red[win] and rng.random() < 1 / (concealed.count(win) + 1) else Counter()
    case = {"hand": text(concealed, red - win_red), "win": text([win], win_red)}
    left = Counter(dict.fromkeys(range(34), 4)) - Counter(tiles)
    return case | riichi_context(rng, held=concealed.count(win), left=left)


def riichi_context(rng: random.Random, held: int, left: Counter[int]) -> dict:
    """`held`: copies of the winning tile in the concealed hand; `left`: the copies the hand does not hold."""
    self_drawn = rng.random() < 0.4
    declared = rng.random() < 0.55
    context = {"self_drawn": self_drawn, "seat_wind": rng.choice(WINDS), "round_wind": rng.choice(WINDS[:2]),
               "honba": rng.choice((0, 0, 0, 1, 2))}
    if declared:
        context["double_riichi" if rng.random() < 0.03 / 0.55 else "riichi"] = True
        context["ippatsu"] = rng.random() < 0.2
    if rng.random() < 0.03:
        context["last_tile"] = True
    elif not self_drawn and held == 0 and rng.random() < 0.02:
        context["robbing_kong"] = True
    indicators = rng.choices((1, 2, 3), (85, 12, 3))[0]
    wall = list(left.elements())
    drawn = rng.sample(wall, indicators * (2 if declared else 1))  # the indicators are tiles of the wall
    context["dora"] = text(drawn[:indicators])
    if declared:
        context["ura"] = text(drawn[indicators:])
    return context


RIICHI_MAKERS: dict[str, Callable[[random.Random], dict]] = {
    "regular": lambda rng: riichi_case(rng, riichi_regular(rng)),
    "seven pairs": lambda rng: riichi_case(rng, riichi_seven_pairs(rng)),
    "full flush": lambda rng: riichi_case(rng, full_flush(rng)),
    "thirteen orphans": lambda rng: riichi_case(rng, thirteen_orphans(rng)),
}
