"""The language's built-in names: meld kinds, shapes, waits, principles, context keys, the names an expression
may use in each place, functions, payers, and the bounds of a table and a hand."""

from __future__ import annotations

from dsl.frontend import ir

BUILTIN_MELDS = {
    "chow": ir.MeldKind("chow", "Chow", "chow", concealed=False, opens=True),
    "pung": ir.MeldKind("pung", "Pung", "pung", concealed=False, opens=True),
    "kong": ir.MeldKind("kong", "Exposed kong", "kong", concealed=False, opens=True),
    "added_kong": ir.MeldKind("added_kong", "Kong added to a pung", "kong", concealed=False, opens=True),
    "concealed_kong": ir.MeldKind("concealed_kong", "Concealed kong", "kong", concealed=True, opens=False),
}
SHAPES = ("standard", "seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight", "loose")
WAITS = ("edge", "closed", "single", "two_sided", "pung_wait", "knitted")
PRINCIPLES = ("不重复", "不拆移", "不得相同", "套算一次", "就高不就低")
# Built-in names written in traditional characters: the simplified name they stand for. (The keyword
# 不計 is an alias of 不计 in the grammar itself.)
TRADITIONAL = {"不重複": "不重复"}
# A spec's `unit` when it gives no English: the usual English of the usual units.
UNIT_ENGLISH = {"番": "fan", "台": "tai", "胡数": "hu", "胡數": "hu", "符": "fu"}

# Context keys of docs/interface.md: name -> (kind, description).
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
ALWAYS_ACCEPTED = ("self_drawn", "seat", "dealer", "discarder", "seat_wind")

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

SOURCES = {
    "tiles": "tile", "groups": "group", "sets": "group", "chows": "group", "pungs": "group",
    "kongs": "group", "pairs": "group", "kinds": "kind", "losers": "loser", "held_tiles": "tile",
    "loser_melds": "group",
}
SETTLE_SOURCES = ("losers", "loser_melds")  # known only when settling
GROUP_SOURCES = ("groups", "sets", "chows", "pungs", "kongs", "pairs")
ELEMENT_ATTRS = {
    "tile": ("suit", "rank", "numbered", "honor", "tile"),
    "group": ("chow", "pung", "kong", "pair", "concealed", "exposed", "declared", "opens", "suit", "rank",
              "tile", "with_win", "size", "numbered", "honor"),
    "kind": ("copies", "konged", "suit", "rank", "tile"),
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
