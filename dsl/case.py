"""A case of docs/interface.md (JSON object) -> a validated Hand; every problem is a HandError naming it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import ir
from .notation import HandError, parse_tiles, tile_codes
from .source import suggest

WINDS = ("E", "S", "W", "N")
STRUCTURAL_KEYS = ("hand", "win", "melds", "options")


@dataclass(frozen=True)
class Meld:
    kind: ir.MeldKind
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class Hand:
    """A validated hand: concealed tiles before the win, the winning tile, melds and context."""

    concealed: tuple[int, ...]
    win: int | None
    melds: tuple[Meld, ...]
    context: Mapping[str, object]
    options: Mapping[str, object]
    other_melds: Mapping[int, tuple[Meld, ...]] = field(default_factory=dict)
    red: int = 0  # red fives among the hand, the winning tile and the melds
    seat: int = 0
    dealer: int = 0
    discarder: int | None = None
    sets: Mapping[str, frozenset[int]] = field(default_factory=dict)  # tile sets chosen by indicators
    wild: frozenset[int] = frozenset()  # the wild tiles of this hand
    win_aside: ir.MeldKind | None = None  # a winning flower (八仙過海, 七搶一): laid aside as this kind

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile the player shows at the end: concealed, the winning tile and the declared melds."""
        won = (self.win,) if self.win is not None else ()
        return self.concealed + won + tuple(t for m in self.melds for t in m.tiles)

    @property
    def self_drawn(self) -> bool:
        return bool(self.context.get("self_drawn", False))


def read_case(spec: ir.Spec, case: object) -> Hand:
    if not isinstance(case, Mapping):
        raise HandError("a case is a JSON object such as {\"hand\": \"123m...\", \"win\": \"5m\"}")
    context = read_context(spec, case, STRUCTURAL_KEYS)
    if "hand" not in case:
        raise HandError("the case has no 'hand'")
    codes = spec.notation(flowers=False)
    concealed = tuple(parse_tiles(case["hand"], codes))
    sets = hand_tilesets(spec, context)
    win, win_aside = _winning_tile(spec, case["win"], sets) if case.get("win") is not None else (None, None)
    meld_texts = _list(case.get("melds", []), "melds")
    melds = tuple(read_meld(spec, m, sets) for m in meld_texts)
    red = _red_count(spec, [case["hand"], case.get("win") or ""] + [str(m) for m in meld_texts])
    others = _other_melds(spec, context.pop("other_melds", {}), sets)
    options = read_options(spec, case.get("options", {}))
    _check_counts(spec, concealed, win, melds, others)
    players = spec.players
    dealer = context.get("dealer", 0)
    wind_offset = WINDS.index(context.get("seat_wind", "E"))
    seat = context.get("seat", (dealer + wind_offset) % players)
    discarder = None
    if not context.get("self_drawn", False):
        discarder = context.get("discarder", (seat - 1) % players)
        if discarder == seat:
            raise HandError(f"the discarder (seat {discarder}) cannot be the winner")
    for gone in context.get("out", ()):
        if gone in (seat, context.get("discarder")):
            raise HandError(f"seat {gone} has left the hand ('out'); it cannot win or discard")
    wild = frozenset(t for name in spec.wilds for t in sets[name])
    return Hand(concealed, win, melds, context, options, others, red, seat, dealer, discarder, sets, wild, win_aside)


def read_context(spec: ir.Spec, case: Mapping, also: tuple[str, ...] = ()) -> dict[str, object]:
    """The context keys of a case, checked; a key the spec does not read (nor one of `also`) is an error."""
    known = {k.name: k for k in spec.context}
    for key in case:
        if key not in known and key not in also:
            hint = suggest(str(key), list(known) + list(also))
            raise HandError(f"unknown key {key!r}" + (f" ({hint})" if hint else "")
                            + f"; {spec.name} reads: " + ", ".join(list(also) + list(known)))
    return {name: _context_value(spec, known[name], value) for name, value in case.items() if name in known}


def hand_tilesets(spec: ir.Spec, context: Mapping[str, object]) -> dict[str, frozenset[int]]:
    """The tile sets chosen by the case's indicator tiles (ir.TileSet.indicated), by name."""
    sets = {}
    for ts in spec.per_hand_tilesets():
        tiles = set(ts.tiles)
        for key, step in ts.indicated:
            for indicator in parse_tiles(context.get(key, ""), spec.notation()):  # type: ignore[arg-type]
                tiles.add(step_along(spec, spec.indicator_tile[indicator], step))
        sets[ts.name] = frozenset(tiles - ts.removed)
    return sets


def step_along(spec: ir.Spec, tile: int, step: int) -> int:
    """The tile `step` places after (before, when negative) `tile` along the order."""
    table = spec.next_tile if step > 0 else spec.previous_tile
    for _ in range(abs(step)):
        tile = table[tile]
    return tile


def _red_count(spec: ir.Spec, texts: list[str]) -> int:
    codes = [code for text in texts for code in tile_codes(text)]
    for red, _ in spec.red_tiles:
        if codes.count(red) > spec.red_copies:
            raise HandError(f"{codes.count(red)} copies of the red five {red}; the set has {spec.red_copies}")
    return sum(codes.count(red) for red, _ in spec.red_tiles)


def _winning_tile(spec: ir.Spec, text: object, sets: Mapping[str, frozenset[int]]) -> tuple[int, ir.MeldKind | None]:
    """The winning tile, and the kind it is laid aside as when it is a flower.

    A flower wins only under a spec's own shape (八仙過海: the eighth flower drawn; 七搶一: robbed):
    it is laid aside like the others, so the hand keeps its count and no built-in shape uses it.
    """
    win = _one_tile(text, spec.notation())
    if win not in spec.flower_tiles():
        return win, None
    code = spec.tiles[win].code
    kind = next((k for k in spec.meld_kinds if k.aside and _lays_aside(spec, k, win, sets)), None)
    if kind is None:
        raise HandError(f"the winning tile {code} is a flower, and no meld kind of {spec.name} lays it aside")
    if not spec.shape_rules:
        raise HandError(f"the winning tile {code} is a flower: {spec.name} has no shape of its own (`shape NAME: "
                        "...`) that wins on one")
    return win, kind


def _lays_aside(spec: ir.Spec, kind: ir.MeldKind, tile: int, sets: Mapping[str, frozenset[int]]) -> bool:
    if kind.shape == "one_of":
        return tile in _set_tiles(spec, kind.tileset, sets)
    return kind.tiles == (tile,)


def _one_tile(text: object, codes: Mapping[str, int]) -> int:
    tiles = parse_tiles(text, codes)  # type: ignore[arg-type]
    if len(tiles) != 1:
        raise HandError(f"'win' is one tile, not {text!r}")
    return tiles[0]


def _list(value: object, key: str) -> list:
    if not isinstance(value, list | tuple):
        raise HandError(f"{key!r} is a list")
    return list(value)


def read_meld(spec: ir.Spec, text: object, sets: Mapping[str, frozenset[int]]) -> Meld:
    if not isinstance(text, str) or len(text.split()) != 2:
        raise HandError(f"a meld is written '<kind> <tiles>', e.g. 'pung 555p', not {text!r}")
    kind_name, tiles_text = text.split()
    kinds = {k.name: k for k in spec.meld_kinds}
    if kind_name not in kinds:
        hint = suggest(kind_name, kinds)
        raise HandError(f"unknown meld kind {kind_name!r}" + (f" ({hint})" if hint else "")
                        + f"; {spec.name} allows: " + ", ".join(kinds))
    kind = kinds[kind_name]
    tiles = tuple(sorted(parse_tiles(tiles_text, spec.notation())))
    if not _meld_shape_ok(spec, kind, tiles, sets):
        raise HandError(f"{text!r} is not a {kind_name}: " + _meld_shape_rule(spec, kind, sets))
    return Meld(kind, tiles)


def _meld_shape_ok(spec: ir.Spec, kind: ir.MeldKind, tiles: tuple[int, ...],
                   sets: Mapping[str, frozenset[int]]) -> bool:
    if kind.shape == "fixed":
        return tiles == kind.tiles
    if kind.shape == "one_of":
        return len(tiles) == 1 and tiles[0] in _set_tiles(spec, kind.tileset, sets)
    if kind.shape == "pung":
        return len(tiles) == 3 and len(set(tiles)) == 1
    if kind.shape == "kong":
        return len(tiles) == 4 and len(set(tiles)) == 1
    first = spec.tiles[tiles[0]] if len(tiles) == 3 else None
    return (first is not None and first.numbered and all(
        t < len(spec.tiles) and spec.tiles[t].suit == first.suit and spec.tiles[t].rank == first.rank + i
        for i, t in enumerate(tiles)))


def _set_tiles(spec: ir.Spec, name: str | None, sets: Mapping[str, frozenset[int]]) -> frozenset[int]:
    return sets[name] if name in sets else spec.tileset(name).tiles  # type: ignore[arg-type]


def _meld_shape_rule(spec: ir.Spec, kind: ir.MeldKind, sets: Mapping[str, frozenset[int]]) -> str:
    if kind.shape == "fixed":
        return "it is exactly " + "".join(spec.tiles[t].code for t in kind.tiles)
    if kind.shape == "one_of":
        tiles = sorted(_set_tiles(spec, kind.tileset, sets))
        per_hand = " (chosen by the indicator)" if spec.tileset(kind.tileset).per_hand else ""  # type: ignore[arg-type]
        return (f"it is one tile of {kind.tileset}{per_hand}: "
                + (" or ".join(spec.tiles[t].code for t in tiles) if tiles else "none in this hand"))
    return {"pung": "three identical tiles", "kong": "four identical tiles",
            "chow": "three consecutive tiles of one numbered suit"}[kind.shape]


def _context_value(spec: ir.Spec, key: ir.ContextKey, value: object) -> object:
    name = key.name
    if key.kind == "flag":
        if not isinstance(value, bool):
            raise HandError(f"{name!r} is true or false, not {value!r}")
    elif key.kind == "wind":
        if value not in WINDS:
            raise HandError(f"{name!r} is one of E, S, W, N, not {value!r}")
    elif key.kind == "seat":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < spec.players:
            raise HandError(f"{name!r} is a seat from 0 to {spec.players - 1}, not {value!r}")
    elif key.kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise HandError(f"{name!r} is a whole number from 0, not {value!r}")
    elif key.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not key.low <= value <= key.high:
            raise HandError(f"{name!r} is a whole number from {key.low} to {key.high}, not {value!r}")
    elif key.kind == "tiles":
        parse_tiles(value, spec.notation())  # type: ignore[arg-type]
    elif key.kind == "seats":
        if not isinstance(value, list | tuple) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < spec.players for s in value):
            raise HandError(f"{name!r} is a list of seats from 0 to {spec.players - 1}, not {value!r}")
    elif key.kind == "melds_by_seat" and not isinstance(value, Mapping):
        raise HandError(f"{name!r} maps seats to lists of melds, e.g. {{\"1\": [\"pung 111m\"]}}")
    return value


def _other_melds(spec: ir.Spec, value: object, sets: Mapping[str, frozenset[int]]) -> dict[int, tuple[Meld, ...]]:
    others: dict[int, tuple[Meld, ...]] = {}
    for seat_text, melds in dict(value).items():  # type: ignore[call-overload]
        try:
            seat = int(seat_text)
        except (TypeError, ValueError):
            raise HandError(f"'other_melds' is keyed by seat number, not {seat_text!r}") from None
        if not 0 <= seat < spec.players:
            raise HandError(f"'other_melds': seat {seat} does not exist")
        others[seat] = tuple(read_meld(spec, m, sets) for m in _list(melds, "other_melds"))
    return others


def read_options(spec: ir.Spec, given: object) -> dict[str, object]:
    if not isinstance(given, Mapping):
        raise HandError("'options' is an object of option names and values")
    options = {o.name: o.default for o in spec.options}
    for name, value in given.items():
        if name not in options:
            hint = suggest(str(name), options)
            raise HandError(f"unknown option {name!r}" + (f" ({hint})" if hint else "")
                            + (f"; {spec.name} has: " + ", ".join(options) if options else f"; {spec.name} has none"))
        if type(value) is not type(options[name]):
            raise HandError(f"option {name!r} takes a value like {options[name]!r}, not {value!r}")
        options[name] = value
    return options


def check_copies(spec: ir.Spec, counts: Counter[int], lead: str = "") -> None:
    """No tile more often than the set has it; `lead` says whose tiles they are."""
    for index, n in sorted(counts.items()):
        tile = spec.tiles[index]
        if n > tile.copies:
            raise HandError(f"{lead}{n} copies of {tile.code} ({tile.name}); the set has {tile.copies}")


def _check_counts(spec: ir.Spec, concealed: tuple[int, ...], win: int | None, melds: tuple[Meld, ...],
                  others: Mapping[int, tuple[Meld, ...]]) -> None:
    counts = Counter(concealed)
    if win is not None:
        counts[win] += 1
    for meld in melds + tuple(m for ms in others.values() for m in ms):
        counts.update(meld.tiles)
    check_copies(spec, counts)
    sets = [m for m in melds if not m.kind.aside]  # a tile laid aside is replaced: the hand keeps its count
    expected = spec.hand_size - 1 - 3 * len(sets)
    if len(concealed) != expected:
        with_win = " before the winning tile" if win is not None else ""
        raise HandError(f"the hand has {len(concealed)} concealed tiles{with_win}; with {len(sets)} "
                        f"meld(s) it must have {expected}")
