"""A whole hand of play: a round record (JSON) -> the payments of each event and the total.

The record lists what happened, in order: kongs, declarations, penalties, wins (several on one discard;
in 血战到底 play goes on after a win) and an exhaustive draw with every remaining player's final hand.
Each win is scored and settled by the spec's checker (compiled or interpreted); the round rules of the
spec (`round:`) add the payments that happen between the deal and the end of the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from dsl.cases.case import Hand, check_copies, hand_tilesets, read_case, read_context, read_meld, read_options
from dsl.cases.presets import with_options
from dsl.frontend import ir
from dsl.interp.evaluation import Evaluator
from dsl.notation import HandError
from dsl.vocabulary import WINDS

EVENT_KINDS = ("kong", "win", "draw", "declare", "penalty")
RECORD_KEYS = ("dealer", "context", "events", "options", "carried")
# what the record's events say, not its context
PER_CASE = ("seat", "discarder", "self_drawn", "dealer", "out", "seat_wind")
NO_RULES = ir.RoundRules((), None, None, (), (), (), (), (), None)


class RoundError(Exception):
    """A record that does not describe a possible hand of play; the message names the event."""


@dataclass
class Kong:
    seat: int
    kind: str
    tiles: tuple[int, ...] | None  # as the record gives them, sorted (None: not given)
    text: str  # the record's tiles, as written ("" when not given)
    payments: tuple[int, ...]  # what the kong's declaration made each seat pay (-) or receive (+)
    passed_on: bool = False  # 杠上炮 handed its income to a winner: it is no longer the player's to refund


@dataclass
class Play:
    """The state of the hand while its events are read."""

    players: int
    dealer: int
    options: dict[str, object]
    context: dict[str, object]  # context keys every case of the hand shares (an indicator tile, the round wind)
    flags: set[str] = field(default_factory=set)  # set on every win of this hand by declarations
    next_hand: list[str] = field(default_factory=list)
    out: list[int] = field(default_factory=list)  # seats that have won, in order
    kongs: list[Kong] = field(default_factory=list)
    kong_tiles: Counter[int] = field(default_factory=Counter)  # the tiles of every kong made, to count copies
    winners: dict[int, Hand] = field(default_factory=dict)  # each winner's winning hand
    ended_by: int | None = None  # the event that ended the hand
    open_discard: int | None = None  # the discarder of the last event, a discard win: more may win on it
    discard_winners: int = 0  # how many have won on that discard

    def still_in(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]


@dataclass
class Player:
    """What a round rule may ask of one player at the end of the hand."""

    seat: int
    won: bool
    dealer: bool
    suits: int
    waits: list[str]  # the tiles its final hand waits on
    kong_income: int
    case: dict | None  # the final hand (no winning tile), for a player still in

    @property
    def ready(self) -> bool:
        return bool(self.waits)


@dataclass
class PlayerEnv:
    player: Player | None
    bindings: dict[str, ir.Expr]
    options: Mapping[str, object]
    payer: Player | None = None
    receiver: Player | None = None
    outcome: Mapping[str, object] = field(default_factory=dict)  # how the hand ended, for `next hand sets`
    lets: dict[object, object] = field(default_factory=dict)  # `let` values computed for this player (Evaluator.let)


class RoundEvaluator(Evaluator):
    """Expressions of the `round:` rules: a player's attributes, `payer.` and `receiver.` in an amount."""

    def __init__(self, spec: ir.Spec, best):
        super().__init__(spec)
        self.best = best

    def value(self, expr: ir.Expr, env):
        if isinstance(expr, ir.Item):
            side = env.payer if expr.element == "payer" else env.receiver
            return self.best(env.receiver, env.payer) if expr.name == "best" else getattr(side, expr.name)
        return super().value(expr, env)

    def _var(self, expr: ir.Var, env):
        if expr.scope == "player":
            return getattr(env.player, expr.name)
        if expr.scope == "option":
            return env.options[expr.name]
        if expr.scope in ("round_end", "flag"):
            return env.outcome[expr.name]
        assert expr.scope == "binding", expr
        return self.let(expr.name, env)


class RoundSettler:
    """Settles round records with a spec's checker; `options` (checked: dsl.cases.presets.chosen_options) are
    the rule options of every record, under the record's own."""

    def __init__(self, spec: ir.Spec, checker, options: Mapping[str, object] | None = None):
        self.spec = spec
        self.checker = checker
        self.options = dict(options or {})
        self.rules = spec.rounds or NO_RULES
        self.evaluator = RoundEvaluator(spec, self._best)
        self.bindings = {b.name: b.expr for b in self.rules.bindings}
        self.int_keys = {k.name: k for k in spec.context if k.kind == "int"}

    def settle(self, record: object) -> dict:
        try:
            return self._settle(record)
        except RoundError as exc:
            return {"ok": False, "error": str(exc)}

    # -- the record

    def _settle(self, record: object) -> dict:
        play = self._start(record)
        events = record["events"]  # type: ignore[index]
        if not isinstance(events, list):
            raise RoundError("'events' is a list of events")
        entries = []
        pot = 0
        for index, event in enumerate(events):
            entry = self._event(play, index, event)
            pot += entry.pop("pot", 0)
            entries.append(entry)
        result: dict = {"ok": True, "events": entries,
                        "payments": [sum(e["payments"][s] for e in entries) for s in range(play.players)]}
        if pot:
            result["pot"] = pot
        if play.next_hand:
            result["next_hand"] = play.next_hand
        if self.rules.next_hand_sets:
            result["next_context"] = self._next_context(play, entries)
        return result

    def _next_context(self, play: Play, entries: list[dict]) -> dict[str, int]:
        """`next hand sets KEY = ...`: the values integer context keys take in the next hand."""
        winners = [e["seat"] for e in entries if e["event"] == "win"]
        outcome: dict[str, object] = {"dealer_won": play.dealer in winners, "winners": len(winners),
                                      "drawn": any(e["event"] == "draw" for e in entries)}
        shared = self._hand_wide(play)
        outcome |= {name: shared[name] for name in self.int_keys}
        env = PlayerEnv(None, self.bindings, play.options, outcome=outcome)
        values = {}
        for rule in self.rules.next_hand_sets:
            value, key = self.evaluator.value(rule.expr, env), self.int_keys[rule.key]
            if isinstance(value, bool) or not isinstance(value, int) or not key.low <= value <= key.high:
                raise RoundError(f"next hand sets {rule.key} to {value}, outside its range {key.low}..{key.high}")
            values[rule.key] = value
        return values

    def _start(self, record: object) -> Play:
        if not isinstance(record, Mapping):
            raise RoundError('a round is a JSON object such as {"dealer": 0, "events": [...]}')
        for key in record:
            if key not in RECORD_KEYS:
                raise RoundError(f"unknown key {key!r}; a round has: " + ", ".join(RECORD_KEYS))
        if "events" not in record:
            raise RoundError("the round has no 'events'")
        dealer = record.get("dealer", 0)
        if not _is_seat(dealer, self.spec.players):
            raise RoundError(f"'dealer' is a seat from 0 to {self.spec.players - 1}, not {dealer!r}")
        play = Play(self.spec.players, dealer, self._options(record), self._context(record))
        play.flags.update(self._carried(record))
        return play

    def _options(self, record: Mapping) -> dict[str, object]:
        """Every option's value in this hand: the record's, else the settler's, else the spec's default."""
        options = record.get("options", {})
        try:
            read_options(self.spec, options)
        except HandError as exc:
            raise RoundError(str(exc)) from None
        return read_options(self.spec, self.options | dict(options))

    def _context(self, record: Mapping) -> dict[str, object]:
        context = record.get("context", {})
        if not isinstance(context, Mapping) or any(key in PER_CASE for key in context):
            raise RoundError("'context' is an object of context keys every case of the hand shares, e.g. "
                             '{"indicator": "5p"}; the events say ' + ", ".join(PER_CASE))
        try:
            read_context(self.spec, context)
        except HandError as exc:
            raise RoundError(f"'context': {exc}") from None
        return dict(context)

    def _carried(self, record: Mapping) -> list[str]:
        """Only what a previous hand passes on (`declare X: next hand sets FLAG`) may be carried: a flag of the
        win itself (self_drawn, kong_replacement) is the win's to say."""
        flags = [d.flag for d in self.rules.declarations if d.next_hand]
        carried = record.get("carried", [])
        if not isinstance(carried, list) or any(f not in flags for f in carried):
            passed_on = ", ".join(flags) or f"none in {self.spec.name}"
            raise RoundError(f"'carried' lists flags a previous hand passes on ({passed_on}), not {carried!r}")
        return carried

    def _event(self, play: Play, index: int, event: object) -> dict:
        where = f"event {index + 1}"
        kinds = [k for k in EVENT_KINDS if isinstance(event, Mapping) and k in event]
        if len(kinds) != 1:
            raise RoundError(f"{where}: an event has one of the keys {', '.join(EVENT_KINDS)}, not {event!r}")
        kind = kinds[0]
        assert isinstance(event, Mapping)
        on_discard = kind == "win" and play.open_discard is not None
        limit = self._winners_per_discard(play)
        if play.ended_by is not None and not (on_discard and (limit is None or play.discard_winners < limit)):
            why = "" if not on_discard else ": one player wins on one discard" if limit == 1 else \
                f": at most {limit} players win on one discard"
            raise RoundError(f"{where}: the hand ended at event {play.ended_by + 1}{why}")
        if kind != "win":
            play.open_discard = None
        try:
            entry = getattr(self, f"_{kind}")(play, event, index)
        except (HandError, RoundError) as exc:
            raise RoundError(f"{where} ({kind}): {exc}") from None
        return {"event": kind} | entry

    def _winners_per_discard(self, play: Play) -> int | None:
        limit = self.rules.winners_per_discard
        return None if limit is None else self._amount(limit, PlayerEnv(None, self.bindings, play.options))

    # -- events

    def _kong(self, play: Play, event: Mapping, index: int) -> dict:
        seat = self._active_seat(play, event.get("seat"))
        kind = event["kong"]
        kinds = {k.name: k for k in self.spec.meld_kinds if k.shape == "kong" or k.aside}
        if not isinstance(kind, str) or kind not in kinds:
            raise RoundError(f"{kind!r} is not a kind of kong; {self.spec.name} has: {', '.join(sorted(kinds))}")
        if "from" in event:
            if kinds[kind].concealed or kinds[kind].aside:
                raise RoundError(f"a {kind} is made of the player's own tiles: it has no 'from'")
            if self._active_seat(play, event["from"]) == seat:
                raise RoundError("a kong cannot be made on one's own discard")
        tiles = None
        if "tiles" in event:
            tiles = read_meld(self.spec, f"{kind} {event['tiles']}", hand_tilesets(self.spec, play.context)).tiles
            play.kong_tiles.update(tiles)
            check_copies(self.spec, play.kong_tiles, "the kongs of this hand hold ")
        payments = [0] * play.players
        rule = self.rules.kong(kind)
        for payment in rule.payments if rule else ():
            for payer in self._kong_payers(play, payment.payer, seat, event.get("from")):
                amount = self._amount(payment.amount, PlayerEnv(self._player(play, payer), self.bindings,
                                                                 play.options))
                payments[payer] -= amount
                payments[seat] += amount
        play.kongs.append(Kong(seat, kind, tiles, str(event.get("tiles", "")), tuple(payments)))
        return {"seat": seat, "kind": kind, "payments": payments}

    def _kong_payers(self, play: Play, payer: str, seat: int, source: object) -> list[int]:
        if payer == "each other":
            return [s for s in play.still_in() if s != seat]
        if source is None:
            raise RoundError("this kong was made on a discard: say who discarded it with 'from'")
        return [source]  # type: ignore[list-item]  # checked by _kong

    def _win(self, play: Play, event: Mapping, index: int) -> dict:
        case = event["win"]
        if not isinstance(case, Mapping):
            raise RoundError("'win' is the winner's case: hand, win, melds, seat ...")
        if "seat" not in case:
            raise RoundError("the winner's case has no 'seat'")
        seat = self._active_seat(play, case["seat"])
        if seat in play.winners:
            raise RoundError(f"seat {seat} has already won this hand; nobody wins twice on one discard")
        case = self._full_case(play, dict(case))
        discarder = None if case.get("self_drawn") else case.get("discarder", (seat - 1) % play.players)
        if play.ended_by is not None and discarder != play.open_discard:
            raise RoundError(f"the hand ended at event {play.ended_by + 1}; only another win on the same discard "
                             f"(seat {play.open_discard}) may follow")
        result = self.checker.evaluate(case)
        if not result["ok"]:
            raise RoundError(result["error"])
        hand = read_case(self.spec, case)
        self._kongs_shown(play, hand)
        if not result["winning"]:
            raise RoundError(f"seat {seat} does not win: {result['reason']}")
        if "payments" not in result:
            raise RoundError(f"{self.spec.name} has no `settle:` rules")
        entry: dict = {"seat": seat} | ({} if discarder is None else {"discarder": discarder})
        entry |= {"fans": result["fans"], "total": result["total"], "payments": list(result["payments"])}
        if "paid" in result:
            entry["paid"] = result["paid"]
        if "pot" in result:
            entry["pot"] = result["pot"]
        self._transfer(play, case, discarder, entry)
        play.winners[seat] = hand
        if self.rules.winners_leave is not None:
            play.out.append(seat)
        if self.rules.winners_leave is None or len(play.out) >= self.rules.winners_leave:
            play.ended_by = index if play.ended_by is None else play.ended_by
        same_discard = discarder is not None and discarder == play.open_discard
        play.discard_winners = play.discard_winners + 1 if same_discard else 1
        play.open_discard = discarder
        return entry

    def _full_case(self, play: Play, case: dict) -> dict:
        """A player's case (a win, a final hand at a draw) with what the round knows: dealer, shared context,
        declared flags, seats out, rule options."""
        self._agrees_with_record(play, case)
        case = self._hand_wide(play) | case
        case.setdefault("seat_wind", _seat_wind(case["seat"], play.dealer, play.players))
        if play.out:
            case["out"] = list(play.out)
        return with_options(case, play.options)

    def _agrees_with_record(self, play: Play, case: Mapping) -> None:
        """A case of the round may repeat what the record says of the whole hand, never contradict it: the
        case would be scored with its own value while the round's rules and `next hand sets` work from the
        record's (a win with 連莊 2 in a hand of 連莊 1 would score 拉莊 4 and pass 連莊 2 on, not 3)."""
        if "out" in case:
            raise RoundError("'out' is not given in a round: the round knows who has won and left")
        for key, value in self._hand_wide(play).items():
            if key in case and not _same(case[key], value):
                raise RoundError(f"{key!r} {case[key]!r} contradicts the record: the whole hand has {key} {value!r} "
                                 f"({self._said_by(play, key)}), so a case of the round leaves it out or repeats it")
        options = case.get("options", {})
        if not isinstance(options, Mapping):
            raise RoundError("'options' is an object of option names and values")
        for name, value in read_options(self.spec, play.options).items():
            if name in options and not _same(options[name], value):
                raise RoundError(f"option {name!r} {options[name]!r} contradicts the record: the whole hand has "
                                 f"{name} {value!r} (the record's 'options'; the spec's default when left out), so a "
                                 "case of the round leaves it out or repeats it")

    def _said_by(self, play: Play, key: str) -> str:
        """Where the record says a value of the whole hand."""
        if key == "dealer":
            return "the record's 'dealer'; 0 when left out"
        if key in play.flags:
            return "declared or carried"
        if key in self.int_keys:
            return f"the record's 'context'; {self.int_keys[key].low} when left out"
        return "the record's 'context'"

    def _hand_wide(self, play: Play) -> dict[str, object]:
        """What every case of the hand shares: the dealer, the integer keys (their lowest value when the record
        leaves them out, as a case does), the record's context and the flags declared or carried so far."""
        return ({"dealer": play.dealer} | {name: key.low for name, key in self.int_keys.items()} | play.context
                | dict.fromkeys(play.flags, True))

    def _transfer(self, play: Play, case: Mapping, discarder: int | None, entry: dict) -> None:
        """杠上炮: the discarder hands the income of its last kong to the winner (each winner a full copy)."""
        for rule in self.rules.transfers:
            if not case.get(rule.flag):
                continue
            kongs = [k for k in play.kongs if k.seat == discarder]
            if discarder is None or not kongs:
                raise RoundError(f"{rule.flag!r} is set, but the discarder made no kong before")
            income = kongs[-1].payments[discarder]
            kongs[-1].passed_on = True
            entry["payments"][discarder] -= income
            entry["payments"][entry["seat"]] += income
            entry["transfer"] = income

    def _draw(self, play: Play, event: Mapping, index: int) -> dict:
        hands = event["draw"]
        still_in = play.still_in()
        if not isinstance(hands, Mapping) or sorted(str(s) for s in still_in) != sorted(map(str, hands)) \
                or not all(isinstance(seat, str) for seat in hands):
            raise RoundError("'draw' maps each player still in (seats " + ", ".join(map(str, still_in))
                             + ") to its final hand: {\"2\": {\"hand\": ..., \"melds\": [...]}}")
        finals = {int(seat): self._final_hand(play, int(seat), hand) for seat, hand in hands.items()}
        check_copies(self.spec, Counter(t for _, hand in finals.values() for t in hand.tiles), "the final hands hold ")
        for _, hand in finals.values():
            self._kongs_shown(play, hand)
        players = [self._player(play, seat, *finals.get(seat, (None, None))) for seat in range(play.players)]
        checks = [{"name": check.name, "payments": self._check(play, check, players)} for check in self.rules.checks]
        play.ended_by = index
        waits = {str(player.seat): player.waits for player in players if player.case is not None}
        return {"checks": checks, "waits": waits,
                "payments": [sum(c["payments"][s] for c in checks) for s in range(play.players)]}

    def _final_hand(self, play: Play, seat: int, hand: object) -> tuple[dict, Hand]:
        """A player's final hand at a draw: as a case (for its waits) and as read."""
        if not isinstance(hand, Mapping) or "win" in hand:
            raise RoundError(f"seat {seat}'s final hand is {{\"hand\": ..., \"melds\": [...]}}, with no winning tile")
        try:
            if "seat" in hand and not _same(hand["seat"], seat):
                raise RoundError(f"'seat' {hand['seat']!r}: it is the final hand of seat {seat} (its key in 'draw')")
            case = self._full_case(play, dict(hand) | {"seat": seat})
            return case, read_case(self.spec, case)
        except (HandError, RoundError) as exc:
            raise RoundError(f"seat {seat}'s final hand: {exc}") from None

    def _kongs_shown(self, play: Play, hand: Hand) -> None:
        """Every kong a player made in the hand is among the melds a case shows for that player."""
        shown = {hand.seat: hand.melds} | dict(hand.other_melds)
        for seat, melds in shown.items():
            left = [(m.kind.name, m.tiles) for m in melds]
            for kong in (k for k in play.kongs if k.seat == seat):
                found = next((m for m in left if m[0] == kong.kind and kong.tiles in (None, m[1])), None)
                if found is None:
                    raise RoundError(f"seat {seat} made a {kong.kind} {kong.text}".rstrip() + " in this hand, "
                                     "but its melds here do not show it")
                left.remove(found)

    def _check(self, play: Play, check: ir.DrawCheck, players: list[Player]) -> list:
        payments: list = [0] * play.players
        for payer in players:
            if payer.won or not self._holds(check.payer, PlayerEnv(payer, self.bindings, play.options)):
                continue
            if check.amount is None:
                for kong in self._income(play, payer.seat):
                    payments = [p - k for p, k in zip(payments, kong.payments, strict=True)]
                continue
            for receiver in players:
                if receiver is payer or not self._holds(check.receiver, PlayerEnv(receiver, self.bindings,
                                                                                  play.options)):
                    continue
                amount = self._amount(check.amount, PlayerEnv(None, self.bindings, play.options, payer, receiver))
                payments[payer.seat] -= amount
                payments[receiver.seat] += amount
        return payments

    def _declare(self, play: Play, event: Mapping, index: int) -> dict:
        rule = next((d for d in self.rules.declarations if d.name == event["declare"]), None)
        if rule is None:
            known = ", ".join(d.name for d in self.rules.declarations) or "none"
            raise RoundError(f"unknown declaration {event['declare']!r}; {self.spec.name} has: {known}")
        entry: dict = {"name": rule.name, "payments": [0] * play.players}
        if "seat" in event:
            entry["seat"] = self._active_seat(play, event["seat"])
        if rule.next_hand:
            play.next_hand.append(rule.flag)
        else:
            play.flags.add(rule.flag)
        return entry

    def _penalty(self, play: Play, event: Mapping, index: int) -> dict:
        rule = next((p for p in self.rules.penalties if p.name == event["penalty"]), None)
        if rule is None:
            known = ", ".join(p.name for p in self.rules.penalties) or "none"
            raise RoundError(f"unknown penalty {event['penalty']!r}; {self.spec.name} has: {known}")
        seat = self._active_seat(play, event.get("seat"))
        payments: list = [0] * play.players
        amount = self._amount(rule.amount, PlayerEnv(self._player(play, seat), self.bindings, play.options))
        for other in play.still_in():
            if other != seat:
                payments[seat] -= amount
                payments[other] += amount
        return {"name": rule.name, "seat": seat, "payments": payments}

    # -- players

    def _active_seat(self, play: Play, seat: object) -> int:
        if not _is_seat(seat, play.players):
            raise RoundError(f"a seat is a number from 0 to {play.players - 1}, not {seat!r}")
        if seat in play.out:
            raise RoundError(f"seat {seat} has already won and left the hand")
        return seat  # type: ignore[return-value]

    def _player(self, play: Play, seat: int, final: dict | None = None, hand: Hand | None = None) -> Player:
        shown = play.winners.get(seat) or hand
        return Player(
            seat=seat, won=seat in play.winners, dealer=seat == play.dealer,
            suits=_suits(self.spec, shown) if shown else 0,
            waits=self.checker.waits(final) if final else [],
            kong_income=sum(k.payments[seat] for k in self._income(play, seat)),
            case=final)

    @staticmethod
    def _income(play: Play, seat: int) -> list[Kong]:
        """The kongs whose income a player still holds."""
        return [k for k in play.kongs if k.seat == seat and not k.passed_on]

    def _best(self, receiver: Player, payer: Player) -> int:
        """What `payer` would pay if `receiver` won on its discard, on the best of `receiver`'s waits."""
        if receiver.case is None:
            return 0
        best = 0
        for tile in receiver.waits:
            result = self.checker.evaluate(receiver.case | {"win": tile, "discarder": payer.seat})
            if result["ok"] and result["winning"]:
                best = max(best, -result["payments"][payer.seat])
        return best

    def _holds(self, condition: ir.Expr | None, env: PlayerEnv) -> bool:
        return condition is None or bool(self.evaluator.value(condition, env))

    def _amount(self, expr: ir.Expr, env: PlayerEnv) -> int:
        return self.evaluator.value(expr, env)


def _seat_wind(seat: int, dealer: int, players: int) -> str:
    """The wind of a seat: the dealer's is 東, the next seats' 南 西 北 in turn."""
    return WINDS[(seat - dealer) % players]


def _same(given: object, expected: object) -> bool:
    """Equal and of one type: `true` is no seat 1, nor `1.0` a count of one."""
    return type(given) is type(expected) and given == expected


def _is_seat(value: object, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _suits(spec: ir.Spec, hand: Hand) -> int:
    return len({spec.tiles[t].suit for t in hand.tiles if spec.tiles[t].numbered})
