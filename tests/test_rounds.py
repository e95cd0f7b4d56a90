"""Round settlement: the `round:` rules, round records, worked rounds, `mjdsl settle`.

Expected payments come from the Sichuan rule text (seed 004: 刮风下雨, 杠上炮, 血战, 查花猪 16,
查大叫, 退税; value 2^(fan − 1)) and from hands worked out in the comments.
"""

from __future__ import annotations

import io
import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dsl
from dsl.cli import main
from dsl.compiled.checkers import checker_for
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import SpecError
from dsl.interp.interpreter import Interpreter
from dsl.interp.rounds import RoundSettler
from dsl.paths import bundled_specs

PING_HU = {"hand": "123m456m789m11p23p", "win": "4p"}  # 平胡 1 → 2^0 = 1
DUI_DUI = {"hand": "111m999m222p888p5p", "win": "5p"}  # 对对胡 2 → 2
QING = {"hand": "1112345678999s", "win": "5s"}  # 清一色 3 → 4
NOT_READY = {"hand": "13579m12345689p"}  # two suits, no wait
HUA_ZHU = {"hand": "123m456p789s1134s"}  # three suits
READY = {"hand": "234p567p999p55m67m"}  # waits 5m / 8m, 平胡 → 1
READY2 = {"hand": "345p678p111p22s34s"}  # waits 2s / 5s, 平胡 → 1
# Hands that can all be on the table together at a draw (no tile more than four times).
DRAW_POOL = [HUA_ZHU, {"hand": "22468m13577999s"}, READY, READY2, {"hand": "1112345678999m"}]


@pytest.fixture(scope="module")
def sichuan() -> RoundSettler:
    spec = load_spec("sichuan")
    return RoundSettler(spec, Interpreter(spec))


def win(seat: int, hand: dict, discarder: int | None = None, **context) -> dict:
    case = dict(hand, seat=seat, **context)
    if discarder is None:
        case["self_drawn"] = True
    else:
        case["discarder"] = discarder
    return {"win": case}


def settle(settler: RoundSettler, *events, **record) -> dict:
    result = settler.settle({"events": list(events), **record})
    assert result["ok"], result
    return result


def payments(result: dict) -> list[list[int]]:
    return [e["payments"] for e in result["events"]]


# ---------------------------------------------------------------- kongs and wins


def test_kong_payments_follow_the_kind(sichuan):
    result = settle(sichuan,
                    {"kong": "concealed_kong", "seat": 1, "tiles": "5555m"},  # 下雨: 2 from each other
                    {"kong": "added_kong", "seat": 2},                        # 刮风: 1 from each other
                    {"kong": "kong", "seat": 3, "from": 0})                   # 直杠: 1 from the discarder
    assert payments(result) == [[-2, 6, -2, -2], [-1, -1, 3, -1], [-1, 0, 0, 1]]
    assert result["payments"] == [-4, 5, 1, -2]


def test_a_winner_neither_pays_nor_receives_afterwards(sichuan):
    result = settle(sichuan, win(1, PING_HU, 0), {"kong": "concealed_kong", "seat": 2},
                    win(3, DUI_DUI))
    # after seat 1 has won: the kong is paid by seats 0 and 3; the self-draw (2) by seats 0 and 2
    assert payments(result) == [[-1, 1, 0, 0], [-2, 0, 4, -2], [-2, 0, -2, 4]]


def test_a_win_names_the_seat_it_was_won_from(sichuan):
    result = settle(sichuan, win(1, PING_HU, 0), {"win": dict(DUI_DUI, seat=3)}, win(2, QING))
    # given (seat 0); by default the seat before the winner (seat 2, not yet won); none on a self-draw
    assert [e.get("discarder", "none") for e in result["events"]] == [0, 2, "none"]


def test_kong_discard_passes_the_last_kong_income_to_every_winner(sichuan):
    result = settle(sichuan, {"kong": "kong", "seat": 0, "from": 1}, {"kong": "concealed_kong", "seat": 0},
                    win(2, PING_HU, 0, kong_discard=True),
                    win(3, {"hand": "111m999m222p888p4p", "win": "4p"}, 0, kong_discard=True))
    # The last kong (concealed) earned 6. Seat 2: 平胡 + 杠上炮 = 2 → 2, + 6. Seat 3: 对对胡 + 杠上炮 = 3 → 4, + 6.
    assert payments(result)[2:] == [[-8, 0, 8, 0], [-10, 0, 0, 10]]
    assert [e.get("transfer") for e in result["events"][2:]] == [6, 6]


def test_three_winners_end_the_bloody_battle(sichuan):
    events = [win(1, PING_HU, 0), win(2, DUI_DUI, 0), win(3, QING)]
    result = settle(sichuan, *events)
    assert result["payments"] == [-7, 1, 2, 4]  # seat 3's 清一色 (4) is paid by seat 0 alone
    late = sichuan.settle({"events": events + [{"kong": "concealed_kong", "seat": 0}]})
    assert not late["ok"] and "event 4" in late["error"] and "ended at event 3" in late["error"]


# ---------------------------------------------------------------- the draw


def test_draw_checks_flower_pig_not_ready_and_refund(sichuan):
    result = settle(sichuan, {"kong": "concealed_kong", "seat": 3, "tiles": "5555s"}, {"draw": {
        "0": HUA_ZHU, "1": NOT_READY, "2": READY,
        "3": {"hand": "13579m12468s", "melds": ["concealed_kong 5555s"]}}})
    checks = {c["name"]: c["payments"] for c in result["events"][1]["checks"]}
    # 查花猪: seat 0 pays 16 to each of the three others (none of them a 花猪)
    assert checks["查花猪"] == [-48, 16, 16, 16]
    # 查大叫: seats 1 and 3 are not ready (and no 花猪): each pays seat 2 its best, 平胡 → 1
    assert checks["查大叫"] == [0, -1, 2, -1]
    # 退税: seat 3 is not ready and returns the 2 each player paid for its kong; seat 0 never konged
    assert checks["退税"] == [2, 2, 2, -6]
    assert sum(result["payments"]) == 0


def test_best_is_the_largest_wait_with_its_roots(sichuan):
    # 1112345678999m waits on every 万; on 1m or 9m it is 清一色 3 + 根 1 = 4 → 8, the best
    result = settle(sichuan, {"draw": {"0": {"hand": "13579p12345689s"}, "1": {"hand": "1112345678999m"},
                                       "2": READY, "3": READY2}})
    assert result["events"][0]["checks"][1]["payments"] == [-10, 8, 1, 1]


def test_winners_are_not_listed_at_the_draw(sichuan):
    bad = sichuan.settle({"events": [win(1, PING_HU, 0), {"draw": {"0": READY, "1": READY, "2": READY, "3": READY}}]})
    assert not bad["ok"] and "seats 0, 2, 3" in bad["error"]


# ---------------------------------------------------------------- records that cannot have happened


@pytest.mark.parametrize(("record", "fragment"), [
    ([], "a round is a JSON object"),
    ({"events": [], "dealr": 0}, "unknown key 'dealr'"),
    ({"events": {}}, "'events' is a list"),
    ({"events": [], "dealer": 7}, "'dealer' is a seat"),
    ({"events": [{"kong": "concealed_kong", "win": {}}]}, "one of the keys"),
    ({"events": [{"kong": "chow", "seat": 1}]}, "event 1 (kong): 'chow' is not a kind of kong"),
    ({"events": [{"kong": "pung", "seat": 1, "tiles": "555m"}]}, "event 1 (kong): 'pung' is not a kind of kong"),
    ({"events": [{"kong": ["kong"], "seat": 1}]}, "event 1 (kong): ['kong'] is not a kind of kong"),
    ({"events": [{"kong": "concealed_kong", "seat": 1, "tiles": "5555m"},
                 {"kong": "concealed_kong", "seat": 2, "tiles": "5555m"}]},
     "event 2 (kong): the kongs of this hand hold 8 copies of 5m"),
    ({"events": [{"kong": "concealed_kong", "seat": 1, "from": 2}]},
     "event 1 (kong): a concealed_kong is made of the player's own tiles: it has no 'from'"),
    ({"events": [{"kong": "added_kong", "seat": 1, "from": 4}]},
     "event 1 (kong): a seat is a number from 0 to 3, not 4"),
    ({"events": [{"kong": "kong", "seat": 4, "from": 0}]}, "event 1 (kong): a seat is a number from 0 to 3, not 4"),
    ({"events": [{"kong": "kong", "seat": 2, "from": 2}]}, "event 1 (kong): a kong cannot be made on one's own"),
    ({"events": [win(1, PING_HU, 5)]}, "event 1 (win): 'discarder' is a seat from 0 to 3, not 5"),
    ({"events": [win(-1, PING_HU, 0)]}, "event 1 (win): a seat is a number from 0 to 3, not -1"),
    ({"events": [win(1, dict(PING_HU, options=["x"]), 0)]}, "event 1 (win): 'options' is an object"),
    ({"events": [], "options": "x"}, "'options' is an object"),
    ({"events": [win(1, PING_HU, 0)], "carried": ["self_drawn"]},
     "'carried' lists flags a previous hand passes on (none in sichuan), not ['self_drawn']"),
    ({"events": [{"draw": {0: READY, 1: READY2, 2: HUA_ZHU, 3: NOT_READY}}]}, "event 1 (draw): 'draw' maps each"),
    ({"events": [], "context": {"seat": 1}}, "the events say seat"),
    ({"events": [], "context": {"seat_wind": "S"}}, "the events say seat"),  # each player has its own
    ({"events": [win(1, PING_HU, 0, out=[2])]}, "'out' is not given in a round"),
    ({"events": [{"kong": "concealed_kong", "seat": 1, "tiles": "7777m"}, win(1, PING_HU)]},
     "seat 1 made a concealed_kong 7777m in this hand, but its melds here do not show it"),
    ({"events": [{"kong": "kong", "seat": 1}]}, "say who discarded it with 'from'"),
    ({"events": [{"kong": "concealed_kong", "seat": 1, "tiles": "5556m"}]}, "is not a concealed_kong"),
    ({"events": [{"kong": "concealed_kong", "seat": "1"}]}, "a seat is a number"),
    ({"events": [win(1, PING_HU, 0), {"kong": "concealed_kong", "seat": 1}]}, "seat 1 has already won"),
    ({"events": [win(1, {"hand": "123m456m789m11p23p", "win": "9s"}, 0)]}, "seat 1 does not win"),
    ({"events": [win(1, {"hand": "123m", "win": "4p"}, 0)]}, "must have 13"),
    ({"events": [{"penalty": "诈和", "seat": 1}]}, "unknown penalty '诈和'"),
    ({"events": [{"declare": "跟庄"}]}, "unknown declaration '跟庄'"),
    ({"events": [win(1, PING_HU, 0, kong_discard=True)]}, "the discarder made no kong"),
    ({"events": [{"draw": {"0": {"hand": "123m", "win": "4m"}}}]}, "each player still in"),
    ({"events": [], "carried": ["follow_dealer"]}, "'carried' lists flags"),
    ({"events": [{"draw": {s: READY for s in "0123"}}]}, "the final hands hold 8 copies of 5m"),
    ({"events": [], "options": {"cap": 3}}, "unknown option 'cap'"),
])
def test_a_bad_record_is_named_not_settled(sichuan, record, fragment):
    result = sichuan.settle(record)
    assert result["ok"] is False and fragment in result["error"], result


# 定向飘, as in the spec's first example
SHENYANG_WIN = {"hand": "9s", "win": "9s", "melds": ["pung 888m", "pung 999m", "pung 555p", "pung 666p"],
                "other_melds": {"0": ["chow 123s"], "2": ["chow 234p"], "3": ["chow 789p"]}}


def test_one_seat_wins_once_where_several_may_win_on_a_discard():
    """Shenyang lets several players win on one discard (no `one winner per discard`), never one player twice."""
    settler = dsl.settler("shenyang")
    once = settler.settle({"events": [win(1, SHENYANG_WIN, 0)]})
    assert once["ok"], once
    twice = settler.settle({"events": [win(1, SHENYANG_WIN, 0), win(1, SHENYANG_WIN, 0)]})
    assert twice == {"ok": False, "error": "event 2 (win): seat 1 has already won this hand; nobody wins twice on "
                                           "one discard"}


def test_only_what_a_previous_hand_passes_on_is_carried():
    """`carried: ["self_drawn"]` would turn a discard win into a self-draw; shenyang passes on only 跟庄's flag."""
    settler = dsl.settler("shenyang")
    discard_win = {"events": [win(1, SHENYANG_WIN, 0)]}
    assert settler.settle(discard_win | {"carried": ["follow_dealer"]})["ok"]
    refused = settler.settle(discard_win | {"carried": ["self_drawn"]})
    assert refused == {"ok": False, "error": "'carried' lists flags a previous hand passes on (follow_dealer), not "
                                             "['self_drawn']"}


@pytest.mark.parametrize("options", ["口口翻", ["口口翻"], 1])
def test_a_win_whose_options_are_no_object_is_an_error_beside_the_round_options(options):
    settler = dsl.settler("wuhan")
    case = {"hand": "234m678m345p5m", "win": "5m", "melds": ["kong 7777p"], "indicator": "1s", "seat": 0,
            "discarder": 3, "options": options}
    result = settler.settle({"options": {"口口翻": True}, "events": [{"win": case}]})
    assert result == {"ok": False, "error": "event 1 (win): 'options' is an object of option names and values"}


def test_without_round_rules_a_win_ends_the_hand_but_not_its_discard():
    spec = load_spec("mcr")
    settler = RoundSettler(spec, Interpreter(spec))
    hand = {"hand": "1112345678999m", "win": "5m"}  # 清一色 24 + 幺九刻 + ... on the discard of seat 0
    twice = settler.settle({"events": [win(1, hand, 0), win(2, hand | {"hand": "1112345678999p", "win": "5p"}, 0)]})
    assert twice["ok"], twice  # two winners on one discard
    other = settler.settle({"events": [win(1, hand, 0), win(2, hand | {"hand": "1112345678999p", "win": "5p"}, 3)]})
    assert not other["ok"] and "only another win on the same discard (seat 0)" in other["error"]


def test_one_winner_per_discard(write_spec):
    path = write_spec("""
        melds chow, pung, kong
        settle:
            discard: discarder pays 1
        round:
            one winner per discard
    """)
    spec = load_spec(str(path))
    settler = RoundSettler(spec, Interpreter(spec))
    hand = {"hand": "123m456m789m11p23p", "win": "4p"}
    result = settler.settle({"events": [win(1, hand, 0), win(2, hand, 0)]})
    assert not result["ok"] and "ended at event 1" in result["error"]


# ---------------------------------------------------------------- declarations and penalties


def test_follow_dealer_is_carried_to_the_next_hand():
    spec = load_spec("shenyang")
    settler = RoundSettler(spec, Interpreter(spec))
    first = settler.settle({"events": [{"declare": "跟庄", "seat": 0}]})
    assert first["ok"] and first["next_hand"] == ["follow_dealer"] and first["payments"] == [0, 0, 0, 0]
    hand = {"hand": "123m35m789s11z", "melds": ["pung 999p"], "win": "4m", "other_melds": {
        "0": ["chow 567p"], "1": ["chow 123s"], "2": ["chow 234p"]}}
    plain = settler.settle({"events": [win(3, hand, 2)]})
    carried = settler.settle({"events": [win(3, hand, 2)], "carried": first["next_hand"]})
    # 和单张 1 alone; with 跟庄 +1 every share doubles: seat 2 pays 4 + 2 + 4 = 10, then 20
    assert plain["payments"] == [0, 0, -10, 10] and carried["payments"] == [0, 0, -20, 20]
    assert {f["name"] for f in carried["events"][0]["fans"]} == {"和单张", "跟庄"}


# Zung Jung 3.1 Value Honor: 10 for a pung of the player's own seat wind, nothing for another wind.
WEST_PUNG = {"hand": "333z123m456p789s5s", "win": "5s"}  # 西 pung concealed: 門前清 5, + 番牌 10 when seated 西


@pytest.mark.parametrize(("dealer", "more", "fans"), [
    (0, {}, {"番牌": 10, "門前清": 5}),  # seat 2, two seats after the dealer: 西
    (1, {}, {"門前清": 5}),  # seat 2 is 南 when seat 1 deals
    (0, {"seat_wind": "W"}, {"番牌": 10, "門前清": 5}),  # a seat wind the case gives, agreeing with the seat
])
def test_a_winner_in_a_round_has_the_seat_wind_of_its_seat(dealer, more, fans):
    spec = load_spec("zungjung")
    result = settle(RoundSettler(spec, Interpreter(spec)), win(2, WEST_PUNG, (dealer + 3) % 4, **more),
                    dealer=dealer)
    assert {f["name"]: f["value"] * f["count"] for f in result["events"][0]["fans"]} == fans


def test_a_seat_wind_that_disagrees_with_the_winner_s_seat_is_an_error():
    spec = load_spec("zungjung")
    # seat 2 with seat 0 dealing sits 西, not 北
    result = RoundSettler(spec, Interpreter(spec)).settle({"events": [win(2, WEST_PUNG, 3, seat_wind="N")]})
    assert not result["ok"] and result["error"].startswith("event 1 (win):") and "'seat_wind' N" in result["error"]


def test_a_declaration_sets_its_flag_on_later_wins():
    spec = load_spec("shenyang")
    settler = RoundSettler(spec, Interpreter(spec))
    hand = {"hand": "123m456p789s1m", "melds": ["pung 777z"], "win": "1m", "other_melds": {
        "1": ["chow 234s"], "2": ["chow 567p"], "3": ["chow 345m"]}}
    before = settler.settle({"events": [win(0, hand, 3), {"declare": "亮中发白", "seat": 2}]})
    assert not before["ok"]  # the win ends the hand
    after = settler.settle({"events": [{"declare": "亮中发白", "seat": 2}, win(0, hand, 3)]})
    fans = {f["name"]: f["value"] for f in after["events"][1]["fans"]}
    assert fans == {"中发白碰": 2}  # 1 before anyone laid out 中发白, 2 after


def test_penalty_is_paid_to_each_player_still_in():
    spec = load_spec("competition")
    settler = RoundSettler(spec, Interpreter(spec))
    result = settler.settle({"events": [{"penalty": "诈和", "seat": 2}, {"penalty": "错和", "seat": 0}]})
    assert payments(result) == [[10, 10, -30, 10], [-60, 20, 20, 20]]


# ---------------------------------------------------------------- the language


@pytest.mark.parametrize(("text", "fragment", "line", "column"), [
    ("round:\n    kong chow_kong: each other pays 2\n", "unknown meld kind 'chow_kong'", 10, 10),
    ("round:\n    kong pung: each other pays 2\n", "'pung' is not a kind of kong; the kongs are: kong", 10, 10),
    ("round:\n    penalty 诈和: pays 10 to each other\nround \"r\":\n    kong 1 pung 555m\n",
     "'pung' is not a kind of kong", 12, 5),
    ("round:\n    kong kong: each loser pays 2\n", "a kong is paid by each other or discarder", 10, 21),
    ("round:\n    win robbing_kong: discarder passes kong income\n", "not a flag the spec reads", 10, 9),
    ("round:\n    winners leave until 3 have won\n", "needs the context key `out`", 9, 1),
    ("round:\n    draw 查: each not readdy pays 1 to each ready\n", "unknown name 'readdy'", 10, 22),
    ("round:\n    draw 查: each receiver.best > 0 pays 1 to each ready\n", "unknown name 'receiver'", 10, 18),
    ("round:\n    draw 查: each ready pays receiver.bets to each ready\n", "a player has no 'bets'", 10, 38),
    ("round:\n    penalty 诈和: pays ready to each other\n", "a penalty must be number", 10, 22),
    ("round:\n    declare 跟庄: sets follow\n", "not a flag the spec reads", 10, 22),
    ("round \"r\":\n    penalty 诈和 by 1\n", "needs the spec's `round:` rules", 9, 1),
    ("round:\n    penalty 诈和: pays 10 to each other\nround \"r\":\n    penalty 乍和 by 1\n",
     "unknown penalty '乍和'", 12, 5),
    ("round:\n    penalty 诈和: pays 10 to each other\nround \"r\":\n    payments 1 2 3\n",
     "gives the payments of the event above it", 11, 1),
])
def test_round_rule_errors_point_at_the_spec(write_spec, text, fragment, line, column):
    with pytest.raises(SpecError) as info:
        load_spec(str(write_spec("melds pung, kong\n" + text)))
    d = info.value.diagnostics[0]
    assert fragment in d.message and (d.span.line, d.span.column) == (line, column), (d.message, d.span)


def test_a_child_round_block_replaces_rules_one_by_one(write_spec):
    path = write_spec("variant child \"子\"\nextends sichuan\nround:\n    kong kong: discarder pays 2\n", tiny=False)
    spec = load_spec(str(path))
    kinds = {k.kind: k.payments[0].amount.value for k in spec.rounds.kongs}
    assert kinds == {"kong": 2, "added_kong": 1, "concealed_kong": 2}
    assert spec.rounds.winners_leave == 3 and [c.name for c in spec.rounds.checks] == ["查花猪", "查大叫", "退税"]


# ---------------------------------------------------------------- every path agrees and balances


KONG_TILES = ("7777m", "8888m", "9999m")
# What the player who made k kongs holds besides them: ready on 1p / 4p, 平胡 → 1.
KONGER_HANDS = ("123m456m11p23p", "123m11p23p", "11p23p")


def random_round(rng: random.Random) -> dict:
    """A plausible Sichuan hand of play: one player's kongs (shown in its melds when it wins), wins from
    a few worked hands, maybe a draw once that player has won."""
    events: list[dict] = []
    out: list[int] = []
    konger, kongs = rng.randrange(4), []
    for _ in range(rng.randint(1, 6)):
        still = [s for s in range(4) if s not in out]
        if len(out) >= 3 or len(still) < 2:
            break
        seat = rng.choice(still)
        others = [s for s in still if s != seat]
        roll = rng.random()
        if roll < 0.4 and seat == konger and len(kongs) < len(KONG_TILES):
            kind = rng.choice(["kong", "added_kong", "concealed_kong"])
            kongs.append(f"{kind} {KONG_TILES[len(kongs)]}")
            events.append({"kong": kind, "seat": seat, "tiles": KONG_TILES[len(kongs) - 1]}
                          | ({"from": rng.choice(others)} if kind == "kong" else {}))
        elif roll >= 0.4:
            hand = rng.choice([PING_HU, DUI_DUI, QING])
            if seat == konger and kongs:
                hand = {"hand": KONGER_HANDS[len(kongs) - 1], "melds": list(kongs), "win": "4p"}
            flag = bool(events) and "kong" in events[-1] and events[-1]["seat"] in others
            discarder = events[-1]["seat"] if flag else (None if roll < 0.6 else rng.choice(others))
            events.append(win(seat, hand, discarder, **({"kong_discard": True} if flag else {})))
            out.append(seat)
    if len(out) < 3 and (konger in out or not kongs) and rng.random() < 0.7:
        still = [s for s in range(4) if s not in out]
        events.append({"draw": {str(s): hand for s, hand in zip(still, rng.sample(DRAW_POOL, len(still)),
                                                                   strict=True)}})
    return {"dealer": rng.randrange(4), "events": events}


def test_random_rounds_balance_and_agree_with_the_compiled_checker(sichuan):
    compiled = RoundSettler(sichuan.spec, checker_for(sichuan.spec))
    rng = random.Random(6)
    for _ in range(150):
        record = random_round(rng)
        result = sichuan.settle(record)
        assert result["ok"], (record, result)
        assert all(sum(e["payments"]) == 0 for e in result["events"]), record
        assert sum(result["payments"]) == 0
        assert compiled.settle(record) == result


def test_worked_rounds_of_every_spec_balance():
    for name in bundled_specs():
        spec = load_spec(name)
        settler = RoundSettler(spec, checker_for(spec))
        for example in spec.round_examples:
            result = settler.settle(json.loads(example.record))
            assert result["ok"] and sum(result["payments"]) == 0, example.title


# ---------------------------------------------------------------- interfaces


def test_settle_command_reads_json_lines(capsys):
    good = json.dumps({"events": [{"kong": "concealed_kong", "seat": 1}]})
    sys.stdin = io.StringIO(good + "\n{not json\n" + json.dumps({"events": [{"kong": "x", "seat": 1}]}) + "\n")
    try:
        code = main(["settle", "sichuan", "--jsonl"])
    finally:
        sys.stdin = sys.__stdin__
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(lines) == 3
    assert lines[0]["payments"] == [-2, 6, -2, -2]
    assert lines[1]["ok"] is False and "not JSON" in lines[1]["error"]
    assert lines[2]["ok"] is False and "'x' is not a kind of kong" in lines[2]["error"]


def test_settle_command_one_round_and_usage(capsys):
    assert main(["settle", "sichuan", "--json", '{"events": [{"kong": "kong", "seat": 2, "from": 0}]}']) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == [-1, 0, 1, 0]
    assert main(["settle", "sichuan", "--json", '{"events": [{"kong": "kong", "seat": 2}]}']) == 1
    assert main(["settle", "sichuan"]) == 2


def test_python_api():
    result = dsl.settler("sichuan").settle({"events": [win(1, PING_HU, 0)]})
    assert result["ok"] and result["payments"] == [-1, 1, 0, 0]


def test_a_worked_round_checks_its_payments_and_its_wins(write_spec):
    rules = ("melds chow, pung, kong\nsettle:\n    discard: discarder pays total\nfan 平 1: shape == standard\n"
             "round:\n    penalty 诈和: pays 10 to each other\n")
    good = 'round "r":\n    win 1 from 0:\n        hand 123m456m789m11p23p\n        win 4p\n        expect 平 1\n' \
           "    payments -1 1 0 0\n    total -1 1 0 0\n"
    spec = load_spec(str(write_spec(rules + good)))
    from dsl.book.examples import run_examples

    assert [o.problems for o in run_examples(spec, Interpreter(spec))] == [()]
    wrong = good.replace("expect 平 1", "expect 平 2").replace("payments -1 1 0 0", "payments -2 2 0 0")
    spec = load_spec(str(write_spec(rules + wrong)))
    problems = run_examples(spec, Interpreter(spec))[0].problems
    assert problems == ("event 1 (line 15): 平: expected 2 ×1, got 1 ×1",
                        "event 1 (line 15): expected payments [-2, 2, 0, 0], got [-1, 1, 0, 0]")


def test_shared_context_reaches_every_case_and_checks_kongs():
    spec = load_spec("wuhan")
    settler = RoundSettler(spec, Interpreter(spec))
    laid = [{"kong": "痞子杠", "seat": 1, "tiles": "9s"}, {"kong": "癞子杠", "seat": 1, "tiles": "2s"}]
    # indicator 1s: 痞子 9s and 1s, 癞子 2s; laying them aside pays nothing at once in Wuhan
    result = settler.settle({"context": {"indicator": "1s"}, "events": laid})
    assert result["ok"] and result["payments"] == [0, 0, 0, 0]
    wrong = settler.settle({"context": {"indicator": "2s"}, "events": laid})
    assert not wrong["ok"] and "'痞子杠 9s' is not a 痞子杠" in wrong["error"]
    unknown = settler.settle({"context": {"indicatr": "1s"}, "events": []})
    assert not unknown["ok"] and "'context': unknown key 'indicatr'" in unknown["error"]


def test_a_worked_round_names_its_shared_context(write_spec):
    with pytest.raises(SpecError) as info:
        load_spec(str(write_spec("round:\n    one winner per discard\nround \"r\":\n    with sead 1\n")))
    d = info.value.diagnostics[0]
    assert "does not read 'sead'" in d.message and (d.span.line, d.span.column) == (11, 10)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 5) | st.sampled_from(
    ["kong", "win", "draw", "seat", "5555m", "concealed_kong", "kong_discard", "123m456m789m11p23p", "4p", "1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["events", "dealer", "kong", "win", "draw", "seat", "from", "hand", "melds", "discarder", "declare",
         "penalty", "tiles", "0", "1", "carried", "context", "options", "self_drawn"]), inner, max_size=5),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(record=JSON | st.fixed_dictionaries({"events": st.lists(JSON, max_size=4)}))
def test_any_json_gets_an_answer_never_a_crash(sichuan, record):
    result = sichuan.settle(record)
    assert isinstance(result, dict) and isinstance(result["ok"], bool)
    assert result["ok"] or result["error"]


def test_settle_command_shows_a_round_file(capsys, tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"events": [{"kong": "concealed_kong", "seat": 2, "tiles": "5555s"},
                                           win(3, PING_HU, 2, kong_discard=True)]}), encoding="utf-8")
    assert main(["settle", "sichuan", str(path)]) == 0
    header, kong, won, *fans, passed, total = capsys.readouterr().out.splitlines()
    assert header.split() == ["seat", "0", "seat", "1", "seat", "2", "seat", "3"]
    assert kong.split()[-4:] == ["-2", "-2", "+6", "-2"] and "concealed_kong" in kong
    assert "seat 3 wins on a discard from seat 2" in won and won.split()[-4:] == ["0", "0", "-8", "+8"]
    assert [f.split()[0] for f in fans] == ["平胡", "杠上炮", "total"] and passed.split()[-1] == "+6"
    assert total.split() == ["total", "-2", "-2", "-2", "+6"]
    assert main(["settle", "sichuan", str(tmp_path / "missing.json")]) == 2


# ---------------------------------------------------------------- a worked round's next hand

STREAK_ROUND = """
    context 連莊 int 0..8 "the dealer's wins in a row (連莊)"
    melds chow, pung
    fan 平 1: shape == standard
    settle:
        self_drawn: each loser pays total
        discard: discarder pays total
    round:
        next hand sets 連莊 = 連莊 + 1 if dealer_won or drawn else 0
    round "the dealer wins again":
        with 連莊 2
        win 0:
            hand 123m456m789m11p23p
            win 4p
        next hand 連莊 NEXT
"""


def test_a_worked_round_checks_what_the_next_hand_gets(write_spec):
    from dsl.book.examples import run_examples

    # The dealer wins with 連莊 2: the next hand has 2 + 1 = 3.
    spec = load_spec(str(write_spec(STREAK_ROUND.replace("NEXT", "3"))))
    assert spec.round_examples[0].next_context == (("連莊", 3),)
    assert [o.problems for o in run_examples(spec, Interpreter(spec))] == [()]
    wrong = load_spec(str(write_spec(STREAK_ROUND.replace("NEXT", "0"))))
    assert run_examples(wrong, Interpreter(wrong))[0].problems == ("expected 連莊 0 in the next hand, got 3",)


@pytest.mark.parametrize(("replacement", "fragment"), [
    ("9", "a whole number from 0 to 8"),
    ("3, 連莊莊 1", "no `next hand sets 連莊莊 = ...` rule"),
])
def test_a_worked_round_s_next_hand_names_a_key_the_rules_set(write_spec, replacement, fragment):
    with pytest.raises(SpecError, match=fragment):
        load_spec(str(write_spec(STREAK_ROUND.replace("NEXT", replacement))))
