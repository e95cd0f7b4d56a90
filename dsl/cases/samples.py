"""Random cases of any spec: winning hands of every declared shape, near misses, hands without a winning
tile, invalid input, with random melds, context keys, other seats' melds and options.

The same seed always gives the same cases. The parity tests compare the compiled checkers with the
interpreter on them, and the benchmark times both on them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from dsl.cases.case import read_case
from dsl.frontend import ir
from dsl.notation import HandError
from dsl.vocabulary import INDICATOR_LIMITS, WINDS

KINDS = {"winning": 0.5, "near_miss": 0.15, "random": 0.1, "no_win": 0.07, "invalid": 0.18}


def random_cases(spec: ir.Spec, count: int, seed: int = 0, kinds: dict[str, float] | None = None) -> list[dict]:
    """`count` cases drawn with KINDS weights (or the given ones)."""
    maker = CaseMaker(spec, random.Random(seed))
    weights = kinds or KINDS
    return [maker.case(maker.rng.choices(list(weights), list(weights.values()))[0]) for _ in range(count)]


class CaseMaker:
    def __init__(self, spec: ir.Spec, rng: random.Random):
        self.spec = spec
        self.rng = rng
        flower_suits = {s.code for s in spec.suits if s.flowers}
        self.held_tiles = [t for t in spec.tiles if t.suit not in flower_suits]
        self.numbered_suits = [s for s in spec.suits if s.numbered]
        self.sets = (spec.hand_size - 2) // 3
        self.shapes = {s.name: s for s in spec.shapes}

    def case(self, kind: str) -> dict:
        case = getattr(self, "_" + kind)()
        self._lay_aside(case)
        self._context(case)
        if kind == "invalid":  # sometimes refused for its context alone, a thing to compare too
            self._break(case)
        else:
            make_possible(self.spec, case, self.rng.choice)
        return case

    # -- hands

    def _winning(self) -> dict:
        for _ in range(50):
            shape = self.rng.choice(list(self.shapes))
            made = SHAPES[shape](self, self._pool()) if shape in SHAPES else None
            if made is not None:
                concealed, melds = made
                win = self.rng.choice(concealed)
                concealed.remove(win)
                return {"hand": self._text(concealed), "win": self.spec.tiles[win].code, "melds": melds}
        return self._random()

    def _near_miss(self) -> dict:
        case = self._winning()
        tiles = self._codes(case["hand"])
        tiles[self.rng.randrange(len(tiles))] = self.rng.choice(self.held_tiles).index
        case["hand"] = self._text(tiles)
        return case

    def _random(self) -> dict:
        melds = self._declare(self.rng.randint(0, 2), Counter())
        n = self.spec.hand_size - 1 - 3 * len(melds)
        tiles = [self.rng.choice(self.held_tiles).index for _ in range(max(n, 0))]
        return {"hand": self._text(tiles), "win": self.rng.choice(self.held_tiles).code, "melds": melds}

    def _no_win(self) -> dict:
        case = self._winning() if self.rng.random() < 0.7 else self._random()
        del case["win"]
        return case

    def _invalid(self) -> dict:
        return self._winning()

    def _pool(self) -> list[ir.Tile]:
        """The tiles one hand is drawn from: sometimes one suit, terminals or no honors, to reach rare fans."""
        theme = self.rng.random()
        if theme < 0.2 and self.numbered_suits:
            suit = self.rng.choice(self.numbered_suits).code
            return [t for t in self.held_tiles if t.suit == suit or (not t.numbered and self.rng.random() < 0.5)]
        if theme < 0.3:
            return [t for t in self.held_tiles if not t.numbered or t.rank in (1, 2, 8, 9)]
        if theme < 0.4:
            return [t for t in self.held_tiles if t.numbered]
        return self.held_tiles

    # -- shapes

    def standard(self, pool: list[ir.Tile]) -> tuple[list[int], list[str]] | None:
        used: Counter[int] = Counter()
        melds = self._declare(self.rng.choice([0, 0, 1, 1, 2, 3, 4]), used)
        concealed: list[int] = []
        chows = self.shapes["standard"].chows
        for _ in range(self.sets - len(melds)):
            group = self._set(pool, used, chows)
            if group is None:
                return None
            concealed += group
        pair = self._take(pool, used, 2)
        return (concealed + pair, melds) if pair is not None else None

    def seven_pairs(self, pool: list[ir.Tile]) -> tuple[list[int], list[str]] | None:
        used: Counter[int] = Counter()
        tiles: list[int] = []
        for _ in range(7):
            pair = self._take(pool, used, 2)
            if pair is None:
                return None
            tiles += pair
        return tiles, []

    def thirteen_orphans(self, pool: list[ir.Tile]) -> tuple[list[int], list[str]] | None:
        orphans = [t.index for t in self.held_tiles if not t.numbered or t.rank in (1, 9)]
        return orphans + [self.rng.choice(orphans)], []

    def honors_and_knitted(self, pool: list[ir.Tile]) -> tuple[list[int], list[str]] | None:
        knitted = self._knitted()
        honors = [t.index for t in self.held_tiles if not t.numbered]
        if not knitted or len(knitted) + len(honors) < 14:
            return None
        numbered = self.rng.sample(knitted, self.rng.randint(max(7, 14 - len(honors)), min(9, 14 - 1)))
        return numbered + self.rng.sample(honors, 14 - len(numbered)), []

    def knitted_straight(self, pool: list[ir.Tile]) -> tuple[list[int], list[str]] | None:
        knitted = self._knitted()
        if not knitted:
            return None
        used = Counter(knitted)
        melds = self._declare(self.rng.choice([0, 0, 1]), used)
        rest = [] if melds else self._set(pool, used, self.shapes["knitted_straight"].chows)
        pair = self._take(pool, used, 2)
        return (knitted + rest + pair, melds) if rest is not None and pair is not None else None

    def _knitted(self) -> list[int]:
        suits = [s.code for s in self.numbered_suits]
        if len(suits) != 3:
            return []
        self.rng.shuffle(suits)
        wanted = {f"{rank}{suit}" for start, suit in zip((1, 2, 3), suits, strict=True)
                  for rank in (start, start + 3, start + 6)}
        tiles = [t.index for t in self.held_tiles if t.code in wanted]
        return tiles if len(tiles) == 9 else []

    # -- groups

    def _set(self, pool: list[ir.Tile], used: Counter[int], chows: bool) -> list[int] | None:
        for _ in range(20):
            start = self.rng.choice(pool)
            if chows and self.rng.random() < 0.6:
                tiles = self._run(start)
                if tiles is not None and all(used[t] < self.spec.tiles[t].copies for t in tiles):
                    used.update(tiles)
                    return tiles
            elif used[start.index] + 3 <= start.copies:
                used[start.index] += 3
                return [start.index] * 3
        return None

    def _run(self, start: ir.Tile) -> list[int] | None:
        tiles = self.spec.tiles
        i = start.index
        if start.numbered and i + 2 < len(tiles) and tiles[i + 2].suit == start.suit and \
                tiles[i + 2].rank == start.rank + 2:
            return [i, i + 1, i + 2]
        return None

    def _take(self, pool: list[ir.Tile], used: Counter[int], n: int) -> list[int] | None:
        for _ in range(20):
            tile = self.rng.choice(pool)
            if used[tile.index] + n <= tile.copies:
                used[tile.index] += n
                return [tile.index] * n
        return None

    def _declare(self, count: int, used: Counter[int]) -> list[str]:
        """Up to `count` declared melds of the spec's kinds (fewer when the tiles run out)."""
        melds = []
        for _ in range(count):
            kind = self.rng.choice(self.spec.meld_kinds)
            tiles = self._meld_tiles(kind)
            if tiles is not None and all(used[t] + tiles.count(t) <= self.spec.tiles[t].copies for t in tiles):
                used.update(tiles)
                melds.append(f"{kind.name} {''.join(self.spec.tiles[t].code for t in tiles)}")
        return melds

    def _meld_tiles(self, kind: ir.MeldKind) -> list[int] | None:
        if kind.shape == "fixed":
            return list(kind.tiles)
        tile = self.rng.choice(self.held_tiles)
        if kind.shape == "chow":
            return self._run(tile)
        return [tile.index] * (4 if kind.shape == "kong" else 3)

    def _lay_aside(self, case: dict) -> None:
        """Single tiles laid aside (flowers) as melds: none, some, or every one of a kind's tiles, so that a
        spec's own shape asking for all of them (八仙過海) occurs; under own shapes the last of them is
        sometimes the winning tile. Specs without such kinds draw nothing."""
        kinds = [k for k in self.spec.meld_kinds if k.aside and k.shape == "one_of"
                 and not self.spec.tileset(k.tileset).per_hand]  # type: ignore[arg-type]
        if not kinds:
            return
        kind = self.rng.choice(kinds)
        tiles = [self.spec.tiles[t].code for t in self.spec.tileset(kind.tileset).tiles]  # type: ignore[arg-type]
        draw = self.rng.random()
        laid = tiles if draw < 0.2 else self.rng.sample(tiles, self.rng.randint(1, len(tiles))) if draw < 0.6 else []
        if laid and self.spec.shape_rules and case.get("win") and self.rng.random() < 0.5:
            case["win"] = laid.pop()  # won on the last flower (八仙過海, 七搶一): the tile drawn instead is gone
        case["melds"] = list(case.get("melds", [])) + [f"{kind.name} {code}" for code in laid]

    # -- context

    def _context(self, case: dict) -> None:
        rng = self.rng
        for key in self.spec.context:
            if rng.random() < 0.5:
                continue
            if key.kind == "flag":
                case[key.name] = rng.random() < 0.3
            elif key.kind == "wind":
                case[key.name] = rng.choice(WINDS)
            elif key.kind == "seat":
                case[key.name] = rng.randrange(self.spec.players)
            elif key.kind == "count":
                case[key.name] = rng.choice([0, 0, 1, 2, 3, 8])
            elif key.kind == "int":
                case[key.name] = rng.choice([key.low, key.high, rng.randint(key.low, key.high)])
            elif key.kind == "tiles":
                most = min(3, INDICATOR_LIMITS.get(key.name, 3))
                case[key.name] = self._text([rng.choice(self.spec.tiles).index for _ in range(rng.randint(1, most))])
            elif key.kind == "melds_by_seat":
                seats = rng.sample(range(self.spec.players), rng.randint(0, self.spec.players - 1))
                seat_keys: list[Callable[[int], object]] = [str, str, int]
                case[key.name] = {rng.choice(seat_keys)(seat): self._declare(rng.randint(0, 3), Counter())
                                  for seat in seats}
        for option in self.spec.options:
            if rng.random() < 0.3:
                case.setdefault("options", {})[option.name] = self._option_value(option.default)
        if not case.get("melds") and rng.random() < 0.5:
            case.pop("melds", None)

    def _option_value(self, default: object) -> object:
        if isinstance(default, bool):
            return self.rng.random() < 0.5
        if isinstance(default, int):
            return self.rng.randint(0, 3)
        return default

    # -- invalid input

    def _break(self, case: dict) -> None:
        rng = self.rng
        tiles = self.spec.tiles
        breakers: list[Callable[[], None]] = [
            lambda: case.update(unknown_key=True),
            lambda: case.update(hand=case["hand"] + rng.choice(["0m", "8z", "x", "5", "m", "１m"])),
            lambda: case.update(hand=case["hand"] + rng.choice(tiles).code),
            lambda: case.update(hand=self._text(self._codes(case["hand"])[1:])),
            lambda: case.update(hand=self._text([self._codes(case["hand"])[0]] * 5 + self._codes(case["hand"])[5:])),
            lambda: case.update(melds=case.get("melds", []) + [rng.choice(["pung 123m", "chow 111p", "pung", "x 1m",
                                                                           "kong 5555", 7])]),
            lambda: case.update(melds="pung 111m"),
            lambda: case.update(win=rng.choice(["1m2m", "", "9x", 5])),
            lambda: case.update(self_drawn=rng.choice(["yes", 1, None])),
            lambda: case.update(seat=rng.choice([-1, 4, "1", True])),
            lambda: case.update(seat_wind=rng.choice(["X", "east", 0])),
            lambda: case.update(seat=1, discarder=1, self_drawn=False),
            lambda: case.update(options={"no_such_option": True}),
            lambda: case.pop("hand"),
        ]
        counts = [k for k in self.spec.context if k.kind == "count"]
        if counts:
            breakers.append(lambda: case.update({counts[0].name: rng.choice([-1, "2", 1.5])}))
        ints = [k for k in self.spec.context if k.kind == "int"]
        if ints:  # out of its range, or not a whole number
            breakers.append(lambda: case.update({ints[0].name: rng.choice([ints[0].low - 1, ints[0].high + 1, True,
                                                                            "1", 2.5])}))
        others = [k for k in self.spec.context if k.kind == "melds_by_seat"]
        if others:
            breakers.append(lambda: case.update({others[0].name: rng.choice([{"9": []}, {"x": []}, ["pung 111m"],
                                                                             {"1": "pung 111m"}])}))
        rng.choice(breakers)()

    # -- notation

    def _text(self, tiles: list[int]) -> str:
        """Tiles in one of the ways people write them: grouped by suit, one by one, or shuffled with spaces;
        some fives written as red fives where the spec has them."""
        red = {index: code for code, index in self.spec.red_tiles}
        codes = [red[t] if t in red and self.rng.random() < 0.3 else self.spec.tiles[t].code for t in tiles]
        style = self.rng.random()
        if style < 0.6:
            by_suit: dict[str, str] = {}
            for code in sorted(codes, key=lambda c: (c[-1], c[:-1])):
                by_suit[code[-1]] = by_suit.get(code[-1], "") + code[:-1]
            return "".join(digits + suit for suit, digits in by_suit.items())
        self.rng.shuffle(codes)
        return (" " if style < 0.7 else "").join(codes)

    def _codes(self, text: str) -> list[int]:
        index = self.spec.notation()
        compact = text.replace(" ", "")
        tiles, digits = [], ""
        for ch in compact:
            if ch.isdigit():
                digits += ch
            else:
                tiles += [index[d + ch] for d in digits]
                digits = ""
        return tiles


def make_possible(spec: ir.Spec, case: dict, choose: Callable[[list[str]], str] = min) -> None:
    """Drop context keys the case reader names until it reads the case: random flags and seats often make a
    context no table can produce (dsl.cases.case.refuse_impossible), and such a case would only be an error.
    `choose` picks which of the keys one refusal names goes (min: the same one every time)."""
    keys = [k.name for k in spec.context if k.name in case]
    while keys:
        try:
            read_case(spec, case)
            return
        except HandError as exc:
            named = [k for k in keys if repr(k) in str(exc)]
            if not named:
                return  # the hand itself is at fault (a near miss holding a fifth copy ...)
            dropped = choose(named)
            keys.remove(dropped)
            del case[dropped]


SHAPES: dict[str, Callable[[CaseMaker, list[ir.Tile]], tuple[list[int], list[str]] | None]] = {
    "standard": CaseMaker.standard,
    "seven_pairs": CaseMaker.seven_pairs,
    "thirteen_orphans": CaseMaker.thirteen_orphans,
    "honors_and_knitted": CaseMaker.honors_and_knitted,
    "knitted_straight": CaseMaker.knitted_straight,
}
