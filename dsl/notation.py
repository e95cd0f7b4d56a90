"""The mpsz hand notation: `123m456p789s11z`, melds as `pung 555p`. Errors name the bad tile."""

from __future__ import annotations

import re
from collections.abc import Mapping

_RUN = re.compile(r"(\d+)([a-z])")


class HandError(ValueError):
    """A hand or case that cannot be scored: the message names the tile, count or key at fault."""


def parse_tiles(text: str, codes: Mapping[str, int]) -> list[int]:
    """Tile indices of an mpsz string such as `123m4p4p` (order kept)."""
    if not isinstance(text, str):
        raise HandError(f"tiles must be a string such as '123m', not {text!r}")
    compact = text.replace(" ", "")
    tiles: list[int] = []
    position = 0
    for match in _RUN.finditer(compact):
        if match.start() != position:
            break
        digits, suit = match.groups()
        for digit in digits:
            code = digit + suit
            if code not in codes:
                raise HandError(f"unknown tile {code!r} in {text!r}")
            tiles.append(codes[code])
        position = match.end()
    if position != len(compact):
        rest = compact[position:]
        raise HandError(f"cannot read {rest!r} in {text!r}: write tiles as digits followed by a suit letter, e.g. 123m")
    return tiles


def tile_codes(text: str) -> list[str]:
    """Split an mpsz string into tile codes without checking them against a tile set."""
    return [digit + suit for digits, suit in _RUN.findall(text.replace(" ", "")) for digit in digits]
