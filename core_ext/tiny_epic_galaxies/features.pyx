# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Tiny Epic Galaxies' features for a learned evaluation (layout version 1; table in docs/learning.md).

A compact view of what one seat sees, computed from the C struct without the GIL, so the search kernel can
score a leaf with it; the same for the base game and Beyond the Black (its block is zero in the base
game). Seat-relative: block 0 is the observer's.

The features are those of the observer's observation (the game's observe()), not of the state they are
given: the search scores determinized states, whose other seats' secret missions and face-down
exploration cards are samples, and the features must not see them. So a full state, any of its
determinizations and the observation give the same features, and the hand-written evaluate() column is
that of the observation (it counts the observer's own mission only). They are read from the state
without building the observation (session 9, docs/learning.md): only the observer's own missions, and of
the face-down cards only their counts by class, which hiding keeps; the engine's teg_observed_values()
and teg_hidden_cards() give the observation's evaluate(), scores() and hidden card count.
tests/test_learned_teg.py holds them to the observation-based hook's output, bit for bit.

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
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

import numpy as np

from orrery.core_ext._features import check_encode_args, evaluate_columns as evaluate_columns_of

from orrery.core_ext.types cimport MAX_PLAYERS
from orrery.core_ext.game cimport GameOps, Game, Position
from orrery.core_ext.features cimport features_fn, MAX_FEATURES
from orrery.core_ext.tiny_epic_galaxies.engine cimport teg_observed_values, teg_hidden_cards
from orrery.core_ext.tiny_epic_galaxies.state cimport (
    TegState, TegGalaxy, TEG_GALAXIES, TEG_SHIPS, TEG_FACES, TEG_ROW, TEG_PLANET_ROOM, TEG_NONE,
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
    CAP_ROOM = 41         # _capi() covers the caps 1..40
    SEATS_ROOM = 8        # Tally.planets: the seats' sums, then 8 slots the other planets add to
    PLACES = 16
    PACK_COUNT = 0        # PLANET_PACK's byte fields: 1 a planet, its 4 by_kind flags, its points
    PACK_KIND = 1         # (16 bits): sums of up to 64 planets fit
    PACK_VP = 6

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
cdef uint64_t PLANET_PACK[TEG_PLANET_ROOM]  # a planet's counts as bytes (PACK_*) for _tally()
cdef float CAP_TABLE[CAP_ROOM][CAP_ROOM]     # _capi(): CAP_TABLE[cap][value] = _cap(value, cap)
cdef float THIRDS[2][16]    # [0][k]: 0.0 plus 1.0 / 3.0, k times, in float (a count / 3); [1][k]: at most 1

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
        kinds = (P_RES[i] != RES_CULTURE, P_RES[i] != RES_ENERGY)   # by track: (energy, culture) yields
        PLANET_PACK[i] = (1 << (8 * PACK_COUNT)) | (<uint64_t>P_VP[i] << (8 * PACK_VP))
        for k in range(2):
            PLANET_PACK[i] |= <uint64_t>kinds[k] << (8 * (PACK_KIND + (0 if P_DIP[i] else 2) + k))
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


cdef inline float _capi(int value, int cap) noexcept nogil:
    # _cap() of a whole number (cap <= CAP_ROOM - 1), the same float from the table, without a division
    # or a branch
    value = value if value > 0 else 0
    return CAP_TABLE[cap][value if value < cap else cap]


cdef inline int _rel(int seat, int observer, int n) noexcept nogil:
    return seat - observer + (n if seat < observer else 0)


cdef int num_features_c(int players) noexcept nogil:
    return GLOBAL_SIZE + players * SEAT_SIZE


ctypedef struct Tally:
    # Counts over the planets, pilots and exploration cards, every seat's in one pass each. A seat's
    # cards and badges add its face-down cards (counted by card on the state, by class in an
    # observation's `hidden`: the same sums); xdeck is the observation's "unknown" cards (deck and the
    # others' face-down ones), whatever state it is read from. The Beyond the Black counts are only
    # set when it is on.
    uint64_t planets[PLACES]     # seat g's colonies: planets[g], the sums of their PLANET_PACK
    int deck
    int pilots[TEG_GALAXIES]
    int cards[TEG_GALAXIES]
    int dwarf[TEG_GALAXIES]
    int badges[TEG_GALAXIES][TEG_BADGES]
    int pilot_deck
    int xdeck


cdef inline int _packed(uint64_t sums, int field) noexcept nogil:
    return <int>((sums >> (8 * field)) & (0xffff if field == PACK_VP else 0xff))


cdef inline int _add_planets(const TegState* s, int first, int end, int n, uint64_t* planets) noexcept nogil:
    # Branch-free over planets first..end-1: a colony adds its PLANET_PACK to its seat's sums, every
    # other planet to one of the 8 slots after them that nobody reads, in turn (consecutive planets
    # adding to one slot would wait on each other's store). Returns how many are in the deck.
    cdef int p, w, deck = 0
    for p in range(first, end):
        w = s.where[p]
        deck += w == W_DECK
        w -= W_COLONY
        planets[w if <unsigned int>w < <unsigned int>n else SEATS_ROOM + (p & 7)] += PLANET_PACK[p]
    return deck


cdef void _tally(const TegState* s, int observer, int n, Tally* t) noexcept nogil:
    cdef int g, k, b, w, deck, deck_extra
    for k in range(SEATS_ROOM):
        t.planets[k] = 0
    deck = _add_planets(s, 0, N_BASE_PLANETS, n, t.planets)
    deck_extra = _add_planets(s, N_BASE_PLANETS, N_PLANETS, n, t.planets)
    t.deck = deck + (deck_extra if s.btb.on else 0)   # the base game's deck: its own planets only
    if not s.btb.on:
        return
    memset(t.pilots, 0, sizeof(t.pilots))
    memset(t.cards, 0, sizeof(t.cards))
    memset(t.dwarf, 0, sizeof(t.dwarf))
    memset(t.badges, 0, sizeof(t.badges))
    t.pilot_deck = 0
    t.xdeck = 0
    for k in range(TEG_PILOTS):
        w = s.btb.pilot_where[k]
        if w == PW_DECK:
            t.pilot_deck += 1
        elif PW_HIRED <= w < PW_HIRED + n:
            g = w - PW_HIRED
            t.pilots[g] += 1
            for b in range(TEG_BADGES):
                t.badges[g][b] += PIL_BADGES[k][b]
    for k in range(TEG_CARDS):
        w = s.btb.card_where[k]
        if w == CW_DECK:
            t.xdeck += 1
        elif CW_TAKEN <= w < CW_TAKEN + n:
            g = w - CW_TAKEN
            t.cards[g] += 1
            t.badges[g][X_BADGE[k]] += 1
            t.dwarf[g] += X_DWARF[k]
    for g in range(n):
        for k in range(TEG_CARD_CLASSES):   # an observation's face-down cards: only their class is public
            t.cards[g] += s.btb.hidden[g][k]
            t.badges[g][k // 4] += s.btb.hidden[g][k]
            t.dwarf[g] += s.btb.hidden[g][k] * (k % 4)
    t.xdeck += teg_hidden_cards(s, observer)


cdef void _global_part(const TegState* o, int observer, int n, const Tally* t, float* out) noexcept nogil:
    cdef int i, p, c, kind, pilot_row = 0, xrow = 0
    cdef uint64_t row = 0   # 4-bit counts: the row's planets by track and points, then face-up cards by badge
    out[0] = _capi(o.round, 30)
    out[1] = 1.0 if o.btb.on else 0.0
    if 0 <= o.active < n:
        out[2 + _rel(o.active, observer, n)] = 1.0
    if 0 <= o.trigger < n:
        out[7 + _rel(o.trigger, observer, n)] = 1.0
    if o.depth > 0:
        kind = o.stack[o.depth - 1].kind
        if kind < TASK_KINDS:
            out[12 + kind] = 1.0
    out[27] = _capi(o.depth, 10)
    for i in range(TEG_FACES):
        out[28 + i] = _capi(o.pool[i], 7)
        out[34 + i] = _capi(o.bay[i], 7)
        out[40 + i] = _capi(o.hire_bay[i], 7)
    out[46] = _capi(o.rerolls, 3)
    out[47] = 1.0 if o.converter_used else 0.0
    out[48] = 1.0 if o.follow_cost == 2 else 0.0
    out[49] = 1.0 if o.follow_bonus & 1 else 0.0
    out[50] = 1.0 if o.follow_bonus & 2 else 0.0
    for i in range(o.row_size if o.row_size <= TEG_ROW else TEG_ROW):
        p = o.row[i]
        if p < N_PLANETS:
            row += <uint64_t>1 << (4 * ((0 if P_DIP[p] else VP_LEVELS) + P_VP_LEVEL[p]))
    for i in range(2 * VP_LEVELS):
        out[51 + i] = THIRDS[1][(row >> (4 * i)) & 15]
    out[61] = _capi(t.deck, 40)
    p = o.gal[observer].mission      # the observer's own: never another seat's (hidden from it)
    if p < MISSIONS:
        out[62 + p] = 1.0
    for i in range(2):
        p = o.gal[observer].dealt[i]
        if p < MISSIONS:
            out[82 + p] = 1.0
    if not o.btb.on:
        return
    for i in range(TEG_PILOT_ROW):
        pilot_row += o.btb.pilot_row[i] != TEG_NONE
    out[102] = _capi(pilot_row, 6)
    out[103] = _capi(t.pilot_deck, 30)
    row = 0
    for i in range(TEG_XROW):
        c = o.btb.xrow[i]
        if c < TEG_CARDS:
            xrow += 1
            row += <uint64_t>1 << (4 * X_BADGE[c])
    for i in range(TEG_BADGES):
        out[105 + i] = THIRDS[0][(row >> (4 * i)) & 15]
    out[104] = _capi(xrow, 3)
    out[109] = _capi(t.xdeck, 30)


cdef void _seat_part(const TegState* o, int g, const Tally* t, double value, int points,
                     float* out) noexcept nogil:
    cdef const TegGalaxy* gal = &o.gal[g]
    cdef int k, p, b, active = 0, advanced = 0, near = 0
    cdef uint64_t colonies
    cdef int ships[6]
    cdef double progress = 0.0, weighted = 0.0, share
    memset(ships, 0, sizeof(ships))
    out[0] = _capi(gal.energy, 7)
    out[1] = _capi(gal.culture, 7)
    if 1 <= gal.empire <= 6:
        out[2 + gal.empire - 1] = 1.0
    out[8] = _capi(points, 21)
    colonies = t.planets[g]
    out[9] = _capi(_packed(colonies, PACK_COUNT), 8)
    out[10] = _capi(_packed(colonies, PACK_VP), 21)
    for k in range(4):
        out[11 + k] = _capi(_packed(colonies, PACK_KIND + k), 5)
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
        out[15 + k] = _capi(ships[k], 4)
    out[21] = _cap(progress, 4.0)
    out[22] = _cap(weighted, 20.0)
    out[23] = _capi(near, 4)
    if o.btb.on:
        for k in range(TEG_ADV):
            active += gal.pilot[k] != TEG_NONE
        for k in range(TEG_SHIPS):
            advanced += gal.adv[k] != TEG_NONE
        out[24] = _capi(t.pilots[g], 8)
        out[25] = _capi(active, 4)
        out[26] = _capi(advanced, 4)
        for b in range(TEG_BADGES):
            out[27 + b] = _capi(t.badges[g][b], 6)
        out[31] = _capi(t.dwarf[g], 6)
        out[32] = _capi(t.cards[g], 8)
    out[33] = <float>value


cdef int teg_features(const GameOps* ops, const void* p, int observer, float* out) noexcept nogil:
    cdef const TegState* s = <const TegState*>p
    cdef int n = s.params.num_players, total = num_features_c(n), i, seat
    cdef double value[MAX_PLAYERS]
    cdef double points[MAX_PLAYERS]
    cdef Tally t
    if total > MAX_FEATURES or not 0 <= observer < n:
        return -1
    memset(out, 0, sizeof(float) * total)
    _tally(s, observer, n, &t)
    _global_part(s, observer, n, &t, out)
    teg_observed_values(p, observer, value, points)   # evaluate() and scores() of the observation
    for i in range(n):
        seat = observer + i - (n if observer + i >= n else 0)
        _seat_part(s, seat, &t, value[seat], <int>points[seat], out + GLOBAL_SIZE + i * SEAT_SIZE)
    return total


def _fill_tables():
    cdef int cap, value
    for cap in range(1, CAP_ROOM):
        for value in range(cap + 1):
            CAP_TABLE[cap][value] = _cap(value, cap)
    THIRDS[0][0] = 0.0
    for value in range(15):
        THIRDS[0][value + 1] = THIRDS[0][value] + 1.0 / 3.0   # in float each time, as summed one by one
    for value in range(16):
        THIRDS[1][value] = THIRDS[0][value] if THIRDS[0][value] <= 1.0 else 1.0


_load_catalogue()
_fill_tables()


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
