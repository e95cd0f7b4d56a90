"""A case of docs/interface.md (JSON object) -> a validated Hand; every problem is a HandError naming it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dsl.cases.limits import check_case_size
from dsl.frontend import ir
from dsl.frontend.source import suggest
from dsl.notation import HandError, parse_tiles, tile_codes
from dsl.vocabulary import FLOWERS_OF_A_FULL_SET, INDICATOR_LIMITS, STRUCTURAL_KEYS, WINDS


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
    """A case (docs/interface.md) read for a spec: keys, tiles, melds, copies, tile count, options and context
    checked. A context no table can produce is refused too (refuse_impossible, whose docstring lists each
    rule): 杠上开花 without a kong or on a discard, 抢杠 self-drawn or of a tile the winner shows, more
    flowers than the set has, a seat wind that disagrees with `seat` and `dealer`, `last_tile` with
    `first_turn`, riichi on an open hand, a discarder who is the winner or has left (`out`), more
    indicator tiles than are turned up. Every problem is a HandError naming the keys."""
    check_case_size(case)
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
    wild = frozenset(t for name in spec.wilds for t in sets[name])
    hand = Hand(concealed, win, melds, context, options, others, red, seat, dealer, discarder, sets, wild,
                win_aside)
    refuse_impossible(spec, hand)
    return hand


def without_win(case: object) -> object:
    """A case as `waits` reads it: without its winning tile. Anything but an object is left as it is, for
    read_case to refuse."""
    if not isinstance(case, Mapping):
        return case
    return {key: value for key, value in case.items() if key != "win"}


# ---------------------------------------------------------------- contexts that cannot happen


def refuse_impossible(spec: ir.Spec, hand: Hand) -> None:
    """Refuse a context no table can produce, with a HandError naming the keys. A key the case leaves out
    is false (a flag) or its default; each rule applies to every spec that reads the keys.

    Seats: a seat wind is one of the table's (E S W for 3 players); `seat`, `dealer` and `seat_wind`, when
    all given (`dealer` 0 when left out), agree: the winner's seat wind is E for the dealer and then
    goes round in seat order; `other_melds` are the other players' melds, not the winner's.
    Discarder: not the winner, none on a self-drawn win, not a seat that has left (`out`), whether given
    or by default the seat before the winner (a case without a winning tile has a discarder only when
    given); `out` names each seat once and leaves at least the winner and one player to pay.
    Flowers: `flowers` at most the spec's flower tiles (8 when it declares none: 春夏秋冬梅兰竹菊).
    Kongs: `kong_replacement` (杠上开花) is self-drawn and needs a kong, or a tile laid aside, among the
    winner's melds; `robbing_kong` (抢杠) is won on a discard (so never with `kong_replacement`), and
    the robbed player holds the other copies of the winning tile: the winner and the other seats of
    `other_melds` show none.
    Turns: `last_tile` is not also `first_turn`.
    Riichi: `ippatsu` needs `riichi` or `double_riichi`; neither is declared on an open hand (a concealed
    kong leaves it closed) nor before a `first_turn` win (riichi is declared with a discard).
    Indicator tiles are counted as their key is read (INDICATOR_LIMITS): one `indicator`, at most 5 `dora`
    and 5 `ura`.
    """
    for rule in IMPOSSIBLE_RULES:
        rule(spec, hand)


def flower_limit(spec: ir.Spec) -> int:
    """The most flowers a case may declare: the spec's flower tiles, or a full set's when it declares none."""
    declared = sum(spec.tiles[t].copies for t in spec.flower_tiles())
    return declared or FLOWERS_OF_A_FULL_SET


def possible_seats(spec: ir.Spec, hand: Hand) -> None:
    context = hand.context
    if "seat_wind" in context:
        wind = str(context["seat_wind"])
        if WINDS.index(wind) >= spec.players:
            raise HandError(wind_not_at_table(wind, spec.players))
        if "seat" in context and (hand.seat - hand.dealer) % spec.players != WINDS.index(wind):
            raise HandError(seats_disagree(hand.seat, hand.dealer, "dealer" in context, wind, spec.players))
    if hand.seat in hand.other_melds:
        raise HandError(own_seat_in_other_melds(hand.seat))


def possible_discarder(spec: ir.Spec, hand: Hand) -> None:
    context = hand.context
    if hand.self_drawn and "discarder" in context:
        raise HandError(discarder_on_self_draw(context["discarder"]))
    if hand.discarder == hand.seat:
        raise HandError(discarder_is_winner(hand.seat))
    out = list(context.get("out", ()))  # type: ignore[call-overload]
    if len(set(out)) != len(out):
        raise HandError(f"'out' names a seat twice: {out}")
    if hand.seat in out:
        raise HandError(f"seat {hand.seat} has left the hand ('out'); it cannot win")
    if hand.discarder in out and (hand.win is not None or "discarder" in context):  # a hand still waiting has none
        given = "'discarder'" if "discarder" in context else "the seat before the winner, as 'discarder' is not given"
        raise HandError(f"the discarder, seat {hand.discarder} ({given}), has left the hand ('out'); "
                        "it cannot discard")
    if len(out) > spec.players - 2:
        raise HandError(f"'out' names {len(out)} seats; the winner and at least one player who pays are still in")


def possible_flowers(spec: ir.Spec, hand: Hand) -> None:
    flowers = hand.context.get("flowers", 0)
    if flowers > flower_limit(spec):  # type: ignore[operator]
        raise HandError(too_many_flowers(flowers, flower_limit(spec)))


def possible_kong_win(spec: ir.Spec, hand: Hand) -> None:
    context = hand.context
    if context.get("kong_replacement", False):
        if not hand.self_drawn:
            raise HandError(KONG_REPLACEMENT_ON_A_DISCARD)
        if not any(m.kind.shape == "kong" or m.kind.aside for m in hand.melds):
            raise HandError(KONG_REPLACEMENT_WITHOUT_A_KONG)
    if context.get("robbing_kong", False):
        if hand.self_drawn:
            raise HandError(ROBBING_KONG_SELF_DRAWN)
        if hand.win is not None:
            _robbed_tile_unshown(spec, hand, hand.win)


def _robbed_tile_unshown(spec: ir.Spec, hand: Hand, robbed: int) -> None:
    """The robbed player shows the other copies of a robbed tile: nobody else may show one."""
    held = hand.tiles.count(robbed) - 1
    if held:
        raise HandError(robbed_tile_held(held, spec.tiles[robbed].code))
    for seat, melds in hand.other_melds.items():
        if seat != hand.discarder and any(robbed in m.tiles for m in melds):
            raise HandError(robbed_tile_shown(seat, spec.tiles[robbed].code, hand.discarder))  # type: ignore[arg-type]


def possible_turns(spec: ir.Spec, hand: Hand) -> None:
    if hand.context.get("last_tile", False) and hand.context.get("first_turn", False):
        raise HandError(LAST_TILE_ON_THE_FIRST_TURN)


def possible_riichi(spec: ir.Spec, hand: Hand) -> None:
    context = hand.context
    declared = [key for key in RIICHI_KEYS if context.get(key, False)]
    if context.get("ippatsu", False) and not declared:
        raise HandError(IPPATSU_WITHOUT_RIICHI)
    if not declared:
        return
    opening = [m for m in hand.melds if m.kind.opens]
    if opening:
        codes = "".join(spec.tiles[t].code for t in opening[0].tiles)
        raise HandError(riichi_on_an_open_hand(declared, opening[0].kind.name, codes))
    if context.get("first_turn", False):
        raise HandError(riichi_on_the_first_turn(declared))


# The rules of refuse_impossible, in the order they are applied (the first that fails names the problem). The
# compiled checkers decide them in C in this order, and hand read_case a case whose answer they cannot be sure of
# (tests/test_impossible_cases.py).
IMPOSSIBLE_RULES = (possible_seats, possible_discarder, possible_flowers, possible_kong_win, possible_turns,
                    possible_riichi)


# ---------------------------------------------------------------- the words of each refusal
# The compiled checkers decide the same rules in C from the values their reader keeps (dsl/runtime/core.pyx,
# Checker.refused_by) and word each refusal with these, so both back ends say the same.

KONG_REPLACEMENT_ON_A_DISCARD = ("'kong_replacement' is a self-drawn win (the replacement tile is drawn); "
                                 "'self_drawn' is not set")
KONG_REPLACEMENT_WITHOUT_A_KONG = ("'kong_replacement': no kong among the winner's 'melds'; a replacement tile is "
                                   "drawn only after a kong")
ROBBING_KONG_SELF_DRAWN = "'robbing_kong' is won on another player's kong, not self-drawn ('self_drawn')"
LAST_TILE_ON_THE_FIRST_TURN = ("'last_tile' and 'first_turn' cannot both be set: the wall is not used up on the "
                               "first turn")
IPPATSU_WITHOUT_RIICHI = "'ippatsu' needs 'riichi' or 'double_riichi': it is a win soon after declaring riichi"
RIICHI_KEYS = ("riichi", "double_riichi")  # the keys that declare riichi, in the order a refusal names them


def wind_not_at_table(wind: str, players: int) -> str:
    return f"'seat_wind' {wind}: a table of {players} has the seat winds " + ", ".join(WINDS[:players])


def seats_disagree(seat: int, dealer: int, dealer_given: bool, wind: str, players: int) -> str:
    named = f"'dealer' {dealer}" if dealer_given else f"the dealer (seat {dealer} by default)"
    return (f"'seat' {seat}, {named} and 'seat_wind' {wind} disagree: with that dealer seat {seat} sits "
            f"{WINDS[(seat - dealer) % players]}")


def own_seat_in_other_melds(seat: int) -> str:
    return f"'other_melds' names seat {seat}, the winner's own seat; they are the other players' melds"


def discarder_on_self_draw(discarder: object) -> str:
    return f"'discarder' {discarder} on a self-drawn win ('self_drawn'): nobody discarded the winning tile"


def discarder_is_winner(seat: int) -> str:
    return f"the discarder (seat {seat}) cannot be the winner ('discarder', 'seat')"


def too_many_flowers(flowers: object, limit: int) -> str:
    return f"'flowers' {flowers}: the set has {limit} flower tiles"


def robbed_tile_held(held: int, code: str) -> str:
    return (f"'robbing_kong': the winner already holds {held} {code} besides the winning tile; the robbed kong "
            "holds the other copies")


def robbed_tile_shown(seat: int, code: str, discarder: int) -> str:
    return (f"'robbing_kong': seat {seat} ('other_melds') shows {code}; the robbed kong of seat {discarder} "
            "('discarder') holds the other copies")


def riichi_on_an_open_hand(declared: Sequence[str], kind: str, codes: str) -> str:
    """`declared`: the keys of RIICHI_KEYS set; the first opening meld, its kind and its tiles' codes."""
    return (f"{_riichi_keys(declared)} on an open hand ('melds': {kind} {codes}): riichi is declared with a "
            "concealed hand")


def riichi_on_the_first_turn(declared: Sequence[str]) -> str:
    return f"{_riichi_keys(declared)} with 'first_turn': riichi is declared with a discard, so the first turn is over"


def _riichi_keys(declared: Sequence[str]) -> str:
    return " and ".join(repr(key) for key in declared)


# ---------------------------------------------------------------- the context keys


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
        if not isinstance(value, str) or value not in WINDS:
            raise HandError(f"{name!r} is one of E, S, W, N, not {value!r}")
        return WINDS[WINDS.index(value)]  # a str subclass (an enum.StrEnum) reads as the plain str it equals
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
        indicators = parse_tiles(value, spec.notation())  # type: ignore[arg-type]
        limit = INDICATOR_LIMITS.get(name)
        if limit is not None and len(indicators) > limit:
            raise HandError(f"{name!r} holds at most {limit} indicator tile{'s' if limit > 1 else ''}, "
                            f"not {len(indicators)} ({value})")
        return str.__str__(value)  # the plain str of a str subclass, as the compiled reader takes only those
    elif key.kind == "seats":
        if not isinstance(value, list | tuple) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < spec.players for s in value):
            raise HandError(f"{name!r} is a list of seats from 0 to {spec.players - 1}, not {value!r}")
    elif key.kind == "melds_by_seat" and not isinstance(value, Mapping):
        raise HandError(f"{name!r} maps seats to lists of melds, e.g. {{\"1\": [\"pung 111m\"]}}")
    return value


def _other_melds(spec: ir.Spec, value: object, sets: Mapping[str, frozenset[int]]) -> dict[int, tuple[Meld, ...]]:
    others: dict[int, tuple[Meld, ...]] = {}
    for key, melds in dict(value).items():  # type: ignore[call-overload]
        seat = seat_key(key, spec.players, "other_melds")
        if seat in others:
            raise HandError(f"'other_melds' names seat {seat} twice; each seat's melds are given once")
        others[seat] = tuple(read_meld(spec, m, sets) for m in _list(melds, "other_melds"))
    return others


def seat_key(key: object, players: int, name: str) -> int:
    """The seat an object key names: "0" up to the table's last seat, as JSON writes it (or the int itself from
    Python). "01", " 2 ", "+3", "１" and a seat the table lacks are refused: each seat has one key."""
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < players:
        return key
    if isinstance(key, str) and key in (str(seat) for seat in range(players)):
        return int(key)
    raise HandError(f"{name!r} is keyed by seat, \"0\" to \"{players - 1}\", not {key!r}")


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
