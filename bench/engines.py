"""The independent engines the benchmark compares with, each given its own input format: pymahjonggb (C++)
for 国标 (spec `mcr`), riichienv (Rust) for riichi. Both are bench and test dependencies only.

`engine_for(spec)` is None for a spec without an engine or when the engine is not installed. A case is
converted once, beforehand (`Engine.convert`, not timed); `Engine.call` is the one call that is timed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

WINDS = ("E", "S", "W", "N")
TILE_GROUP = re.compile(r"(\d+)([mpsz])")


@dataclass(frozen=True)
class Engine:
    name: str
    convert: Callable[[dict], object]  # a case -> the engine's input, or None for a case it cannot take
    call: Callable[[object], object]  # one call on a converted input
    wins: Callable[[object], bool]  # whether it scores a converted input as a win


def engine_for(spec: str) -> Engine | None:
    makers = {"mcr": pymahjonggb_engine, "riichi": riichienv_engine}
    return makers[spec]() if spec in makers else None


def codes(text: str) -> list[str]:
    """'123m4p' -> ['1m', '2m', '3m', '4p']."""
    return [d + s for digits, s in TILE_GROUP.findall(text) for d in digits]


# ---------------------------------------------------------------- pymahjonggb, for 国标

PYMAHJONGGB_TILES = {"m": "W", "s": "T", "p": "B"}
PYMAHJONGGB_HONORS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # 东 南 西 北 白 发 中
MINIMUM_FAN = 8
FLOWER_FAN = "花牌"  # counted on top of a win, never towards its minimum
PYMAHJONGGB_PACKS = {"chow": "CHI", "pung": "PENG", "kong": "GANG", "added_kong": "GANG", "concealed_kong": "GANG"}


def pymahjonggb_engine() -> Engine | None:
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        return None

    def call(arguments: object) -> object:
        return MahjongFanCalculator(**arguments)  # type: ignore[arg-type]

    def wins(arguments: object) -> bool:
        """A winning shape (it raises TypeError on any other) worth 8 fan before flowers, as 国标 requires:
        it scores hands below the minimum too."""
        try:
            fans = MahjongFanCalculator(**arguments, verbose=True)  # type: ignore[arg-type]
        except TypeError:
            return False
        return sum(value * count for value, count, name, _ in fans if name != FLOWER_FAN) >= MINIMUM_FAN

    return Engine("pymahjonggb", pymahjonggb_input, call, wins)


def pymahjonggb_tile(code: str) -> str:
    digit, suit = code[0], code[1]
    return PYMAHJONGGB_HONORS[int(digit) - 1] if suit == "z" else PYMAHJONGGB_TILES[suit] + digit


def pymahjonggb_pack(meld: str) -> tuple[str, str, int]:
    """A chow is named by its middle tile; offer 0 marks a concealed kong, 1 a meld claimed from a player."""
    kind, text = meld.split()
    middle = sorted(codes(text), key=lambda c: (c[1], c[0]))[1]
    return PYMAHJONGGB_PACKS[kind], pymahjonggb_tile(middle), 0 if kind == "concealed_kong" else 1


def pymahjonggb_input(case: dict) -> dict:
    return {"pack": tuple(pymahjonggb_pack(m) for m in case.get("melds", [])),
            "hand": tuple(pymahjonggb_tile(c) for c in codes(case["hand"])),
            "winTile": pymahjonggb_tile(case["win"]), "flowerCount": case.get("flowers", 0),
            "isSelfDrawn": case.get("self_drawn", False), "is4thTile": case.get("fourth_tile", False),
            "isAboutKong": case.get("kong_replacement", False) or case.get("robbing_kong", False),
            "isWallLast": case.get("last_tile", False), "seatWind": WINDS.index(case.get("seat_wind", "E")),
            "prevalentWind": WINDS.index(case.get("round_wind", "E"))}


# ---------------------------------------------------------------- riichienv, for riichi

RIICHIENV_SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}  # its tile kinds: 1m..9m, 1p..9p, 1s..9s, 1z..7z


def riichienv_engine() -> Engine | None:
    """Concealed hands only: riichienv takes melds as its own objects, so hands with melds are left out."""
    try:
        import riichienv
        from riichienv import _riichienv as engine
    except ImportError:
        return None
    winds = (riichienv.EAST, riichienv.SOUTH, riichienv.WEST, riichienv.NORTH)

    def call(arguments: object) -> object:
        tiles, win, dora, ura, conditions = arguments  # type: ignore[misc]
        return engine.HandEvaluator(tiles, []).calc(win, dora, ura, conditions)

    def convert(case: dict) -> tuple | None:
        return riichienv_input(case, engine.Conditions, winds)

    return Engine("riichienv", convert, call, lambda arguments: bool(call(arguments).is_win))


def riichienv_ids(text: str, used: dict[int, int]) -> list[int]:
    """Tiles as riichienv's 136 ids (kind * 4 + copy): a red five is copy 0 of its kind, so the other fives
    take copies 1 to 3; `used` counts the copies given out so far."""
    out = []
    for code in codes(text):
        digit, suit = code[0], code[1]
        kind = RIICHIENV_SUITS[suit] + (4 if digit == "0" else int(digit) - 1)
        copy = 0 if digit == "0" else used.get(kind, 0) + (1 if kind % 9 == 4 and suit != "z" else 0)
        used[kind] = used.get(kind, 0) + 1
        out.append(kind * 4 + min(copy, 3))
    return out


def riichienv_input(case: dict, conditions: type, wind_values: tuple) -> tuple | None:
    if case.get("melds") or case.get("other_melds"):
        return None
    used: dict[int, int] = {}
    tiles, win = riichienv_ids(case["hand"], used), riichienv_ids(case["win"], used)
    winds = (wind_values[WINDS.index(case.get("seat_wind", "E"))],
             wind_values[WINDS.index(case.get("round_wind", "E"))])
    tsumo, last = case.get("self_drawn", False), case.get("last_tile", False)
    flags = conditions(tsumo=tsumo, riichi=case.get("riichi", False),
                       double_riichi=case.get("double_riichi", False), ippatsu=case.get("ippatsu", False),
                       haitei=last and tsumo, houtei=last and not tsumo,
                       rinshan=case.get("kong_replacement", False), chankan=case.get("robbing_kong", False),
                       player_wind=winds[0], round_wind=winds[1], honba=case.get("honba", 0),
                       riichi_sticks=case.get("riichi_sticks", 0))
    # Indicators are counted apart from the hand: they are other copies on the table.
    return tiles, win[0], riichi_indicators(case.get("dora", "")), riichi_indicators(case.get("ura", "")), flags


def riichi_indicators(text: str) -> list[int]:
    return riichienv_ids(text, {})
