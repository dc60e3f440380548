"""What every game's feature module (core_ext/<game>/features.pyx, docs/learning.md) shares on the Python
side: encode()'s argument checks and where the hand-written evaluate() lies in a layout. The feature
functions themselves stay per game, in C."""

from __future__ import annotations


def check_encode_args(
    game: str, position_game: str, num_players: int, position_observer: int, observer: int
) -> None:
    """ValueError unless a position of `position_game` (observed by `position_observer`, -1: a full
    state) can be encoded by `game`'s features as seat `observer` sees it."""
    if position_game != game:
        raise ValueError(f"{game} features of a {position_game} position")
    if not 0 <= observer < num_players:
        raise ValueError(f"observer must be a seat 0..{num_players - 1}, got {observer}")
    if position_observer not in (-1, observer):
        raise ValueError(f"an observation of seat {position_observer} seen as seat {observer}")


def evaluate_columns(global_size: int, seat_size: int, players: int) -> list[int]:
    """Where each seat's hand-written evaluate() lies, seat-relative: the last column of each seat's block
    after the global ones (the bar a model must pass)."""
    return [global_size + k * seat_size + seat_size - 1 for k in range(players)]
