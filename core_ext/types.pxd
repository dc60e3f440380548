# Shared typedefs and constants for every compiled core (one place, as in scikit-learn's _typedefs).
from libc.stdint cimport int32_t, uint64_t

ctypedef int32_t action_t   # a legal action id; small non-negative ints, per-game codec
ctypedef uint64_t seed_t

cdef enum:
    MAX_PLAYERS = 4
    # current_player() of a state whose next step is a chance event (not used by games that
    # resolve chance inside apply() from their in-state random streams).
    CHANCE_PLAYER = -1
    # current_player() of a finished game.
    TERMINAL_PLAYER = -4
