"""IR expressions -> text for the rule reference: the spec's own notation, and plain English.

Both renderers know every expression node of dsl/frontend/ir.py by name and stop with `UnknownNodeError` on any
other: a rule book that silently dropped part of a rule would disagree with the engine.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from dsl.frontend import ir
from dsl.frontend.formula import PRECEDENCE, UnknownNodeError, formula
from dsl.vocabulary import COMBINING_PRINCIPLES

SHAPE_WORDS = {"standard": "sets and a pair", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
               "honors_and_knitted": "honors and knitted tiles (全不靠)",
               "knitted_straight": "a knitted straight (组合龙) with a set and a pair"}
WAIT_WORDS = {"edge": "an edge wait", "closed": "a closed wait", "single": "a single-tile wait",
              "two_sided": "a two-sided wait", "pung_wait": "a wait on either of two pairs",
              "knitted": "a wait on a knitted tile"}

_SOURCES = {"tiles": "tiles", "groups": "groups (sets and the pair)", "sets": "sets", "chows": "chows",
            "pungs": "pungs (kongs included)", "kongs": "kongs", "pairs": "pairs", "kinds": "kinds of tile held",
            "losers": "losers", "held_tiles": "concealed tiles held before the winning tile",
            "other_melds": "melds the other players declared"}
_HAND_VARS = {"shape": "the shape", "wait": "the wait", "waits": "the number of different tiles that complete the hand",
              "shape_waits": "the number of different tiles that complete the hand's shape (even one whose every "
                             "copy is held)",
              "suits": "the number of numbered suits held", "red_fives": "the number of red fives held"}
_HAND_FLAGS = {"opened": ("the hand is opened (a meld that opens it was laid down)", "the hand is not opened"),
               "is_dealer": ("the winner is the dealer", "the winner is not the dealer")}
# Built-in context keys read as a yes/no question get a sentence for each answer; other keys use the
# description the spec's IR carries.
_CONTEXT_FLAGS = {
    "self_drawn": ("the winning tile is self-drawn", "the winning tile is a discard"),
    "kong_replacement": ("the winning tile is the replacement drawn after a kong",
                         "the winning tile is not a kong replacement"),
    "robbing_kong": ("the win robs another player's added kong", "the win does not rob a kong"),
    "last_tile": ("the win is on the last tile", "the win is not on the last tile"),
    "first_turn": ("the win comes on the first turn", "the win does not come on the first turn"),
    "fourth_tile": ("the winning tile is the last one unseen", "the winning tile is not the last one unseen"),
    "riichi": ("the winner declared riichi", "the winner did not declare riichi"),
    "double_riichi": ("the winner declared double riichi", "the winner did not declare double riichi"),
    "ippatsu": ("the win comes within one go-around of riichi", "the win does not come within one go-around"),
}
_SETTLE_VARS = {"total": "the winner's fan total", "loser_total": "the fans of this loser's share",
                "paid": "the winner's total as paid (the cap applied)"}
_ROUND_END_FLAGS = {"dealer_won": ("the dealer won this hand", "the dealer did not win this hand"),
                    "drawn": ("the hand ended in an exhaustive draw", "the hand did not end in a draw")}
_ROUND_END_VARS = {"winners": "the number of players who won this hand"}
_LATE_VARS = {"counted_fans": "the number of other fans that count"}
_TILE_NAMES = {"win": "the winning tile", "seat_wind": "the seat wind", "round_wind": "the prevailing wind",
               "pair": "the tile of the pair"}
_ELEMENT_FLAGS = {  # plural verb phrases about the elements of count/all/any: (holds, does not hold)
    "chow": ("are chows", "are not chows"), "pung": ("are pungs or kongs", "are not pungs or kongs"),
    "kong": ("are kongs", "are not kongs"), "pair": ("are pairs", "are not pairs"),
    "concealed": ("are concealed", "are not concealed"), "exposed": ("are exposed", "are not exposed"),
    "declared": ("are declared melds", "are not declared melds"),
    "opens": ("open the hand", "do not open the hand"),
    "with_win": ("hold the winning tile", "do not hold the winning tile"),
    "numbered": ("are numbered", "are not numbered"), "honor": ("are honors", "are not honors"),
    "konged": ("were declared as a kong", "were not declared as a kong"),
    "dealer": ("are the dealer", "are not the dealer"),
    "discarder": ("discarded the winning tile", "did not discard the winning tile"),
    "opened": ("have opened their hand", "have not opened their hand"),
}
_LOSER_FLAGS = {"dealer": ("the loser is the dealer", "the loser is not the dealer"),
                "discarder": ("the loser discarded the winning tile", "the loser did not discard the winning tile"),
                "opened": ("the loser has opened their hand", "the loser has not opened their hand")}
# A player of a `round:` rule: yes/no attributes (holds, does not hold) after the subject, and numbers, where
# {} is the subject's possessive ("the payer's").
_PLAYER_FLAGS = {"won": ("has won", "has not won"), "ready": ("is ready", "is not ready"),
                 "dealer": ("is the dealer", "is not the dealer")}
_PLAYER_NOUNS = {"suits": "the number of numbered suits in {} hand", "seat": "{} seat",
                 "kong_income": "what {} kongs earned"}
_SIDES = ("payer", "receiver")  # `payer.X` and `receiver.X` in a draw check's amount
_BEST = "the most the payer would pay if the receiver won on its discard"
_ELEMENT_NOUNS = {"copies": "number of copies held", "size": "size in tiles",
                  "step": "rank step from one set to the next"}
_COMBO_SAME = {  # same(x) / distinct(x) of the sets of a combination: (holds, does not hold)
    (False, "suit"): ("are of one suit", "are not all of one suit"),
    (True, "suit"): ("are of different suits", "are not all of different suits"),
    (False, "rank"): ("have the same rank", "do not all have the same rank"),
    (True, "rank"): ("have different ranks", "do not all have different ranks"),
    (False, "tile"): ("are identical", "are not all identical"),
    (True, "tile"): ("are all different", "are not all different"),
}
_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least"}
_COMPARE_ELEMENT = {"==": "equal to", "!=": "other than", "<": "below", "<=": "at most", ">": "above",
                    ">=": "at least"}
_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_ARITHMETIC = {"+": "+", "-": "−", "*": "×", "/": "÷"}
_CALLS = {"min": "the smaller of", "max": "the larger of"}

@dataclass(frozen=True)
class Schedule:
    """A table(...) of a rule, as the book prints it under the rule: a row of keys over a row of values."""

    key: str  # what the table is looked up by, in words
    keys: tuple[str, ...]  # "3", "3–5", then "other" for `else`
    values: tuple[str, ...]


@dataclass(frozen=True)
class Reading:
    """A named rule shown as its formula and in words, with the tables it looks values up in."""

    name: str
    english: str | None
    rule: str
    words: str
    schedules: tuple[Schedule, ...] = ()


# ---------------------------------------------------------------- plain English


class Prose:
    """Plain-English readings of one spec's expressions (the spec supplies names of suits and flags)."""

    def __init__(self, spec: ir.Spec):
        self.context = {k.name: k for k in spec.context}
        self.suits = {s.code: f"{s.name} ({s.english})" for s in spec.suits}
        self.tilesets = {t.name: (f"{t.name} ({t.english})" if t.english else t.name) for t in spec.tilesets}
        self.round_bindings = {b.name: b.expr for b in spec.rounds.bindings} if spec.rounds else {}
        self.bindings = self.round_bindings | {b.name: b.expr for b in spec.definitions + spec.score}
        self.combining = any(p in COMBINING_PRINCIPLES for p in spec.principles)
        self.subject = "it"  # who a player's attributes and a named player condition are about

    def about(self, player: str) -> Prose:
        """Readings of the `round:` rules about one player ("the payer is not ready"); names are the round's lets."""
        view = copy.copy(self)
        view.subject = player
        view.bindings = self.round_bindings
        return view

    def clause(self, expr: ir.Expr) -> str:
        """A condition to be joined to another with "and": bracketed when it reads as an "or"."""
        text = self.condition(expr)
        return f"({text})" if _logic_as_read(expr, False) == "or" else text

    def condition(self, expr: ir.Expr, negated: bool = False) -> str:  # noqa: C901 - one case per node type
        """A sentence that holds when the expression is true (or false, when negated)."""
        match expr:
            case ir.Binary(op="and" | "or"):
                joiner = {"and": " and ", "or": " or "}[_flip_logic(expr.op) if negated else expr.op]
                return joiner.join(self._part(side, expr, negated) for side in (expr.left, expr.right))
            case ir.Binary(op=op) if op in _COMPARE:
                return self._comparison(expr, _OPPOSITE[op] if negated else op)
            case ir.Not():
                return self.condition(expr.operand, not negated)
            case ir.Var(scope="hand", name=name) if name in _HAND_FLAGS:
                return _HAND_FLAGS[name][negated]
            case ir.Var(scope="context" | "flag"):
                return self._flag(expr.name, negated)
            case ir.Var(scope="option"):
                return f"the option {expr.name} is {'off' if negated else 'on'}"
            case ir.PatternRef():
                return f"it is not {expr.name}" if negated else f"it is {expr.name}"
            case ir.Var(scope="round_end", name=name) if name in _ROUND_END_FLAGS:
                return _ROUND_END_FLAGS[name][negated]
            case ir.Var(scope="player", name=name) | ir.Item(element="payer" | "receiver", name=name) \
                    if name in _PLAYER_FLAGS:
                return f"{self._player(expr)} {_PLAYER_FLAGS[name][negated]}"
            case ir.Item() | ir.ItemTileSet():
                return self._element_phrase(expr, negated)
            case ir.ComboSame():
                return self._combo_same(expr, negated)
            case ir.Var(scope="binding") if self._is_condition(self.bindings.get(expr.name)):
                return f"{self.subject} is not {expr.name}" if negated else f"{self.subject} is {expr.name}"
            case ir.LoserAttr(name=name) if name in _LOSER_FLAGS:
                return _LOSER_FLAGS[name][negated]
            case ir.InTileSet():
                verb = "is not in" if negated else "is in"
                return f"{self.quantity(expr.tile)} {verb} {self._tileset(expr.tileset)}"
            case ir.Aggregate(function="all" | "any"):
                return self._all_any(expr, negated)
            case ir.Combinations():
                sets = f"{expr.size} of the {_SOURCES.get(expr.source, expr.source)}"
                return f"no {sets} {self.condition(expr.body)}" if negated else f"{sets} {self.condition(expr.body)}"
            case ir.Const(value=bool() as value):
                return "always" if value != negated else "never"
            case ir.Conditional():
                return (f"{self.condition(expr.then, negated)} if {self._clause(expr.condition)}, "
                        f"otherwise {self.condition(expr.otherwise, negated)}")
        # A number used as a condition: it holds when it is not zero.
        return f"{self.quantity(expr)} {'is 0' if negated else 'is not 0'}"

    def schedules(self, *exprs: ir.Expr | None) -> tuple[Schedule, ...]:
        """Each table(...) the expressions look values up in, once, in the order they are written."""
        found = dict.fromkeys(node for expr in exprs for node in ir.walk(expr) if isinstance(node, ir.Table))
        return tuple(Schedule(self.quantity(t.key),
                              (*(f"{low}–{high}" if high > low else str(low) for low, high, _ in t.rows), "other"),
                              (*(str(value) for _, _, value in t.rows), str(t.otherwise)))
                     for t in found)

    def named(self, name: str, expr: ir.Expr) -> Reading:
        """A `let` or result shown as its formula, in words, and with the tables it looks values up in."""
        return Reading(name, None, formula(expr), self.reading(expr), self.schedules(expr))

    def reading(self, expr: ir.Expr) -> str:
        """The expression as a sentence when it is a yes/no value, else as a noun phrase."""
        return self.condition(expr) if self._is_condition(expr) else self.quantity(expr)

    def quantity(self, expr: ir.Expr) -> str:  # noqa: C901 - one case per node type
        """A noun phrase for the value of the expression."""
        match expr:
            case ir.Const(value=bool() as value):
                return "true" if value else "false"
            case ir.Const(value=int() as value):
                return str(value)
            case ir.Const(value=str() as value):
                return SHAPE_WORDS.get(value) or WAIT_WORDS.get(value) or self.suits.get(value) or repr(value)
            case ir.Var():
                return self._var_noun(expr)
            case ir.PatternRef():
                return f"the number of {expr.name}"
            case ir.Item(element="payer" | "receiver"):
                return self._player_noun(expr)
            case ir.Item():
                return "their " + _ELEMENT_NOUNS.get(expr.name, expr.name)
            case ir.TileOf():
                return _TILE_NAMES.get(expr.name, expr.name)
            case ir.TileAttr():
                return f"the {expr.name} of {self.quantity(expr.tile)}"
            case ir.LoserAttr():
                return f"the loser's {expr.name}"
            case ir.Aggregate(function="count"):
                return f"the number of {self._elements(expr)}"
            case ir.Combinations():
                sets = _SOURCES.get(expr.source, expr.source)
                counted = "as the accounting principles let them count" if self.combining else "each one counted"
                return f"the number of combinations of {expr.size} {sets} that {self.condition(expr.body)}, {counted}"
            case ir.Aggregate(function="sum"):
                return f"the sum over {_SOURCES.get(expr.source, expr.source)} of {self._operand(expr.body)}"
            case ir.Call(function="abs"):
                return f"the absolute value of {self._operand(expr.args[0])}"
            case ir.Call(function="roundup"):
                return f"{self._operand(expr.args[0])} rounded up to a multiple of {self._operand(expr.args[1])}"
            case ir.NextTile():
                return f"the tile that {self.quantity(expr.tile)} points at as an indicator"
            case ir.PreviousTile():
                return f"the tile before {self.quantity(expr.tile)} along the order"
            case ir.Indicated():
                key = self.context.get(expr.key)
                indicators = key.description if key is not None else expr.key
                return f"the number of tiles of the hand pointed at by the {indicators}"
            case ir.Call() if expr.function in _CALLS:
                *first, last = [self._operand(a) for a in expr.args]
                return f"{_CALLS[expr.function]} {', '.join(first)} and {last}"
            case ir.Binary(op="^"):
                return f"{self._operand(expr.left)} to the power {self._operand(expr.right)}"
            case ir.Binary(op=op) if op in _ARITHMETIC:
                left, right = self._term(expr.left, expr, True), self._term(expr.right, expr, False)
                return f"{left} {_ARITHMETIC[op]} {right}"
            case ir.Negate():
                return f"−{self._operand(expr.operand)}"
            case ir.Conditional():
                return (f"{self.quantity(expr.then)} if {self._clause(expr.condition)}, "
                        f"otherwise {self.quantity(expr.otherwise)}")
            case ir.Table():
                return f"the value the table below gives for {self.quantity(expr.key)}"
            case ir.Binary() | ir.Not() | ir.InTileSet() | ir.ItemTileSet() | ir.Aggregate() | ir.ComboSame():
                return self.condition(expr)
        raise UnknownNodeError(expr)

    # -- pieces

    def _clause(self, expr: ir.Expr) -> str:
        """A condition standing alone: one about the elements being summed gets "they" as its subject."""
        text = self.condition(expr)
        return f"they {text}" if _about_element(expr) else text

    def _part(self, side: ir.Expr, parent: ir.Binary, negated: bool) -> str:
        text = self.condition(side, negated)
        inner = _logic_as_read(side, negated)
        return f"({text})" if inner is not None and inner != _logic_as_read(parent, negated) else text

    def _operand(self, expr: ir.Expr) -> str:
        text = self.quantity(expr)
        simple = isinstance(expr, ir.Const | ir.Var | ir.PatternRef | ir.Item | ir.TileOf | ir.Call | ir.Aggregate
                            | ir.Indicated)
        return text if simple else f"({text})"

    def _term(self, side: ir.Expr, parent: ir.Binary, left: bool) -> str:
        """A side of + - × ÷: bracketed only where the spec notation would need it."""
        if isinstance(side, ir.Binary) and side.op in _ARITHMETIC:
            inner, outer = PRECEDENCE[side.op], PRECEDENCE[parent.op]
            if inner > outer or (inner == outer and left):
                return self.quantity(side)
        return self._operand(side)

    def _comparison(self, expr: ir.Binary, op: str) -> str:
        left, right = expr.left, expr.right
        shape_or_wait = isinstance(left, ir.Var) and left.scope == "hand" and left.name in ("shape", "wait")
        if shape_or_wait and isinstance(right, ir.Const) and op in ("==", "!="):
            subject = "the hand is read as" if left.name == "shape" else "the wait is"
            if op == "!=":
                subject = subject.replace(" is", " is not", 1)
            return f"{subject} {self.quantity(right)}"
        if _is_element(left):
            noun = _ELEMENT_NOUNS.get(left.name, left.name)
            return f"have a {noun} {_COMPARE_ELEMENT[op]} {self.quantity(right)}"
        return f"{self.quantity(left)} {_COMPARE[op]} {self.quantity(right)}"

    def _flag(self, name: str, negated: bool) -> str:
        if name in _CONTEXT_FLAGS:
            return _CONTEXT_FLAGS[name][negated]
        key = self.context.get(name)
        described = key.description if key is not None else name
        return f"it is not the case that {described}" if negated else described

    def _var_noun(self, expr: ir.Var) -> str:
        match expr.scope:
            case "hand":
                if expr.name in _HAND_FLAGS:
                    return self.condition(expr)
                return _HAND_VARS.get(expr.name, expr.name)
            case "context" | "flag":
                key = self.context.get(expr.name)
                if key is None:
                    return expr.name
                if key.kind == "flag":
                    return self.condition(expr)
                if key.kind == "int":  # a number the spec names and describes (連莊): read by its name
                    return key.name
                return f"the number of {key.description}" if key.kind == "count" else key.description
            case "option":
                return f"the option {expr.name}"
            case "settle":
                return _SETTLE_VARS.get(expr.name, expr.name)
            case "binding":
                return expr.name
            case "late":
                return _LATE_VARS.get(expr.name, expr.name)
            case "player":
                return self._player_noun(expr)
            case "round_end":
                return _ROUND_END_VARS.get(expr.name) or self.condition(expr)
        raise UnknownNodeError(expr)

    def _player(self, expr: ir.Var | ir.Item) -> str:
        """Who a player attribute is about: `payer.X` the payer, a plain attribute the subject."""
        return f"the {expr.element}" if isinstance(expr, ir.Item) else self.subject

    def _player_noun(self, expr: ir.Var | ir.Item) -> str:
        if expr.name in _PLAYER_FLAGS:
            return self.condition(expr)
        if expr.name == "best":
            return _BEST
        player = self._player(expr)
        return _PLAYER_NOUNS.get(expr.name, "{} " + expr.name).format("its" if player == "it" else f"{player}'s")

    def _element_phrase(self, expr: ir.Item | ir.ItemTileSet, negated: bool) -> str:
        """A plural verb phrase about the elements being counted: "are exposed", "contain a 幺九 tile"."""
        if isinstance(expr, ir.ItemTileSet):
            name = self._tileset(expr.tileset)
            if not expr.every:
                return f"contain no {name} tile" if negated else f"contain a {name} tile"
            if expr.element in ("group", "combo"):  # every tile of the set(s)
                return f"are not all {name}" if negated else f"are all {name}"
            return f"are not {name}" if negated else f"are {name}"
        if expr.name in _ELEMENT_FLAGS:
            return _ELEMENT_FLAGS[expr.name][negated]
        # A spec's own meld kind, e.g. `any(groups, 亮中发白)`.
        return f"are not {expr.name} sets" if negated else f"are {expr.name} sets"

    def _elements(self, expr: ir.Aggregate) -> str:
        source = _SOURCES.get(expr.source, expr.source)
        if expr.body is None:
            return source
        return f"{source} that {self.condition(expr.body)}"

    def _all_any(self, expr: ir.Aggregate, negated: bool) -> str:
        source = _SOURCES.get(expr.source, expr.source)
        assert expr.body is not None  # all(...) and any(...) always have a condition
        body, function = expr.body, expr.function
        if isinstance(body, ir.Not):  # all(x, not p) is not any(x, p): "no x p" reads better
            body, function, negated = body.operand, {"all": "any", "any": "all"}[function], not negated
        phrase = self.condition(body)
        if function == "all":
            return f"not all {source} {phrase}" if negated else f"all {source} {phrase}"
        return f"no {source} {phrase}" if negated else f"some {source} {phrase}"

    def _combo_same(self, expr: ir.ComboSame, negated: bool) -> str:
        kind = "different" if expr.distinct else "the same"
        fallback = (f"have {kind} {expr.attr}", f"do not all have {kind} {expr.attr}")
        return _COMBO_SAME.get((expr.distinct, expr.attr), fallback)[negated]

    def _tileset(self, name: str) -> str:
        return self.tilesets.get(name, name)

    def _is_condition(self, expr: ir.Expr | None) -> bool:
        """Whether a `let` holds a yes/no value (read as "it is 面子和") rather than a number."""
        match expr:
            case ir.Binary(op=op):
                return op in ("and", "or") or op in _COMPARE
            case ir.Not() | ir.InTileSet() | ir.ItemTileSet() | ir.ComboSame() | ir.Const(value=bool()):
                return True
            case ir.Aggregate(function=function):
                return function in ("all", "any")
            case ir.Var(scope="binding"):
                return self._is_condition(self.bindings.get(expr.name))
            case ir.Var(scope="hand" | "context" | "flag"):
                return expr.name in _HAND_FLAGS or self._flag_key(expr.name)
            case ir.Var(scope="player", name=name) | ir.Item(element="payer" | "receiver", name=name):
                return name in _PLAYER_FLAGS
            case ir.Var(scope="round_end", name=name):
                return name in _ROUND_END_FLAGS
        return False

    def _flag_key(self, name: str) -> bool:
        key = self.context.get(name)
        return key is not None and key.kind == "flag"


def _about_element(expr: ir.Expr) -> bool:
    """Whether the condition reads as a verb phrase about the current element ("are concealed")."""
    while isinstance(expr, ir.Not) or (isinstance(expr, ir.Binary) and expr.op in ("and", "or")):
        expr = expr.operand if isinstance(expr, ir.Not) else expr.left
    if isinstance(expr, ir.Binary) and expr.op in _COMPARE:
        return _is_element(expr.left)
    return _is_element(expr) or isinstance(expr, ir.ItemTileSet | ir.ComboSame)


def _is_element(expr: ir.Expr) -> bool:
    """An attribute of the element being counted (not `payer.X` or `receiver.X` of a draw check)."""
    return isinstance(expr, ir.Item) and expr.element not in _SIDES


def _logic_as_read(expr: ir.Expr, negated: bool) -> str | None:
    """The `and` / `or` an expression reads as once its negations are pushed inward (None: neither)."""
    while isinstance(expr, ir.Not):
        expr, negated = expr.operand, not negated
    if isinstance(expr, ir.Binary) and expr.op in ("and", "or"):
        return _flip_logic(expr.op) if negated else expr.op
    return None


def _flip_logic(op: str) -> str:
    """De Morgan: not (a and b) reads as (not a) or (not b)."""
    return "or" if op == "and" else "and"
