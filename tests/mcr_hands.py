"""Random valid winning 国标 hands as docs/interface.md cases, and the bridge to the pymahjonggb engine.

`random_case(seed)` draws one hand: about a third plain standard hands, the rest from generators biased
towards rare fans (flushes, pungs, terminals, shifted and same-rank sets, winds and dragons, tile ranges,
special shapes). `pymahjonggb_fans(case)` scores a case with pymahjonggb; `mismatch(result, fans)` compares
one of our results with them. pymahjonggb is a test-only dependency: nothing under dsl/ or generated/ uses it.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import dsl

# Tiles are 0..33: 1m..9m, 1p..9p, 1s..9s, then 1z..7z = 东 南 西 北 白 发 中.
HONORS = tuple(range(27, 34))
WINDS = ("E", "S", "W", "N")
ALL_TILES = tuple(range(34))
TERMINALS_AND_HONORS = tuple(t for t in ALL_TILES if t >= 27 or t % 9 in (0, 8))
KONG_KINDS = ("concealed_kong", "kong", "added_kong")

Fans = dict[str, tuple[int, int]]  # name -> (value per occurrence, occurrences)


def tile(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


def code(t: int) -> str:
    return f"{t % 9 + 1}{'mpsz'[t // 9]}"


def rank(t: int) -> int:
    return t % 9 + 1


def suit_tiles(suit: int, ranks: Sequence[int] = range(1, 10)) -> tuple[int, ...]:
    return tuple(tile(suit, r) for r in ranks)


@dataclass(frozen=True)
class Group:
    kind: str  # chow, pung or kong
    tiles: tuple[int, ...]


def chow(t: int) -> Group:
    return Group("chow", (t, t + 1, t + 2))


def pung(t: int) -> Group:
    return Group("pung", (t,) * 3)


def kong(t: int) -> Group:
    return Group("kong", (t,) * 4)


def groups_over(pool: Sequence[int]) -> tuple[Group, ...]:
    """Every pung, kong and chow whose tiles all lie in `pool`."""
    inside = set(pool)
    groups = [g for t in sorted(inside) for g in (pung(t), kong(t))]
    groups += [chow(t) for t in sorted(inside) if t < 27 and rank(t) <= 7 and {t + 1, t + 2} <= inside]
    return tuple(groups)


MIXED = {"chow": 6, "pung": 3, "kong": 1}
PUNGS = {"pung": 5, "kong": 1}
KONGS = {"chow": 1, "pung": 1, "kong": 3}
WEIGHTS = (MIXED, MIXED, PUNGS, {"chow": 1, "pung": 1, "kong": 0.3})
EVERYTHING = groups_over(ALL_TILES)


@dataclass(frozen=True)
class Plan:
    """A standard hand to build: the `preset` groups, then groups drawn from `candidates` by kind weight."""

    preset: tuple[Group, ...] = ()
    candidates: tuple[Group, ...] = EVERYTHING
    pairs: tuple[int, ...] = ALL_TILES
    weights: Mapping[str, float] = field(default_factory=lambda: MIXED)


@dataclass(frozen=True)
class Deal:
    """A winning hand without its context: concealed tiles before the win, the win, declared melds."""

    shape: str
    concealed: tuple[int, ...]
    win: int
    melds: tuple[tuple[str, tuple[int, ...]], ...] = ()


class NoTilesLeftError(Exception):
    """The random choices ran out of tiles; draw again."""


# --- standard hands -------------------------------------------------------------------------------------


def fits(used: Counter[int], tiles: Sequence[int]) -> bool:
    return all(used[t] + n <= 4 for t, n in Counter(tiles).items())


def take(used: Counter[int], tiles: Sequence[int]) -> None:
    if not fits(used, tiles):
        raise NoTilesLeftError
    used.update(tiles)


def draw_group(rng: random.Random, plan: Plan, used: Counter[int]) -> Group:
    by_kind: dict[str, list[Group]] = {}
    for g in plan.candidates:
        if plan.weights.get(g.kind, 0) > 0 and fits(used, g.tiles):
            by_kind.setdefault(g.kind, []).append(g)
    if not by_kind:
        raise NoTilesLeftError
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [plan.weights[k] for k in kinds])[0]
    return rng.choice(by_kind[kind])


def draw_pair(rng: random.Random, pairs: Sequence[int], used: Counter[int]) -> int:
    free = [t for t in pairs if used[t] <= 2]
    if not free:
        raise NoTilesLeftError
    return rng.choice(free)


def standard(rng: random.Random, plan: Plan, shape: str) -> Deal:
    used: Counter[int] = Counter()
    groups = list(plan.preset)
    for g in groups:
        take(used, g.tiles)
    while len(groups) < 4:
        groups.append(draw_group(rng, plan, used))
        used.update(groups[-1].tiles)
    pair = draw_pair(rng, plan.pairs, used)
    rng.shuffle(groups)
    return declare(rng, shape, groups, (pair, pair), rng.choice((0, 0, 0.3, 0.6, 1)))


def declare(rng: random.Random, shape: str, groups: Sequence[Group], rest: tuple[int, ...], open_p: float) -> Deal:
    """Kongs are always declared (exposed, concealed or added); other groups with probability `open_p`."""
    melds: list[tuple[str, tuple[int, ...]]] = []
    concealed = list(rest)
    for g in groups:
        if g.kind == "kong":
            melds.append((rng.choices(KONG_KINDS, (4, 4, 2))[0], g.tiles))
        elif rng.random() < open_p:
            melds.append((g.kind, g.tiles))
        else:
            concealed += g.tiles
    win = rng.choice(concealed)
    concealed.remove(win)
    return Deal(shape, tuple(sorted(concealed)), win, tuple(melds))


def pung_or_kong(rng: random.Random, t: int) -> Group:
    return kong(t) if rng.random() < 0.15 else pung(t)


def three_suits(rng: random.Random) -> list[int]:
    return rng.sample(range(3), 3)


def plain(rng: random.Random) -> Plan:
    return Plan(weights=rng.choice(WEIGHTS))


def flush(rng: random.Random) -> Plan:
    pool = suit_tiles(rng.randrange(3)) + (HONORS if rng.random() < 0.5 else ())
    return Plan(candidates=groups_over(pool), pairs=pool, weights=rng.choice(WEIGHTS))


def all_pungs(rng: random.Random) -> Plan:
    return Plan(weights=PUNGS)


def terminals_honors(rng: random.Random) -> Plan:
    pool = rng.choice((TERMINALS_AND_HONORS, TERMINALS_AND_HONORS[:6], HONORS))
    return Plan(candidates=groups_over(pool), pairs=pool, weights=PUNGS)


def outside(rng: random.Random) -> Plan:
    """全带幺: every group and the pair holds a terminal or an honor."""
    groups = tuple(g for g in EVERYTHING if set(g.tiles) & set(TERMINALS_AND_HONORS))
    return Plan(candidates=groups, pairs=TERMINALS_AND_HONORS, weights=rng.choice(WEIGHTS))


def all_fives(rng: random.Random) -> Plan:
    fives = tuple(tile(s, 5) for s in range(3))
    groups = tuple(g for g in EVERYTHING if set(g.tiles) & set(fives))
    return Plan(candidates=groups, pairs=fives, weights=rng.choice(WEIGHTS))


RANGES = ((2, 4, 6, 8), (7, 8, 9), (4, 5, 6), (1, 2, 3), (6, 7, 8, 9), (1, 2, 3, 4), tuple(range(2, 9)))


def rank_range(rng: random.Random) -> Plan:
    """全双刻, 全大, 全中, 全小, 大于五, 小于五, 断幺: numbered tiles of a few ranks, in one or more suits."""
    ranks = rng.choice(RANGES)
    suits = rng.sample(range(3), rng.randint(1, 3))
    pool = tuple(t for s in suits for t in suit_tiles(s, ranks))
    return Plan(candidates=groups_over(pool), pairs=pool, weights=rng.choice(WEIGHTS))


GREEN = suit_tiles(2, (2, 3, 4, 6, 8)) + (32,)
REVERSIBLE = suit_tiles(1, (1, 2, 3, 4, 5, 8, 9)) + suit_tiles(2, (2, 4, 5, 6, 8, 9)) + (31,)


def green(rng: random.Random) -> Plan:
    return Plan(candidates=groups_over(GREEN), pairs=GREEN, weights=rng.choice(WEIGHTS))


def reversible(rng: random.Random) -> Plan:
    return Plan(candidates=groups_over(REVERSIBLE), pairs=REVERSIBLE, weights=rng.choice(WEIGHTS))


def winds(rng: random.Random) -> Plan:
    chosen = rng.sample(HONORS[:4], rng.randint(2, 4))
    pairs = HONORS[:4] if rng.random() < 0.5 else ALL_TILES
    return Plan(preset=tuple(pung_or_kong(rng, t) for t in chosen), pairs=pairs, weights=rng.choice(WEIGHTS))


def dragons(rng: random.Random) -> Plan:
    chosen = rng.sample(HONORS[4:], rng.randint(1, 3))
    pairs = HONORS[4:] if rng.random() < 0.5 else ALL_TILES
    return Plan(preset=tuple(pung_or_kong(rng, t) for t in chosen), pairs=pairs, weights=rng.choice(WEIGHTS))


def shifted_chows(rng: random.Random) -> Plan:
    """一色三步高 / 一色四步高 (steps of 1 or 2) or 三色三步高."""
    if rng.random() < 0.6:
        step, n = rng.choice((1, 2)), rng.choice((3, 3, 4))
        start = rng.randint(1, 7 - step * (n - 1))
        s = rng.randrange(3)
        return Plan(preset=tuple(chow(tile(s, start + step * i)) for i in range(n)))
    start = rng.randint(1, 5)
    return Plan(preset=tuple(chow(tile(s, start + i)) for i, s in enumerate(three_suits(rng))))


def shifted_pungs(rng: random.Random) -> Plan:
    """一色三节高 / 一色四节高 or 三色三节高."""
    if rng.random() < 0.6:
        n = rng.choice((3, 3, 4))
        start, s = rng.randint(1, 10 - n), rng.randrange(3)
        return Plan(preset=tuple(pung_or_kong(rng, tile(s, start + i)) for i in range(n)), weights=PUNGS)
    start = rng.randint(1, 7)
    return Plan(preset=tuple(pung_or_kong(rng, tile(s, start + i)) for i, s in enumerate(three_suits(rng))))


def same_rank(rng: random.Random) -> Plan:
    """三色三同顺, 三同刻, 双同刻, 喜相逢, 一般高, 一色三同顺, 一色四同顺."""
    kind = rng.choice(("mixed chows", "pungs", "pure chows"))
    if kind == "mixed chows":
        start = rng.randint(1, 7)
        suits = rng.sample(range(3), rng.choice((2, 3)))
        return Plan(preset=tuple(chow(tile(s, start)) for s in suits))
    if kind == "pungs":
        r = rng.randint(1, 9)
        suits = rng.sample(range(3), rng.choice((2, 3)))
        return Plan(preset=tuple(pung_or_kong(rng, tile(s, r)) for s in suits), weights=rng.choice(WEIGHTS))
    first = tile(rng.randrange(3), rng.randint(1, 7))
    return Plan(preset=(chow(first),) * rng.choice((2, 3, 4)))


def straights(rng: random.Random) -> Plan:
    """清龙, 花龙, 三色双龙会, 一色双龙会, 老少副, 连六."""
    kind = rng.choice(("pure", "mixed", "three-suited terminal", "pure terminal", "two terminal", "short"))
    a, b, c = three_suits(rng)
    if kind == "pure":
        return Plan(preset=tuple(chow(tile(a, r)) for r in (1, 4, 7)))
    if kind == "mixed":
        return Plan(preset=tuple(chow(tile(s, r)) for s, r in zip((a, b, c), (1, 4, 7), strict=True)))
    if kind == "three-suited terminal":
        return Plan(preset=tuple(chow(tile(s, r)) for s in (a, b) for r in (1, 7)), pairs=(tile(c, 5),))
    if kind == "pure terminal":
        return Plan(preset=tuple(chow(tile(a, r)) for r in (1, 1, 7, 7)), pairs=(tile(a, 5),))
    if kind == "two terminal":
        return Plan(preset=(chow(tile(a, 1)), chow(tile(a, 7))))
    start = rng.randint(1, 4)
    return Plan(preset=(chow(tile(a, start)), chow(tile(a, start + 3))))


def kongs(rng: random.Random) -> Plan:
    return Plan(weights=KONGS)


# --- special shapes -------------------------------------------------------------------------------------


def concealed_deal(rng: random.Random, shape: str, tiles: Sequence[int]) -> Deal:
    """A fully concealed hand of 14 tiles; the winning tile is any of them."""
    hand = list(tiles)
    win = hand.pop(rng.randrange(len(hand)))
    return Deal(shape, tuple(sorted(hand)), win)


def seven_pairs(rng: random.Random) -> Deal:
    """七对 over a pool (themed pools make 清一色, 字一色, 混幺九, 绿一色 ... likely); sometimes a four-of-a-kind."""
    pool = rng.choice((ALL_TILES, ALL_TILES, TERMINALS_AND_HONORS, suit_tiles(rng.randrange(3)),
                       suit_tiles(rng.randrange(3)) + HONORS, GREEN, REVERSIBLE,
                       tuple(t for s in range(3) for t in suit_tiles(s, rng.choice(RANGES)))))
    distinct = 6 if rng.random() < 0.2 else 7
    if len(pool) < distinct:
        raise NoTilesLeftError
    pairs = rng.sample(pool, distinct)
    pairs += rng.sample(pairs, 7 - distinct)
    return concealed_deal(rng, "seven pairs", [t for p in pairs for t in (p, p)])


def seven_shifted_pairs(rng: random.Random) -> Deal:
    start, s = rng.randint(1, 3), rng.randrange(3)
    return concealed_deal(rng, "seven shifted pairs", [tile(s, start + i) for i in range(7) for _ in (0, 1)])


def nine_gates(rng: random.Random) -> Deal:
    """1112345678999 + any tile of the suit; usually won on the extra tile, otherwise on any tile."""
    s = rng.randrange(3)
    base = [tile(s, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    extra = tile(s, rng.randint(1, 9))
    if rng.random() < 0.7:
        return Deal("nine gates", tuple(base), extra)
    return concealed_deal(rng, "nine gates", base + [extra])


def thirteen_orphans(rng: random.Random) -> Deal:
    tiles = list(TERMINALS_AND_HONORS) + [rng.choice(TERMINALS_AND_HONORS)]
    return concealed_deal(rng, "thirteen orphans", tiles)


def knitted_tiles(rng: random.Random) -> list[int]:
    """The nine tiles of a knitted straight: 147, 258, 369 in three different suits."""
    return [tile(s, r) for s, ranks in zip(three_suits(rng), ((1, 4, 7), (2, 5, 8), (3, 6, 9)), strict=True)
            for r in ranks]


def honors_and_knitted(rng: random.Random) -> Deal:
    """全不靠 with 5 or 6 honors, or 七星不靠 with all 7; the numbered tiles from one knitted straight."""
    honors = rng.choice((5, 6, 7, 7))
    tiles = rng.sample(knitted_tiles(rng), 14 - honors) + rng.sample(HONORS, honors)
    return concealed_deal(rng, "greater honors and knitted" if honors == 7 else "honors and knitted", tiles)


def knitted_straight(rng: random.Random) -> Deal:
    """组合龙 + a group + a pair; the group may be declared (at most one meld)."""
    knitted = tuple(knitted_tiles(rng))
    used = Counter(knitted)
    group = draw_group(rng, Plan(weights=rng.choice(WEIGHTS)), used)
    used.update(group.tiles)
    pair = draw_pair(rng, ALL_TILES, used)
    return declare(rng, "knitted straight", [group], knitted + (pair, pair), 0.3)


# --- the mix --------------------------------------------------------------------------------------------

PLANS: dict[str, tuple[float, Callable[[random.Random], Plan]]] = {
    "plain": (40, plain), "flush": (8, flush), "all pungs": (5, all_pungs),
    "terminals/honors": (5, terminals_honors), "outside": (3, outside), "all fives": (2, all_fives),
    "rank range": (6, rank_range), "green": (2, green), "reversible": (2, reversible), "winds": (4, winds),
    "dragons": (4, dragons), "shifted chows": (4, shifted_chows), "shifted pungs": (3, shifted_pungs),
    "same rank": (5, same_rank), "straights": (5, straights), "kongs": (4, kongs),
}
SPECIALS: dict[str, tuple[float, Callable[[random.Random], Deal]]] = {
    "seven pairs": (6, seven_pairs), "seven shifted pairs": (1.5, seven_shifted_pairs),
    "nine gates": (1.5, nine_gates), "thirteen orphans": (1.5, thirteen_orphans),
    "honors and knitted": (3, honors_and_knitted), "knitted straight": (3, knitted_straight),
}


def themed(name: str, plan: Callable[[random.Random], Plan]) -> Callable[[random.Random], Deal]:
    return lambda rng: standard(rng, plan(rng), name)


MAKERS: dict[str, tuple[float, Callable[[random.Random], Deal]]] = {
    **{name: (weight, themed(name, plan)) for name, (weight, plan) in PLANS.items()},
    **SPECIALS,
}


def random_deal(rng: random.Random) -> Deal:
    names = list(MAKERS)
    weights = [MAKERS[n][0] for n in names]
    while True:
        try:
            return MAKERS[rng.choices(names, weights)[0]][1](rng)
        except NoTilesLeftError:
            continue


# --- context --------------------------------------------------------------------------------------------


def copies_in_melds(deal: Deal, t: int) -> int:
    """Copies of `t` in the declared melds."""
    return sum(tiles.count(t) for _, tiles in deal.melds)


def context(rng: random.Random, deal: Deal) -> dict[str, object]:
    """Consistent flags: at most one of last tile / kong replacement / robbing the kong, each where possible."""
    self_drawn = rng.random() < 0.5
    has_kong = any(kind in KONG_KINDS for kind, _ in deal.melds)
    in_melds = copies_in_melds(deal, deal.win)
    alone = in_melds == 0 and deal.win not in deal.concealed
    events = ["none", "none", "none", "last_tile"]
    if self_drawn and has_kong:
        events.append("kong_replacement")
    if not self_drawn and alone:
        events.append("robbing_kong")
    event = rng.choice(events)
    # Three copies in the melds: the winning tile is the last one, whatever the table shows.
    fourth = in_melds == 3 or (deal.win not in deal.concealed and rng.random() < 0.3)
    return {
        "self_drawn": self_drawn,
        "seat_wind": rng.choice(WINDS),
        "round_wind": rng.choice(WINDS),
        "flowers": rng.randint(0, 8),
        "last_tile": event == "last_tile",
        "kong_replacement": event == "kong_replacement",
        "robbing_kong": event == "robbing_kong",
        "fourth_tile": fourth,
    }


def tiles_text(tiles: Sequence[int]) -> str:
    """`mpsz` notation, grouped by suit: 123m456p11z."""
    out = []
    for suit in "mpsz":
        ranks = "".join(code(t)[0] for t in sorted(tiles) if code(t)[1] == suit)
        out.append(ranks + suit if ranks else "")
    return "".join(out)


def case_of(rng: random.Random, deal: Deal) -> dict[str, object]:
    return {
        "hand": tiles_text(deal.concealed),
        "win": code(deal.win),
        "melds": [f"{kind} {tiles_text(tiles)}" for kind, tiles in deal.melds],
        **context(rng, deal),
    }


def random_case(seed: int) -> tuple[str, dict[str, object]]:
    """The shape or theme that made it, and the case; the same seed gives the same case."""
    rng = random.Random(seed)
    deal = random_deal(rng)
    return deal.shape, case_of(rng, deal)


# --- pymahjonggb ----------------------------------------------------------------------------------------

SUIT_LETTERS = {"m": "W", "s": "T", "p": "B"}
# pymahjonggb: F1..F4 = 东南西北, J1 中, J2 发, J3 白 (checked: a J2 pair makes 绿一色, J3 counts for 推不倒).
HONOR_CODES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
PACKS = {"chow": "CHI", "pung": "PENG", "kong": "GANG", "added_kong": "GANG", "concealed_kong": "GANG"}
WAIT_NAMES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}
TILE_GROUP = re.compile(r"(\d+)([mpsz])")


def split_tiles(text: str) -> list[str]:
    """'123m4p' and '1m2m3m4p' alike -> ['1m', '2m', '3m', '4p']."""
    return [d + s for digits, s in TILE_GROUP.findall(text) for d in digits]


def pymahjonggb_tile(t: str) -> str:
    digit, suit = t[0], t[1]
    return HONOR_CODES[int(digit) - 1] if suit == "z" else SUIT_LETTERS[suit] + digit


def pymahjonggb_pack(meld: str) -> tuple[str, str, int]:
    """("CHI"/"PENG"/"GANG", tile, offer): a chow is named by its middle tile; offer 0 makes a kong concealed,
    1..3 is the player it was claimed from, which changes no fan (offer 0 on a pung or chow would wrongly
    count it as concealed)."""
    kind, text = meld.split()
    tiles = sorted(split_tiles(text), key=lambda t: (t[1], t[0]))
    return PACKS[kind], pymahjonggb_tile(tiles[1]), 0 if kind == "concealed_kong" else 1


def pymahjonggb_call(case: Mapping[str, object]) -> dict[str, object]:
    """The keyword arguments of MahjongGB.MahjongFanCalculator for a case."""
    return {
        "pack": tuple(pymahjonggb_pack(m) for m in case.get("melds", [])),  # type: ignore[union-attr]
        "hand": tuple(pymahjonggb_tile(t) for t in split_tiles(str(case["hand"]))),
        "winTile": pymahjonggb_tile(str(case["win"])),
        "flowerCount": int(case.get("flowers", 0)),  # type: ignore[call-overload]
        "isSelfDrawn": bool(case.get("self_drawn")),
        "is4thTile": bool(case.get("fourth_tile")),
        "isAboutKong": bool(case.get("kong_replacement") or case.get("robbing_kong")),
        "isWallLast": bool(case.get("last_tile")),
        "seatWind": WINDS.index(str(case.get("seat_wind", "E"))),
        "prevalentWind": WINDS.index(str(case.get("round_wind", "E"))),
    }


def our_name(name: str) -> str:
    return WAIT_NAMES.get(name, name)


def pymahjonggb_fans(case: Mapping[str, object]) -> Fans:
    """pymahjonggb's fans for a case, by our names. Raises TypeError when it finds no win."""
    # Imported here so that the generator and the name mapping work where pymahjonggb is not installed.
    from MahjongGB import MahjongFanCalculator

    raw = MahjongFanCalculator(**pymahjonggb_call(case), verbose=True)
    return {our_name(name): (value, count) for value, count, name, _ in raw}


# --- comparison -----------------------------------------------------------------------------------------


def fans_of(entries: Sequence[Mapping[str, object]]) -> Fans:
    return {str(f["name"]): (int(f["value"]), int(f["count"])) for f in entries}  # type: ignore[call-overload]


def total_of(fans: Fans) -> int:
    return sum(value * count for value, count in fans.values())


def readings(result: Mapping[str, object]) -> list[tuple[Fans, int]]:
    """Our result's fans and total, then those of the equal-total readings it lists under "alternatives"."""
    main = [(fans_of(result["fans"]), int(result["total"]))]  # type: ignore[arg-type, call-overload]
    others = result.get("alternatives", [])
    return main + [(fans_of(a["fans"]), int(a["total"])) for a in others]  # type: ignore[union-attr, index]


def mismatch(result: Mapping[str, object], expected: Fans) -> str | None:
    """Why our result disagrees with pymahjonggb's fans (花牌 included), or None when it agrees."""
    if not result.get("ok") or "fans" not in result or "total" not in result:
        return f"no score: {result}"
    total = total_of(expected)
    flowers = expected.get("花牌", (1, 0))
    winning = total - flowers[0] * flowers[1] >= 8
    problems = []
    if result.get("winning") != winning:
        problems.append(f"winning is {result.get('winning')}, expected {winning}")
    if (expected, total) not in readings(result):
        ours = fans_of(result["fans"])  # type: ignore[arg-type]
        missing = {n: v for n, v in expected.items() if ours.get(n) != v}
        extra = {n: v for n, v in ours.items() if expected.get(n) != v}
        problems.append(f"total {result['total']} vs {total}; missing {missing}; extra {extra}")
    return "; ".join(problems) or None


def fan_diff(result: Mapping[str, object], expected: Fans) -> list[str]:
    """'-name' for each fan we miss or count differently, '+name' for each we add: for statistics."""
    if "fans" not in result:
        return ["(no score)"]
    ours = fans_of(result["fans"])  # type: ignore[arg-type]
    return ([f"-{n}" for n, v in expected.items() if ours.get(n) != v]
            + [f"+{n}" for n, v in ours.items() if expected.get(n) != v])


# --- running the comparison -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    seed: int
    shape: str
    case: Mapping[str, object]
    ours: Mapping[str, object]
    expected: Fans
    why: str

    def report(self) -> str:
        return (f"seed {self.seed} ({self.shape}): {self.why}\n"
                f"  case        {json.dumps(self.case, ensure_ascii=False)}\n"
                f"  ours        {json.dumps(self.ours, ensure_ascii=False)}\n"
                f"  pymahjonggb {self.expected}")


@functools.cache
def our_checker() -> dsl.Interpreter:
    """Loaded once per process (the comparison runs in worker processes)."""
    return dsl.load("mcr")


def compare_seed(seed: int) -> Disagreement | None:
    shape, case = random_case(seed)
    expected = pymahjonggb_fans(case)
    try:
        ours = our_checker().evaluate(case)
    except Exception as exc:  # a crash is a finding about one hand: report it with the hand, go on with the rest
        ours = {"ok": False, "error": f"raised {exc!r}"}
    why = mismatch(ours, expected)
    return None if why is None else Disagreement(seed, shape, case, ours, expected, why)


def compare_seeds(seeds: Iterable[int], jobs: int) -> Iterator[Disagreement | None]:
    """compare_seed over `seeds` on `jobs` processes, in order."""
    if jobs <= 1:
        yield from map(compare_seed, seeds)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(compare_seed, seeds, chunksize=256)
