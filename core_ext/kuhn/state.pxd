from libc.stdint cimport int8_t
from orrery.core_ext.game cimport GameParams
from orrery.core_ext.types cimport MAX_PLAYERS

cdef enum:
    KUHN_MAX_HISTORY = 9   # n checks/bets then at most n-1 responses, n <= MAX_PLAYERS (5)
    KUHN_UNKNOWN = -1

ctypedef struct KuhnState:
    GameParams params
    int8_t cards[MAX_PLAYERS]     # 0..n (higher wins); KUHN_UNKNOWN in an observation
    int8_t bets[MAX_PLAYERS]      # chips added beyond the ante (0 or 1)
    int8_t folded[MAX_PLAYERS]
    int8_t history[KUHN_MAX_HISTORY]
    int8_t history_len
    int8_t to_move
    int8_t bettor                 # seat that bet, or -1
    int8_t responses              # responses made to the bet so far
    int8_t terminal
