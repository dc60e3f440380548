# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Galaxy of Trian: New Order, the beginner, ships and full (race evolution) variants, as a compiled core.

Rules: ../shared/rules/galaxy_of_trian.md; every decision this engine makes where the rulebook is
silent is recorded in docs/rules/trian.md with the section it rests on.

Layout of the state (core_ext/trian.pxd): placed tiles in a list, a 512-entry open-addressing table
from cell to placed tile or frontier cell, a frontier with the edge code every empty neighbour
requires (so legal placements are one mask compare per side and rotation), and a union-find over
tile parts (3 outer-space groups, the nebula part and the planetary-system part of every tile) that
counts open borders per area, so a closed area is a root whose count reaches 0.
"""
import json
from pathlib import Path

from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed, rng_seed2, rng_below, rng_next, rng_die
from orrery.core_ext.game cimport GameOps, GameParams, Game, State, Observation
from orrery.core_ext.trian cimport (
    TrianState, TrianPlayer, TrianPlaced, TR_TILES, TR_MAX_FACES, TR_STACK, TR_HASH, TR_FRONT,
    TR_NODES, TR_NEBULAS, TR_EVENTS, TR_COLORS, TR_UNKNOWN, TR_HIDDEN,
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
    # union-find node kinds per tile (node = placed index * 5 + kind)
    K_NEBULA = 3
    K_SYSTEM = 4
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
    # action ids (see docs/rules/trian.md, "Actions")
    A_END_PH1 = 0
    A_BUY_MINERAL = 1        # + color
    A_BUY_TOKEN = 5
    A_EXCHANGE = 6           # + pair * 4 + color taken (pair: two colors given, a <= b)
    A_GAIN = 46              # + nebula record * 4 + color
    A_DRAW = 240             # + stack
    A_DISCARD = 242
    A_PASS = 243
    A_EVENTS_FIRST = 244
    A_RESEARCH = 245
    A_EXPEDITION = 246
    A_CONSTRUCT = 248        # + placed index of the emissary
    A_TELEPORT = 332         # + source side (0..2) * 84 + target placed index
    A_TAKEBACK = 584         # + emissaries taken back (0..9)
    A_DECLARE = 600          # + plus * 4 + rerolls (plus + rerolls <= 3)
    A_REROLL = 616
    A_STAND = 617
    A_PLACE = 1024           # + frontier index * 6 + side * 3 + rotation
    # ships (variant "ships")
    A_SHIP_EXPED = 618       # + 0 Corvette, 1 Rogue
    A_SHIP_TARGET = 620      # + placed index of the enemy ship the attacker clashes with
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
cdef int PAIR_A[10]
cdef int PAIR_B[10]
for _i, (_a, _b) in enumerate(PAIRS):
    PAIR_A[_i] = _a
    PAIR_B[_i] = _b

# ---------------------------------------------------------------- the rules, one concern per file

include "trian_catalogue.pxi"
include "trian_races.pxi"
include "trian_board.pxi"
include "trian_bags.pxi"
include "trian_areas.pxi"
include "trian_ships.pxi"
include "trian_battles.pxi"
include "trian_events.pxi"
include "trian_turn.pxi"
include "trian_phase1.pxi"
include "trian_phase2.pxi"
include "trian_phase3.pxi"
include "trian_scoring.pxi"
include "trian_heuristics.pxi"
include "trian_hidden.pxi"


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
        return s.b_order[s.b_pos]
    if s.mode == M_SHIP_TARGET:
        return s.placed[s.sb_att].ship
    if s.mode == M_RACE:
        return s.race_seat
    return s.turn_player


cdef bint trian_is_terminal(const void* p) noexcept nogil:
    return _cst(p).mode == M_END


cdef int trian_legal_actions(const void* p, action_t* out) noexcept nogil:
    cdef const TrianState* s = _cst(p)
    cdef int n = 0, me, c, k, cost, i, a, b, fi, side, rot, o, f, d, src, j, disc
    cdef int caps[TR_NEBULAS]
    cdef const TrianPlayer* pl
    cdef uint16_t req
    if s.mode == M_END:
        return 0
    me = trian_current_player(p)
    pl = &s.players[me]
    if s.mode == M_PH1:
        out[n] = A_END_PH1
        n += 1
        disc = _discount(s, me)
        cost = PRICE_MINERAL - disc
        for c in range(TR_COLORS):
            if pl.credits >= cost and s.bag[c] > 0:
                out[n] = A_BUY_MINERAL + c
                n += 1
        if pl.credits >= PRICE_TOKEN - disc and _tokens_in_bag_count(s) > 0:
            out[n] = A_BUY_TOKEN
            n += 1
        for k in range(10):
            a = PAIR_A[k]
            b = PAIR_B[k]
            if pl.minerals[a] == 0 or pl.minerals[b] == 0 or (a == b and pl.minerals[a] < 2):
                continue
            for c in range(TR_COLORS):
                if c != a and c != b and s.bag[c] > 0:
                    out[n] = A_EXCHANGE + k * 4 + c
                    n += 1
        if s.n_nebulas > 0:
            _gain_caps(s, me, caps)
        for k in range(s.n_nebulas):
            if caps[k] <= 0:
                continue
            for c in range(TR_COLORS):
                if s.neb_minerals[k][c] > 0:
                    out[n] = A_GAIN + k * 4 + c
                    n += 1
        if s.params.variant >= V_SHIPS:
            for i in range(s.n_placed):
                if _rogue_may_mine(s, i, me):
                    k = _nebula_record(s, _cfind(s, i * 5 + K_NEBULA))
                    for c in range(TR_COLORS):
                        if s.neb_minerals[k][c] > 0:
                            out[n] = A_ROGUE + i * 4 + c
                            n += 1
        if s.params.variant >= V_FULL:
            n = _evolution_actions(s, me, out, n)
            n = _race_ph1_actions(s, me, out, n)
            _sort_tail(out, n)
        return n
    if s.mode == M_DRAW:
        for k in range(2):
            if s.stack_len[k] > 0:
                out[n] = A_DRAW + k
                n += 1
        return n
    if s.mode == M_PLACE:
        for fi in range(s.n_front):
            req = s.freq[fi]
            o = _orient(s.fx[fi], s.fy[fi])
            for side in range(2):
                f = TILE_FACE[s.drawn_tile][side] if s.drawn_tile != TR_UNKNOWN else 0
                for rot in range(3):
                    if _fits(req, OCODE[f][o][rot]):
                        out[n] = A_PLACE + fi * 6 + side * 3 + rot
                        n += 1
        if n == 0:
            out[0] = A_DISCARD
            n = 1
        return n
    if s.mode == M_PH3:
        if s.ev_pending and s.actions_taken == 0:
            out[n] = A_EVENTS_FIRST
            n += 1
        out[n] = A_PASS
        n += 1
        if s.actions_left == 0:
            return n
        out[n] = A_RESEARCH
        n += 1
        if s.actions_taken == 0 and _may_expedition(s, me):
            out[n] = A_EXPEDITION
            n += 1
        for i in range(s.n_placed):
            if s.placed[i].emissary == me and _may_construct(s, i, me):
                out[n] = A_CONSTRUCT + i
                n += 1
        if s.new_tile != TR_UNKNOWN and not s.teleport_used and \
                FACE_FEAT[s.placed[s.new_tile].face] == F_TELEPORT:
            for d in range(3):
                src = _nb_placed(s, s.new_tile, d)
                if src < 0 or s.placed[src].emissary < 0 or s.placed[src].station > 0:
                    continue
                if _blocked(s, src) or (_protected(s, src) and s.placed[src].emissary != me):
                    continue          # section XII: blocked, or protected by its owner's Corvette
                for j in range(s.n_placed):
                    if j != src and _may_receive_emissary(s, j, s.placed[src].emissary, src):
                        out[n] = A_TELEPORT + d * TR_TILES + j
                        n += 1
        if s.params.variant >= V_SHIPS:
            n = _ship_actions(s, me, out, n)
        if s.params.variant >= V_FULL:
            n = _race_ph3_actions(s, me, out, n)
        _sort_tail(out, n)
        return n
    if s.mode == M_RACE:
        n = _race_step_actions(s, out)
        _sort_tail(out, n)
        return n
    if s.mode == M_SHIP_TARGET:
        i = s.sb_att
        for d in range(3):
            j = _space_nb(s, i, d)
            if j >= 0 and s.placed[j].ship_kind != 0 and s.placed[j].ship != s.placed[i].ship:
                out[n] = A_SHIP_TARGET + j
                n += 1
        _sort_tail(out, n)
        return n
    if s.mode == M_TAKEBACK:
        k = _own_free_in_area(s, s.ev_root[s.ev_pos], me)
        for c in range(k + 1):
            out[n] = A_TAKEBACK + c
            n += 1
        return n
    if s.mode == M_DECLARE:
        for a in range(4):
            for b in range(4):
                if a + b <= 3 and a <= pl.tok_plus and b <= pl.tok_count - pl.tok_plus:
                    out[n] = A_DECLARE + a * 4 + b
                    n += 1
        if s.params.variant >= V_FULL:
            n = _race_declare_actions(s, me, out, n)     # e.g. Warcry, before the dice are rolled
        return n
    if s.mode == M_REROLL:
        out[0] = A_REROLL
        out[1] = A_STAND
        return 2
    return 0


cdef int trian_apply(void* p, action_t action) noexcept nogil:
    cdef TrianState* s = _st(p)
    cdef int me = trian_current_player(p), c, k, a, b, fi, side, rot, i, n_closed, j, d, src
    cdef int owner, root, mission = -1
    cdef int roots[TR_EVENTS]
    cdef int kinds[TR_EVENTS]
    cdef TrianPlayer* pl
    if s.mode == M_END or me < 0:
        return -1
    pl = &s.players[me]
    if s.mode == M_PH1:
        if action == A_END_PH1:
            s.mode = M_DRAW if (s.stack_len[0] or s.stack_len[1]) else M_PH3
            if s.mode == M_PH3:
                _enter_ph3(s)
            return 0
        if A_BUY_MINERAL <= action < A_BUY_MINERAL + 4:
            c = action - A_BUY_MINERAL
            pl.credits -= PRICE_MINERAL - _discount(s, me)
            s.bag[c] -= 1
            pl.minerals[c] += 1
            return 0
        if action == A_BUY_TOKEN:
            pl.credits -= PRICE_TOKEN - _discount(s, me)
            _draw_token(s, me)
            return 0
        if A_EXCHANGE <= action < A_EXCHANGE + 40:
            k = (action - A_EXCHANGE) // 4
            c = (action - A_EXCHANGE) % 4
            a = PAIR_A[k]
            b = PAIR_B[k]
            pl.minerals[a] -= 1
            pl.minerals[b] -= 1
            s.bag[a] += 1
            s.bag[b] += 1
            s.bag[c] -= 1
            pl.minerals[c] += 1
            return 0
        if A_GAIN <= action < A_GAIN + TR_NEBULAS * 4:
            k = (action - A_GAIN) // 4
            c = (action - A_GAIN) % 4
            s.neb_minerals[k][c] -= 1
            s.neb_gained[k] += 1
            pl.minerals[c] += 1
            _race_after_gain(s, me, k, c)
            return 0
        if A_ROGUE <= action < A_ROGUE + TR_TILES * 4:
            i = (action - A_ROGUE) // 4
            c = (action - A_ROGUE) % 4
            k = _nebula_record(s, _cfind(s, i * 5 + K_NEBULA))
            s.neb_minerals[k][c] -= 1
            s.placed[i].rogue_used = 1
            pl.minerals[c] += 1
            _race_after_gain(s, me, k, c)
            return 0
        if s.params.variant >= V_FULL and _evolution_apply(s, me, action) == 0:
            return 0
        return _race_apply(s, me, action)
    if s.mode == M_DRAW:
        k = action - A_DRAW
        if k < 0 or k > 1 or s.stack_len[k] == 0:
            return -1
        s.stack_len[k] -= 1
        i = s.stack_len[k]
        s.drawn_tile = s.stack_tile[k][i]
        s.drawn_up = s.stack_up[k][i]
        s.drawn_face = TILE_FACE[s.drawn_tile][s.drawn_up]
        s.drawn_stack = <uint8_t>k
        s.stack_tile[k][i] = 0
        s.stack_up[k][i] = 0
        _refresh_tops(s)
        s.mode = M_PLACE
        return 0
    if s.mode == M_PLACE:
        if action == A_DISCARD:
            if s.n_discarded < TR_TILES:
                s.discarded[s.n_discarded] = s.drawn_tile
                s.n_discarded += 1
            _clear_drawn(s)
            if s.stack_len[0] or s.stack_len[1]:
                s.mode = M_DRAW
            else:
                _enter_ph3(s)
            return 0
        a = action - A_PLACE
        fi = a // 6
        side = (a % 6) // 3
        rot = a % 3
        if a < 0 or fi >= s.n_front:
            return -1
        i = s.n_placed
        n_closed = _board_place(s, fi, TILE_FACE[s.drawn_tile][side], rot, roots, kinds)
        s.placed[i].tile = s.drawn_tile
        s.placed[i].side = <uint8_t>side
        s.placed[i].up_face = s.drawn_face
        s.placed[i].placer = <int8_t>me
        _clear_drawn(s)
        _after_place(s, i, n_closed, roots, kinds)
        return 0
    if s.mode == M_PH3:
        if action == A_EVENTS_FIRST:
            s.ev_return = 0
            _events_run(s)
            return 0
        if action == A_PASS:
            _finish_ph3(s)
            return 0
        if action >= A_RACE:
            return _race_apply(s, me, action)     # racial actions spend the phase 3 action themselves
        s.actions_left -= 1
        s.actions_taken += 1
        if action == A_RESEARCH:
            c = _draw_mineral(s)
            if c >= 0:
                pl.minerals[c] += 1
        elif action == A_EXPEDITION:
            i = s.new_tile
            owner = _closed_area_owner(s, i)
            s.placed[i].emissary = <int8_t>me
            pl.emissaries -= 1
            s.mission_tile = <uint8_t>i
            mission = i
            if FACE_FEAT[s.placed[i].face] == F_OUTPOST:
                s.actions_left += 2       # section IX: two extra actions this phase 3
            if owner == -1:
                _control_token(s, me)     # took control of an uncontrolled closed area (VI.3)
        elif A_CONSTRUCT <= action < A_CONSTRUCT + TR_TILES:
            _construct(s, me, action - A_CONSTRUCT, 1)
        elif A_TELEPORT <= action < A_TELEPORT + 3 * TR_TILES:
            d = (action - A_TELEPORT) // TR_TILES
            j = (action - A_TELEPORT) % TR_TILES
            src = _nb_placed(s, s.new_tile, d)
            k = _closed_area_owner(s, j)          # before the move: a move within one area takes nothing
            owner = s.placed[src].emissary
            s.placed[j].unit = s.placed[src].unit
            s.placed[src].emissary = -1
            s.placed[src].unit = 0
            s.placed[j].emissary = <int8_t>owner
            s.teleport_used = 1
            if owner == me:
                s.mission_tile = <uint8_t>j
                mission = j
            if FACE_FEAT[s.placed[j].face] == F_OUTPOST and owner == me and not _blocked(s, j):
                s.actions_left += 2       # a blocked emissary gives no outpost bonus (section XI)
            if k == -1:
                _control_token(s, owner)
        elif action == A_SHIP_EXPED or action == A_SHIP_EXPED + 1:
            if action == A_SHIP_EXPED:
                pl.corvettes -= 1
                _ship_arrive(s, s.new_tile, me, SHIP_CORVETTE)
            else:
                pl.rogues -= 1
                _ship_arrive(s, s.new_tile, me, SHIP_ROGUE)
            if s.params.variant >= V_FULL and _race_after_ship_move(s, s.new_tile, False):
                return 0             # a racial token destroyed the ship; phase 3 went on without it
        elif A_SHIP_MOVE <= action < A_SHIP_TELE + TR_TILES * TR_TILES:
            a = A_SHIP_MOVE if action < A_SHIP_TELE else A_SHIP_TELE
            src = (action - a) // TR_TILES
            j = (action - a) % TR_TILES
            if a == A_SHIP_TELE and _teleport_radius(s, src):
                s.teleport_used = 1
            owner = s.placed[src].ship
            k = s.placed[src].ship_kind
            s.placed[src].ship = -1
            s.placed[src].ship_kind = 0
            s.placed[src].ship_new = 0
            s.placed[src].rogue_used = 0
            _ship_arrive(s, j, owner, k)
            _check_unblock(s, src)
            if _race_after_ship_move(s, j, a == A_SHIP_TELE):
                return 0             # a racial skill decides first; it lands the ship afterwards
            _ship_landed(s, j)       # a battle, or the end of phase 3 after its last action
            return 0
        else:
            return -1
        if mission >= 0 and s.params.variant >= V_FULL:
            _race_after_mission(s, me, mission)
            if s.mode == M_RACE:
                return 0             # the racial sub-step ends phase 3 when this was its last action
        if s.actions_left == 0:
            _finish_ph3(s)
        return 0
    if s.mode == M_SHIP_TARGET:
        _ship_clash(s, action - A_SHIP_TARGET)
        return 0
    if s.mode == M_RACE:
        return _race_apply(s, me, action)
    if s.mode == M_TAKEBACK:
        k = action - A_TAKEBACK
        root = s.ev_root[s.ev_pos]
        _remove_from_area(s, root, me, k)
        if _own_free_in_area(s, root, me) > 0:
            _control_token(s, me)        # control kept: 1 combat token
        s.ev_pos += 1
        _events_run(s)
        return 0
    if s.mode == M_DECLARE:
        if action >= A_RACE:
            return _race_apply(s, me, action)
        a = (action - A_DECLARE) // 4
        b = (action - A_DECLARE) % 4
        pl.tok_count -= a + b
        pl.tok_plus -= a
        pl.decl_count += a + b
        pl.decl_plus += a
        s.b_pos += 1
        if s.b_pos >= s.b_n:
            _battle_roll(s)
        return 0
    if s.mode == M_REROLL:
        if action == A_REROLL:
            s.b_dice[me] = <uint8_t>rng_die(&s.rng_dice, 6)
            s.b_rerolls[me] -= 1
        else:
            s.b_rerolls[me] = 0
        _battle_next_reroller(s)
        return 0
    return -1


# ---------------------------------------------------------------- the ops table

cdef GameOps TRIAN_OPS
TRIAN_OPS.name = "trian"
TRIAN_OPS.state_size = sizeof(TrianState)
TRIAN_OPS.max_legal_actions = MAX_ACTIONS
TRIAN_OPS.max_game_length = MAX_GAME_LENGTH
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

include "trian_codec.pxi"
