"""The worked examples and worked rounds of a book: each is run through the interpreter as the book is written,
and the book shows its tiles, its context and what the checker answered, with the problems of one whose answer
disagrees with its expectation."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import ClassVar

from dsl.book import figures
from dsl.book.examples import check_example, chosen_reading, fans_text, round_problems
from dsl.book.round_prose import kind_text
from dsl.cases.case import read_case
from dsl.frontend import ir
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import NO_RULES, RoundSettler
from dsl.notation import HandError, tile_codes

_SHOWN_ELSEWHERE = ("hand", "win", "melds", "other_melds")
_WIN_KEYS = ("hand", "win", "melds", "seat", "discarder", "self_drawn")  # said by a worked round's win row itself


@dataclass(frozen=True)
class Meld:
    kind: str
    tiles: tuple[ir.Tile, ...]
    text: str


@dataclass(frozen=True)
class WorkedExample:
    number: int
    example: ir.Example
    concealed: tuple[ir.Tile, ...]
    win: ir.Tile | None
    melds: tuple[Meld, ...]
    others: tuple[tuple[str, tuple[Meld, ...]], ...]
    context: tuple[tuple[str, str], ...]
    expectation: str
    result: dict
    problems: tuple[str, ...]
    roles: tuple[str, ...]  # per seat: "winner, dealer", "discarder", ...
    results: tuple[tuple[str, object], ...]  # the spec's `score:` results and the pot, as the checker gave them
    unit: str = "番"  # the spec's unit, heading the value column
    shown_in: str | None = None  # the spec whose book shows it, when not this book's own (a parent's example)
    kind: ClassVar[str] = "example"

    @property
    def anchor(self) -> str:
        return f"example-{self.number}"

    @property
    def hand_text(self) -> str:
        return dict(self.example.case).get("hand", "")  # type: ignore[return-value]


@dataclass(frozen=True)
class ShownHand:
    """A hand in a worked round: a winner's, a player's at the draw, or the tiles of a kong."""

    label: str
    concealed: tuple[ir.Tile, ...]
    win: ir.Tile | None
    melds: tuple[Meld, ...]
    hand_text: str
    note: str  # "kong_discard", "ready on 1p 9s", ...


@dataclass(frozen=True)
class RoundRow:
    """One line of a worked round's table: an event, or one check of a draw (number "")."""

    number: str
    text: str
    hands: tuple[ShownHand, ...]
    score: str  # a win's fans and total, as the checker gave them
    payments: tuple[object, ...]
    expected: tuple[int, ...] | None

    @property
    def wrong(self) -> bool:
        return self.expected is not None and tuple(self.payments) != self.expected


@dataclass(frozen=True)
class WorkedRound:
    number: int
    example: ir.RoundExample
    setup: tuple[tuple[str, str], ...]  # dealer, carried flags, options
    rows: tuple[RoundRow, ...]
    total: tuple[object, ...] | None  # the checker's; None when the round is invalid
    error: str | None
    problems: tuple[str, ...]
    kind: ClassVar[str] = "worked round"

    @property
    def anchor(self) -> str:
        return f"round-{self.number}"

    @property
    def total_wrong(self) -> bool:
        return self.example.total is not None and self.total != self.example.total


def worked_example(spec: ir.Spec, number: int, example: ir.Example, checker: Interpreter) -> WorkedExample:
    case = example.case_dict()
    result = checker.evaluate(case)
    outcome = check_example(example, result, chosen_reading(checker, example))
    others = tuple((seat, tuple(_meld(spec, m) for m in melds))
                   for seat, melds in sorted(case.get("other_melds", {}).items()))
    return WorkedExample(
        number=number,
        example=example,
        concealed=_tiles(spec, case.get("hand", "")),
        win=_win_tile(spec, case),
        melds=tuple(_meld(spec, m) for m in case.get("melds", ())),
        others=others,
        context=_context(spec, example.preset, case),
        expectation=expectation_text(example),
        result=result,
        problems=outcome.problems,
        roles=_roles(spec, case),
        results=tuple((name, result[name]) for name in [b.name for b in spec.score] + ["pot"] if name in result),
        unit=spec.unit,
    )


def _context(spec: ir.Spec, preset: str | None, case: dict) -> tuple[tuple[str, str], ...]:
    """The keys a worked example gives besides its tiles; a preset by its name, with the options it sets besides."""
    shown = {k: v for k, v in case.items() if k not in _SHOWN_ELSEWHERE}
    if preset is not None:
        own = _beside_preset(spec, preset, shown.pop("options", {}))
        shown |= {"options": own} if own else {}
    context = tuple((k, _shown(v)) for k, v in sorted(shown.items()))
    return (("preset", preset),) + context if preset is not None else context


def _beside_preset(spec: ir.Spec, preset: str, options: dict) -> dict:
    """The options an example or round sets beside those of the preset it names."""
    settings = dict(spec.preset(preset).settings)  # type: ignore[union-attr]  # checked when the spec resolved
    return {k: v for k, v in options.items() if k not in settings or settings[k] != v}


def _win_tile(spec: ir.Spec, case: dict) -> ir.Tile | None:
    return next(iter(_tiles(spec, case["win"])), None) if isinstance(case.get("win"), str) else None


def _tiles(spec: ir.Spec, text: object) -> tuple[ir.Tile, ...]:
    """The tiles of an mpsz string; a case that is meant to be invalid may name no real tiles."""
    known = {t.code: t for t in spec.tiles} | figures.red_tiles(spec)
    codes = tile_codes(text) if isinstance(text, str) else []
    if not codes or any(code not in known for code in codes):
        return ()
    return tuple(known[code] for code in codes)


def _meld(spec: ir.Spec, text: str) -> Meld:
    kind, _, tiles = text.partition(" ")
    return Meld(kind, _tiles(spec, tiles), text)


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _roles(spec: ir.Spec, case: dict) -> tuple[str, ...]:
    try:
        hand = read_case(spec, case)
    except HandError:
        return ()
    roles = []
    for seat in range(spec.players):
        names = ["winner"] if seat == hand.seat else []
        names += ["dealer"] if seat == hand.dealer else []
        names += ["discarder"] if seat == hand.discarder else []
        roles.append(", ".join(names))
    return tuple(roles)


def expectation_text(e: ir.Example) -> str:
    """What the spec says the checker must answer, in the spec's own words."""
    if e.error is not None:
        return f"error “{e.error}”"
    if e.no_win is not None:
        return f"no win “{e.no_win}”"
    parts = [f"{f.name}" + (f" {f.value}" if f.value is not None else "") + (f" ×{f.count}" if f.count > 1 else "")
             for f in e.fans or ()]
    if e.total is not None:
        parts.append(f"total {e.total}")
    text = ", ".join(parts)
    if e.payments is not None:
        text += "; payments " + " ".join(str(p) for p in e.payments)
    return text


def worked_round(spec: ir.Spec, number: int, example: ir.RoundExample, checker: Interpreter) -> WorkedRound:
    record = json.loads(example.record)
    result = RoundSettler(spec, checker).settle(record)
    problems = tuple(round_problems(example, result))
    setup = _round_setup(spec, example.preset, record)
    if result.get("next_context"):  # what `next hand sets` gives the next hand (its record's context)
        setup += (("下局 Next hand", _shown(result["next_context"])),)
    if not result["ok"]:
        return WorkedRound(number, example, setup, (), None, result["error"], problems)
    rows = _RoundTable(spec).rows(record["events"], result["events"], dict(example.payments))
    return WorkedRound(number, example, setup, rows, tuple(result["payments"]), None, problems)


def _round_setup(spec: ir.Spec, preset: str | None, record: dict) -> tuple[tuple[str, str], ...]:
    setup = [("庄 Dealer", f"seat {record.get('dealer', 0)}")]
    if record.get("carried"):
        setup.append(("上局 Carried", ", ".join(record["carried"])))
    options = record.get("options", {})
    if preset is not None:
        setup.append(("预设 Preset", preset))
        options = _beside_preset(spec, preset, options)
    if options:
        setup.append(("选项 Options", _shown(options)))
    if record.get("context"):
        setup.append(("本局 Context", _shown(record["context"])))
    return tuple(setup)


class _RoundTable:
    """The rows of a worked round: each event in words with the payments the checker gave it."""

    def __init__(self, spec: ir.Spec):
        self.spec = spec
        self.rules = spec.rounds or NO_RULES

    def rows(self, events: list[dict], entries: list[dict], expected: dict[int, tuple[int, ...]]
             ) -> tuple[RoundRow, ...]:
        rows: list[RoundRow] = []
        for i, (event, entry) in enumerate(zip(events, entries, strict=True)):
            row = RoundRow(str(i + 1), "", (), "", tuple(entry["payments"]), expected.get(i))
            rows += self._event(row, event, entry)
        return tuple(rows)

    def _event(self, row: RoundRow, event: dict, entry: dict) -> list[RoundRow]:
        """The row of one event (`row` holds its number and payments), and a row per check of a draw."""
        match entry["event"]:
            case "win":
                return [self._win(row, event["win"], entry)]
            case "draw":
                return self._draw(row, event["draw"], entry)
            case "kong":
                return [self._kong(row, event)]
            case "penalty":
                rule = next(p for p in self.rules.penalties if p.name == entry["name"])
                return [replace(row, text=f"Seat {entry['seat']} pays the penalty {_named(rule)}")]
        return [replace(row, text=self._declaration(entry))]

    def _win(self, row: RoundRow, case: dict, entry: dict) -> RoundRow:
        seat, discarder = entry["seat"], entry.get("discarder")
        how = "self-drawn" if discarder is None else f"on seat {discarder}'s discard"
        score = fans_text(entry).strip()
        if "transfer" in entry:
            score += f"; seat {discarder} passes on its kong income, {entry['transfer']}"
        return replace(row, text=f"Seat {seat} wins {how}", hands=(_shown_hand(self.spec, "", case, _case_note(case)),),
                       score=score)

    def _draw(self, row: RoundRow, hands: dict, entry: dict) -> list[RoundRow]:
        """The final hands with the waits the settler found for them (with the hand's context and options)."""
        shown = tuple(_shown_hand(self.spec, f"Seat {seat}", case, _ready(entry["waits"][seat]))
                      for seat, case in sorted(hands.items()))
        rules = {c.name: c for c in self.rules.checks}
        return [replace(row, text="Exhaustive draw 流局", hands=shown),
                *(RoundRow("", _named(rules[c["name"]]), (), "", tuple(c["payments"]), None) for c in entry["checks"])]

    def _kong(self, row: RoundRow, event: dict) -> RoundRow:
        hands = (_shown_hand(self.spec, "", {"hand": event["tiles"]}, ""),) if "tiles" in event else ()
        source = f" on seat {event['from']}'s discard" if "from" in event else ""
        return replace(row, text=f"Seat {event['seat']} makes {kind_text(self.spec, event['kong'])}{source}",
                       hands=hands)

    def _declaration(self, entry: dict) -> str:
        rule = next(d for d in self.rules.declarations if d.name == entry["name"])
        who = f"Seat {entry['seat']} declares" if "seat" in entry else "Declared:"
        later = "the next hand" if rule.next_hand else "the wins that follow"
        return f"{who} {_named(rule)}: sets {rule.flag} on {later}"


def _ready(waits: list[str]) -> str:
    return f"ready on {' '.join(waits)}" if waits else "not ready"


def _case_note(case: dict) -> str:
    """What a winner's case says besides its tiles and seats: flags, other context, the other seats' melds."""
    parts = []
    for key, value in sorted(case.items()):
        if key == "other_melds":
            parts += [f"seat {seat} melds {', '.join(melds)}" for seat, melds in sorted(value.items())]
        elif key not in _WIN_KEYS:
            parts.append(key if value is True else f"{key} {_shown(value)}")
    return "; ".join(parts)


def _named(rule: ir.DrawCheck | ir.PenaltyRule | ir.DeclareRule) -> str:
    return f"{rule.name} ({rule.english})" if rule.english else rule.name


def _shown_hand(spec: ir.Spec, label: str, case: dict, note: str) -> ShownHand:
    return ShownHand(label, _tiles(spec, case.get("hand", "")), _win_tile(spec, case),
                     tuple(_meld(spec, m) for m in case.get("melds", ())), case.get("hand", ""), note)
