# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Tiny Epic Galaxies, the base game for 1 to 5 players and the solo Rogue galaxy, as a compiled core.

Facts: ../shared/rules/tiny_epic_galaxies_base.md; every decision where sources disagree or are silent
is in docs/rules/tiny_epic_galaxies.md with the section it rests on.

The engine is a stack of pending tasks (core_ext/tiny_epic_galaxies/state.pxd, `stack`). The top task is the
decision being asked (or an automatic step: settle() resolves those until a decision is on top). A die
activation pushes "ask the followers" under "resolve the face", so following happens after the die is
fully resolved; planet actions push their own stages. This file keeps the constants, the catalogue,
the small helpers, the dispatch by pending task and the GameOps table; the file map is in __init__.py.
"""
import json
from pathlib import Path

from libc.string cimport memcmp, memcpy, memset
from libc.math cimport exp
from libc.stdint cimport int8_t, uint8_t, uint64_t

from orrery.core_ext.types cimport action_t, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed, rng_seed2, rng_below, rng_next
from orrery.core_ext.game cimport GameOps, GameParams, Game, Position, State
from orrery.core_ext.json_fields cimport show, fail, read_object, read_int, read_bool, read_name, read_list
from orrery.core_ext.tiny_epic_galaxies.state cimport (
    TegState, TegGalaxy, TegTask, TEG_GALAXIES, TEG_SHIPS, TEG_FACES, TEG_ROW, TEG_PLANETS,
    TEG_PLANET_ROOM, TEG_MISSIONS, TEG_MISSION_ROOM, TEG_STACK, TEG_TASK_ARGS, TEG_NONE, TEG_HIDDEN,
    TEG_LOCKED, TEG_HOME, TEG_EXPLORE, TEG_DANGER, TEG_ADV, TEG_PILOTS, TEG_PILOT_ROOM, TEG_PILOT_ROW,
    TEG_CARDS, TEG_CARD_ROOM, TEG_XROW, TEG_BADGES, TEG_CARD_CLASSES,
)

# ---------------------------------------------------------------- constants

cdef enum:
    FACE_MOVE = 0
    FACE_ENERGY = 1
    FACE_CULTURE = 2
    FACE_DIP = 3
    FACE_ECO = 4
    FACE_COLONY = 5
    RES_ENERGY = 0
    RES_CULTURE = 1
    RES_BOTH = 2           # Beyond the Black planets that acquire energy and culture
    TRACK_ANY = 0          # planet action filter: any track (else FACE_DIP / FACE_ECO)
    CAP = 7
    POINTS_TO_END = 21
    ROUND_CAP = 60         # engine safety limit (docs section 4)
    MAX_LEVEL = 6
    ROGUE = 1              # the Rogue's galaxy in solo
    # where a planet is
    W_DECK = 0
    W_ROW = 1
    W_DISCARD = 2
    W_COLONY = 3           # + galaxy
    W_BOX = 9              # not in this game (the expansion's planets in the base game)
    # tasks
    K_MISSION = 1
    K_TURN = 2
    K_REROLL = 3           # a[0..5] dice picked per face, a[6] lowest face allowed, a[7] 1 = Zalax
    K_CONVERT = 4          # a[0] stage, a[1], a[2] spent faces, a[3] die to set, a[4] 1 = Gyore
    K_FOLLOW = 5           # seat = active galaxy, a[0] face, a[1] offset of the follower, a[2] cost
    K_DIE = 6              # a[0] face, a[1] ship excluded (Nagato), a[2] 1 = push a second move after
    K_LAND = 7             # a[0] planet
    K_PLANET = 8           # a[0] planet, a[1] stage, a[2..] stage data
    K_ROGUE_TURN = 9       # a[0] dice still to roll, a[1] 1 = end-of-turn checks done
    K_ROGUE_DIE = 10       # a[0] face, a[1] 1 = already rerolled
    K_ROGUE_TAKE = 11      # seat 0 chooses; a[0] resources still to take
    K_HIRE = 12            # Beyond the Black: a[0] stage, a[1] pilot row slot, a[2] ship kind, a[3] face
    K_EXPLORE = 13         # a[0] exploring ship, a[1] stage (0 choose, 1 a drawn discovery), a[2] card
    K_XCARD = 14           # a[0] card whose "advance one of your orbiting ships" is being resolved
    # actions (docs section 8)
    A_ACTIVATE = 0
    A_END_TURN = 6
    A_REROLL = 7
    A_CONVERT = 8
    A_DONE = 9
    A_FACE = 10
    A_FOLLOW = 16
    A_USE = 17
    A_FORCE = 18
    A_KEEP = 20            # + i: keep dealt mission i (KEEP_CHOICES dealt)
    KEEP_CHOICES = 2
    A_UPG_E = 24
    A_UPG_C = 25
    A_TAKE_E = 26
    A_TAKE_C = 27
    A_AMOUNT = 30
    A_PLAYER = 40
    A_ROW = 48
    A_SHIP = 56
    A_ENEMY = 60
    A_COLONY = 80
    A_MOVE = 128
    A_MOVE_END = 180
    # Beyond the Black (docs section 13)
    A_EXPLORE = 180        # + ship: move it into Unexplored Space and explore
    A_PILOT = 184          # + pilot row slot: hire that pilot
    A_HANGAR = 190         # + advanced ship kind (Aurora, Intrepid, Ambition, Nexus)
    A_DANGER_PAY = 194     # + ship: pay the track's resource, advance on its danger track
    A_DANGER_MOVE = 198    # + ship: a ship action advances it on its danger track
    A_XROW = 202           # + face-up exploration slot: take that card
    A_XDRAW = 205          # reveal the top exploration card
    A_XTAKE = 206          # take the discovery just revealed
    A_XLEAVE = 207         # leave it face up and reveal the next
    A_COLONY2 = 208        # + planet - 40: a Beyond the Black colony (40..51)
    A_LIMIT = 220
    MOVE_DESTS = 13
    MAX_ACTIONS = 96
    MAX_GAME_LENGTH = 200000
    # planet action kinds (catalogue "action")
    PK_GAIN = 0
    PK_ADVANCE_OWN = 1
    PK_FOLLOW_BONUS = 2
    PK_PUSH_BACK = 3
    PK_REPLACE_ROW = 4
    PK_UPGRADE_DISCOUNT = 5
    PK_UPGRADE_MIX = 6
    PK_REROLL = 7
    PK_TRADE = 8
    PK_STEAL = 9
    PK_CONVERT = 10
    PK_DOUBLE_MOVE = 11
    PK_COPY_ROW = 12
    PK_GAIN_ALL = 13
    PK_DISCARD_DICE = 14
    PK_RECALL = 15
    PK_USE_OTHER = 16
    PK_ANY_DIE = 17
    PK_BACK_ADVANCE = 18
    PK_PER_HOME_SHIP = 19
    PK_FOLLOW_COST = 20
    PK_JUMP = 21
    PK_ALL_ADVANCE = 22
    PK_REPEAT_DIE = 23
    PK_SET_DIE = 24
    PK_KINDS = 25
    COPY_DEPTH = 3          # how deep usability looks through copying actions

PLANET_KINDS = ("gain", "advance_own", "follow_bonus", "push_back", "replace_row_planet",
                "upgrade_discount", "upgrade_mix", "reroll", "trade", "steal", "convert", "double_move",
                "copy_row_planet", "gain_all", "discard_dice", "recall_ship", "use_other_colony", "any_die",
                "back_and_advance", "gain_per_home_ship", "follow_cost", "jump_track", "all_advance",
                "repeat_die", "set_die")
FACE_NAMES = ("move", "energy", "culture", "diplomacy", "economy", "colony")
RESOURCE_NAMES = ("energy", "culture")

# ---------------------------------------------------------------- catalogue (core_ext/<game>/catalogue.json)

cdef uint8_t P_RES[TEG_PLANET_ROOM]      # RES_ENERGY / RES_CULTURE
cdef uint8_t P_TRACK[TEG_PLANET_ROOM]    # FACE_DIP / FACE_ECO
cdef uint8_t P_N[TEG_PLANET_ROOM]        # highest numbered track space
cdef uint8_t P_VP[TEG_PLANET_ROOM]
cdef uint8_t P_KIND[TEG_PLANET_ROOM]
cdef uint8_t P_OWN_TURN[TEG_PLANET_ROOM]
cdef uint8_t P_ONCE[TEG_PLANET_ROOM]
cdef int8_t P_A[TEG_PLANET_ROOM]         # per-kind parameters (see _load_catalogue)
cdef int8_t P_B[TEG_PLANET_ROOM]
cdef int8_t P_C[TEG_PLANET_ROOM]         # energy paid
cdef int8_t P_D[TEG_PLANET_ROOM]         # culture paid
cdef int8_t P_E[TEG_PLANET_ROOM]
cdef int N_PLANETS = 0
cdef int8_t LEVEL_COST[7]
cdef int8_t LEVEL_DICE[7]
cdef int8_t LEVEL_SHIPS[7]
cdef int8_t LEVEL_VP[7]
cdef int8_t ROW_SIZE[6]
cdef int8_t MISSION_VP[TEG_MISSION_ROOM]
cdef int8_t MISSION_TIED[TEG_MISSION_ROOM]
cdef int N_BASE_PLANETS = 0
cdef int N_ALL_MISSIONS = 0

CATALOGUE_PATH = Path(__file__).resolve().parent / "catalogue.json"


def _track_code(str name):
    return {"any": TRACK_ANY, "diplomacy": FACE_DIP, "economy": FACE_ECO}[name]


def _res_code(str name):
    return {"energy": RES_ENERGY, "culture": RES_CULTURE, "both": RES_BOTH}[name]


def _load_catalogue():
    global N_PLANETS, N_BASE_PLANETS, N_ALL_MISSIONS
    data = json.loads(CATALOGUE_PATH.read_text())
    if len(data["planets"]) != TEG_PLANETS or len(data["missions"]) != TEG_MISSIONS:
        raise RuntimeError("tiny_epic_galaxies.json: expected 40 planets and 12 missions")
    planets = data["planets"] + data["beyond_the_black"]["planets"]
    if len(planets) > TEG_PLANET_ROOM:
        raise RuntimeError("tiny_epic_galaxies.json: too many planets")
    spaces = {int(k): v for k, v in data["spaces_by_vp"].items()}
    for i, p in enumerate(planets):
        prm = p["params"]
        kind = PLANET_KINDS.index(p["action"])
        if p["id"] != i or spaces[p["vp"]] != p["spaces"]:
            raise RuntimeError(f"tiny_epic_galaxies.json: planet {i} is inconsistent")
        P_RES[i] = _res_code(p["resource"])
        P_TRACK[i] = _track_code(p["track"])
        P_N[i] = p["spaces"]
        P_VP[i] = p["vp"]
        P_KIND[i] = kind
        P_OWN_TURN[i] = p["own_turn_only"]
        P_ONCE[i] = p["once_per_turn"]
        a = b = e = 0
        if kind == PK_GAIN:
            a, b = prm["energy"], prm["culture"]
        elif kind == PK_ADVANCE_OWN:
            a, b = _track_code(prm["track"]), prm["steps"]
        elif kind in (PK_FOLLOW_BONUS, PK_STEAL, PK_PER_HOME_SHIP):
            a = _res_code(prm["resource"])
        elif kind == PK_PUSH_BACK:
            a, b, e = _track_code(prm["track"]), prm["steps"], prm["ships"]
        elif kind == PK_UPGRADE_DISCOUNT:
            a = prm["discount"]
        elif kind == PK_TRADE:
            a, b = prm["gain_energy"], prm["gain_culture"]
        elif kind == PK_CONVERT:
            a, b = _res_code(prm["from"]), _res_code(prm["to"])
        elif kind == PK_GAIN_ALL:
            a, b, e = _res_code(prm["resource"]), prm["self"], prm["others"]
        elif kind == PK_DISCARD_DICE:
            a, b, e = prm["gain_energy"], prm["gain_culture"], prm["dice"]
        elif kind == PK_USE_OTHER:
            a = _res_code(prm["pay"])
        elif kind == PK_FOLLOW_COST:
            a = prm["cost"]
        elif kind == PK_ALL_ADVANCE:
            a, b = prm["others"], prm["self"]
        P_A[i], P_B[i], P_E[i] = a, b, e
        P_C[i] = prm.get("pay_energy", 0)
        P_D[i] = prm.get("pay_culture", 0)
    N_PLANETS = len(planets)
    N_BASE_PLANETS = TEG_PLANETS
    for lv in data["empire"]:
        k = lv["level"]
        LEVEL_COST[k], LEVEL_DICE[k] = lv["cost"], lv["dice"]
        LEVEL_SHIPS[k], LEVEL_VP[k] = lv["ships"], lv["vp"]
    for k, v in data["row_size"].items():
        ROW_SIZE[int(k)] = v
    missions = data["missions"] + data["beyond_the_black"]["missions"]
    for i, m in enumerate(missions):
        if m["id"] != i or i >= TEG_MISSION_ROOM:
            raise RuntimeError(f"tiny_epic_galaxies.json: mission {i} is inconsistent")
        MISSION_VP[i], MISSION_TIED[i] = m["vp"], m["tied_vp"]
    N_ALL_MISSIONS = len(missions)
    return data


CATALOGUE = _load_catalogue()
PLANET_NAMES = tuple(p["name"] for p in CATALOGUE["planets"] + CATALOGUE["beyond_the_black"]["planets"])
MISSION_NAMES = tuple(m["name"] for m in CATALOGUE["missions"] + CATALOGUE["beyond_the_black"]["missions"])

# ---------------------------------------------------------------- small helpers

cdef inline TegState* _st(void* p) noexcept nogil:
    return <TegState*>p


cdef inline const TegState* _cst(const void* p) noexcept nogil:
    return <const TegState*>p


cdef inline int _min(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int _max(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline void _gain(TegGalaxy* g, int res, int amount) noexcept nogil:
    # Energy and culture are capped at 7 (Components and setup); the excess is lost.
    if res == RES_ENERGY:
        g.energy = <int8_t>_max(0, _min(CAP, g.energy + amount))
    else:
        g.culture = <int8_t>_max(0, _min(CAP, g.culture + amount))


cdef inline int _held(const TegGalaxy* g, int res) noexcept nogil:
    return g.energy if res == RES_ENERGY else g.culture


cdef inline int _n_seats(const TegState* s) noexcept nogil:
    return s.params.num_players


cdef inline bint _is_rogue(const TegState* s, int g) noexcept nogil:
    return s.solo and g == ROGUE


cdef inline TegTask* _top(TegState* s) noexcept nogil:
    return &s.stack[s.depth - 1]


cdef inline const TegTask* _ctop(const TegState* s) noexcept nogil:
    return &s.stack[s.depth - 1]


cdef TegTask* _push(TegState* s, int kind, int seat) noexcept nogil:
    # Usability checks keep nesting far below TEG_STACK (copying actions stop at COPY_DEPTH); the
    # clamp only guards memory.
    cdef TegTask* t
    if s.depth >= TEG_STACK:
        s.depth = TEG_STACK - 1
    t = &s.stack[s.depth]
    memset(t, 0, sizeof(TegTask))
    t.kind = <uint8_t>kind
    t.seat = <int8_t>seat
    s.depth += 1
    return t


cdef inline void _pop(TegState* s) noexcept nogil:
    # Popped tasks are zeroed so that equal states have equal bytes.
    if s.depth > 0:
        s.depth -= 1
        memset(&s.stack[s.depth], 0, sizeof(TegTask))


cdef inline int _pool_total(const TegState* s) noexcept nogil:
    return s.pool[0] + s.pool[1] + s.pool[2] + s.pool[3] + s.pool[4] + s.pool[5]


cdef inline int _slot_of(const TegState* s, int p) noexcept nogil:
    cdef int i
    for i in range(s.row_size):
        if s.row[i] == p:
            return i
    return -1


cdef inline bint _in_orbit(const TegGalaxy* g, int k) noexcept nogil:
    return g.ship_at[k] < TEG_PLANET_ROOM and g.ship_orbit[k]


cdef inline int _ships_home(const TegGalaxy* g) noexcept nogil:
    cdef int k, n = 0
    for k in range(TEG_SHIPS):
        n += g.ship_at[k] == TEG_HOME
    return n


cdef inline int _colonies(const TegState* s, int g) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        n += s.where[p] == W_COLONY + g
    return n


cdef int _draw_planet(TegState* s) noexcept nogil:
    # The deck is the set of planets still in it, drawn uniformly: a shuffled deck nobody can see.
    cdef int p, count = 0, pick
    for p in range(N_PLANETS):
        count += s.where[p] == W_DECK
    if count == 0:
        return TEG_NONE
    pick = <int>rng_below(&s.rng_deck, <unsigned int>count)
    for p in range(N_PLANETS):
        if s.where[p] == W_DECK:
            if pick == 0:
                s.where[p] = W_ROW
                return p
            pick -= 1
    return TEG_NONE


cdef void _refill_slot(TegState* s, int slot) noexcept nogil:
    s.row[slot] = <uint8_t>_draw_planet(s)


cdef void _send_all_home(TegState* s, int p) noexcept nogil:
    cdef int g, k
    for g in range(s.n_gal):
        for k in range(TEG_SHIPS):
            if s.gal[g].ship_at[k] == p:
                s.gal[g].ship_at[k] = TEG_HOME
                s.gal[g].ship_orbit[k] = 0
                s.gal[g].ship_space[k] = 0


cdef void _check_trigger(TegState* s, int g) noexcept nogil:
    # The first galaxy to reach 21 points ends the game at the end of the round (End of game); in solo
    # the Rogue also triggers at empire level 6 (Solo).
    if s.trigger >= 0:
        return
    if _points(s, g) >= POINTS_TO_END or (_is_rogue(s, g) and s.gal[g].empire >= MAX_LEVEL):
        s.trigger = <int8_t>g


cdef void _colonize(TegState* s, int g, int p) noexcept nogil:
    # Every ship on the card goes home, the colonizer keeps it, a new planet refills the row (Actions).
    cdef int slot = _slot_of(s, p)
    _send_all_home(s, p)
    s.where[p] = <uint8_t>(W_COLONY + g)
    if slot >= 0:
        _refill_slot(s, slot)
    _check_trigger(s, g)


cdef void _advance(TegState* s, int g, int k, int steps) noexcept nogil:
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int p = gal.ship_at[k], _
    if not _in_orbit(gal, k) or steps <= 0:
        return
    _pilot_on_advance(s, g, k, P_TRACK[p])
    for _ in range(steps):
        gal.ship_space[k] += 1
        if gal.ship_space[k] >= P_N[p] + 1:
            _pilot_on_colonize(s, g, k)
            _colonize(s, g, p)
            return


cdef inline void _push_back(TegState* s, int g, int k, int steps) noexcept nogil:
    # Regression never pushes a ship off its track (Actions).
    s.gal[g].ship_space[k] = <uint8_t>_max(0, s.gal[g].ship_space[k] - steps)


cdef void _upgrade(TegState* s, int g) noexcept nogil:
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int k
    if gal.empire >= MAX_LEVEL:
        return
    gal.empire += 1
    for k in range(TEG_SHIPS):
        if k < LEVEL_SHIPS[gal.empire] and gal.ship_at[k] == TEG_LOCKED:
            gal.ship_at[k] = TEG_HOME
    _check_trigger(s, g)


cdef inline bint _is_own_turn(const TegState* s, int g) noexcept nogil:
    return g == s.active and not _is_rogue(s, g)


cdef inline action_t _colony_action(int p) noexcept nogil:
    # Base planets keep ids 80..119; the expansion's 40..51 use 208..219 (80 + 40 would reach 128).
    return A_COLONY + p if p < TEG_PLANETS else A_COLONY2 + p - TEG_PLANETS


cdef inline int _colony_of(action_t a) noexcept nogil:
    return a - A_COLONY2 + TEG_PLANETS if a >= A_COLONY2 else a - A_COLONY


include "btb.pxi"
include "scoring.pxi"
include "heuristics.pxi"
include "planets.pxi"
include "dice.pxi"
include "rogue.pxi"
include "turn.pxi"
include "hidden.pxi"


# ---------------------------------------------------------------- dispatch by pending task

cdef int _options(const TegState* s, action_t* out) noexcept nogil:
    cdef const TegTask* t = _ctop(s)
    cdef int kind = t.kind
    if kind == K_MISSION:
        out[0] = A_KEEP
        out[1] = A_KEEP + 1
        return 2
    if kind == K_TURN:
        return _turn_options(s, t, out)
    if kind == K_REROLL:
        return _reroll_options(s, t, out)
    if kind == K_CONVERT:
        return _convert_options(s, t, out)
    if kind == K_FOLLOW:
        out[0] = A_DONE
        out[1] = A_FOLLOW
        return 2
    if kind == K_DIE:
        return _die_options(s, t, out)
    if kind == K_LAND:
        out[0] = A_DONE
        out[1] = A_USE
        return 2
    if kind == K_PLANET:
        return _planet_options(s, t, out)
    if kind == K_ROGUE_DIE:
        out[0] = A_DONE
        out[1] = A_FORCE
        return 2
    if kind == K_ROGUE_TAKE:
        out[0] = A_TAKE_E
        out[1] = A_TAKE_C
        return 2
    if kind == K_HIRE:
        return _hire_options(s, t, out)
    if kind == K_EXPLORE:
        return _explore_options(s, t, out)
    if kind == K_XCARD:
        return _ship_options(s, t.seat, TRACK_ANY, 0, TEG_NONE, out)
    return 0


cdef int _apply_step(TegState* s, action_t a) noexcept nogil:
    cdef TegTask* t = _top(s)
    cdef int kind = t.kind
    if kind == K_MISSION:
        s.gal[t.seat].mission = s.gal[t.seat].dealt[a - A_KEEP]
        _pop(s)
    elif kind == K_TURN:
        _apply_turn(s, t, a)
    elif kind == K_REROLL:
        _apply_reroll(s, t, a)
    elif kind == K_CONVERT:
        _apply_convert(s, t, a)
    elif kind == K_FOLLOW:
        _apply_follow(s, t, a)
    elif kind == K_DIE:
        _apply_die(s, t, a)
    elif kind == K_LAND:
        _apply_land(s, t, a)
    elif kind == K_PLANET:
        _apply_planet(s, t, a)
    elif kind == K_ROGUE_DIE:
        _apply_rogue_die(s, t, a)
    elif kind == K_ROGUE_TAKE:
        _apply_rogue_take(s, t, a)
    elif kind == K_HIRE:
        _apply_hire(s, t, a)
    elif kind == K_EXPLORE:
        _apply_explore(s, t, a)
    elif kind == K_XCARD:
        _pop(s)
        _advance(s, t.seat, a - A_SHIP, 1)
    else:
        return -1
    return 0


# ---------------------------------------------------------------- the GameOps interface

cdef int teg_init(void* p, const GameParams* params, uint64_t seed) noexcept nogil:
    cdef TegState* s = _st(p)
    cdef Rng rng
    cdef int n = params.num_players, g, k, i
    if n < 1 or n > TEG_GALAXIES or params.variant < 0 or params.variant >= N_VARIANTS:
        return -1
    if params.variant >= VARIANT_ROGUE_1 and n != 1:
        return -1       # the harder Rogue galaxies are solo opponents
    memset(s, 0, sizeof(TegState))
    s.params = params[0]
    s.solo = n == 1
    s.n_gal = 2 if n == 1 else n
    s.row_size = <uint8_t>ROW_SIZE[n]
    s.trigger = -1
    s.follow_cost = 1
    rng_seed2(&s.rng_dice, seed, 1)
    rng_seed2(&s.rng_deck, seed, 2)
    rng_seed2(&rng, seed, 3)
    _btb_setup_flags(s)
    for g in range(TEG_GALAXIES):
        s.gal[g].dealt[0] = TEG_NONE
        s.gal[g].dealt[1] = TEG_NONE
        s.gal[g].mission = TEG_NONE
        for k in range(TEG_SHIPS):
            s.gal[g].ship_at[k] = TEG_NONE
    for g in range(s.n_gal):
        s.gal[g].empire = 1
        s.gal[g].energy = 2
        s.gal[g].culture = 1
        for k in range(TEG_SHIPS):
            s.gal[g].ship_at[k] = TEG_HOME if k < LEVEL_SHIPS[1] else TEG_LOCKED
    if s.solo:
        _rogue_setup(s)
    for i in range(TEG_ROW):
        s.row[i] = TEG_NONE
    for i in range(s.row_size):
        _refill_slot(s, i)
    _deal_missions(s, &rng, -1)
    if s.btb.on:
        _btb_setup(s, seed)
    for g in range(n - 1, -1, -1):
        _push(s, K_MISSION, g)
    return 0


cdef int teg_current_player(const void* p) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef const TegTask* t
    if s.over or s.depth == 0:
        return TERMINAL_PLAYER
    t = _ctop(s)
    if t.kind == K_FOLLOW:
        return _follower(s, t)
    if t.kind == K_ROGUE_DIE or t.kind == K_ROGUE_TAKE:
        return 0
    return t.seat


cdef int teg_legal_actions(const void* p, action_t* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    if s.over or s.depth == 0:
        return 0
    return _options(s, out)


cdef int teg_apply(void* p, action_t action) noexcept nogil:
    cdef TegState* s = _st(p)
    if s.over or s.depth == 0 or action < 0 or action >= A_LIMIT:
        return -1
    if _apply_step(s, action) != 0:
        return -1
    _settle(s)
    return 0


cdef bint teg_is_terminal(const void* p) noexcept nogil:
    return _cst(p).over != 0


cdef GameOps TEG_OPS
TEG_OPS.name = "tiny_epic_galaxies"
TEG_OPS.state_size = sizeof(TegState)
TEG_OPS.max_legal_actions = MAX_ACTIONS
TEG_OPS.max_game_length = MAX_GAME_LENGTH
TEG_OPS.num_distinct_actions = A_LIMIT
TEG_OPS.init = teg_init
TEG_OPS.current_player = teg_current_player
TEG_OPS.legal_actions = teg_legal_actions
TEG_OPS.apply = teg_apply
TEG_OPS.is_terminal = teg_is_terminal
TEG_OPS.scores = teg_scores
TEG_OPS.ranks = teg_ranks
TEG_OPS.observe = teg_observe
TEG_OPS.determinize = teg_determinize
TEG_OPS.playout = NULL
TEG_OPS.evaluate = teg_evaluate
TEG_OPS.policy_action = teg_policy
TEG_OPS.returns = teg_returns
TEG_OPS.plan_names = TEG_PLAN_NAMES
TEG_OPS.plan_evaluate = teg_plan_evaluate

include "btb_json.pxi"
include "json_dump.pxi"
include "json_load.pxi"
include "json_checks.pxi"
include "describe.pxi"
include "render.pxi"
include "registry.pxi"
