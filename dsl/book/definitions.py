"""What a fan is, in plain words and in both languages: the first lines of its card.

A card opens with the spec's own definition (`doc "中文" "English"`); without one, with a reading of the fan's rule
by the idioms players use (a count of each rank -> "1112345678999", a chow step -> "three chows of one suit, each one
rank above the last", a set of three suits -> "in three different suits", N groups of a tile set -> "all eight
flowers"), when every part of the rule is such an idiom; else with the spec's one-language doc, else with the rule
read aloud. The shapes a hand may take are defined once, here, and the cards name them.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl.book.prose import Prose
from dsl.frontend import ir


@dataclass(frozen=True)
class Phrase:
    zh: str
    en: str


@dataclass(frozen=True)
class Definition:
    """The opening of a card: Chinese and English (zh None: the spec says it in one language only)."""

    zh: str | None
    en: str
    source: str  # "doc": the spec's definition; "idiom": read from the rule; "note": a one-language doc; "rule"

    @property
    def plain(self) -> bool:
        """A definition a player reads, not the rule read aloud."""
        return self.source in ("doc", "idiom")


# The built-in shapes: Chinese and English names, and what they are in both languages ({sets}: how many sets).
SHAPES = {
    "standard": Phrase("面子加将", "Sets and a pair"),
    "seven_pairs": Phrase("七对", "Seven pairs"),
    "thirteen_orphans": Phrase("十三幺", "Thirteen orphans"),
    "honors_and_knitted": Phrase("全不靠", "Honors and knitted tiles"),
    "knitted_straight": Phrase("组合龙", "Knitted straight"),
    "loose": Phrase("乱牌", "Loose tiles"),
}
SHAPE_DEFINITIONS = {
    "standard": Phrase("{sets_zh}副面子（顺子、刻子或杠）加一对将。",
                       "{sets_en} sets (chows, pungs or kongs) and a pair."),
    "seven_pairs": Phrase("七个对子，没有吃、碰、杠。", "Seven pairs, nothing claimed or konged."),
    "thirteen_orphans": Phrase("三种数牌的一、九和七种字牌各一张，再加其中任意一张成对。",
                               "One of each terminal (the 1 and the 9 of each suit) and of each honor, thirteen "
                               "tiles, and a second copy of any one of them."),
    "honors_and_knitted": Phrase(
        "十四张互不相同的单张：字牌，以及147、258、369分属三种花色的数牌，任何两张都组不成对子或顺子的一部分。",
        "Fourteen single tiles, all different: honors, and numbered tiles taken from 147 of one suit, 258 of "
        "another and 369 of the third, so that no two of them make a pair or part of a chow."),
    "knitted_straight": Phrase("147、258、369分属三种花色的九张牌，加一副面子和一对将。",
                               "The nine knitted tiles — 147 of one suit, 258 of another, 369 of the third — with "
                               "one set and a pair."),
    "loose": Phrase("不成面子的散牌，哪些牌可以这样和牌由和牌条件规定。",
                    "Tiles that make no sets; the winning conditions say which tiles may be held this way."),
}

_EN_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_ZH_NUMBERS = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九")
# Sources of count/any/all: (Chinese noun, English singular, English plural).
_NOUNS = {"chows": ("顺子", "chow", "chows"), "pungs": ("刻子", "pung (or kong)", "pungs (or kongs)"),
          "kongs": ("杠", "kong", "kongs"), "sets": ("面子", "set", "sets"), "pairs": ("对子", "pair", "pairs"),
          "tiles": ("牌", "tile", "tiles"), "held_tiles": ("手牌", "tile held", "tiles held")}
_FLAGS = {  # context keys and hand values read as yes / no: (holds, does not hold)
    "self_drawn": (Phrase("自摸", "self-drawn"), Phrase("和别人打出的牌", "won on a discard")),
    "last_tile": (Phrase("和最后一张牌", "won on the last tile"), None),
    "kong_replacement": (Phrase("和杠后补进的牌", "won on the tile drawn after a kong"), None),
    "robbing_kong": (Phrase("抢别人加杠的牌和牌", "won by robbing another player's added kong"), None),
    "first_turn": (Phrase("第一巡和牌", "won in the first go-around"), None),
    "fourth_tile": (Phrase("和牌张是最后一张未现的牌", "the winning tile is the last one unseen"), None),
    "riichi": (Phrase("立直", "after declaring riichi"), Phrase("未立直", "without riichi")),
    "double_riichi": (Phrase("两立直", "after declaring double riichi"), Phrase("未两立直", "without double riichi")),
    "ippatsu": (Phrase("立直后一巡内和牌", "won within one go-around of riichi"), None),
    "is_dealer": (Phrase("庄家和牌", "the dealer wins"), Phrase("闲家和牌", "a player other than the dealer wins")),
    "opened": (Phrase("有吃、碰或明杠", "the hand is open"), Phrase("门前清（没有吃、碰、明杠）",
                                                             "nothing claimed (no chow, pung or exposed kong)")),
}
_WINDS = {"round_wind": Phrase("圈风", "the prevalent wind"), "seat_wind": Phrase("门风", "the seat wind")}
# Ways of winning said together, as players name them: (flag, holds) pairs -> one phrase.
_WAYS = {
    frozenset({("last_tile", True), ("self_drawn", True)}): Phrase("自摸牌墙的最后一张牌",
                                                                     "self-drawing the last tile of the wall"),
    frozenset({("last_tile", True), ("self_drawn", False)}): Phrase("和最后一张打出的牌",
                                                                      "winning on the last discard"),
    frozenset({("kong_replacement", True), ("self_drawn", True)}): Phrase(
        "杠后补进的牌自摸和牌", "self-drawing the winning tile as the replacement for a kong"),
    frozenset({("robbing_kong", True), ("self_drawn", False)}): Phrase(
        "抢别人加杠的牌和牌", "winning on the tile another player adds to a pung to make a kong"),
    frozenset({("first_turn", True), ("is_dealer", True), ("self_drawn", True)}): Phrase(
        "庄家起手摸牌即和（配牌已成和牌）", "the dealer is complete on the dealt tiles"),
    frozenset({("first_turn", True), ("is_dealer", False), ("self_drawn", True)}): Phrase(
        "闲家在第一巡内自摸和牌", "a player other than the dealer self-draws the win in the first go-around"),
    frozenset({("first_turn", True), ("self_drawn", False)}): Phrase(
        "第一巡内和别人打出的牌", "winning on a discard in the first go-around"),
    frozenset({("opened", False), ("self_drawn", True)}): Phrase(
        "门前清自摸和牌", "self-drawing the win with nothing claimed (no chow, pung or exposed kong)"),
    frozenset({("opened", False), ("self_drawn", False)}): Phrase(
        "门前清和别人打出的牌", "winning on a discard with nothing claimed (no chow, pung or exposed kong)"),
}


def definition(pattern: ir.Pattern, idioms: Idioms, prose: Prose) -> Definition:
    """The opening of a fan's card."""
    if pattern.definition is not None:
        zh, en = pattern.definition
        return Definition(_ended(zh, "。"), _ended(en, "."), "doc")
    read = idioms.sentence(pattern)
    if read is not None:
        return Definition(read.zh, read.en, "idiom")
    if pattern.doc:
        return Definition(None, pattern.doc, "note")
    return Definition(None, _capitalised(prose.reading(pattern.condition)) + ".", "rule")


def shape_definition(shape: str, hand_size: int) -> Phrase:
    sets = (hand_size - 2) // 3
    text = SHAPE_DEFINITIONS[shape]
    return Phrase(text.zh.format(sets_zh=_ZH_NUMBERS[sets]),
                  text.en.format(sets_en=_capitalised(_EN_NUMBERS[sets])))


class Idioms:
    """Readings of one spec's rules by the idioms players use; None where a part of a rule is no idiom."""

    def __init__(self, spec: ir.Spec):
        self.spec = spec
        self.lets = {b.name: b.expr for b in spec.definitions}
        self.tilesets = {t.name: t for t in spec.tilesets}
        self.meld_kinds = {k.name: k for k in spec.meld_kinds}
        self.shape_rules = {s.name: s for s in spec.shape_rules}
        self.patterns = {p.name: p for p in spec.patterns + spec.loser_patterns}

    def sentence(self, pattern: ir.Pattern) -> Phrase | None:
        """The whole rule as a sentence, or None."""
        read = self.counted(pattern.condition) if pattern.value.per_occurrence else self.clause(pattern.condition)
        return None if read is None else Phrase(read.zh + "。", _capitalised(read.en) + ".")

    def clause(self, expr: ir.Expr) -> Phrase | None:
        """A condition: the parts of an `and` one after another, a run of rank counts as one idiom."""
        parts = _conjuncts(self._inlined(expr))
        ranks, others = _rank_counts(parts)
        way, others = self._way(others)
        phrases = [p for p in (ranks, way) if p is not None]
        for part in others:
            phrase = self._condition(part)
            if phrase is None:
                return None
            phrases.append(phrase)
        return Phrase("，".join(p.zh for p in phrases), ", ".join(p.en for p in phrases))

    def counted(self, expr: ir.Expr) -> Phrase | None:
        """What a fan counted per occurrence counts: "each pung (or kong) of dragons"."""
        match expr:
            case ir.Aggregate(function="count", source=source) if source in _NOUNS:
                noun = self._noun(source, expr.body)
                return None if noun is None else Phrase("每" + _measure(source) + noun.zh, "each " + noun.en)
            case ir.Combinations():
                return self._combinations(expr)
            case ir.Var(scope="context", name="flowers"):
                return Phrase("每张花牌", "each flower tile")
        return None

    def _way(self, parts: list[ir.Expr]) -> tuple[Phrase | None, list[ir.Expr]]:
        """The flags of a way of winning said as one: last tile and self-drawn -> "self-drawing the last tile"."""
        flags = {part: _flag_state(part) for part in parts}
        states = frozenset(state for state in flags.values() if state is not None)
        way = _WAYS.get(states)
        if way is None:
            return None, parts
        return way, [part for part in parts if flags[part] is None]

    # -- conditions

    def _condition(self, expr: ir.Expr) -> Phrase | None:  # noqa: C901 - one idiom per case
        match expr:
            case ir.Binary(op="or"):
                left, right = self.clause(expr.left), self.clause(expr.right)
                return None if left is None or right is None else Phrase(f"{left.zh}或{right.zh}",
                                                                         f"{left.en} or {right.en}")
            case ir.Not(operand=ir.PatternRef(name=name)):
                return Phrase(f"不是{name}", f"not {self._fan_name(name)}")
            case ir.PatternRef(name=name):
                return Phrase(name, self._fan_name(name))
            case ir.Var() | ir.Not(operand=ir.Var()):
                return self._flag(expr)
            case ir.Binary(op="==", left=ir.Var(scope="hand", name="shape"), right=ir.Const(value=str() as shape)):
                return self._shape(shape)
            case ir.Binary(op=op, left=ir.Var(scope="binding") as let) if op in ("==", ">", ">="):
                return self._condition(ir.Binary(expr.span, op, self._inlined(let), expr.right)) \
                    if self._inlined(let) is not let else None
            case ir.Binary(op=op, left=ir.Var(scope="hand", name="suits"), right=ir.Const(value=int() as n)):
                return _suits(op, n)
            case ir.Binary(op=op, left=ir.Aggregate(function="count") as counted, right=ir.Const(value=int() as n)):
                return self._count(counted, op, n)
            case ir.Binary(op=">", left=ir.Combinations() as combos, right=ir.Const(value=0)):
                return self._combinations(combos)
            case ir.Combinations():
                return self._combinations(expr)
            case ir.Aggregate(function="all" | "any") | ir.Not(operand=ir.Aggregate(function="any" | "all")):
                return self._all_any(expr)
            case ir.InTileSet(tile=ir.TileOf(name="pair"), tileset=name):
                return Phrase(f"{_zh(name)}作将", f"a pair of {self._tileset_en(name)}")
            case ir.InTileSet(tile=ir.TileOf(name="win"), tileset=name):
                return Phrase(f"和牌张是{_zh(name)}", f"the winning tile is {self._article(name)}")
        return None

    def _flag(self, expr: ir.Expr) -> Phrase | None:
        negated = isinstance(expr, ir.Not)
        var = expr.operand if isinstance(expr, ir.Not) else expr
        if not isinstance(var, ir.Var):
            return None
        if var.scope == "binding":
            return self.clause(ir.Not(var.span, self.lets[var.name]) if negated else self.lets[var.name])
        answers = _FLAGS.get(var.name)
        return None if answers is None else answers[negated]

    def _shape(self, shape: str) -> Phrase:
        """A shape by name; the shapes section defines it (sets and a pair need no reference)."""
        if shape in self.shape_rules:
            english = self.shape_rules[shape].english
            return Phrase(f"{shape}（见牌型）", f"{shape}{f' ({english})' if english else ''} (see Shapes)")
        names = SHAPES[shape]
        if shape == "standard":
            return Phrase(names.zh, names.en.lower())
        return Phrase(f"{names.zh}（见牌型）", f"{names.en.lower()} (see Shapes)")

    def _count(self, counted: ir.Aggregate, op: str, n: int) -> Phrase | None:
        if counted.source == "groups":
            return self._groups(counted.body, op, n)
        if counted.source == "tiles" and isinstance(counted.body, ir.ItemTileSet) and (op, n) in ((">", 0), ("==", 0)):
            return self._tiles("any", op == "==", counted.body)
        if counted.source not in _NOUNS or op not in ("==", ">=", ">") or n > 9:
            return None
        shown = n + 1 if op == ">" else n  # more than n: at least n + 1
        noun = self._noun(counted.source, counted.body, plural=shown != 1)
        if noun is None:
            return None
        measure = _measure(counted.source)
        if op == "==" and n == 0:
            return Phrase(f"没有{noun.zh}", f"no {noun.en}")
        if op == "==":
            return Phrase(f"{_ZH_NUMBERS[n]}{measure}{noun.zh}", f"{_EN_NUMBERS[n]} {noun.en}")
        if shown == 1:
            return Phrase(f"有{noun.zh}", f"at least one {noun.en}")
        return Phrase(f"至少{_ZH_NUMBERS[shown]}{measure}{noun.zh}", f"at least {_EN_NUMBERS[shown]} {noun.en}")

    def _groups(self, body: ir.Expr | None, op: str, n: int) -> Phrase | None:
        """`count(groups, ...)`: nothing declared, N sets claimed, all N flowers."""
        parts = _conjuncts(body) if body is not None else []
        names = [p.name for p in parts if isinstance(p, ir.Item)]
        if op != "==":
            return None
        if names == ["declared"] and n == 0:
            return Phrase("没有吃、碰、杠", "nothing declared (no chow, pung or kong)")
        if names == ["declared", "opens"]:
            return Phrase(f"{_ZH_NUMBERS[n]}副面子都是吃、碰或明杠", f"all {_EN_NUMBERS[n]} sets claimed (chow, pung "
                          "or exposed kong)")
        return self._laid_aside(parts, n)

    def _laid_aside(self, parts: list[ir.Expr], n: int) -> Phrase | None:
        """N tiles laid aside as a meld kind of one tile of a set, all of the set (or of a smaller set) when N is
        its size: "all eight flowers", "the four seasons"."""
        kinds = [p for p in parts if isinstance(p, ir.Item) and p.name in self.meld_kinds]
        sets = [p.tileset for p in parts if isinstance(p, ir.ItemTileSet) and p.every]
        if len(kinds) != 1 or len(parts) != len(kinds) + len(sets) or len(sets) > 1:
            return None
        kind = self.meld_kinds[kinds[0].name]
        tileset = sets[0] if sets else kind.tileset
        if tileset is None or len(self.tilesets[tileset].tiles) != n:
            return None
        members = self._members(tileset)
        english = self._tileset_en(tileset)
        of = " of" if english.startswith("the ") else ""  # "all four of the four seasons", "all eight flowers"
        all_of = f"all {_EN_NUMBERS[n]}{of} {english}"
        return Phrase(f"{_ZH_NUMBERS[n]}张{_zh(tileset)}（{members}）全部到齐", f"{all_of} ({members}) laid aside")

    def _all_any(self, expr: ir.Expr) -> Phrase | None:
        negated = isinstance(expr, ir.Not)
        aggregate = expr.operand if isinstance(expr, ir.Not) else expr
        assert isinstance(aggregate, ir.Aggregate)
        source, body = aggregate.source, aggregate.body
        if source == "tiles":
            return self._tiles(aggregate.function, negated, body)
        if source == "groups" and aggregate.function == "all" and not negated:
            return self._every_group(body)
        if source in ("pungs", "pairs") and aggregate.function == "any" and not negated:
            noun = self._noun(source, body)
            return None if noun is None else Phrase(f"有{noun.zh}", _a(noun.en))
        return None

    def _tiles(self, function: str, negated: bool, body: ir.Expr | None) -> Phrase | None:
        """Which tiles a hand holds: only green tiles, no honors, only 7 8 9."""
        ranks = _rank_range(body)
        if ranks is not None and function == "all" and not negated:
            low, high = ranks
            digits = "".join(str(r) for r in range(low, high + 1))
            return Phrase(f"只有{digits}的数牌", f"only numbered tiles {_listed(list(digits))}")
        if not isinstance(body, ir.ItemTileSet):
            return None
        name = body.tileset
        if function == "all" and not negated:
            return Phrase(f"全部是{_zh(name)}（{self._members(name)}）",
                          f"only {self._tileset_en(name)} ({self._members(name)})")
        if function == "any":
            return (Phrase(f"没有{_zh(name)}", "no " + self._tileset_en(name).replace(" and ", " or ")) if negated
                    else Phrase(f"有{_zh(name)}", f"with {self._tileset_en(name)}"))
        return None

    def _every_group(self, body: ir.Expr | None) -> Phrase | None:
        match body:
            case ir.ItemTileSet(every=False, tileset=name):
                return Phrase(f"每副面子和将牌都带{_zh(name)}", f"every set and the pair include {self._article(name)}")
            case ir.ItemTileSet(every=True, tileset=name):
                return Phrase(f"每副面子和将牌都是{_zh(name)}", f"every set and the pair are {self._tileset_en(name)}")
        return None

    # -- nouns

    def _noun(self, source: str, body: ir.Expr | None, plural: bool = False) -> Phrase | None:
        """A group noun with what its body says of it: "concealed pungs (or kongs) of dragons"."""
        zh, singular, many = _NOUNS[source]
        before: list[str] = []
        after: list[str] = []
        prefixes: list[str] = []
        for part in _conjuncts(body) if body is not None else []:
            word = self._modifier(part, source)
            if word is None:
                return None
            prefixes.append(word[0])
            (before if word[2] else after).append(word[1])
        if prefixes and prefixes[0] in ("暗", "明"):  # 暗刻, 明杠: the kind of set comes last in Chinese
            prefixes.append(prefixes.pop(0))
            zh = zh.removesuffix("子")
        en = " ".join(before + [many if plural else singular] + after)
        return Phrase("".join(prefixes) + zh, en)

    def _modifier(self, part: ir.Expr, source: str) -> tuple[str, str, bool] | None:
        """(Chinese prefix, English words, whether the English goes before the noun)."""
        match part:
            case ir.Item(name="concealed"):
                return "暗", "concealed", True
            case ir.Item(name="exposed"):
                return "明", "exposed", True
            case ir.Item(name="numbered"):
                return ("数" if source in ("tiles", "held_tiles") else "数牌"), "numbered", True
            case ir.ItemTileSet(every=True, tileset=name):
                return name, f"of {self._tileset_en(name)}", False
            case ir.Not(operand=ir.ItemTileSet(every=True, tileset=name)):
                return f"非{name}", f"not of {self._tileset_en(name)}", False
            case ir.Binary(op="==", left=ir.Item(name="tile"), right=ir.TileOf(name=wind)) if wind in _WINDS:
                return _WINDS[wind].zh, f"of {_WINDS[wind].en}", False
        return None

    def _combinations(self, expr: ir.Combinations) -> Phrase | None:
        """Sets taken together: "three chows of one suit, each one rank above the last (123 234 345)"."""
        reading = _Combination.read(expr)
        if reading is None or expr.source not in ("chows", "pungs"):
            return None
        body = _all_of(reading.rest, expr.span)
        noun, one = self._noun(expr.source, body, plural=True), self._noun(expr.source, body)
        return None if noun is None or one is None else reading.phrase(expr.source, expr.size, noun, one)

    # -- names

    def _fan_name(self, name: str) -> str:
        english = self.patterns[name].english if name in self.patterns else None
        return f"{name} ({english})" if english and "(" not in english else name

    def _tileset_en(self, name: str) -> str:
        """A tile set in an English sentence: "dragons"; a set of one tile by its name, "白 (White dragon)"; a set
        whose English explains itself by its Chinese name."""
        tileset = self.tilesets[name]
        english = tileset.english
        if len(tileset.tiles) == 1:
            tile = self.spec.tiles[next(iter(tileset.tiles))]
            return f"{tile.name} ({english or tile.english})"
        if not english or "(" in english or "," in english:
            return name
        possessive = english.split()[0].endswith("'s")  # "East's flowers" keeps its capital
        return english if possessive else english[0].lower() + english[1:]

    def _article(self, name: str) -> str:
        """"a terminal or honor tile"-like: the set's English as a kind of tile."""
        return f"a tile of {self._tileset_en(name)}"

    def _members(self, name: str) -> str:
        return " ".join(self.spec.tiles[i].name for i in sorted(self.tilesets[name].tiles))

    def _inlined(self, expr: ir.Expr) -> ir.Expr:
        """A `let` holding a condition stands for its condition."""
        while isinstance(expr, ir.Var) and expr.scope == "binding" and expr.name in self.lets:
            expr = self.lets[expr.name]
        return expr


@dataclass(frozen=True)
class _Combination:
    """What `combinations(SOURCE, K, COND)` asks of its sets: one suit or different suits, the rank step."""

    same_tile: bool
    suits: str | None  # "same", "distinct" or None
    steps: tuple[int, ...]  # the steps allowed (empty: any)
    rest: tuple[ir.Expr, ...]  # what it asks of every set alone (tile sets, numbered)

    @classmethod
    def read(cls, expr: ir.Combinations) -> _Combination | None:
        same_tile, suits, steps, rest = False, None, (), []
        for part in _conjuncts(expr.body):
            match part:
                case ir.ComboSame(attr="tile", distinct=False):
                    same_tile = True
                case ir.ComboSame(attr="suit", distinct=distinct):
                    suits = "distinct" if distinct else "same"
                case _ if _steps(part) is not None:
                    steps = _steps(part)
                case ir.ComboSame():
                    return None
                case _:
                    rest.append(part)
        return cls(same_tile, suits, steps, tuple(rest))

    def phrase(self, source: str, size: int, noun: Phrase, one: Phrase) -> Phrase:
        """`noun`: the sets in the plural; `one`: a single one of them."""
        count = Phrase(_ZH_NUMBERS[size] + "副", _EN_NUMBERS[size])
        if self.same_tile:
            return Phrase(f"同一花色{count.zh}相同的{noun.zh}", f"{count.en} identical {noun.en} (the same numbers "
                          "in the same suit)")
        if self.suits == "distinct" and self.steps == (0,):
            return Phrase(f"{count.zh}数字相同、花色各不相同的{noun.zh}（如{self._example(source, size, 0, True)}）",
                          f"the same {one.en} in {count.en} different suits ({self._example(source, size, 0, True)})")
        if self.steps == (0,):
            return Phrase(f"{count.zh}数字相同的{noun.zh}", f"{count.en} {noun.en} of the same number")
        if not self.steps:
            return Phrase(count.zh + noun.zh, f"{count.en} {noun.en}")
        where = {"same": Phrase("同一花色的", "of one suit"),
                 "distinct": Phrase("花色各不相同的", f"in {count.en} different suits")}.get(self.suits, Phrase("", ""))
        stepped = self._stepped(source, size)
        return Phrase(f"{where.zh}{count.zh}{noun.zh}，{stepped.zh}",
                      " ".join(x for x in (count.en, noun.en, where.en) if x) + f", {stepped.en}")

    def _stepped(self, source: str, size: int) -> Phrase:
        examples = " or ".join(self._example(source, size, s, self.suits == "distinct") for s in self.steps)
        zh_examples = "或".join(self._example(source, size, s, self.suits == "distinct") for s in self.steps)
        steps_zh = "或".join(_ZH_NUMBERS[s].replace("两", "二") for s in self.steps)
        steps_en = " or ".join(_EN_NUMBERS[s] for s in self.steps)
        ranks = "rank" if self.steps == (1,) else "ranks"
        return Phrase(f"依次递增{steps_zh}（如{zh_examples}）", f"each {steps_en} {ranks} above the last ({examples})")

    @staticmethod
    def _example(source: str, size: int, step: int, suits: bool) -> str:
        """The first sets of such a combination, from 1: 123 456 789, 111m 222p 333s."""
        width = 3 if source == "chows" else 1
        sets = []
        for i in range(size):
            rank = 1 + i * step
            text = "".join(str(rank + j) for j in range(3)) if width == 3 else str(rank) * 3
            sets.append(text + ("mps"[i] if suits else ""))
        return " ".join(sets)


def _flag_state(part: ir.Expr) -> tuple[str, bool] | None:
    """`self_drawn` -> ("self_drawn", True), `not opened` -> ("opened", False); None for anything else."""
    negated = isinstance(part, ir.Not)
    var = part.operand if isinstance(part, ir.Not) else part
    if isinstance(var, ir.Var) and var.name in _FLAGS and var.scope in ("context", "hand"):
        return var.name, not negated
    return None


def _conjuncts(expr: ir.Expr) -> list[ir.Expr]:
    if isinstance(expr, ir.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _all_of(parts: tuple[ir.Expr, ...], span: ir.Span) -> ir.Expr | None:
    if not parts:
        return None
    joined = parts[0]
    for part in parts[1:]:
        joined = ir.Binary(span, "and", joined, part)
    return joined


def _steps(part: ir.Expr) -> tuple[int, ...] | None:
    """`step == 1`, `step == 1 or step == 2`: the steps allowed."""
    match part:
        case ir.Binary(op="==", left=ir.Item(name="step"), right=ir.Const(value=int() as step)):
            return (step,)
        case ir.Binary(op="or"):
            left, right = _steps(part.left), _steps(part.right)
            return None if left is None or right is None else left + right
    return None


def _rank_counts(parts: list[ir.Expr]) -> tuple[Phrase | None, list[ir.Expr]]:
    """A count of each rank 1 to 9 among the tiles (held before the winning tile): "1112345678999"."""
    counts: dict[int, tuple[str, int]] = {}
    others = []
    for part in parts:
        match part:
            case ir.Binary(op="==" | ">=" as op, right=ir.Const(value=int() as n), left=ir.Aggregate(
                    function="count", source="tiles" | "held_tiles" as source,
                    body=ir.Binary(op="==", left=ir.Item(name="rank"), right=ir.Const(value=int() as rank)))):
                counts[rank] = (f"{source} {op}", n)
            case _:
                others.append(part)
    kinds = {kind for kind, _ in counts.values()}
    if sorted(counts) != list(range(1, 10)) or len(kinds) != 1:
        return None, parts
    digits = "".join(str(rank) * n for rank, (_, n) in sorted(counts.items()))
    source, op = kinds.pop().split()
    held = Phrase("和牌前手中", " held before the winning tile") if source == "held_tiles" else Phrase("", "")
    if op == ">=":
        return Phrase(f"{held.zh}含{digits}", f"{digits}{held.en}, and one more tile"), others
    return Phrase(f"{held.zh}为{digits}", f"{digits}{held.en}"), others


def _rank_range(body: ir.Expr | None) -> tuple[int, int] | None:
    """`numbered and rank >= 4 and rank <= 6`: (4, 6)."""
    if body is None:
        return None
    low, high, numbered = 1, 9, False
    for part in _conjuncts(body):
        match part:
            case ir.Item(name="numbered"):
                numbered = True
            case ir.Binary(op=">=", left=ir.Item(name="rank"), right=ir.Const(value=int() as n)):
                low = n
            case ir.Binary(op="<=", left=ir.Item(name="rank"), right=ir.Const(value=int() as n)):
                high = n
            case _:
                return None
    return (low, high) if numbered and (low, high) != (1, 9) else None


def _suits(op: str, n: int) -> Phrase | None:
    if op != "==" or not 1 <= n <= 3:
        return None
    return (Phrase("只有一种花色的数牌", "numbered tiles of one suit only"),
            Phrase("只有两种花色的数牌（缺一门）", "numbered tiles of two suits only, the third missing"),
            Phrase("三种花色的数牌都有", "numbered tiles of all three suits"))[n - 1]


def _zh(tileset: str) -> str:
    """A tile set in a Chinese sentence: a one-character name reads as a kind of tile (字 -> 字牌, 绿 -> 绿牌)."""
    return tileset + "牌" if len(tileset) == 1 else tileset


def _measure(source: str) -> str:
    return {"kongs": "个", "pairs": "对", "tiles": "张", "held_tiles": "张"}.get(source, "副")


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _listed(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _ended(text: str, stop: str) -> str:
    """A sentence with its full stop: the spec's doc may leave it out."""
    return text if text.endswith((stop, "。", ".", "!", "?", "！", "？")) else text + stop


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]

