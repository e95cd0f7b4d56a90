"""The tables of a checker module (tables.pyx.j2): the spec's tiles, texts, tile sets, meld kinds, case keys,
options and shapes, with the C names its rules read them by."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from dsl import vocabulary
from dsl.compiled import CodegenError, names
from dsl.compiled.layout import mask
from dsl.frontend import ir
from dsl.interp.decompose import knitted_straights
from dsl.vocabulary import GROUP_KINDS, LIMIT, MELD_SHAPES, RUNTIME_LIMITS, SHAPES, WAITS

KEY_KINDS = {"flag": "KEY_FLAG", "count": "KEY_COUNT", "seat": "KEY_SEAT", "wind": "KEY_WIND", "tiles": "KEY_TILES",
             "melds_by_seat": "KEY_OTHER_MELDS", "seats": "KEY_SEATS", "int": "KEY_INT"}
NO_TEXT = "NO_TEXT"  # the empty text: the wait of a reading that has none
LETTERS = "abcdefghijklmnopqrstuvwxyz"  # suit letters of tile codes (dsl.notation)


@dataclass
class TileSet:
    c_name: str
    tiles: int  # mask
    comment: str


@dataclass
class HandSet:
    """A tile set chosen per hand by indicator tiles (ir.TileSet.indicated)."""

    index: int
    name: str
    tiles: int  # mask of its fixed tiles
    removed: int  # mask of the tiles taken away
    terms: list[tuple[int, int]]  # (indicator key slot, steps along the order)


@dataclass
class MeldKind:
    index: int
    name: str
    shape: str  # SHAPE_CHOW, SHAPE_PUNG, SHAPE_KONG, SHAPE_FIXED, SHAPE_ONE_OF
    group_kind: str
    concealed: bool
    opens: bool
    tiles: int  # mask of a fixed kind's tiles (of a one-of kind's tile set, when known from the spec)
    size: int
    aside: bool = False  # a single tile laid aside: no set
    per_hand: int = -1  # a one-of kind's tile set chosen by indicators: its index in Hand.sets


@dataclass
class Slot:
    """A context key's or an option's slot in a case's hand, as a C constant named after it."""

    name: str
    slot: int
    prefix: ClassVar[str]

    @property
    def c_name(self) -> str:
        return names.named(self.prefix, self.name, self.slot)

    @property
    def spelled(self) -> bool:
        return names.spelled(self.name)


@dataclass
class ContextKey(Slot):
    kind: str  # KEY_FLAG, ...
    low: int = 0  # KEY_INT: the range of its values
    high: int = 0
    prefix: ClassVar[str] = names.CONTEXT


@dataclass
class Option(Slot):
    default: int
    python_type: str  # "bool", "int", "str"
    prefix: ClassVar[str] = names.OPTION


@dataclass
class Tables:
    spec: ir.Spec
    texts: list[tuple[str, str]] = field(default_factory=list)  # (C name, value)
    group_kinds: list[tuple[str, str]] = field(default_factory=list)  # (C name, kind)
    tilesets: list[TileSet] = field(default_factory=list)
    hand_sets: list[HandSet] = field(default_factory=list)
    wild_sets: list[int] = field(default_factory=list)  # indices into hand_sets of the wild tile sets
    meld_kinds: list[MeldKind] = field(default_factory=list)
    context: list[ContextKey] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    shapes: list[tuple[str, bool]] = field(default_factory=list)  # (shape, chows)
    wind_tiles: list[int] = field(default_factory=list)
    knitted: list[list[int]] = field(default_factory=list)  # the knitted straights, in dsl.interp.decompose's order

    @classmethod
    def of(cls, spec: ir.Spec) -> Tables:
        tables = cls(spec)
        tables._check_sizes()
        tables._names()
        tables._tile_sets()
        tables._meld_kinds()
        tables._keys()
        tables._shapes()
        return tables

    # -- building

    def _check_sizes(self) -> None:
        """The spec fits the sizes of the shared runtime."""
        spec = self.spec
        if len(spec.tiles) > RUNTIME_LIMITS["MAX_TILES"]:
            raise CodegenError(f"{spec.path}: {len(spec.tiles)} kinds of tile; the compiled checker keeps tile sets "
                               "as 64-bit masks")
        if spec.cap is not None and spec.cap > LIMIT:
            raise CodegenError(f"{spec.path}: a cap of {spec.cap} is beyond what the compiled checker holds")
        sizes = {  # what is counted: (how many the spec has, the runtime's limit)
            "players": (spec.players, "MAX_PLAYERS"), "hand_size": (spec.hand_size, "MAX_HAND"),
            "melds": (self.max_melds(), "MAX_MELDS"), "meld_tiles": (self._max_meld_tiles(), "MELD_TILES"),
            "fans": (len(spec.patterns) + len(spec.loser_patterns), "MAX_FANS"),
            "context": (len(spec.context), "MAX_CONTEXT"), "options": (len(spec.options), "MAX_OPTIONS"),
            "indicator_keys": (len(self.indicator_keys()), "MAX_INDICATOR_KEYS"),
            "hand_sets": (len(spec.per_hand_tilesets()), "MAX_HAND_SETS"),
            "set_terms": (max([len(ts.indicated) for ts in spec.per_hand_tilesets()] or [0]), "MAX_SET_TERMS"),
            "scores": (len(spec.score), "MAX_SCORES"), "meld_kinds": (len(spec.meld_kinds), "MAX_MELD_KINDS"),
            "shapes": (len(spec.shapes), "MAX_SHAPES"), "let_values": (let_slots(spec), "MAX_LETS")}
        for name, (size, limit) in sizes.items():
            if size > RUNTIME_LIMITS[limit]:
                raise CodegenError(f"{spec.path}: {size} {name.replace('_', ' ')}; the compiled checker holds at "
                                   f"most {RUNTIME_LIMITS[limit]}")

    def _names(self) -> None:
        """The texts (the runtime's shapes and waits first, in its order) and the kinds of group."""
        spec = self.spec
        texts = [*SHAPES, *WAITS, *(s.code for s in spec.suits), "",
                 *(o.default for o in spec.options if isinstance(o.default, str)), *(s.name for s in spec.shape_rules)]
        for value in dict.fromkeys(texts):
            self.texts.append((NO_TEXT if value == "" else names.named(names.TEXT, value, len(self.texts)), value))
        own = [k.name for k in spec.meld_kinds if k.shape in ("fixed", "one_of")]
        self.group_kinds = [(kind.upper(), kind) for kind in GROUP_KINDS]
        for kind in dict.fromkeys(k for k in own if k not in GROUP_KINDS):
            self.group_kinds.append((names.named(names.MELD_KIND, kind, len(self.group_kinds)), kind))

    def _tile_sets(self) -> None:
        keys = self.indicator_keys()
        for ts, c_name in zip(self.spec.tilesets, names.tile_set_names(self.spec.tilesets), strict=True):
            english = f" ({ts.english})" if ts.english and ts.english != ts.name else ""
            self.tilesets.append(TileSet(c_name, mask(ts.tiles), ts.name + english))
            if ts.per_hand:
                self.hand_sets.append(HandSet(len(self.hand_sets), ts.name, mask(ts.tiles), mask(ts.removed),
                                              [(keys.index(key), step) for key, step in ts.indicated]))
        self.wild_sets = [next(h.index for h in self.hand_sets if h.name == name) for name in self.spec.wilds]

    def _meld_kinds(self) -> None:
        for i, kind in enumerate(self.spec.meld_kinds):
            if kind.shape not in MELD_SHAPES:
                raise CodegenError(f"{self.spec.path}: meld kind {kind.name!r} has a shape ({kind.shape!r}) the "
                                   "compiled checker does not know")
            group = kind.name if kind.shape in ("fixed", "one_of") else kind.shape
            size = {"chow": 3, "pung": 3, "kong": 4, "one_of": 1}.get(kind.shape, len(kind.tiles))
            tiles, per_hand = mask(kind.tiles), -1
            if kind.shape == "one_of":
                tiles = mask(self.spec.tileset(kind.tileset).tiles)  # type: ignore[arg-type]
                per_hand = next((h.index for h in self.hand_sets if h.name == kind.tileset), -1)
            self.meld_kinds.append(MeldKind(i, kind.name, f"SHAPE_{kind.shape.upper()}", self.group_kind(group),
                                            kind.concealed, kind.opens, tiles, size, kind.aside, per_hand))

    def _keys(self) -> None:
        """The spec's context keys and options, each in its slot."""
        spec = self.spec
        for key in spec.context:
            if key.kind not in KEY_KINDS:
                raise CodegenError(f"{spec.path}: context key {key.name!r} is of a kind ({key.kind!r}) the compiled "
                                   "checker does not read")
            if key.kind == "int" and not -LIMIT <= key.low <= key.high <= LIMIT:
                raise CodegenError(f"{spec.path}: the range of context key {key.name!r} is beyond what the compiled "
                                   "checker holds")
            self.context.append(ContextKey(key.name, len(self.context), KEY_KINDS[key.kind], key.low, key.high))
        for i, option in enumerate(spec.options):
            kind = type(option.default).__name__
            default = self.text(option.default) if kind == "str" else int(option.default)
            self.options.append(Option(option.name, i, default, kind))

    def _shapes(self) -> None:
        spec = self.spec
        for shape in spec.shapes:
            if shape.name not in SHAPES:
                raise CodegenError(f"{spec.path}: the compiled checker does not know the shape {shape.name!r}")
            self.shapes.append((shape.name, shape.chows))
        winds = [t.index for t in spec.tiles if not t.numbered]
        self.wind_tiles = [winds[i] if i < len(winds) else -1 for i in range(len(vocabulary.WINDS))]
        self.knitted = self._knitted_straights()

    def _knitted_straights(self) -> list[list[int]]:
        """The knitted sequences of dsl.interp.decompose, checked to exist in this spec's tiles."""
        suits = [s.code for s in self.spec.suits if s.numbered]
        if len(suits) != 3 or not self.knitted_shapes():
            return []
        codes = self.spec.notation()
        wanted = [f"{rank}{suit}" for suit in suits for rank in range(1, 10)]
        if any(code not in codes for code in wanted):
            raise CodegenError(f"{self.spec.path}: knitted shapes need ranks 1 to 9 in suits " + ", ".join(suits))
        return [list(sequence) for sequence in knitted_straights(self.spec)]

    # -- names the rules read

    def text(self, value: str) -> str:
        return next(name for name, v in self.texts if v == value)

    def group_kind(self, name: str) -> str:
        return next(c_name for c_name, v in self.group_kinds if v == name)

    def tile_set(self, name: str) -> str:
        """What a rule reads a tile set by: its mask, or for a set chosen per hand the hand's copy of it."""
        hand_set = next((h for h in self.hand_sets if h.name == name), None)
        if hand_set is not None:
            return f"c.h.sets[{hand_set.index}]"
        return next(t.c_name for ts, t in zip(self.spec.tilesets, self.tilesets, strict=True) if ts.name == name)

    def context_key(self, name: str) -> ContextKey:
        return next(k for k in self.context if k.name == name)

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    def indicator_keys(self) -> list[str]:
        """The context keys of indicator tiles (dora, ura): a case's tiles are kept per key."""
        return [k.name for k in self.spec.context if k.kind == "tiles"]

    # -- tables the templates write

    @property
    def own_texts(self) -> list[tuple[int, str, str]]:
        """(value, C name, text) of the texts after the runtime's own."""
        first = len(SHAPES) + len(WAITS)
        return [(first + i, name, value) for i, (name, value) in enumerate(self.texts[first:])]

    @property
    def own_group_kinds(self) -> list[tuple[int, str, str]]:
        """(value, C name, kind) of the spec's own meld kinds as kinds of group."""
        first = len(GROUP_KINDS)
        return [(first + i, name, kind) for i, (name, kind) in enumerate(self.group_kinds[first:])]

    @property
    def max_set_terms(self) -> int:
        return RUNTIME_LIMITS["MAX_SET_TERMS"]

    def int_keys(self) -> list[ContextKey]:
        return [k for k in self.context if k.kind == "KEY_INT"]

    def context_slot(self, name: str) -> int:
        return next((k.slot for k in self.context if k.name == name), -1)

    def no_seat_slots(self) -> list[int]:
        """Per context slot: 1 for a seat key that is -1 when absent (not seat, dealer nor discarder)."""
        return [int(k.kind == "KEY_SEAT" and k.name not in ("seat", "dealer", "discarder")) for k in self.context]

    def key_indicators(self) -> list[int]:
        keys = self.indicator_keys()
        return [keys.index(k.name) if k.name in keys else -1 for k in self.spec.context]

    def max_melds(self) -> int:
        """Declared melds a case may hold: the sets, and with tiles laid aside every copy of those tiles."""
        sets = max((self.spec.hand_size - 1) // 3, 1)
        aside = [k for k in self.spec.meld_kinds if k.aside]
        if not aside:
            return sets
        tiles: set[int] = set()
        for k in aside:
            tiles |= self._aside_tiles(k)
        return sets + sum(self.spec.tiles[t].copies for t in tiles)

    def _aside_tiles(self, kind: ir.MeldKind) -> set[int]:
        """The tiles a kind laid aside may be: its own, its fixed tile set's, or (chosen per hand) any tile."""
        if kind.shape == "fixed":
            return set(kind.tiles)
        tileset = next((t for t in self.spec.tilesets if t.name == kind.tileset), None)
        if tileset is not None and not tileset.per_hand:
            return set(tileset.tiles)
        return set(range(len(self.spec.tiles)))

    def _max_meld_tiles(self) -> int:
        return max([4] + [len(k.tiles) for k in self.spec.meld_kinds if k.shape == "fixed"])

    def tile_suits(self) -> list[str]:
        return [self.text(t.suit) for t in self.spec.tiles]

    def tile_codes(self) -> list[tuple[str, int, int, int, bool]]:
        """(letter, base, low, high, flowers) per suit letter a..z: the tile written `dX` is base + d for
        low <= d <= high (dsl.notation reads a digit, then a letter from a to z; a suit's tiles are in order)."""
        rows = []
        for letter in LETTERS:
            suit = next((s for s in self.spec.suits if s.code == letter), None)
            tiles = [self.spec.tiles[i] for i in suit.tiles] if suit else []
            digits = [int(t.code[:-1]) for t in tiles]
            if tiles and any(d - digits[0] != t.index - tiles[0].index or not 0 <= d <= 9
                             for d, t in zip(digits, tiles, strict=True)):
                raise CodegenError(f"{self.spec.path}: the tiles of suit {letter!r} are not numbered 0..9 in order")
            if suit is not None and tiles:
                rows.append((letter, tiles[0].index - digits[0], digits[0], digits[-1], suit.flowers))
            else:
                rows.append((letter, 0, 1, 0, False))
        return rows

    def red_fives(self) -> list[int]:
        """Per suit letter a..z: the tile a red five (written with a 0) is, -1 when none."""
        red = dict(self.spec.red_tiles)
        return [red.get(f"0{letter}", -1) for letter in LETTERS]

    def knitted_shapes(self) -> bool:
        return any(shape in ("knitted_straight", "honors_and_knitted") for shape, _ in self.shapes)

    def near(self) -> list[int]:
        """Per tile: itself and the tiles of its numbered suit within two ranks (a group it can join)."""
        tiles = self.spec.tiles
        return [mask([t.index] + [u.index for u in tiles if t.numbered and u.numbered and u.suit == t.suit
                                  and abs(u.rank - t.rank) <= 2]) for t in tiles]

    def completing(self) -> int:
        """Tiles that can complete a hand without joining a held tile: orphans, honors, knitted straights;
        any tile with a spec's own shape (its condition may hold whatever the tile)."""
        if self.spec.shape_rules:
            return self.all_tiles()
        shapes = {shape for shape, _ in self.shapes}
        tiles = mask(self.orphans()) if "thirteen_orphans" in shapes else 0
        if "honors_and_knitted" in shapes:
            tiles |= mask(t.index for t in self.spec.tiles if not t.numbered)
        if self.knitted_shapes():
            tiles |= mask(t for straight in self.knitted for t in straight)
        return tiles

    def all_tiles(self) -> int:
        return mask(t.index for t in self.spec.tiles)

    def numbered(self) -> int:
        return mask(t.index for t in self.spec.tiles if t.numbered)

    def orphans(self) -> list[int]:
        """decompose._orphans: ranks 1 and 9 of numbered suits and every honor, flowers aside."""
        flower_suits = {s.code for s in self.spec.suits if s.flowers}
        return [t.index for t in self.spec.tiles
                if t.suit not in flower_suits and (not t.numbered or t.rank in (1, 9))]

    def chow_starts(self) -> list[int]:
        """decompose._chow_from, its part that depends on the tiles only."""
        tiles = self.spec.tiles
        return [int(t.numbered and t.index + 2 < len(tiles) and tiles[t.index + 1].suit == tiles[t.index + 2].suit
                    == t.suit and tiles[t.index + 2].rank == t.rank + 2) for t in tiles]

    def flowers(self) -> int:
        flower_suits = {s.code for s in self.spec.suits if s.flowers}
        return mask(t.index for t in self.spec.tiles if t.suit in flower_suits)

    def suit_bits(self) -> list[int]:
        """Per tile: a bit of its numbered suit, for `suits` (0 for other tiles)."""
        codes = list(dict.fromkeys(t.suit for t in self.spec.tiles if t.numbered))
        return [1 << codes.index(t.suit) if t.numbered else 0 for t in self.spec.tiles]


def let_slots(spec: ir.Spec) -> int:
    """Slots of Ctx.let_value the spec's `let`s take (model.Binding): one per top-level and `score:` let, one per
    player for each settlement let."""
    settled = len(spec.settlement.bindings) if spec.settlement is not None else 0
    return len(spec.definitions) + len(spec.score) + RUNTIME_LIMITS["MAX_PLAYERS"] * settled
