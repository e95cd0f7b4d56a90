"""The language's built-in names: meld kinds, shapes, waits, principles, context keys, the names an expression
may use in each place, functions, payers, and the bounds of a table and a hand."""

from __future__ import annotations

from dsl import vocabulary
from dsl.frontend import ir
from dsl.vocabulary import (  # noqa: F401  (names the resolver reads from here)
    ALWAYS_ACCEPTED,
    CONTEXT_KEYS,
    GROUP_SOURCES,
    PRINCIPLES,
    SETTLE_SOURCES,
    SHAPES,
    SOURCES,
    WAITS,
)

BUILTIN_MELDS = {name: ir.MeldKind(name, english, shape, concealed=concealed, opens=opens)
                 for name, (english, shape, concealed, opens) in vocabulary.BUILTIN_MELDS.items()}

# Built-in names written in traditional characters: the simplified name they stand for. (The keyword
# 不計 is an alias of 不计 in the grammar itself.)
TRADITIONAL = {"不重複": "不重复"}
# A spec's `unit` when it gives no English: the usual English of the usual units.
UNIT_ENGLISH = {"番": "fan", "台": "tai", "胡数": "hu", "胡數": "hu", "符": "fu"}

# The scripts a spec's Chinese may be written in (`language`): Simplified, the default, and Traditional.
LANGUAGES = ("zh-Hans", "zh-Hant")

HAND_VARS = {
    "shape": "the shape of the decomposition",
    "wait": "the wait completed by the winning tile",
    "waits": "how many different tiles complete the hand",
    "shape_waits": "how many different tiles complete the hand's shape, even a tile whose every copy is held",
    "suits": "how many numbered suits the hand holds",
    "opened": "some meld laid down opens the hand",
    "is_dealer": "the winner is the dealer",
    "red_fives": "red fives held, melds and winning tile included",
    "wilds": "wild tiles held in the hand, the winning tile included (as wilds or as themselves)",
    "substituted": "wild tiles the reading uses as wilds, standing for another tile",
}
SETTLE_VARS = {"total": "the winner's fan total", "loser_total": "the fans of this loser's share",
               "paid": "the winner's total as paid: the total, or the spec's cap when it is more"}
TILE_VALUED = {"win": "the winning tile", "seat_wind": "the seat wind tile", "round_wind": "the prevailing wind tile",
               "pair": "the tile of the decomposition's (first) pair"}
LATE_VARS = {"counted_fans": "how many fans count after exclusions (a fan using it is scored last)"}
TILE_ATTRS = ("suit", "rank")
LOSER_ATTRS = ("dealer", "discarder", "opened", "seat")

ELEMENT_ATTRS = {
    "tile": ("suit", "rank", "numbered", "honor", "tile", "own_flower"),
    "group": ("chow", "pung", "kong", "pair", "concealed", "exposed", "declared", "opens", "suit", "rank",
              "tile", "with_win", "size", "numbered", "honor", "own_flower"),
    "kind": ("copies", "konged", "suit", "rank", "tile", "own_flower"),
    "loser": LOSER_ATTRS,
    "combo": ("step", "numbered"),
}
COMBO_ATTRS = ("suit", "rank", "tile")
AGGREGATES = {"count": (1, 2), "all": (2, 2), "any": (2, 2), "sum": (2, 2)}
FUNCTIONS = {"min": (2, 9), "max": (2, 9), "abs": (1, 1), "roundup": (2, 2)}
PAYERS = ("each loser", "each other", "discarder")
PAYMENT_CASES = ("self_drawn", "discard")
PLAYERS = range(2, 5)
HAND_SIZES = range(2, 21, 3)  # 14 in most variants, 17 in Taiwan's; past 20 the search for readings grows too long
COPIES = range(1, 9)  # 4 of each tile in every common set, 1 of each flower
