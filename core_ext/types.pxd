# Shared typedefs and constants for every compiled core (one place, as in scikit-learn's _typedefs).
from libc.stdint cimport int32_t, uint64_t

ctypedef int32_t action_t   # a legal action id; small non-negative ints, per-game codec
ctypedef uint64_t seed_t

cdef enum:
    # Seats in any game (Tiny Epic Galaxies seats 5); per-seat arrays, edge rewards, scores and returns.
    MAX_PLAYERS = 5
    # current_player() of a finished game. There is no chance player: every core resolves chance inside
    # apply() from random streams kept in the state (see game.pxd), so a live state always has a seat to
    # move.
    TERMINAL_PLAYER = -4
