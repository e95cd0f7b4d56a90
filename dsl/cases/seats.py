"""Seats as a person names them: "seat 1 (South)", with the wind the spec's own wind tiles give the seat at a
table of the spec's size; and who won how ("seat 1 (South) wins on a discard from seat 0 (East)")."""

from __future__ import annotations

from dsl.frontend import ir
from dsl.vocabulary import WINDS


def seat_name(spec: ir.Spec, seat: int, dealer: int) -> str:
    """"seat 1 (South)": a seat with its wind, as the spec names the tile a case's seat wind stands for; a
    spec without wind tiles names the dealer's seat instead ("seat 0 (dealer)")."""
    winds = wind_names(spec)
    if len(winds) >= spec.players:
        return f"seat {seat} ({winds[(seat - dealer) % spec.players]})"
    return f"seat {seat} (dealer)" if seat == dealer else f"seat {seat}"


def wind_names(spec: ir.Spec) -> list[str]:
    """The English names of the spec's wind tiles in seat order from the dealer: its first honors, the tiles
    the checkers compare `seat_wind` with."""
    flowers = spec.flower_tiles()
    return [t.english for t in spec.tiles if not t.numbered and t.index not in flowers][:len(WINDS)]


def win_text(spec: ir.Spec, seat: int, dealer: int, discarder: int | None, robbed: bool) -> str:
    """Who won and how: "seat 1 (South) wins on a discard from seat 0 (East)", "... wins by self-draw"."""
    winner = seat_name(spec, seat, dealer)
    if discarder is None:
        return f"{winner} wins by self-draw"
    source = seat_name(spec, discarder, dealer)
    return f"{winner} wins by robbing the kong of {source}" if robbed else f"{winner} wins on a discard from {source}"
