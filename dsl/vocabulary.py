"""The names and sizes every stage of mjdsl shares: the front end checks specs against them, the case reader
reads cases with them, both back ends and the book are built on them.

This module imports nothing of dsl, so that any stage (the shared runtime of the compiled checkers included)
may read it. What the C runtime holds in its own enums (dsl/runtime/core.pxd: the limits, the `Text`,
`GroupKind`, `MeldShape`, `KeyKind` and `Source` orders) must equal what is written here;
tests/test_vocabulary.py checks that they do.
"""

from __future__ import annotations

# ---------------------------------------------------------------- the language

# The built-in shapes of a hand and the waits a winning tile completes, in the order of core.pxd's `Text`.
SHAPES = ("standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight", "loose")
WAITS = ("edge", "closed", "single", "two_sided", "pung_wait", "knitted")
WILD_SHAPES = ("standard", "loose")  # the shapes in which a wild tile may stand for another

# Accounting principles. Only the combining ones change what is computed (dsl.interp.combinations); the others
# state how the spec's 不计 lists were written.
COMBINING_PRINCIPLES = ("套算一次", "不得相同")
PRINCIPLES = ("不重复", "不拆移", "不得相同", "套算一次", "就高不就低")

# The chapters of the rules of play a spec writes in prose (`rules setup "准备" "Setup":`), in the order a rule book
# prints them: which rules it follows, equipment, setup, play, winning, the end of a hand, dealer rotation and the
# end of the match, scoring, irregularities and penalties, referee procedure, glossary.
RULE_SECTIONS = ("source", "equipment", "setup", "play", "winning", "end", "rotation", "scoring", "penalties",
                 "referee", "glossary")

WINDS = ("E", "S", "W", "N")  # seat and prevailing winds, in seat order from the dealer

# The shapes of meld kinds, in the order of core.pxd's `MeldShape`: the built-in kinds check a set's shape,
# a spec's own kinds are fixed tiles or one tile of a tile set.
MELD_SHAPES = ("chow", "pung", "kong", "fixed", "one_of")
# The built-in meld kinds: name -> (English, shape, concealed, opens the hand).
BUILTIN_MELDS = {
    "chow": ("Chow", "chow", False, True),
    "pung": ("Pung", "pung", False, True),
    "kong": ("Exposed kong", "kong", False, True),
    "added_kong": ("Kong added to a pung", "kong", False, True),
    "concealed_kong": ("Concealed kong", "kong", True, False),
}
# What a group of a decomposition is, in the order of core.pxd's `GroupKind`; a spec's own meld kinds follow.
GROUP_KINDS = ("chow", "pung", "kong", "pair", "single", "knitted", "wild")

# What `count`, `all`, `any` and `sum` look through: source -> the kind of its elements.
SOURCES = {
    "tiles": "tile", "groups": "group", "sets": "group", "chows": "group", "pungs": "group",
    "kongs": "group", "pairs": "group", "kinds": "kind", "losers": "loser", "held_tiles": "tile",
    "loser_melds": "group", "other_melds": "group",
}
SETTLE_SOURCES = ("losers", "loser_melds")  # known only when settling
# The sources of a decomposition's groups (`combinations` takes these), in the order of core.pxd's `Source`.
GROUP_SOURCES = ("groups", "sets", "chows", "pungs", "kongs", "pairs")

# ---------------------------------------------------------------- cases (docs/interface.md)

# The keys of every case, in the order of core.pxd's `KeyKind`; the context keys follow.
STRUCTURAL_KEYS = ("hand", "win", "melds", "options")
# The kinds of context keys, in the order of core.pxd's `KeyKind` after the structural keys ("melds_by_seat"
# is KEY_OTHER_MELDS). A spec's own keys are "flag", "seat" or "int".
CONTEXT_KINDS = ("flag", "count", "seat", "wind", "tiles", "melds_by_seat", "seats", "int")
# The built-in context keys: name -> (kind, description).
CONTEXT_KEYS = {
    "self_drawn": ("flag", "the winning tile was drawn, not discarded"),
    "seat_wind": ("wind", "the winner's seat wind"),
    "round_wind": ("wind", "the prevailing wind"),
    "seat": ("seat", "the winner's seat, 0..3"),
    "dealer": ("seat", "the dealer's seat"),
    "discarder": ("seat", "the seat that discarded the winning tile"),
    "last_tile": ("flag", "won on the last tile of the wall or the last discard"),
    "kong_replacement": ("flag", "won on the replacement tile after a kong"),
    "robbing_kong": ("flag", "won by robbing another player's added kong"),
    "fourth_tile": ("flag", "the winning tile is the last one unseen"),
    "flowers": ("count", "flower tiles declared"),
    "riichi": ("flag", "riichi declared"),
    "double_riichi": ("flag", "double riichi declared"),
    "ippatsu": ("flag", "won within one go-around of riichi"),
    "first_turn": ("flag", "won on the first turn (天胡 / 地胡, tenhou / chiihou)"),
    "dora": ("tiles", "dora indicators"),
    "ura": ("tiles", "ura-dora indicators"),
    "indicator": ("tiles", "the indicator tile turned up after the deal, which chooses the wild tiles"),
    "honba": ("count", "honba counters"),
    "riichi_sticks": ("count", "riichi sticks on the table"),
    "other_melds": ("melds_by_seat", "the other players' declared melds, by seat"),
    "out": ("seats", "the seats that have already won and left the hand (血战到底): they neither pay nor receive"),
}
ALWAYS_ACCEPTED = ("self_drawn", "seat", "dealer", "discarder", "seat_wind")  # read whether a spec names them or not

# Built-in context keys of indicator tiles and how many tiles each can hold: one tile is turned up after the
# deal (Wuhan's indicator); dora indicators are the first one and one per kong (four kongs at most), each
# ura-dora indicator lies under one of them.
INDICATOR_LIMITS = {"indicator": 1, "dora": 5, "ura": 5}
FLOWERS_OF_A_FULL_SET = 8  # 春夏秋冬梅兰竹菊: what `flowers` counts in a spec that declares no flower tiles
MAX_TEXT = 256  # characters in one string of a case: a hand written out tile by tile takes under 100

# ---------------------------------------------------------------- the compiled checkers' sizes

# The fixed sizes of the shared runtime, as core.pxd's first `cdef enum` declares them; codegen refuses (and
# the interpreter answers) a spec beyond them.
RUNTIME_LIMITS = {
    "MAX_TILES": 64,  # tile sets are 64-bit masks
    "MAX_PLAYERS": 4,
    "MAX_HAND": 17,  # tiles of a hand, the winning tile included
    "MAX_SETS": 5,  # sets of a standard hand without declared melds
    "MAX_MELDS": 144,  # declared melds: sets, and tiles laid aside (every copy of every tile)
    "MELD_TILES": 8,  # tiles of the largest meld kind
    "MAX_GROUPS": 17 + 1 + 144,  # MAX_HAND + 1 + MAX_MELDS
    "MAX_READINGS": 2048,  # readings of the concealed tiles; a hand with more is read by the interpreter
    "MAX_FANS": 192,
    "MAX_MASK_WORDS": 3,  # 64 fans per word of a fan mask
    "MAX_CONTEXT": 32,
    "MAX_OPTIONS": 32,
    "MAX_INDICATOR_KEYS": 4,
    "MAX_INDICATORS": 16,  # indicators kept per key; a case with more is read by the interpreter
    "MAX_HAND_SETS": 8,
    "MAX_SET_TERMS": 4,
    "MAX_SCORES": 16,
    "MAX_MELD_KINDS": 32,
    "MAX_SHAPES": 6,
    "MAX_KNITTED": 6,
    "MAX_LETS": 128,  # `let` values, each computed once per decomposition (settlement ones per loser)
    "MAX_TEXT": MAX_TEXT,  # a longer string of a case is left to the case reader, which refuses it
    "NAME_CACHE": 256,  # slots of a NameCache (a power of two)
    "RESULT_COUNTS": 8,  # a fan's result dict is made once per count below this (at its fixed value)
    "RUN_TILES": 9,  # the longest run of tiles chows connect that the runtime's table of runs covers
    "RUN_COPIES": 4,  # the most copies of a tile that table covers (a spec with more is searched)
}
LIMIT = 2 ** 53  # core.pxd's LIMIT: compiled arithmetic stays within +-LIMIT, beyond it the interpreter answers
