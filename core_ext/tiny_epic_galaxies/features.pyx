# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Tiny Epic Galaxies' features for a learned evaluation (layout version 1; table in docs/learning.md).

A compact view of what one seat sees, computed from the C struct without the GIL, so the search kernel can
score a leaf with it; the same for the base game and Beyond the Black (its block is zero in the base
game). Seat-relative: block 0 is the observer's.

Everything is read from the observer's observation (the game's own observe(), a copy on the stack), not
from the state it is given: the search scores determinized states, whose other seats' secret missions and
face-down exploration cards are samples, and the features must not see them. So a full state, any of its
determinizations and the observation give the same features, and the hand-written evaluate() column is
that of the observation (it counts the observer's own mission only).

Global part (110): round / 30; Beyond the Black on; the active galaxy and the galaxy that triggered the
end, seat-relative one-hot (5 each); the pending decision's kind one-hot (15); stack depth / 10; dice in
the pool, activated and hired with per face / 7 (6 each); rerolls / 3; converter used; follow cost 2;
follow bonus (energy, culture); the planet row's planets by track (diplomacy, economy) and points (1, 2,
3, 5, 7), counts / 3 (10); planets in the deck / 40; the observer's kept mission one-hot (20) and its
dealt missions (20); Beyond the Black: pilots in the row / 6, pilots in the deck / 30, face-up
exploration cards / 3 and their badges / 3 (4), exploration cards not in view / 30.
Per seat (34 each, observer first): energy / 7, culture / 7; empire level one-hot (6); points toward 21 /
21; colonies / 8; colony points / 21; colonies by track and resource / 5 (4); ships locked, at home, on
a surface, in orbit, in Unexplored Space, on a danger track / 4 (6); orbit progress (space + 1) / (spaces
+ 1) summed / 4, weighted by the planet's points / 20; ships one step from landing / 4; Beyond the Black:
pilots hired / 8, active pilots / 4, advanced ships / 4, badges per symbol / 6 (4), dwarf planet points
/ 6, exploration cards taken / 8; the hand-written evaluate() of that seat (from the observation).
"""
import json
from pathlib import Path

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport uint8_t
from libc.string cimport memset

import numpy as np

from orrery.core_ext._features import check_encode_args, evaluate_columns as evaluate_columns_of

from orrery.core_ext.types cimport MAX_PLAYERS
from orrery.core_ext.game cimport GameOps, Game, Position
from orrery.core_ext.features cimport features_fn, MAX_FEATURES
from orrery.core_ext.tiny_epic_galaxies.state cimport (
    TegState, TegGalaxy, TEG_SHIPS, TEG_FACES, TEG_ROW, TEG_PLANET_ROOM, TEG_NONE,
    TEG_LOCKED, TEG_HOME, TEG_EXPLORE, TEG_DANGER, TEG_ADV, TEG_PILOTS, TEG_PILOT_ROOM, TEG_PILOT_ROW,
    TEG_CARDS, TEG_CARD_ROOM, TEG_XROW, TEG_BADGES, TEG_CARD_CLASSES,
)

LAYOUT_VERSION = 1
CAPSULE_NAME = b"orrery.features_fn"
cdef const char* CAPSULE_C_NAME = "orrery.features_fn"

cdef enum:
    GLOBAL_SIZE = 110
    SEAT_SIZE = 34
    TASK_KINDS = 15       # the engine's K_* ids 0..14
    MISSIONS = 20         # base (12) and Beyond the Black (8)
    VP_LEVELS = 5         # planet points 1, 2, 3, 5, 7
    W_DECK = 0            # the engine's planet places (engine.pyx)
    W_ROW = 1
    W_COLONY = 3
    PW_DECK = 0           # pilot and exploration card places (btb.pxi)
    PW_ROW = 1
    PW_HIRED = 2
    CW_DECK = 0
    CW_TAKEN = 3
    TRACK_DIP = 3         # the engine's FACE_DIP / FACE_ECO
    RES_ENERGY = 0
    RES_CULTURE = 1
    RES_BOTH = 2

# the catalogue facts the features read (core_ext/tiny_epic_galaxies/catalogue.json), loaded once
cdef uint8_t P_VP[TEG_PLANET_ROOM]
cdef uint8_t P_N[TEG_PLANET_ROOM]
cdef uint8_t P_DIP[TEG_PLANET_ROOM]          # 1: a diplomacy track, 0: economy
cdef uint8_t P_RES[TEG_PLANET_ROOM]
cdef uint8_t P_VP_LEVEL[TEG_PLANET_ROOM]     # index of its points in (1, 2, 3, 5, 7)
cdef uint8_t PIL_BADGES[TEG_PILOT_ROOM][TEG_BADGES]
cdef uint8_t X_BADGE[TEG_CARD_ROOM]
cdef uint8_t X_DWARF[TEG_CARD_ROOM]
cdef int N_PLANETS = 0
cdef int N_BASE_PLANETS = 0

VP_VALUES = (1, 2, 3, 5, 7)


def _load_catalogue():
    global N_PLANETS, N_BASE_PLANETS
    data = json.loads((Path(__file__).resolve().parent / "catalogue.json").read_text())
    btb = data["beyond_the_black"]
    planets = data["planets"] + btb["planets"]
    if len(planets) > TEG_PLANET_ROOM or len(data["missions"]) + len(btb["missions"]) != MISSIONS:
        raise RuntimeError("tiny_epic_galaxies features: the catalogue does not fit layout version 1")
    for i, p in enumerate(planets):
        P_VP[i], P_N[i] = p["vp"], p["spaces"]
        P_DIP[i] = p["track"] == "diplomacy"
        P_RES[i] = {"energy": RES_ENERGY, "culture": RES_CULTURE, "both": RES_BOTH}[p["resource"]]
        P_VP_LEVEL[i] = VP_VALUES.index(p["vp"])
    N_PLANETS, N_BASE_PLANETS = len(planets), len(data["planets"])
    names = btb["badges"]   # the symbols in the engine's order (btb.pxi reads them the same way)
    if len(names) != TEG_BADGES:
        raise RuntimeError("tiny_epic_galaxies features: expected 4 badge symbols")
    for i, p in enumerate(btb["pilots"]):
        for j in range(TEG_BADGES):
            PIL_BADGES[i][j] = p["badges"].count(names[j])
    for i, c in enumerate(btb["exploration_cards"]):
        X_BADGE[i] = names.index(c["badge"])
        X_DWARF[i] = c["dwarf_planet_vp"]


cdef inline float _cap(double value, double cap) noexcept nogil:
    cdef double x = value / cap
    return <float>(0.0 if x < 0.0 else (1.0 if x > 1.0 else x))


cdef inline int _rel(int seat, int observer, int n) noexcept nogil:
    return (seat - observer + n) % n


cdef int num_features_c(int players) noexcept nogil:
    return GLOBAL_SIZE + players * SEAT_SIZE


cdef void _global_part(const TegState* o, int observer, int n, float* out) noexcept nogil:
    cdef int i, p, c, kind, deck = 0, xdeck = 0, pilot_deck = 0, pilot_row = 0, xrow = 0
    out[0] = _cap(o.round, 30.0)
    out[1] = 1.0 if o.btb.on else 0.0
    if 0 <= o.active < n:
        out[2 + _rel(o.active, observer, n)] = 1.0
    if 0 <= o.trigger < n:
        out[7 + _rel(o.trigger, observer, n)] = 1.0
    if o.depth > 0:
        kind = o.stack[o.depth - 1].kind
        if kind < TASK_KINDS:
            out[12 + kind] = 1.0
    out[27] = _cap(o.depth, 10.0)
    for i in range(TEG_FACES):
        out[28 + i] = _cap(o.pool[i], 7.0)
        out[34 + i] = _cap(o.bay[i], 7.0)
        out[40 + i] = _cap(o.hire_bay[i], 7.0)
    out[46] = _cap(o.rerolls, 3.0)
    out[47] = 1.0 if o.converter_used else 0.0
    out[48] = 1.0 if o.follow_cost == 2 else 0.0
    out[49] = 1.0 if o.follow_bonus & 1 else 0.0
    out[50] = 1.0 if o.follow_bonus & 2 else 0.0
    for i in range(o.row_size if o.row_size <= TEG_ROW else TEG_ROW):
        p = o.row[i]
        if p < N_PLANETS:
            out[51 + (0 if P_DIP[p] else VP_LEVELS) + P_VP_LEVEL[p]] += 1.0 / 3.0
    for i in range(10):
        if out[51 + i] > 1.0:
            out[51 + i] = 1.0
    for p in range(N_PLANETS):
        if o.where[p] == W_DECK and (o.btb.on or p < N_BASE_PLANETS):
            deck += 1
    out[61] = _cap(deck, 40.0)
    p = o.gal[observer].mission
    if p < MISSIONS:
        out[62 + p] = 1.0
    for i in range(2):
        p = o.gal[observer].dealt[i]
        if p < MISSIONS:
            out[82 + p] = 1.0
    if not o.btb.on:
        return
    for i in range(TEG_PILOTS):
        pilot_deck += o.btb.pilot_where[i] == PW_DECK
    for i in range(TEG_PILOT_ROW):
        pilot_row += o.btb.pilot_row[i] != TEG_NONE
    out[102] = _cap(pilot_row, 6.0)
    out[103] = _cap(pilot_deck, 30.0)
    for i in range(TEG_XROW):
        c = o.btb.xrow[i]
        if c < TEG_CARDS:
            xrow += 1
            out[105 + X_BADGE[c]] += 1.0 / 3.0
    out[104] = _cap(xrow, 3.0)
    for c in range(TEG_CARDS):
        xdeck += o.btb.card_where[c] == CW_DECK   # the deck and (observations) others' face-down cards
    out[109] = _cap(xdeck, 30.0)


cdef void _seat_part(const TegState* o, int g, double value, double points, float* out) noexcept nogil:
    cdef const TegGalaxy* gal = &o.gal[g]
    cdef int k, p, b, colonies = 0, colony_vp = 0, pilots = 0, active = 0, advanced = 0, cards = 0
    cdef int dwarf = 0, near = 0
    cdef int by_kind[4]
    cdef int ships[6]
    cdef int badges[TEG_BADGES]
    cdef double progress = 0.0, weighted = 0.0, share
    memset(by_kind, 0, sizeof(by_kind))
    memset(ships, 0, sizeof(ships))
    memset(badges, 0, sizeof(badges))
    out[0] = _cap(gal.energy, 7.0)
    out[1] = _cap(gal.culture, 7.0)
    if 1 <= gal.empire <= 6:
        out[2 + gal.empire - 1] = 1.0
    out[8] = _cap(points, 21.0)
    for p in range(N_PLANETS):
        if o.where[p] == W_COLONY + g:
            colonies += 1
            colony_vp += P_VP[p]
            if P_RES[p] != RES_CULTURE:
                by_kind[(0 if P_DIP[p] else 2) + 0] += 1
            if P_RES[p] != RES_ENERGY:
                by_kind[(0 if P_DIP[p] else 2) + 1] += 1
    out[9] = _cap(colonies, 8.0)
    out[10] = _cap(colony_vp, 21.0)
    for k in range(4):
        out[11 + k] = _cap(by_kind[k], 5.0)
    for k in range(TEG_SHIPS):
        p = gal.ship_at[k]
        if p == TEG_LOCKED:
            ships[0] += 1
        elif p == TEG_HOME:
            ships[1] += 1
        elif p == TEG_EXPLORE:
            ships[4] += 1
        elif p == TEG_DANGER:
            ships[5] += 1
        elif p < N_PLANETS and gal.ship_orbit[k]:
            ships[3] += 1
            share = (gal.ship_space[k] + 1.0) / (P_N[p] + 1.0)
            progress += share
            weighted += P_VP[p] * share
            near += gal.ship_space[k] + 1 >= P_N[p]
        elif p < N_PLANETS:
            ships[2] += 1
    for k in range(6):
        out[15 + k] = _cap(ships[k], 4.0)
    out[21] = _cap(progress, 4.0)
    out[22] = _cap(weighted, 20.0)
    out[23] = _cap(near, 4.0)
    if o.btb.on:
        for k in range(TEG_PILOTS):
            if o.btb.pilot_where[k] == PW_HIRED + g:
                pilots += 1
                for b in range(TEG_BADGES):
                    badges[b] += PIL_BADGES[k][b]
        for k in range(TEG_ADV):
            active += gal.pilot[k] != TEG_NONE
        for k in range(TEG_SHIPS):
            advanced += gal.adv[k] != TEG_NONE
        for k in range(TEG_CARDS):
            if o.btb.card_where[k] == CW_TAKEN + g:
                cards += 1
                badges[X_BADGE[k]] += 1
                dwarf += X_DWARF[k]
        for k in range(TEG_CARD_CLASSES):   # others' face-down cards: only their class is public
            cards += o.btb.hidden[g][k]
            badges[k // 4] += o.btb.hidden[g][k]
            dwarf += o.btb.hidden[g][k] * (k % 4)
        out[24] = _cap(pilots, 8.0)
        out[25] = _cap(active, 4.0)
        out[26] = _cap(advanced, 4.0)
        for b in range(TEG_BADGES):
            out[27 + b] = _cap(badges[b], 6.0)
        out[31] = _cap(dwarf, 6.0)
        out[32] = _cap(cards, 8.0)
    out[33] = <float>value


cdef int teg_features(const GameOps* ops, const void* p, int observer, float* out) noexcept nogil:
    cdef TegState o
    cdef int n = (<const TegState*>p).params.num_players, total = num_features_c(n), i, seat
    cdef double value[MAX_PLAYERS]
    cdef double points[MAX_PLAYERS]
    if total > MAX_FEATURES or not 0 <= observer < n:
        return -1
    ops.observe(p, observer, &o)   # only what the observer sees, whatever was sampled for the rest
    memset(out, 0, sizeof(float) * total)
    _global_part(&o, observer, n, out)
    ops.evaluate(&o, value)
    ops.scores(&o, points)
    for i in range(n):
        seat = (observer + i) % n
        _seat_part(&o, seat, value[seat], points[seat], out + GLOBAL_SIZE + i * SEAT_SIZE)
    return total


_load_catalogue()


def num_features(int players):
    """The feature count for a player count (fixed per layout version)."""
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"tiny_epic_galaxies: {players} players not supported by the features")
    return num_features_c(players)


def evaluate_columns(int players):
    """Where each seat's hand-written evaluate() lies (seat-relative order): the bar a model must pass."""
    num_features(players)
    return evaluate_columns_of(GLOBAL_SIZE, SEAT_SIZE, players)


def hook():
    """The feature function as a PyCapsule (core_ext/features.pxd), for the search's learned evaluation."""
    cdef features_fn fn = teg_features   # the compiler checks the signature against the hook type
    return PyCapsule_New(<void*>fn, CAPSULE_C_NAME, NULL)


def encode(Position position not None, int observer):
    """The features of a State or Observation as `observer` sees it: a float32 vector of num_features()."""
    cdef Game game = position.game
    check_encode_args("tiny_epic_galaxies", game.name, game.num_players, position.observer, observer)
    if game.num_players < 2:
        raise ValueError("tiny_epic_galaxies features: solo games (the Rogue) are not covered")
    out = np.zeros(num_features_c(game.num_players), dtype=np.float32)
    cdef float[::1] view = out
    with nogil:
        teg_features(game.ops, position.ptr, observer, &view[0])
    return out
