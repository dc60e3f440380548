# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Galaxy of Trian's features for a learned evaluation (layout version 1; table in docs/learning.md).

A compact, mostly one-hot view of what one seat sees, computed from the C struct without the GIL, so the
search kernel can score a leaf with it (the observation tensor of core_ext/trian/tensor.py is built from
JSON in Python and is far too slow for that). Seat-relative: block 0 is the observer's.

Global part (34): turn / 120; mode one-hot (12); turn player and first player, seat-relative one-hot (5
each); stack sizes / 42 (2); the bag's minerals / 30 (4); placed tiles / 84; actions left / 3; teleport
used; a skill unlocked this turn; events pending / 10.
Per seat (34 each, observer first): credits / 50; minerals / 10 (4); supply: emissaries / 9, research
stations / 9, space stations / 4, corvettes / 3, rogues / 2; combat tokens held / 11; of which +1 / 11
(the observer's own only: hidden from the others); declared tokens / 11; race one-hot (8); racial skills
(5 bits) and universal skills (3 bits); on the board: emissaries / 20, research stations / 10, space
stations / 10, ships / 4; the hand-written evaluate() of that seat.

No per-tile planes: with the few hundred self-play games of the first model they let the network tell
games apart and overfit (held-out MSE 0.172 against 0.156 without them; docs/learning.md). A later layout
version can add them back once there is data for them.
"""
from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memset

import numpy as np

from orrery.core_ext._features import check_encode_args, evaluate_columns as evaluate_columns_of

from orrery.core_ext.types cimport MAX_PLAYERS
from orrery.core_ext.game cimport GameOps, Game, Position
from orrery.core_ext.features cimport features_fn, MAX_FEATURES
from orrery.core_ext.trian.state cimport TrianState, TrianPlayer, TR_COLORS

LAYOUT_VERSION = 1
CAPSULE_NAME = b"orrery.features_fn"
cdef const char* CAPSULE_C_NAME = "orrery.features_fn"

cdef enum:
    GLOBAL_SIZE = 34
    SEAT_SIZE = 34
    MODES = 12
    RACES = 8
    UNIVERSAL_BIT = 8


cdef inline float _cap(double value, double cap) noexcept nogil:
    cdef double x = value / cap
    return <float>(0.0 if x < 0.0 else (1.0 if x > 1.0 else x))


cdef inline int _rel(int seat, int observer, int n) noexcept nogil:
    return (seat - observer + n) % n


cdef int num_features_c(int players) noexcept nogil:
    return GLOBAL_SIZE + players * SEAT_SIZE


cdef int trian_features(const GameOps* ops, const void* p, int observer, float* out) noexcept nogil:
    cdef const TrianState* s = <const TrianState*>p
    cdef int n = s.params.num_players, total = num_features_c(n), i, k, c, seat, base
    cdef double value[MAX_PLAYERS]
    cdef int on_board[MAX_PLAYERS][4]
    cdef const TrianPlayer* pl
    if total > MAX_FEATURES:
        return -1
    memset(out, 0, sizeof(float) * total)
    memset(on_board, 0, sizeof(on_board))
    # global part
    out[0] = _cap(s.turn, 120.0)
    if 0 <= s.mode < MODES:
        out[1 + s.mode] = 1.0
    if 0 <= s.turn_player < n:
        out[13 + _rel(s.turn_player, observer, n)] = 1.0
    if 0 <= s.first_player < n:
        out[18 + _rel(s.first_player, observer, n)] = 1.0
    out[23] = _cap(s.stack_len[0], 42.0)
    out[24] = _cap(s.stack_len[1], 42.0)
    for c in range(TR_COLORS):
        out[25 + c] = _cap(s.bag[c], 30.0)
    out[29] = _cap(s.n_placed, 84.0)
    out[30] = _cap(s.actions_left, 3.0)
    out[31] = 1.0 if s.teleport_used else 0.0
    out[32] = 1.0 if s.evolved else 0.0
    out[33] = _cap(s.events_pending, 10.0)
    # the per-seat counts of pieces on the board
    for k in range(s.n_placed):
        seat = s.placed[k].emissary
        if 0 <= seat < n:
            on_board[seat][0] += 1
            if s.placed[k].station == 1:
                on_board[seat][1] += 1
            elif s.placed[k].station == 2:
                on_board[seat][2] += 1
        seat = s.placed[k].ship_owner
        if s.placed[k].ship_kind != 0 and 0 <= seat < n:
            on_board[seat][3] += 1
    # per seat, observer first
    ops.evaluate(p, value)
    for i in range(n):
        seat = (observer + i) % n
        base = GLOBAL_SIZE + i * SEAT_SIZE
        pl = &s.players[seat]
        out[base + 0] = _cap(pl.credits, 50.0)
        for c in range(TR_COLORS):
            out[base + 1 + c] = _cap(pl.minerals[c], 10.0)
        out[base + 5] = _cap(pl.emissaries, 9.0)
        out[base + 6] = _cap(pl.research_stations, 9.0)
        out[base + 7] = _cap(pl.space_stations, 4.0)
        out[base + 8] = _cap(pl.corvettes, 3.0)
        out[base + 9] = _cap(pl.rogues, 2.0)
        out[base + 10] = _cap(pl.tokens_held, 11.0)
        if seat == observer:   # hidden from the other seats (TR_HIDDEN in their observations)
            out[base + 11] = _cap(pl.tokens_plus, 11.0)
        out[base + 12] = _cap(pl.declared_tokens, 11.0)
        if pl.race < RACES:
            out[base + 13 + pl.race] = 1.0
        for k in range(5):
            if (pl.skills >> k) & 1:
                out[base + 21 + k] = 1.0
        for k in range(3):
            if (pl.skills >> (UNIVERSAL_BIT + k)) & 1:
                out[base + 26 + k] = 1.0
        out[base + 29] = _cap(on_board[seat][0], 20.0)
        out[base + 30] = _cap(on_board[seat][1], 10.0)
        out[base + 31] = _cap(on_board[seat][2], 10.0)
        out[base + 32] = _cap(on_board[seat][3], 4.0)
        out[base + 33] = <float>value[seat]
    return total


def num_features(int players):
    """The feature count for a player count (fixed per layout version)."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"trian: {players} players not supported")
    return num_features_c(players)


def evaluate_columns(int players):
    """Where each seat's hand-written evaluate() lies (seat-relative order): the bar a model must pass."""
    num_features(players)
    return evaluate_columns_of(GLOBAL_SIZE, SEAT_SIZE, players)


def hook():
    """The feature function as a PyCapsule (core_ext/features.pxd), for the search's learned evaluation."""
    cdef features_fn fn = trian_features   # the compiler checks the signature against the hook type
    return PyCapsule_New(<void*>fn, CAPSULE_C_NAME, NULL)


def encode(Position position not None, int observer):
    """The features of a State or Observation as `observer` sees it: a float32 vector of num_features()."""
    cdef Game game = position.game
    check_encode_args("trian", game.name, game.num_players, position.observer, observer)
    out = np.zeros(num_features_c(game.num_players), dtype=np.float32)
    cdef float[::1] view = out
    with nogil:
        trian_features(game.ops, position.ptr, observer, &view[0])
    return out
