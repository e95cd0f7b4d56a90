"""Riichi: the scoring calls of the `mahjong` package's own test suite (../shared/reference/riichi_peer_calls.jsonl).

Each `estimate_hand_value` call becomes a docs/interface.md case; our han, fu (except yakuman), payments
and pot must equal the package's recorded output, and a call the package refused must not win.
Calls that need what the spec does not model (aotenjou, open riichi, nagashi mangan, three-player
nuki dora, paarenchan, optional yakuman, direct score-table and fu calls) are skipped, each with a
counted reason.
"""

from __future__ import annotations

from collections import Counter

import pytest
import references
from riichi_hands import SUITS, WINDS, Expected, mismatch, payments_of

import dsl

CALLS = references.records("riichi_peer_calls.jsonl")

pytestmark = pytest.mark.skipif(not CALLS, reason=references.missing("riichi_peer_calls.jsonl"))

RED_IDS = {16, 52, 88}
MELD_KINDS = {("chi", True): "chow", ("pon", True): "pung", ("kan", True): "kong", ("kan", False): "concealed_kong",
              ("shouminkan", True): "added_kong"}
# Options of the package the spec has, by our name; and those it does not model (skipped when on).
OPTIONS = {"has_open_tanyao": "open_tanyao", "has_aka_dora": "aka_dora", "has_double_yakuman": "double_yakuman",
           "kazoe_limit": "kazoe_limit", "kiriage": "kiriage", "fu_for_open_pinfu": "open_pinfu_fu",
           "fu_for_pinfu_tsumo": "pinfu_tsumo_fu"}
UNMODELLED_OPTIONS = {"has_daisharin": False, "has_daisharin_other_suits": False, "has_daichisei": False,
                      "has_sashikomi_yakuman": False, "limit_to_sextuple_yakuman": True, "is_three_player": False}
UNMODELLED_FLAGS = {"is_open_riichi": "open riichi", "is_nagashi_mangan": "nagashi mangan",
                    "num_nuki_dora": "three-player nuki dora", "paarenchan": "paarenchan"}
DEFAULT_CONFIG = {"is_tsumo": False, "player_wind": None, "round_wind": None,
                  "options": {"has_open_tanyao": False, "has_aka_dora": False}}


def _code(tile136: int) -> str:
    t = tile136 // 4
    return f"0{SUITS[t // 9]}" if tile136 in RED_IDS else f"{t % 9 + 1}{SUITS[t // 9]}"


def _text(tiles136: list[int]) -> str:
    return "".join(_code(t) for t in sorted(tiles136))


def _winds(call: dict, config: dict) -> dict[str, str] | str:
    """Seat and round wind; where the package had none, winds held once at most, so they score nothing."""
    absent = [w for i, w in enumerate(WINDS) if sum(t // 4 == 27 + i for t in call["tiles136"]) <= 1]
    seat = WINDS[config["player_wind"] - 27] if config.get("player_wind") else next(
        (w for w in absent if w != "E"), None)
    round_wind = WINDS[config["round_wind"] - 27] if config.get("round_wind") else next(iter(absent), None)
    if seat is None or round_wind is None:
        return "no seat or round wind, and every wind is held twice or more"
    return {"seat_wind": seat, "round_wind": round_wind}


def _flags(config: dict) -> dict:
    tsumo = config.get("is_tsumo", False)
    flags = {"self_drawn": tsumo, "riichi": config.get("is_riichi", False),
             "double_riichi": config.get("is_daburu_riichi", False), "ippatsu": config.get("is_ippatsu", False),
             "kong_replacement": config.get("is_rinshan", False), "robbing_kong": config.get("is_chankan", False),
             "last_tile": config.get("is_haitei", False) or config.get("is_houtei", False),
             "first_turn": any(config.get(k, False) for k in ("is_tenhou", "is_chiihou", "is_renhou")),
             "honba": config.get("tsumi_number", 0), "riichi_sticks": config.get("kyoutaku_number", 0)}
    return {k: v for k, v in flags.items() if v}


def _mistimed(config: dict) -> str | None:
    """Flags the package refuses that one `last_tile` or `first_turn` flag cannot say."""
    tsumo = config.get("is_tsumo", False)
    if config.get("is_haitei") and not tsumo or config.get("is_houtei") and tsumo:
        return "haitei on a discard or houtei on a self-draw (one last_tile flag here)"
    dealer = config.get("player_wind") == 27
    if (config.get("is_tenhou") and not dealer or config.get("is_chiihou") and dealer
            or config.get("is_tenhou", False) + config.get("is_chiihou", False) + config.get("is_renhou", False) > 1
            or (config.get("is_tenhou") or config.get("is_chiihou")) and not tsumo
            or config.get("is_renhou") and tsumo):
        return "a first-turn yaku of another seat or win (one first_turn flag here)"
    return None


def _take(tiles: list[int], tile136: int) -> bool:
    """Remove a tile (or another copy of its kind, as the suite sometimes names it); False if there is none."""
    same = tile136 if tile136 in tiles else next((t for t in tiles if t // 4 == tile136 // 4), None)
    if same is None:
        return False
    tiles.remove(same)
    return True


def case_of(call: dict) -> dict | str:
    """The docs/interface.md case of a package call, or why it is skipped."""
    if call["kind"] != "estimate_hand_value":
        return f"{call['kind']}: a direct call, not a hand"
    given = call["input"]
    if given.get("aotenjou"):
        return "aotenjou scoring"
    config = given["config"] or DEFAULT_CONFIG
    for key, what in UNMODELLED_FLAGS.items():
        if config.get(key):
            return what
    options = config["options"]
    for key, default in UNMODELLED_OPTIONS.items():
        if options.get(key, default) != default:
            return f"option {key}"
    if len(set(given["tiles136"])) < len(given["tiles136"]):
        return "the same tile id more than once (e.g. one red five held three times)"
    if given["win_tile136"] not in given["tiles136"]:
        return "the winning tile is not among the tiles"
    reason = _mistimed(config)
    if reason is not None:
        return reason
    winds = _winds(given, config)
    if isinstance(winds, str):
        return winds
    tiles = list(given["tiles136"])
    melds = [f"{MELD_KINDS[m['type'], m['opened']]} {_text(m['tiles136'])}" for m in given["melds"]]
    needed = [given["win_tile136"]] + [t for m in given["melds"] for t in m["tiles136"]]
    if not all([_take(tiles, t) for t in needed]):
        return "the tiles do not hold every meld tile and the winning tile (a malformed input)"
    case: dict = {"hand": _text(tiles), "win": _code(given["win_tile136"]), **winds, **_flags(config)}
    if melds:
        case["melds"] = melds
    if given["dora_indicators136"]:
        case["dora"] = _text(given["dora_indicators136"])
    if given["ura_dora_indicators136"]:
        case["ura"] = _text(given["ura_dora_indicators136"])
    ours = {OPTIONS[k]: v for k, v in options.items() if k in OPTIONS}
    ours["renhou_han"] = 13 if options.get("renhou_as_yakuman") else 5
    case["options"] = ours
    return case


def expected_of(call: dict, case: dict) -> Expected:
    output = call["output"]
    if output["error"]:
        return Expected(False, error=output["error"])
    seat = WINDS.index(case["seat_wind"])
    return Expected(True, output["han"], output["fu"], any(h >= 13 for h in output["yaku_han"]),
                    payments_of(output["cost"], seat, bool(case.get("self_drawn"))),
                    output["cost"]["kyoutaku_bonus"], tuple(output["yaku"]))


CASES = [(call, case_of(call)) for call in CALLS]
USED = [(call, case) for call, case in CASES if isinstance(case, dict)]


@pytest.fixture(scope="module")
def checker():
    return dsl.load("riichi")


@pytest.mark.parametrize(("call", "case"), USED, ids=[f"{c['seq']}" for c, _ in USED])
def test_peer_call(checker, call, case):
    result = checker.evaluate(case)
    why = mismatch(result, expected_of(call, case))
    assert why is None, f"{call['test']}: {why}\n  case {case}\n  ours {result}\n  package {call['output']['yaku']}"


def test_skipped_calls_are_counted():
    skipped = Counter(case for _, case in CASES if isinstance(case, str))
    print("\n".join(f"skipped {n}: {reason}" for reason, n in skipped.most_common()))
    assert sum(skipped.values()) + len(USED) == len(CALLS)
    assert len(USED) >= 150, f"only {len(USED)} of {len(CALLS)} calls compared"
