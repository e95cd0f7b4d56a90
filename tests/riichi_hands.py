"""Random riichi hands as docs/interface.md cases, and the bridge to the `mahjong` package.

`random_case(rng)` draws one case: mostly valid winning hands (closed and open, kongs of every kind,
seven pairs, thirteen orphans, hands biased towards flushes, terminals, honors and pungs), every
context flag, dora and ura indicators, red fives, winds, honba and sticks, a few rule options, and
a few hands that do not win (flags drawn without regard to each other are dropped until the case
reader takes the case: a context no table can produce is an error). `package_result(case)` scores a case
with the `mahjong` package and `expected(case)` turns that into what our result must say.
The package is a test-only dependency: nothing under dsl/ or generated/ uses it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld

from dsl.cases.samples import make_possible
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec

# Tiles are 0..33 as in the package's 34-tile order: 1m..9m, 1p..9p, 1s..9s, 1z..7z = E S W N 白 发 中.
WINDS = ("E", "S", "W", "N")
SUITS = "mpsz"
FIVES = {4: 16, 13: 52, 22: 88}  # tile of a five -> the package's 136-id of its red copy
TERMINALS_AND_HONORS = frozenset(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
GREEN = frozenset({19, 20, 21, 23, 25, 32})
# The spec's defaults (Mahjong Soul's rules).
DEFAULT_OPTIONS = {"open_tanyao": True, "aka_dora": True, "double_yakuman": True, "kazoe_limit": 0,
                   "kiriage": False, "open_pinfu_fu": True, "pinfu_tsumo_fu": False, "renhou_han": 0}


def code(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


@dataclass
class Tile:
    """One physical tile of a case: its kind (0..33) and whether it is the red five."""

    kind: int
    red: bool = False

    def text(self) -> str:
        return f"0{SUITS[self.kind // 9]}" if self.red else code(self.kind)


def mpsz(tiles: Sequence[Tile]) -> str:
    """Tiles in the compact notation, grouped by suit: 1230m44z."""
    out = []
    for s, suit in enumerate(SUITS):
        digits = sorted((t.text()[0] for t in tiles if t.kind // 9 == s), key=lambda d: (d == "0") * 4.5 + int(d))
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


def parse(text: str) -> list[Tile]:
    tiles, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(ch)
            continue
        base = SUITS.index(ch) * 9
        tiles += [Tile(base + 4, True) if d == "0" else Tile(base + int(d) - 1) for d in digits]
        digits = []
    return tiles


# ---------------------------------------------------------------- random hands


@dataclass
class Group:
    kind: str  # chow, pung, kong, pair
    first: int

    @property
    def kinds(self) -> list[int]:
        if self.kind == "chow":
            return [self.first, self.first + 1, self.first + 2]
        return [self.first] * {"pair": 2, "pung": 3, "kong": 4}[self.kind]


# Tile pools the generator draws a hand from, weighted towards the yaku they make likely.
POOLS: list[tuple[float, Sequence[int]]] = [
    (6, range(34)),
    (2, [t for t in range(27) if t % 9 not in (0, 8)]),  # simples: tanyao
    (2, list(range(9)) + list(range(27, 34))),  # one suit and honors: honitsu
    (1, list(range(9, 18))),  # one suit: chinitsu
    (1, list(range(18, 27))),
    (1.5, sorted(TERMINALS_AND_HONORS)),  # terminals and honors: honroutou, chanta
    (1, [t for t in range(27) if t % 9 in (0, 1, 2, 6, 7, 8)] + list(range(27, 34))),  # chanta / junchan
    (0.5, list(range(27, 34))),  # honors
    (0.4, sorted(GREEN)),
    (0.3, [0, 8, 9, 17, 18, 26]),  # terminals only
]
KIND_WEIGHTS = [
    {"chow": 6, "pung": 3, "kong": 0.6},
    {"chow": 1, "pung": 4, "kong": 1},
    {"chow": 8, "pung": 1, "kong": 0.1},
]


def _pool(rng: random.Random) -> Sequence[int]:
    return rng.choices([p for _, p in POOLS], weights=[w for w, _ in POOLS])[0]


def _groups(rng: random.Random, pool: Sequence[int], seeded: list[Group]) -> list[Group] | None:
    """Four sets and a pair: the seeded sets, the rest from the pool, no tile more than four times.

    None when it gets stuck."""
    weights = rng.choice(KIND_WEIGHTS)
    used: Counter = Counter(t for g in seeded for t in g.kinds)
    if any(n > 4 for n in used.values()):
        return None
    groups = list(seeded)
    for kind in [None] * (4 - len(seeded)) + ["pair"]:
        for _ in range(30):
            k = kind or rng.choices(list(weights), weights=list(weights.values()))[0]
            first = rng.choice(pool)
            g = Group(k, first)
            if k == "chow" and (first >= 27 or first % 9 > 6):
                continue
            if k == "chow" and not all(t in pool for t in g.kinds) and rng.random() < 0.8:
                continue
            if all(used[t] + g.kinds.count(t) <= 4 for t in set(g.kinds)):
                used.update(g.kinds)
                groups.append(g)
                break
        else:
            return None
    return groups


def _seeded(rng: random.Random) -> list[Group]:
    """Sets that make a rarer yaku likely: sanshoku, ittsu, dragons, winds, kongs, twin chows."""
    suit = rng.randrange(3) * 9
    rank = rng.randrange(7)
    themes = {
        "plain": lambda: [],
        "sanshoku": lambda: [Group("chow", s * 9 + rank) for s in range(3)],
        "doukou": lambda: [Group(rng.choice(["pung", "pung", "kong"]), s * 9 + rank) for s in range(3)],
        "ittsu": lambda: [Group("chow", suit + r) for r in (0, 3, 6)],
        "dragons": lambda: [Group(rng.choice(["pung", "pung", "kong"]), t) for t in rng.sample(range(31, 34), 2)],
        "three dragons": lambda: [Group("pung", t) for t in range(31, 34)],
        "winds": lambda: [Group("pung", t) for t in rng.sample(range(27, 31), rng.choice([3, 3, 4]))],
        "kongs": lambda: [Group("kong", t) for t in rng.sample(range(34), rng.choice([3, 3, 4]))],
        "twins": lambda: [Group("chow", suit + rank)] * 2,
    }
    weights = {"plain": 30, "sanshoku": 2, "doukou": 1, "ittsu": 2, "dragons": 2, "three dragons": 0.5,
               "winds": 1, "kongs": 1, "twins": 2}
    return themes[rng.choices(list(weights), weights=list(weights.values()))[0]]()


def _nine_gates(rng: random.Random) -> list[Tile]:
    suit = rng.randrange(3) * 9
    return [Tile(suit + r) for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9))]


def _seven_pairs(rng: random.Random, pool: Sequence[int]) -> list[Group]:
    kinds = rng.sample(sorted(set(pool)) if len(set(pool)) >= 7 else range(34), 7)
    return [Group("pair", k) for k in kinds]


def _thirteen_orphans(rng: random.Random) -> list[Tile]:
    orphans = sorted(TERMINALS_AND_HONORS)
    return [Tile(t) for t in orphans + [rng.choice(orphans)]]


MELD_KINDS = {"chow": ["chow"], "pung": ["pung"], "kong": ["kong", "added_kong", "concealed_kong"]}


def _declare(rng: random.Random, sets: list[Group], open_hand: bool) -> tuple[list[Group], list[tuple[str, Group]]]:
    """Split the sets into concealed ones and declared melds (a kong is always declared)."""
    concealed, melds = [], []
    for g in sets:
        if g.kind == "kong":
            kind = rng.choice(MELD_KINDS["kong"]) if open_hand else "concealed_kong"
            melds.append((kind, g))
        elif open_hand and rng.random() < 0.45:
            melds.append((g.kind, g))
        else:
            concealed.append(g)
    return concealed, melds


def _redden(rng: random.Random, tiles: list[Tile]) -> None:
    """Make one five of a suit red now and then, always when all four are held (one copy is red)."""
    for five in FIVES:
        copies = [t for t in tiles if t.kind == five]
        if copies and (len(copies) == 4 or rng.random() < 0.4):
            rng.choice(copies).red = True


def _four_fives_hold_the_red(tiles: list[Tile]) -> None:
    for five in FIVES:
        copies = [t for t in tiles if t.kind == five]
        if len(copies) == 4 and not any(t.red for t in copies):
            copies[-1].red = True


def _indicators(rng: random.Random, n: int) -> str:
    tiles = [Tile(rng.randrange(34)) for _ in range(n)]
    for t in tiles:
        t.red = t.kind in FIVES and rng.random() < 0.2
    return "".join(t.text() for t in tiles)


def random_case(rng: random.Random) -> dict:  # noqa: C901 - one draw after another
    shape = rng.choices(["standard", "seven_pairs", "thirteen_orphans", "nine_gates"], weights=[88, 9, 3, 1])[0]
    pool = _pool(rng)
    melds: list[tuple[str, Group]] = []
    if shape == "standard":
        groups = None
        while groups is None:
            groups = _groups(rng, pool, _seeded(rng))
        open_hand = rng.random() < 0.45
        concealed_groups, melds = _declare(rng, groups[:4], open_hand)
        concealed = [Tile(t) for g in concealed_groups + [groups[4]] for t in g.kinds]
    elif shape == "seven_pairs":
        concealed = [Tile(t) for g in _seven_pairs(rng, pool) for t in g.kinds]
    elif shape == "thirteen_orphans":
        concealed = _thirteen_orphans(rng)
    else:
        concealed = _nine_gates(rng)
    meld_tiles = [[Tile(t) for t in g.kinds] for _, g in melds]
    _redden(rng, concealed + [t for m in meld_tiles for t in m])
    win = concealed.pop(rng.randrange(len(concealed)))
    if rng.random() < 0.03:  # a hand that (most likely) does not win
        win = Tile(rng.randrange(34))
        if sum(t.kind == win.kind for t in concealed + [t for m in meld_tiles for t in m]) >= 4:
            win = Tile(concealed[0].kind)
        _four_fives_hold_the_red(concealed + [win] + [t for m in meld_tiles for t in m])
    case: dict = {"hand": mpsz(concealed), "win": win.text()}
    if melds:
        case["melds"] = [f"{kind} {mpsz(tiles)}" for (kind, _), tiles in zip(melds, meld_tiles, strict=True)]
    case.update(_context(rng, closed=not any(k != "concealed_kong" for k, _ in melds), has_melds=bool(melds),
                         has_kong=any(g.kind == "kong" for _, g in melds)))
    if rng.random() < 0.15:
        case["options"] = _options(rng)
    make_possible(_riichi(), case)  # flags that cannot go together (drawn on purpose, above) are refused
    return case


@cache
def _riichi() -> ir.Spec:
    """The riichi spec, read once per process, for the case reader's rules of what can happen at a table."""
    return load_spec("riichi")


def _context(rng: random.Random, closed: bool, has_melds: bool, has_kong: bool) -> dict:
    ctx: dict = {"self_drawn": rng.random() < 0.45,
                 "seat_wind": rng.choice(WINDS), "round_wind": rng.choice(WINDS[:2] * 3 + WINDS[2:])}
    tsumo = ctx["self_drawn"]
    illegal = rng.random() < 0.03  # flags set without regard to whether they can go together
    if closed and rng.random() < 0.45 or illegal and rng.random() < 0.3:
        ctx["double_riichi" if rng.random() < 0.12 else "riichi"] = True
        if rng.random() < 0.05:
            ctx["riichi"] = True
        ctx["ippatsu"] = rng.random() < 0.25
    if illegal and rng.random() < 0.3:
        ctx["ippatsu"] = True
    if rng.random() < 0.05:
        ctx["last_tile"] = True
    if (tsumo and has_kong and rng.random() < 0.3) or (illegal and rng.random() < 0.3):
        ctx["kong_replacement"] = True
        if not illegal:
            ctx.pop("last_tile", None)
    if (not tsumo and rng.random() < 0.04) or (illegal and rng.random() < 0.3):
        ctx["robbing_kong"] = True
        if not illegal:
            ctx.pop("last_tile", None)
    dealer_ron = not tsumo and ctx["seat_wind"] == "E"
    if (not has_melds and not dealer_ron and rng.random() < 0.04) or (illegal and rng.random() < 0.3):
        ctx["first_turn"] = True
    n = rng.choice([0, 1, 1, 1, 2, 2, 3, 5])
    if n:
        ctx["dora"] = _indicators(rng, n)
    if ctx.get("riichi") or ctx.get("double_riichi") or rng.random() < 0.1:
        if n:
            ctx["ura"] = _indicators(rng, n)
    ctx["honba"] = rng.choice([0, 0, 0, 1, 2, 5])
    ctx["riichi_sticks"] = rng.choice([0, 0, 0, 1, 2, 3])
    return ctx


def _options(rng: random.Random) -> dict:
    choices = {"open_tanyao": [False], "aka_dora": [False], "double_yakuman": [False], "kazoe_limit": [1, 2],
               "kiriage": [True], "open_pinfu_fu": [False], "pinfu_tsumo_fu": [True], "renhou_han": [5, 13]}
    names = rng.sample(sorted(choices), rng.randint(1, 3))
    return {name: rng.choice(choices[name]) for name in names}


# ---------------------------------------------------------------- the package


def _ids(tiles: list[Tile], taken: Counter) -> list[int]:
    """136-ids: a red five is copy 0 of its five, other tiles take the next free copy from 1 up."""
    ids = []
    for t in tiles:
        if t.red:
            ids.append(FIVES[t.kind])
            continue
        copy = taken[t.kind] + (1 if t.kind in FIVES else 0)
        taken[t.kind] += 1
        ids.append(t.kind * 4 + copy % 4)
    return ids


PACKAGE_MELDS = {"chow": (Meld.CHI, True), "pung": (Meld.PON, True), "kong": (Meld.KAN, True),
                 "added_kong": (Meld.SHOUMINKAN, True), "concealed_kong": (Meld.KAN, False)}


def package_call(case: dict, players: int = 4, renhou: bool = True) -> dict:
    """The arguments of HandCalculator.estimate_hand_value for a case (players 3: three-player rules); without
    `renhou`, a first-turn win on a discard is told to the package as an ordinary win."""
    taken: Counter = Counter()
    melds = []
    meld_ids = []
    for text in case.get("melds", []):
        kind, tiles = text.split()
        ids = _ids(parse(tiles), taken)
        meld_type, opened = PACKAGE_MELDS[kind]
        melds.append(Meld(meld_type=meld_type, tiles=ids, opened=opened))
        meld_ids += ids
    hand_ids = _ids(parse(case["hand"]), taken)
    win_id = _ids(parse(case["win"]), taken)[0]
    return {"tiles": hand_ids + meld_ids + [win_id], "win_tile": win_id, "melds": melds,
            "dora_indicators": [t.kind * 4 for t in parse(case.get("dora", ""))],
            "ura_dora_indicators": [t.kind * 4 for t in parse(case.get("ura", ""))],
            "config": _config(case, players, renhou)}


def _config(case: dict, players: int, renhou: bool) -> HandConfig:
    opts = DEFAULT_OPTIONS | case.get("options", {})
    tsumo = bool(case.get("self_drawn"))
    seat_wind = WINDS.index(case.get("seat_wind", "E"))
    dealer = seat_wind == 0
    # The package takes tenhou, chiihou and renhou as given; a call by another player voids them (the spec's
    # doc), so a table that saw one does not give them.
    first = bool(case.get("first_turn")) and not any(case.get("other_melds", {}).values())
    last = bool(case.get("last_tile"))
    rules = OptionalRules(has_open_tanyao=opts["open_tanyao"], has_aka_dora=opts["aka_dora"],
                          has_double_yakuman=opts["double_yakuman"], kazoe_limit=opts["kazoe_limit"],
                          kiriage=opts["kiriage"], fu_for_open_pinfu=opts["open_pinfu_fu"],
                          fu_for_pinfu_tsumo=opts["pinfu_tsumo_fu"], renhou_as_yakuman=opts["renhou_han"] == 13,
                          is_three_player=players == 3)
    return HandConfig(
        is_tsumo=tsumo, is_riichi=bool(case.get("riichi")), is_ippatsu=bool(case.get("ippatsu")),
        is_rinshan=bool(case.get("kong_replacement")), is_chankan=bool(case.get("robbing_kong")),
        is_haitei=last and tsumo, is_houtei=last and not tsumo, is_daburu_riichi=bool(case.get("double_riichi")),
        is_tenhou=first and dealer and tsumo, is_chiihou=first and not dealer and tsumo,
        is_renhou=first and not tsumo and renhou,
        player_wind=27 + seat_wind, round_wind=27 + WINDS.index(case.get("round_wind", "E")),
        kyoutaku_number=case.get("riichi_sticks", 0), tsumi_number=case.get("honba", 0), options=rules)


def package_result(case: dict, players: int = 4) -> HandResponse:
    response = HandCalculator.estimate_hand_value(**package_call(case, players))
    renhou_han = (DEFAULT_OPTIONS | case.get("options", {}))["renhou_han"]
    if case.get("first_turn") and not case.get("self_drawn") and renhou_han == 0 and not response.error:
        # The package always plays renhou: it says whether the first-turn win may happen, then scores it without.
        response = HandCalculator.estimate_hand_value(**package_call(case, players, renhou=False))
    return response


@dataclass(frozen=True)
class Expected:
    """What the package says about a case, in our result's terms."""

    winning: bool
    han: int = 0
    fu: int = 0
    yakuman: bool = False
    payments: tuple[int, ...] = ()
    pot: int = 0
    yaku: tuple[str, ...] = ()
    error: str | None = None


def expected(case: dict, players: int = 4) -> Expected:
    response = package_result(case, players)
    if response.error:
        return Expected(False, error=response.error)
    seat = WINDS.index(case.get("seat_wind", "E"))  # dealer 0, seats in turn order
    return Expected(True, response.han, response.fu, any(y.is_yakuman for y in response.yaku),
                    payments_of(response.cost, seat, bool(case.get("self_drawn")), players, case.get("discarder")),
                    response.cost["kyoutaku_bonus"], tuple(str(y) for y in response.yaku))


def payments_of(cost: dict, seat: int, self_drawn: bool, players: int = 4,
                discarder: int | None = None) -> tuple[int, ...]:
    """Each seat's payment from the package's cost; seat 0 deals, the discarder sits before the winner
    unless given."""
    payments = [0] * players
    if self_drawn:
        for other in range(players):
            if other != seat:
                paid_as_dealer = seat == 0 or other == 0
                payments[other] = -(cost["main"] + cost["main_bonus"] if paid_as_dealer
                                    else cost["additional"] + cost["additional_bonus"])
    else:
        payments[(seat - 1) % players if discarder is None else discarder] = -(cost["main"] + cost["main_bonus"])
    payments[seat] = -sum(payments)
    return tuple(payments)


def mismatch(result: dict, want: Expected) -> str | None:
    """Why our result disagrees with the package, or None."""
    if not want.winning:
        if result.get("ok") and result.get("winning"):
            return f"we win (han {result.get('han')}), the package says {want.error}"
        return None
    if not result.get("ok") or not result.get("winning"):
        return f"we do not win ({result.get('reason') or result.get('error')}), the package: {want}"
    problems = []
    if result["han"] != want.han:
        problems.append(f"han {result['han']} != {want.han}")
    if not want.yakuman and result["fu"] != want.fu:
        problems.append(f"fu {result['fu']} != {want.fu}")
    if tuple(result["payments"]) != want.payments:
        problems.append(f"payments {result['payments']} != {list(want.payments)}")
    if result.get("pot", 0) != want.pot:
        problems.append(f"pot {result.get('pot')} != {want.pot}")
    return "; ".join(problems) or None
