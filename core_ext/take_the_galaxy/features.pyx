# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Take The Galaxy's features for a learned evaluation (layout version 1; table in docs/learning.md).

A compact view of what one seat sees, computed from the C struct without the GIL, so the search kernel
can score a leaf with it (the observation tensor of core_ext/take_the_galaxy/tensor.py is built from JSON
in Python and is far too slow for that). Seat-relative: block 0 is the observer's. Hidden information is
read only as counts: another seat's hand as its size, every draw pile and the space deck as their lengths;
the observer's own hand card by card.

Global part (24): turn / 40; phase one-hot (4: frontier, action, payment, over); seat to move,
seat-relative one-hot (4); choices made this turn / 50; a card claimed this turn; a system relinquished
this turn; the pool's manpower, production, science / 20 (3); cards still to pay / 10; the payment is the
pirates' discard; space deck / 48; explored space: cards / 5, of them systems, anomalies, events / 5 (3),
their renown / 20, used opportunities / 5.
Per seat (67 each, observer first): frontier colony one-hot (2); hand size / 31; draw pile / 31; discard
pile / 31; the hand per card type / 3 (24; the observer's own only, hidden from the others); systems / 4;
the renown of systems, of top colonies, of the renown pile / 20, renown tokens (+10) / 40, the score / 60;
cards in the renown pile / 20; top colonies and ships per card type / 4 (24); ships / 8; unused colonies
/ 12 and unused ships / 8 (this turn); empty slots / 12; bounty left / 10; ships sold / 8; economy (card
units a turn from colonies and ships, as evaluate() counts them) / 15; the hand-written evaluate() of
that seat.
"""
from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport memset
from libc.stdint cimport int8_t

import numpy as np

from orrery.core_ext._features import check_encode_args, evaluate_columns as evaluate_columns_of

from orrery.core_ext.types cimport MAX_PLAYERS
from orrery.core_ext.game cimport GameOps, Game, Position
from orrery.core_ext.features cimport features_fn, MAX_FEATURES
from orrery.core_ext.take_the_galaxy.state cimport (
    TgState, TgPlayer, TgSystem, TG_TYPES, TG_SPACE, TG_SLOTS, TG_RES,
)

from orrery.core_ext.take_the_galaxy.engine import CATALOGUE

LAYOUT_VERSION = 1
CAPSULE_NAME = b"orrery.features_fn"
cdef const char* CAPSULE_C_NAME = "orrery.features_fn"

cdef enum:
    GLOBAL_SIZE = 24
    SEAT_SIZE = 67
    SEATS = 4               # the most seats Take The Galaxy has (solo to 4 players)
    PHASES = 4              # the engine's PH_FRONTIER .. PH_OVER are 1..4 (engine.pyx)
    SK_SYSTEM = 0           # space card kinds, in the catalogue's order (systems, anomalies, events)
    SK_ANOMALY = 1
    SK_EVENT = 2

# What the features need from the catalogue, loaded once at import from the engine's own copy of it (the
# same ids: player cards in catalogue order; space cards systems, anomalies, events, then the starting
# system).
cdef int8_t CARD_RENOWN[TG_TYPES]
cdef double CARD_VALUE[TG_TYPES]
cdef int8_t SPACE_RENOWN[TG_SPACE + 1]
cdef int8_t SPACE_KIND[TG_SPACE + 1]
cdef int8_t SPACE_SLOTS[TG_SPACE + 1]


def _card_value(card):
    # engine's _effect_value: card units per use (1 card = 1 credit = 2 production = 3 manpower, 1
    # science ~ 1 card, 1 renown ~ 1.5 cards)
    names = ("manpower", "production", "science", "credits", "renown")
    weights = dict(zip(names, (1.0 / 3.0, 0.5, 1.0, 1.0, 1.5)))
    made = sum(weights[k] * v for k, v in card["out"].items())
    return made - sum(weights[k] * v for k, v in card["in"].items())


def _load_catalogue():
    memset(CARD_RENOWN, 0, sizeof(CARD_RENOWN))
    memset(CARD_VALUE, 0, sizeof(CARD_VALUE))
    for t, card in enumerate(CATALOGUE["player_cards"]):
        CARD_RENOWN[t] = card["renown"]
        CARD_VALUE[t] = _card_value(card)
    space = [(SK_SYSTEM, x) for x in CATALOGUE["systems"]]
    space += [(SK_ANOMALY, x) for x in CATALOGUE["anomalies"]]
    space += [(SK_EVENT, x) for x in CATALOGUE["events"]] + [(SK_SYSTEM, CATALOGUE["starting_system"])]
    if len(space) != TG_SPACE + 1:
        raise RuntimeError(f"take_the_galaxy features: {len(space)} space cards, not {TG_SPACE + 1}")
    for i, (kind, card) in enumerate(space):
        SPACE_KIND[i] = kind
        SPACE_RENOWN[i] = card["renown"]
        SPACE_SLOTS[i] = len(card.get("slots", ""))


_load_catalogue()


cdef inline float _cap(double value, double cap) noexcept nogil:
    cdef double x = value / cap
    return <float>(0.0 if x < 0.0 else (1.0 if x > 1.0 else x))


cdef inline int _rel(int seat, int observer, int n) noexcept nogil:
    return (seat - observer + n) % n


cdef int num_features_c(int players) noexcept nogil:
    return GLOBAL_SIZE + players * SEAT_SIZE


cdef void _seat_block(const TgState* s, int seat, bint own, double value, float* out) noexcept nogil:
    cdef const TgPlayer* pl = &s.players[seat]
    cdef const TgSystem* sy
    cdef int i, k, top, renown_systems = 0, renown_colonies = 0, renown_pile = 0, unused = 0, empty = 0
    cdef int unused_ships = 0, bounty = 0
    cdef double economy = 0.0
    if pl.frontier == 1 or pl.frontier == 2:
        out[pl.frontier - 1] = 1.0
    out[2] = _cap(pl.hand_size, 31.0)
    out[3] = _cap(pl.n_draw, 31.0)
    out[4] = _cap(pl.n_discard, 31.0)
    if own:   # another seat's hand is TG_UNKNOWN in an observation: only its size is seen
        for k in range(TG_TYPES):
            out[5 + k] = _cap(pl.hand[k], 3.0)
    out[29] = _cap(pl.n_systems, 4.0)
    for i in range(pl.n_systems):
        sy = &pl.systems[i]
        renown_systems += SPACE_RENOWN[sy.card]
        bounty += sy.bounty[0] + sy.bounty[1] + sy.bounty[2] + sy.bounty[3]
        for k in range(SPACE_SLOTS[sy.card] if SPACE_SLOTS[sy.card] <= TG_SLOTS else TG_SLOTS):
            if sy.depth[k] == 0:
                empty += 1
                continue
            top = sy.stack[k][sy.depth[k] - 1]
            if 0 <= top < TG_TYPES:
                renown_colonies += CARD_RENOWN[top]
                out[36 + top] += 0.25
                if CARD_VALUE[top] > 0:
                    economy += CARD_VALUE[top]
            if not sy.used[k]:
                unused += 1
    for i in range(pl.n_renown):
        renown_pile += SPACE_RENOWN[pl.renown_pile[i]]
    for i in range(pl.n_ships):
        if pl.ships[i] < TG_TYPES:
            out[36 + pl.ships[i]] += 0.25
            if CARD_VALUE[pl.ships[i]] > 0:
                economy += CARD_VALUE[pl.ships[i]]
        if not pl.ship_used[i]:
            unused_ships += 1
    for k in range(TG_TYPES):
        if out[36 + k] > 1.0:
            out[36 + k] = 1.0
    out[30] = _cap(renown_systems, 20.0)
    out[31] = _cap(renown_colonies, 20.0)
    out[32] = _cap(renown_pile, 20.0)
    out[33] = _cap(pl.tokens + 10, 40.0)
    out[34] = _cap(pl.tokens + renown_pile + renown_systems + renown_colonies, 60.0)
    out[35] = _cap(pl.n_renown, 20.0)
    out[60] = _cap(pl.n_ships, 8.0)
    out[61] = _cap(unused, 12.0)
    out[62] = _cap(unused_ships, 8.0)
    out[63] = _cap(empty, 12.0)
    out[64] = _cap(bounty, 10.0)
    out[65] = _cap(pl.n_sold, 8.0)
    out[66] = <float>value


cdef int ttg_features(const GameOps* ops, const void* p, int observer, float* out) noexcept nogil:
    cdef const TgState* s = <const TgState*>p
    cdef int n = s.params.num_players, total = num_features_c(n), i, seat, kind, renown = 0, used = 0
    cdef int kinds[3]
    cdef double value[MAX_PLAYERS]
    if total > MAX_FEATURES or n > SEATS:
        return -1
    memset(out, 0, sizeof(float) * total)
    out[0] = _cap(s.turn, 40.0)
    if 1 <= s.phase <= PHASES:
        out[1 + s.phase - 1] = 1.0
    if 0 <= s.current < n:
        out[5 + _rel(s.current, observer, n)] = 1.0
    out[9] = _cap(s.turn_steps, 50.0)
    out[10] = 1.0 if s.claimed else 0.0
    out[11] = 1.0 if s.relinquished else 0.0
    for i in range(TG_RES):
        out[12 + i] = _cap(s.pool[i], 20.0)
    out[15] = _cap(s.pay_left, 10.0)
    out[16] = 1.0 if s.pay_then_draw else 0.0
    out[17] = _cap(s.n_space, 48.0)
    kinds[0] = kinds[1] = kinds[2] = 0
    for i in range(s.n_explored):
        kind = SPACE_KIND[s.explored[i]] if s.explored[i] <= TG_SPACE else -1
        if 0 <= kind < 3:
            kinds[kind] += 1
            renown += SPACE_RENOWN[s.explored[i]]
        if s.explored_used[i]:
            used += 1
    out[18] = _cap(s.n_explored, 5.0)
    for i in range(3):
        out[19 + i] = _cap(kinds[i], 5.0)
    out[22] = _cap(renown, 20.0)
    out[23] = _cap(used, 5.0)
    ops.evaluate(p, value)
    for i in range(n):
        seat = (observer + i) % n
        _seat_block(s, seat, seat == observer, value[seat], out + GLOBAL_SIZE + i * SEAT_SIZE)
    return total


def num_features(int players):
    """The feature count for a player count (fixed per layout version)."""
    if not 1 <= players <= SEATS:
        raise ValueError(f"take_the_galaxy: {players} players not supported")
    return num_features_c(players)


def evaluate_columns(int players):
    """Where each seat's hand-written evaluate() lies (seat-relative order): the bar a model must pass."""
    num_features(players)
    return evaluate_columns_of(GLOBAL_SIZE, SEAT_SIZE, players)


def hook():
    """The feature function as a PyCapsule (core_ext/features.pxd), for the search's learned evaluation."""
    cdef features_fn fn = ttg_features   # the compiler checks the signature against the hook type
    return PyCapsule_New(<void*>fn, CAPSULE_C_NAME, NULL)


def encode(Position position not None, int observer):
    """The features of a State or Observation as `observer` sees it: a float32 vector of num_features()."""
    cdef Game game = position.game
    check_encode_args("take_the_galaxy", game.name, game.num_players, position.observer, observer)
    out = np.zeros(num_features_c(game.num_players), dtype=np.float32)
    cdef float[::1] view = out
    with nogil:
        ttg_features(game.ops, position.ptr, observer, &view[0])
    return out
