# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Galaxy of Trian: New Order, the beginner, ships and full (race evolution) variants, as a compiled core.

Rules: ../shared/rules/galaxy_of_trian.md; every decision this engine makes where the rulebook is
silent is recorded in docs/rules/trian.md with the section it rests on.

Layout of the state (core_ext/trian/state.pxd): placed tiles in a list, a 512-entry open-addressing table
from cell to placed tile or frontier cell, a frontier with the edge code every empty neighbour
requires (so legal placements are one mask compare per side and rotation), and a union-find over
tile parts (3 outer-space groups, the nebula part and the planetary-system part of every tile) that
counts open borders per area, so a closed area is a root whose count reaches 0.
"""
import json
from pathlib import Path

from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed, rng_seed2, rng_below, rng_next, rng_die, rng_uniform
from orrery.core_ext.game cimport GameOps, GameParams, Game, Position, State, Observation, new_state
from orrery.core_ext.json_fields cimport show, fail, read_object, read_int, read_bool, read_name, read_list
from orrery.core_ext.trian.state cimport (
    TrianState, TrianPlayer, TrianPlaced, TR_TILES, TR_MAX_FACES, TR_STACK, TR_HASH, TR_FRONT,
    TR_NEBULAS, TR_EVENTS, TR_COLORS, TR_UNKNOWN, TR_HIDDEN, TR_TILE_NODES,
)

from orrery.core_ext._errors import StateFormatError
from orrery.core_ext._registry import GameInfo, register

# ---------------------------------------------------------------- constants

cdef enum:
    # edge types (catalogue letters S, P, N, G)
    E_SPACE = 0
    E_PATH = 1
    E_NEBULA = 2
    E_GAS = 3
    # face features
    F_NONE = 0
    F_PLANET = 1
    F_EXTRACTOR = 2
    F_OUTPOST = 3
    F_TELEPORT = 4
    F_EXMITTER = 5
    # sides of a cell: left, right, and the horizontal edge (base of an up triangle, top of a down one)
    D_LEFT = 0
    D_RIGHT = 1
    D_VERT = 2
    # union-find node parts per tile (node = _node(placed index, part)): 0..2 the outer-space groups,
    # the nebula, the planetary system (with the planet, if any) and a face's second, separate system
    K_NEBULA = 3
    K_SYSTEM = 4
    K_SYSTEM2 = 5
    # area kinds
    AREA_NEBULA = 1
    AREA_SYSTEM = 2
    AREA_SPACE = 3
    FRONT_BASE = 1000
    # modes
    M_PH1 = 1
    M_DRAW = 2
    M_PLACE = 3
    M_PH3 = 4
    M_TAKEBACK = 5
    M_DECLARE = 6
    M_REROLL = 7
    M_END = 8
    M_SHIP_TARGET = 9        # the attacking ship's owner picks the enemy ship to clash with
    M_RACE = 10              # a racial skill's sub-step waits for race_seat's decision (variant full)
    M_SEND_HOME = 11         # after an emissary clash: which emissary of a loser goes home (section VI.2.B)
    # action ids (docs/rules/trian.md, section 10; the blocks: ACTION_BLOCKS in describe.pxi)
    A_END_PH1 = 0
    A_BUY_MINERAL = 1        # + color
    A_BUY_TOKEN = 5
    A_EXCHANGE = 6           # + pair * 4 + color taken (pair: two colors given, a <= b)
    N_PAIRS = 10             # pairs of colours a <= b (PAIRS)
    A_GAIN = 46              # + nebula record * 4 + color
    A_DRAW = 240             # + stack
    A_DISCARD = 242
    A_PASS = 243
    A_EVENTS_FIRST = 244
    A_RESEARCH = 245
    A_EXPEDITION = 246
    A_CONSTRUCT = 248        # + placed index of the emissary
    A_TELEPORT = 332         # + source side (0..2) * 84 + target placed index
    A_TAKEBACK = 584         # keep the other emissaries in the closed area (end of the take-back)
    A_DECLARE = 600          # + plus * 4 + rerolls (plus + rerolls <= 3)
    A_REROLL = 616
    A_STAND = 617
    A_PLACE = 1024           # + frontier index * 6 + side * 3 + rotation
    # ships (variant "ships")
    A_SHIP_EXPED = 618       # + 0 Corvette, 1 Rogue
    A_SHIP_TARGET = 620      # + placed index of the enemy ship the attacker clashes with
    A_SEND_HOME = 704        # + placed index of the emissary sent home after an emissary clash
    A_TAKEBACK_TILE = 788    # + placed index of an emissary the closer takes back
    A_ROGUE = 10000          # + placed index of the Rogue * 4 + colour
    A_SHIP_MOVE = 20000      # + from placed index * 84 + to placed index
    A_SHIP_TELE = 30000      # + from placed index * 84 + to placed index
    SHIP_CORVETTE = 1
    SHIP_ROGUE = 2
    SHIP_PRIESTESS = 3       # the Supreme Priestess token in its ship form (variant full)
    SHIP_MOVES = 3           # tiles a ship moves at most (section V.3.5)
    AREA_UNBLOCKED = 4       # event kind: an emissary battle because a Corvette left (no closing)
    V_BEGINNER = 0
    V_SHIPS = 1
    V_FULL = 2
    MAX_ACTIONS = 8192
    MAX_GAME_LENGTH = 20000
    # bags
    MINERALS_PER_COLOR = 30
    TOKENS_PLUS = 11
    TOKENS_REROLL = 11
    PRICE_MINERAL = 6
    PRICE_TOKEN = 4
    # random streams (one per hidden source)
    STREAM_STACKS = 1
    STREAM_MINERALS = 2
    STREAM_TOKENS = 3
    STREAM_DICE = 4

SETUP_PIECES = {2: (9, 9, 4), 3: (8, 8, 3), 4: (7, 7, 2)}   # emissaries, research, space (section III)
SETUP_SHIPS = (3, 2)        # Corvettes, Rogues per race (variant ships)
VARIANT_IDS = {"beginner": V_BEGINNER, "ships": V_SHIPS, "full": V_FULL}
cdef int PIECES[5][3]
PIECES[2][0] = 9
PIECES[2][1] = 9
PIECES[2][2] = 4
PIECES[3][0] = 8
PIECES[3][1] = 8
PIECES[3][2] = 3
PIECES[4][0] = 7
PIECES[4][1] = 7
PIECES[4][2] = 2

COLOR_NAMES = ("red", "blue", "green", "yellow")
PAIRS = tuple((a, b) for a in range(4) for b in range(a, 4))
cdef int PAIR_A[N_PAIRS]
cdef int PAIR_B[N_PAIRS]
for _i, (_a, _b) in enumerate(PAIRS):
    PAIR_A[_i] = _a
    PAIR_B[_i] = _b

# what one legal-actions call looks up about the board for its ships (ships.pxi)
ctypedef struct ReachCache:
    # what one legal-actions call looks up about the board for its ships, once per call:
    # derived from the state and dropped after the call (the state itself stays plain data)
    int8_t field[TR_TILES]             # the tile is in an exmitter's radius (tiles or racial tokens): 1 / 0


# ---------------------------------------------------------------- the rules, one concern per file

include "catalogue.pxi"
include "races.pxi"
include "actions.pxi"
include "board.pxi"
include "pieces.pxi"
include "bags.pxi"
include "areas.pxi"
include "ships.pxi"
include "battles.pxi"
include "events.pxi"
include "turn.pxi"
include "phase1.pxi"
include "phase2.pxi"
include "phase3.pxi"
include "scoring.pxi"
include "heuristics.pxi"
include "hidden.pxi"


# ---------------------------------------------------------------- dispatch by mode

cdef inline TrianState* _st(void* p) noexcept nogil:
    return <TrianState*>p


cdef inline const TrianState* _cst(const void* p) noexcept nogil:
    return <const TrianState*>p


cdef int trian_current_player(const void* p) noexcept nogil:
    cdef const TrianState* s = _cst(p)
    if s.mode == M_END:
        return TERMINAL_PLAYER
    if s.mode == M_DECLARE or s.mode == M_REROLL:
        return s.battle_order[s.battle_turn]
    if s.mode == M_SHIP_TARGET:
        return s.placed[s.ship_battle_attacker].ship_owner
    if s.mode == M_RACE:
        return s.race_seat
    if s.mode == M_SEND_HOME:
        return _send_home_chooser(s)
    return s.turn_player


cdef bint trian_is_terminal(const void* p) noexcept nogil:
    return _cst(p).mode == M_END


cdef int trian_legal_actions(const void* p, action_t* out) noexcept nogil:
    # one legal-actions function per mode of the turn
    cdef const TrianState* s = _cst(p)
    cdef int mode = s.mode, n
    if mode == M_END:
        return 0
    if mode == M_PH1:
        return _legal_phase1(s, trian_current_player(p), out)
    if mode == M_DRAW:
        return _legal_draw(s, out)
    if mode == M_PLACE:
        return _legal_place(s, out)
    if mode == M_PH3:
        return _legal_phase3(s, trian_current_player(p), out)
    if mode == M_RACE:
        n = _race_step_actions(s, out)
        _sort_tail(out, n)
        return n
    if mode == M_SHIP_TARGET:
        return _legal_ship_target(s, out)
    if mode == M_TAKEBACK:
        return _legal_takeback(s, trian_current_player(p), out)
    if mode == M_DECLARE:
        return _legal_declare(s, trian_current_player(p), out)
    if mode == M_REROLL:
        return _legal_reroll(out)
    if mode == M_SEND_HOME:
        return _legal_send_home(s, out)
    return 0


cdef int trian_apply(void* p, action_t action) noexcept nogil:
    # one apply function per mode of the turn (only legal actions get here: Game.apply checks)
    cdef TrianState* s = _st(p)
    cdef int me = trian_current_player(p), mode = s.mode
    if mode == M_END or me < 0:
        return -1
    if mode == M_PH1:
        return _apply_phase1(s, me, action)
    if mode == M_DRAW:
        return _apply_draw(s, action)
    if mode == M_PLACE:
        return _apply_place(s, me, action)
    if mode == M_PH3:
        return _apply_phase3(s, me, action)
    if mode == M_SHIP_TARGET:
        return _apply_ship_target(s, action)
    if mode == M_RACE:
        return _race_apply(s, me, action)
    if mode == M_TAKEBACK:
        return _apply_takeback(s, me, action)
    if mode == M_DECLARE:
        return _apply_declare(s, me, action)
    if mode == M_REROLL:
        return _apply_reroll(s, me, action)
    if mode == M_SEND_HOME:
        return _apply_send_home(s, action)
    return -1


# ---------------------------------------------------------------- the ops table

cdef GameOps TRIAN_OPS
TRIAN_OPS.name = "trian"
TRIAN_OPS.state_size = sizeof(TrianState)
TRIAN_OPS.max_legal_actions = MAX_ACTIONS
TRIAN_OPS.max_game_length = MAX_GAME_LENGTH
TRIAN_OPS.num_distinct_actions = A_RACE + (R_XEMH + 1) * RACE_BLOCK  # the last race block
TRIAN_OPS.init = trian_init
TRIAN_OPS.current_player = trian_current_player
TRIAN_OPS.legal_actions = trian_legal_actions
TRIAN_OPS.apply = trian_apply
TRIAN_OPS.is_terminal = trian_is_terminal
TRIAN_OPS.scores = trian_scores
TRIAN_OPS.ranks = trian_ranks
TRIAN_OPS.observe = trian_observe
TRIAN_OPS.determinize = trian_determinize
TRIAN_OPS.playout = trian_playout
TRIAN_OPS.evaluate = trian_evaluate
TRIAN_OPS.policy_action = trian_policy
TRIAN_OPS.returns = NULL   # rank returns (credits, then the tie-break of section XII)


# ---------------------------------------------------------------- the Python side, one concern per file

include "json_dump.pxi"
include "json_load.pxi"
include "json_checks.pxi"
include "describe.pxi"
include "render.pxi"
include "registry.pxi"
