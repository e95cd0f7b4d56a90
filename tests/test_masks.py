"""Conditions on a decomposition's sets as tile masks (dsl.compiled.masks): which conditions become masks, what
mask each is, worked out from the tiles; that the checkers score alike is the parity tests' job."""

from __future__ import annotations

import dataclasses

import pytest

from dsl.compiled import masks
from dsl.compiled.tables import Tables
from dsl.frontend import ir
from dsl.frontend.resolve import load_spec
from dsl.frontend.source import Span

SPAN = Span(None, 1, 1, 1, 1)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def mcr() -> masks.GroupMasks:
    spec = load_spec("mcr")
    return masks.GroupMasks(spec, Tables.of(spec))


def item(name: str) -> ir.Item:
    return ir.Item(SPAN, "group", name)


def rank(op: str, value: int) -> ir.Binary:
    return ir.Binary(SPAN, op, item("rank"), ir.Const(SPAN, value))


def test_a_pung_of_dragons_is_a_test_of_the_dragon_tiles(mcr):
    assert mcr.mask(ir.ItemTileSet(SPAN, "group", "箭牌", True), "pungs") == "TILES_DRAGONS"


def test_a_chow_of_terminals_starts_on_a_1_or_a_7(mcr):
    """contains(幺九) for a chow: 123 or 789 of a suit; tiles 0..8 are 1m..9m, 9..17 1s..9s, 18..26 1p..9p."""
    expected = sum(1 << t for t in (0, 6, 9, 15, 18, 24))
    assert mcr.mask(ir.ItemTileSet(SPAN, "group", "幺九", False), "chows") == f"0x{expected:x}ULL"
    assert mcr.mask(rank("==", 7), "chows") == f"0x{sum(1 << t for t in (6, 15, 24)):x}ULL"


def test_the_seat_wind_is_read_as_the_hand_gives_it(mcr):
    seat_wind = ir.Binary(SPAN, "==", item("tile"), ir.TileOf(SPAN, "seat_wind"))
    assert mcr.mask(seat_wind, "pungs") == "tile_bit(wind_tile(c, c.h.seat_wind))"
    assert mcr.mask(ir.Not(SPAN, seat_wind), "pungs") == "(ALL_TILES & ~tile_bit(wind_tile(c, c.h.seat_wind)))"


@pytest.mark.parametrize("condition", [item("concealed"), item("declared"), item("with_win"), item("kong"),
                                       ir.Binary(SPAN, "and", rank(">", 1), item("concealed"))])
def test_a_condition_beyond_the_tiles_keeps_its_loop(mcr, condition):
    """Whether a pung is concealed, declared, holds the winning tile, or (among pungs) is a kong is no matter of
    its tiles."""
    assert mcr.mask(condition, "pungs") is None


def test_more_than_four_copies_of_a_tile_keep_the_loops():
    """Eight copies of a tile make two pungs or eight chows on it, more than the layers hold."""
    spec = load_spec("mcr")
    assert masks.usable(spec, "chows") and not masks.usable(spec, "groups")
    eight = dataclasses.replace(spec, tiles=tuple(dataclasses.replace(t, copies=8) for t in spec.tiles))
    assert not masks.usable(eight, "chows")


def test_wild_tiles_keep_the_loops():
    """A pung of wilds standing for 5m beside a pung of 5m: two pungs start on 5m, more than a layer holds."""
    assert not masks.usable(load_spec("wuhan"), "pungs")
