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

from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed, rng_seed2, rng_below, rng_next, rng_die
from orrery.core_ext.game cimport GameOps, GameParams, Game, State, Observation
from orrery.core_ext.trian cimport (
    TrianState, TrianPlayer, TrianPlaced, TR_TILES, TR_MAX_FACES, TR_STACK, TR_HASH, TR_FRONT,
    TR_NEBULAS, TR_EVENTS, TR_COLORS, TR_UNKNOWN, TR_HIDDEN,
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

# ---------------------------------------------------------------- catalogue

cdef int N_FACES = 0
cdef uint8_t TILE_FACE[TR_TILES][2]
cdef uint8_t FACE_EDGE[TR_MAX_FACES][3]
cdef uint8_t FACE_GROUP[TR_MAX_FACES][3]
cdef uint8_t FACE_FEAT[TR_MAX_FACES]
cdef uint8_t FACE_SPECIAL[TR_MAX_FACES]
cdef uint8_t FACE_HAS_NEB[TR_MAX_FACES]
cdef uint8_t FACE_HAS_SYS[TR_MAX_FACES]
cdef uint16_t OCODE[TR_MAX_FACES][2][3]   # [face][orientation: 0 up, 1 down][rotation]
cdef uint8_t SLOT_EDGE[2][3][3]           # [orientation][rotation][side] -> face edge index
cdef uint8_t CW[2][3]

CATALOGUE_PATH = Path(__file__).resolve().parent / "data" / "trian_tiles.json"
_EDGE_LETTERS = {"S": E_SPACE, "P": E_PATH, "N": E_NEBULA, "G": E_GAS}
_FEATURES = {"none": F_NONE, "planet": F_PLANET, "extractor": F_EXTRACTOR, "outpost": F_OUTPOST,
             "teleport": F_TELEPORT, "exmitter": F_EXMITTER}


def _load_catalogue():
    global N_FACES
    data = json.loads(CATALOGUE_PATH.read_text())
    faces = data["faces"]
    tiles = data["tiles"]
    if len(tiles) != TR_TILES or len(faces) > TR_MAX_FACES:
        raise RuntimeError(f"{CATALOGUE_PATH}: expected {TR_TILES} tiles and <= {TR_MAX_FACES} faces")
    N_FACES = len(faces)
    CW[0][0] = D_RIGHT  # up triangle, clockwise from the apex
    CW[0][1] = D_VERT
    CW[0][2] = D_LEFT
    CW[1][0] = D_VERT  # down triangle, clockwise from top-left
    CW[1][1] = D_RIGHT
    CW[1][2] = D_LEFT
    for o in range(2):
        for r in range(3):
            for i in range(3):
                SLOT_EDGE[o][r][CW[o][(i + r) % 3]] = i
    for f, face in enumerate(faces):
        for i, letter in enumerate(face["edges"]):
            FACE_EDGE[f][i] = _EDGE_LETTERS[letter]
            FACE_GROUP[f][i] = face["space_groups"][i]
        FACE_FEAT[f] = _FEATURES[face["feature"]]
        FACE_SPECIAL[f] = 1 if face["special"] else 0
        FACE_HAS_NEB[f] = 1 if "N" in face["edges"] else 0
        FACE_HAS_SYS[f] = 1 if "P" in face["edges"] else 0
        if FACE_FEAT[f] == F_EXTRACTOR and not FACE_HAS_NEB[f]:
            raise RuntimeError(f"face {face['name']}: an extractor must sit on a nebula part")
        if FACE_FEAT[f] == F_PLANET and not FACE_HAS_SYS[f]:
            raise RuntimeError(f"face {face['name']}: a planet needs a starlight path edge")
        for o in range(2):
            for r in range(3):
                code = 0
                for i in range(3):
                    code |= (FACE_EDGE[f][i] + 1) << (3 * CW[o][(i + r) % 3])
                OCODE[f][o][r] = code
    for t, (a, b) in enumerate(tiles):
        if FACE_SPECIAL[a] and FACE_SPECIAL[b]:
            raise RuntimeError(f"tile {t}: at most one special side")
        TILE_FACE[t][0] = a
        TILE_FACE[t][1] = b
    return data


CATALOGUE = _load_catalogue()
FACE_NAMES = tuple(f["name"] for f in CATALOGUE["faces"])

include "trian_races.pxi"

# ---------------------------------------------------------------- small helpers

cdef inline TrianState* _st(void* p) noexcept nogil:
    return <TrianState*>p


cdef inline const TrianState* _cst(const void* p) noexcept nogil:
    return <const TrianState*>p


cdef inline int _orient(int x, int y) noexcept nogil:
    return (x + y) & 1      # 0: up triangle, 1: down triangle


cdef inline void _neighbour(int x, int y, int d, int* nx, int* ny) noexcept nogil:
    if d == D_LEFT:
        nx[0] = x - 1
        ny[0] = y
    elif d == D_RIGHT:
        nx[0] = x + 1
        ny[0] = y
    else:
        nx[0] = x
        ny[0] = y + 1 if _orient(x, y) == 0 else y - 1


cdef inline int _opposite(int d) noexcept nogil:
    if d == D_LEFT:
        return D_RIGHT
    if d == D_RIGHT:
        return D_LEFT
    return D_VERT


cdef inline uint16_t _key(int x, int y) noexcept nogil:
    return <uint16_t>((((x + 128) & 0xFF) << 8) | ((y + 128) & 0xFF))


cdef inline int _hslot(const TrianState* s, uint16_t k) noexcept nogil:
    cdef int h = (<int>k * 40503) & (TR_HASH - 1)
    while s.hkey[h] != 0 and s.hkey[h] != k:
        h = (h + 1) & (TR_HASH - 1)
    return h


cdef inline int _lookup(const TrianState* s, int x, int y) noexcept nogil:
    # placed index, FRONT_BASE + frontier index, or -1
    cdef uint16_t k = _key(x, y)
    cdef int h = _hslot(s, k)
    if s.hkey[h] == 0:
        return -1
    return s.hval[h]


cdef inline void _hset(TrianState* s, int x, int y, int v) noexcept nogil:
    cdef uint16_t k = _key(x, y)
    cdef int h = _hslot(s, k)
    s.hkey[h] = k
    s.hval[h] = <int16_t>v


cdef inline int _placed_at(const TrianState* s, int x, int y) noexcept nogil:
    cdef int v = _lookup(s, x, y)
    return v if 0 <= v < TR_TILES else -1


cdef inline int _nb_placed(const TrianState* s, int i, int d) noexcept nogil:
    cdef int nx, ny
    _neighbour(s.placed[i].x, s.placed[i].y, d, &nx, &ny)
    return _placed_at(s, nx, ny)


cdef inline int _edge_at(const TrianState* s, int i, int d) noexcept nogil:
    # face edge index of placed tile i on side d
    return SLOT_EDGE[_orient(s.placed[i].x, s.placed[i].y)][s.placed[i].rot][d]


cdef int _find(TrianState* s, int a) noexcept nogil:
    cdef int r = a, nxt
    while s.uf_parent[r] != r:
        r = s.uf_parent[r]
    while s.uf_parent[a] != r:      # path compression
        nxt = s.uf_parent[a]
        s.uf_parent[a] = <int16_t>r
        a = nxt
    return r


cdef int _cfind(const TrianState* s, int a) noexcept nogil:
    while s.uf_parent[a] != a:
        a = s.uf_parent[a]
    return a


cdef void _union(TrianState* s, int a, int b) noexcept nogil:
    a = _find(s, a)
    b = _find(s, b)
    if a == b:
        return
    if a > b:           # the smaller node id is the root: deterministic layout
        a, b = b, a
    s.uf_parent[b] = <int16_t>a
    s.uf_open[a] += s.uf_open[b]
    s.uf_open[b] = 0


cdef inline int _area_node(const TrianState* s, int i) noexcept nogil:
    # the area an emissary on placed tile i belongs to: its nebula part or its planetary system
    cdef int f = s.placed[i].face
    if FACE_HAS_NEB[f]:
        return i * 5 + K_NEBULA
    if FACE_FEAT[f] == F_PLANET:
        return i * 5 + K_SYSTEM
    return -1


cdef inline bint _emissary_may_stand(int f) noexcept nogil:
    # section V.2 / IX: a planet, a nebula part without an extractor, or a trade outpost
    return FACE_FEAT[f] == F_PLANET or FACE_FEAT[f] == F_OUTPOST or \
        (FACE_HAS_NEB[f] and FACE_FEAT[f] != F_EXTRACTOR)


cdef bint _in_exmitter_field(const TrianState* s, int i) noexcept nogil:
    # the exmitter tile itself or an edge neighbour of one (section IX)
    cdef int d, j
    if FACE_FEAT[s.placed[i].face] == F_EXMITTER:
        return True
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j >= 0 and FACE_FEAT[s.placed[j].face] == F_EXMITTER:
            return True
    return s.params.variant >= V_FULL and _race_exmitter_field(s, i)


cdef inline int _mineral_total(const TrianPlayer* p) noexcept nogil:
    return p.minerals[0] + p.minerals[1] + p.minerals[2] + p.minerals[3]


cdef int _tokens_in_bag(const TrianState* s, int* plus) noexcept nogil:
    # requires the full state (token types known)
    cdef int p, held_plus = 0, held = 0
    for p in range(s.params.num_players):
        held += s.players[p].tok_count + s.players[p].decl_count
        held_plus += s.players[p].tok_plus + s.players[p].decl_plus
    plus[0] = TOKENS_PLUS - held_plus
    return TOKENS_PLUS + TOKENS_REROLL - held


cdef int _tokens_in_bag_count(const TrianState* s) noexcept nogil:
    cdef int p, held = 0
    for p in range(s.params.num_players):
        held += s.players[p].tok_count + s.players[p].decl_count
    return TOKENS_PLUS + TOKENS_REROLL - held


cdef void _draw_token(TrianState* s, int p) noexcept nogil:
    cdef int plus, n = _tokens_in_bag(s, &plus)
    if n <= 0:
        return
    s.players[p].tok_count += 1
    if <int>rng_below(&s.rng_tokens, <uint32_t>n) < plus:
        s.players[p].tok_plus += 1


cdef int _draw_mineral(TrianState* s) noexcept nogil:
    # a random mineral from the bag (its colour), or -1 when the bag is empty
    cdef int n = s.bag[0] + s.bag[1] + s.bag[2] + s.bag[3], r, c
    if n <= 0:
        return -1
    r = <int>rng_below(&s.rng_minerals, <uint32_t>n)
    for c in range(TR_COLORS):
        if r < s.bag[c]:
            s.bag[c] -= 1
            return c
        r -= s.bag[c]
    return -1


cdef int _nebula_record(const TrianState* s, int root) noexcept nogil:
    cdef int k
    for k in range(s.n_nebulas):
        if s.neb_root[k] == root:
            return k
    return -1


cdef inline int _settled_root(const TrianState* s, int i) noexcept nogil:
    # the union-find root of tile i's area when that area is closed and its events are resolved;
    # -1 when the tile has no area part (e.g. a trade outpost), the area is open, or events wait
    cdef int node = _area_node(s, i), root
    if node < 0:
        return -1
    root = _cfind(s, node)
    if s.uf_open[root] != 0 or _event_pending(s, root):
        return -1
    return root


cdef bint _event_pending(const TrianState* s, int root) noexcept nogil:
    # an area closed this turn whose events are not resolved yet
    cdef int k
    if not s.ev_pending:
        return False
    for k in range(s.ev_pos, s.ev_n):
        if s.ev_root[k] == root:
            return True
    return False


cdef inline int _controller(const TrianState* s, int root) noexcept nogil:
    # the only seat with units in a closed area; -1 none, -2 several (section VI.3)
    return _controller_except(s, root, -1)


cdef void _area_census(const TrianState* s, int root, int* tiles, int* extractors, int* units,
                       int* stations) noexcept nogil:
    # tiles, extractors, units per seat, and the highest station level in an area
    cdef int i, k, node, f, p
    tiles[0] = 0
    extractors[0] = 0
    stations[0] = 0
    for p in range(MAX_PLAYERS):
        units[p] = 0
    k = root % 5
    for i in range(s.n_placed):
        f = s.placed[i].face
        if k == K_NEBULA:
            if not FACE_HAS_NEB[f] or _cfind(s, i * 5 + K_NEBULA) != root:
                continue
        elif k == K_SYSTEM:
            if not FACE_HAS_SYS[f] or _cfind(s, i * 5 + K_SYSTEM) != root:
                continue
        else:
            if not _tile_in_space(s, i, root):
                continue
        tiles[0] += 1
        if FACE_FEAT[f] == F_EXTRACTOR:
            extractors[0] += 1
        node = _area_node(s, i)
        if s.placed[i].emissary >= 0 and node >= 0 and _cfind(s, node) == root:
            if s.placed[i].station > stations[0]:
                stations[0] = s.placed[i].station
            if not _blocked(s, i):
                units[s.placed[i].emissary] += 1
    if k == K_SYSTEM:
        # section XII: a planet holding a Corvette of a player with no (unblocked) emissary in the
        # system is blocked and not counted
        for i in range(s.n_placed):
            if s.placed[i].ship_kind == SHIP_CORVETTE and FACE_FEAT[s.placed[i].face] == F_PLANET and \
                    units[s.placed[i].ship] == 0 and _cfind(s, i * 5 + K_SYSTEM) == root:
                tiles[0] -= 1


cdef bint _tile_in_space(const TrianState* s, int i, int root) noexcept nogil:
    cdef int e, f = s.placed[i].face
    for e in range(3):
        if (FACE_EDGE[f][e] == E_SPACE or FACE_EDGE[f][e] == E_PATH) and \
                _cfind(s, i * 5 + FACE_GROUP[f][e]) == root:
            return True
    return False


# ---------------------------------------------------------------- ships (variant "ships")
#
# A ship stands on a tile (at most one ship per tile, section V.3.4), in its outer space. Two tiles
# are joined through outer space when their shared border is an outer-space or starlight-path edge;
# on a band face a ship passing through must leave by the outer-space region it came in by.

cdef inline bint _space_side(const TrianState* s, int i, int d) noexcept nogil:
    cdef int e = FACE_EDGE[s.placed[i].face][_edge_at(s, i, d)]
    return e == E_SPACE or e == E_PATH


cdef inline int _side_group(const TrianState* s, int i, int d) noexcept nogil:
    return FACE_GROUP[s.placed[i].face][_edge_at(s, i, d)]


cdef inline bint _has_space(int f) noexcept nogil:
    cdef int e
    for e in range(3):
        if FACE_EDGE[f][e] == E_SPACE or FACE_EDGE[f][e] == E_PATH:
            return True
    return False


cdef inline int _space_nb(const TrianState* s, int i, int d) noexcept nogil:
    # the tile across side d of tile i when outer space continues across that border, else -1
    if not _space_side(s, i, d):
        return -1
    return _nb_placed(s, i, d)


cdef inline bint _blocked(const TrianState* s, int i) noexcept nogil:
    # section XII: an enemy Corvette on the tile of an emissary on a planet or a trade outpost blocks
    # it; an emissary on a space station is never affected (section XI)
    cdef int e = s.placed[i].emissary, f = s.placed[i].face
    return e >= 0 and s.placed[i].ship_kind == SHIP_CORVETTE and s.placed[i].ship != e and \
        s.placed[i].station < 2 and (FACE_FEAT[f] == F_PLANET or FACE_FEAT[f] == F_OUTPOST)


cdef inline bint _protected(const TrianState* s, int i) noexcept nogil:
    # section XII: an own Corvette on the emissary's tile protects it from others' teleports
    return s.placed[i].emissary >= 0 and s.placed[i].ship_kind == SHIP_CORVETTE and \
        s.placed[i].ship == s.placed[i].emissary


cdef inline int _active_emissary(const TrianState* s, int i) noexcept nogil:
    # the owner of an emissary that counts (present and not blocked), or -1
    if s.placed[i].emissary < 0 or _blocked(s, i):
        return -1
    return s.placed[i].emissary


cdef inline bint _ship_may_stand(const TrianState* s, int j) noexcept nogil:
    # a free outer-space tile outside every exmitter's radius (sections V.3.2, V.3.4, V.3.5)
    return s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face) and not _in_exmitter_field(s, j)


cdef inline bint _ship_may_stand_for(const TrianState* s, int j, int owner) noexcept nogil:
    # _ship_may_stand for a ship of `owner`, whose race may ignore exmitters (Adaptation Abilities)
    return s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face) and \
        (not _in_exmitter_field(s, j) or _exmitter_immune(s, owner))


cdef bint _enemy_ship_adjacent(const TrianState* s, int i, int owner) noexcept nogil:
    cdef int d, j
    for d in range(3):
        j = _space_nb(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0 and s.placed[j].ship != owner:
            return True
    return False


cdef void _reach(const TrianState* s, int i, int g, int depth, int start, uint8_t* out) noexcept nogil:
    # mark in `out` every tile a ship may end on from tile i (entered by outer-space group g, -1 at
    # the start) within `depth` more steps: through outer space only, never into an exmitter's
    # radius, passing other ships but not ending on them nor where it started (section V.3.5)
    cdef int d, j
    if depth == 0:
        return
    for d in range(3):
        j = _space_nb(s, i, d)
        if j < 0 or (g >= 0 and _side_group(s, i, d) != g) or \
                (_in_exmitter_field(s, j) and not _exmitter_immune(s, s.placed[start].ship)):
            continue
        if j != start and s.placed[j].ship_kind == 0:
            out[j] = 1
        _reach(s, j, _side_group(s, j, _opposite(d)), depth - 1, start, out)


cdef bint _ship_expedition_ok(const TrianState* s) noexcept nogil:
    # section V.3.2: onto the outer space of the tile added this turn, no ship on any adjacent tile
    cdef int i = s.new_tile, d, j
    if i == TR_UNKNOWN or not _ship_may_stand_for(s, i, s.turn_player):
        return False
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0:
            return False
    return True


cdef inline bint _teleport_radius(const TrianState* s, int i) noexcept nogil:
    # tile i is next to the teleport added this turn, and that teleport is still unused
    cdef int d
    if s.new_tile == TR_UNKNOWN or s.teleport_used or FACE_FEAT[s.placed[s.new_tile].face] != F_TELEPORT:
        return False
    for d in range(3):
        if _nb_placed(s, s.new_tile, d) == i:
            return True
    return False


cdef inline bint _ship_may_teleport_from(const TrianState* s, int i, int me) noexcept nogil:
    # any ship in the radius of the teleport added this turn (section V.3.4), or one's own ship that
    # ended a move on a teleport on an earlier turn ("on your next turn", section V.3.5)
    if s.placed[i].ship_kind == 0:
        return False
    if _ship_immobile(s, i):
        return False
    if _teleport_radius(s, i):
        return True
    return s.placed[i].ship == me and not s.placed[i].ship_new and FACE_FEAT[s.placed[i].face] == F_TELEPORT


cdef bint _rogue_may_mine(const TrianState* s, int i, int me) noexcept nogil:
    # section V.1.2.B: 1 mineral per turn from the closed nebula whose part shares the Rogue's tile,
    # never across a gas cloud (ruling: not on a face with a gas edge)
    cdef int f = s.placed[i].face, e
    if s.placed[i].ship_kind != SHIP_ROGUE or s.placed[i].ship != me or s.placed[i].rogue_used:
        return False
    if not FACE_HAS_NEB[f]:
        return False
    for e in range(3):
        if FACE_EDGE[f][e] == E_GAS:
            return False
    return _nebula_record(s, _cfind(s, i * 5 + K_NEBULA)) >= 0


# ---------------------------------------------------------------- the board

cdef int _front_add(TrianState* s, int x, int y) noexcept nogil:
    cdef int v = _lookup(s, x, y)
    if v >= FRONT_BASE:
        return v - FRONT_BASE
    if v >= 0:
        return -1
    cdef int fi = s.n_front
    s.fx[fi] = <int16_t>x
    s.fy[fi] = <int16_t>y
    s.freq[fi] = 0
    s.n_front += 1
    _hset(s, x, y, FRONT_BASE + fi)
    return fi


cdef void _front_remove(TrianState* s, int fi) noexcept nogil:
    cdef int last = s.n_front - 1
    if fi != last:
        s.fx[fi] = s.fx[last]
        s.fy[fi] = s.fy[last]
        s.freq[fi] = s.freq[last]
        _hset(s, s.fx[fi], s.fy[fi], FRONT_BASE + fi)
    s.fx[last] = 0
    s.fy[last] = 0
    s.freq[last] = 0
    s.n_front -= 1


cdef inline bint _fits(uint16_t req, uint16_t code) noexcept nogil:
    cdef uint16_t mask = 0
    if req & 7:
        mask |= 7
    if req & 0o70:
        mask |= 0o70
    if req & 0o700:
        mask |= 0o700
    return ((req ^ code) & mask) == 0


cdef int _board_place(TrianState* s, int fi, int face, int rot, int* closed_roots,
                      int* closed_kinds) noexcept nogil:
    # Put a face on frontier cell fi; join the areas; return the number of areas this tile closed.
    cdef int x = s.fx[fi], y = s.fy[fi], o = _orient(x, y)
    cdef int i = s.n_placed, d, e, t, g, nx, ny, j, ej, gj, node, r, k, n_closed = 0
    cdef int nodes[5]
    cdef int n_nodes = 0
    _front_remove(s, fi)
    s.n_placed += 1
    s.placed[i].x = <int16_t>x
    s.placed[i].y = <int16_t>y
    s.placed[i].face = <uint8_t>face
    s.placed[i].rot = <uint8_t>rot
    s.placed[i].emissary = -1
    s.placed[i].ship = -1
    _hset(s, x, y, i)
    for k in range(5):
        s.uf_parent[i * 5 + k] = <int16_t>(i * 5 + k)
        s.uf_open[i * 5 + k] = 0
    for d in range(3):
        e = SLOT_EDGE[o][rot][d]
        t = FACE_EDGE[face][e]
        g = FACE_GROUP[face][e]
        _neighbour(x, y, d, &nx, &ny)
        j = _placed_at(s, nx, ny)
        if j >= 0:
            ej = _edge_at(s, j, _opposite(d))
            gj = FACE_GROUP[s.placed[j].face][ej]
            if t == E_SPACE or t == E_PATH:
                s.uf_open[_find(s, j * 5 + gj)] -= 1
                _union(s, i * 5 + g, j * 5 + gj)
            if t == E_PATH:
                s.uf_open[_find(s, j * 5 + K_SYSTEM)] -= 1
                _union(s, i * 5 + K_SYSTEM, j * 5 + K_SYSTEM)
            if t == E_NEBULA:
                s.uf_open[_find(s, j * 5 + K_NEBULA)] -= 1
                _union(s, i * 5 + K_NEBULA, j * 5 + K_NEBULA)
        else:
            if t == E_SPACE or t == E_PATH:
                s.uf_open[_find(s, i * 5 + g)] += 1
            if t == E_PATH:
                s.uf_open[_find(s, i * 5 + K_SYSTEM)] += 1
            if t == E_NEBULA:
                s.uf_open[_find(s, i * 5 + K_NEBULA)] += 1
            k = _front_add(s, nx, ny)
            if k >= 0:
                s.freq[k] |= <uint16_t>((t + 1) << (3 * _opposite(d)))
    # areas this tile belongs to, nebula first, then system, then outer space parts
    if FACE_HAS_NEB[face]:
        nodes[n_nodes] = i * 5 + K_NEBULA
        n_nodes += 1
    if FACE_HAS_SYS[face]:
        nodes[n_nodes] = i * 5 + K_SYSTEM
        n_nodes += 1
    for e in range(3):
        t = FACE_EDGE[face][e]
        if t == E_SPACE or t == E_PATH:
            node = i * 5 + FACE_GROUP[face][e]
            for k in range(n_nodes):
                if nodes[k] == node:
                    break
            else:
                nodes[n_nodes] = node
                n_nodes += 1
    for k in range(n_nodes):
        r = _find(s, nodes[k])
        if s.uf_open[r] != 0:
            continue
        for j in range(n_closed):
            if closed_roots[j] == r:
                break
        else:
            closed_roots[n_closed] = r
            node = nodes[k] % 5
            closed_kinds[n_closed] = AREA_NEBULA if node == K_NEBULA else (
                AREA_SYSTEM if node == K_SYSTEM else AREA_SPACE)
            n_closed += 1
    return n_closed


cdef void _board_reset(TrianState* s) noexcept nogil:
    s.n_placed = 0
    s.n_front = 0
    memset(s.hkey, 0, sizeof(s.hkey))
    memset(s.hval, 0, sizeof(s.hval))
    _front_add(s, 0, 0)     # the first tile goes anywhere: call that place the origin


# ---------------------------------------------------------------- setup and turn flow

cdef void _refresh_tops(TrianState* s) noexcept nogil:
    cdef int k, n
    for k in range(2):
        n = s.stack_len[k]
        if n > 0:
            s.stack_top_face[k] = TILE_FACE[s.stack_tile[k][n - 1]][s.stack_up[k][n - 1]]
        else:
            s.stack_top_face[k] = TR_UNKNOWN


cdef int trian_init(void* p, const GameParams* params, uint64_t seed) noexcept nogil:
    cdef TrianState* s = _st(p)
    cdef Rng rng
    cdef int n = params.num_players, i, j, t, k, best, ties, roll
    cdef uint8_t order[TR_TILES]
    cdef int rolls[MAX_PLAYERS]
    if n < 2 or n > MAX_PLAYERS or params.variant < V_BEGINNER or params.variant > V_FULL:
        return -1
    memset(s, 0, sizeof(TrianState))
    s.params = params[0]
    rng_seed2(&s.rng_minerals, seed, STREAM_MINERALS)
    rng_seed2(&s.rng_tokens, seed, STREAM_TOKENS)
    rng_seed2(&s.rng_dice, seed, STREAM_DICE)
    # section III: two even stacks, shuffled, no special side face up
    rng_seed2(&rng, seed, STREAM_STACKS)
    for i in range(TR_TILES):
        order[i] = <uint8_t>i
    for i in range(TR_TILES - 1, 0, -1):
        j = <int>rng_below(&rng, <uint32_t>(i + 1))
        t = order[i]
        order[i] = order[j]
        order[j] = <uint8_t>t
    for i in range(TR_TILES):
        k = i % 2
        t = order[i]
        s.stack_tile[k][i // 2] = <uint8_t>t
        if FACE_SPECIAL[TILE_FACE[t][0]]:
            s.stack_up[k][i // 2] = 1
        elif FACE_SPECIAL[TILE_FACE[t][1]]:
            s.stack_up[k][i // 2] = 0
        else:
            s.stack_up[k][i // 2] = <uint8_t>rng_below(&rng, 2)
    s.stack_len[0] = TR_STACK
    s.stack_len[1] = TR_STACK
    _refresh_tops(s)
    s.drawn_tile = TR_UNKNOWN
    s.drawn_up = TR_UNKNOWN
    s.drawn_face = TR_UNKNOWN
    s.drawn_stack = TR_UNKNOWN
    _board_reset(s)
    for k in range(TR_COLORS):
        s.bag[k] = MINERALS_PER_COLOR
    for i in range(n):
        s.players[i].credits = 10
        s.players[i].emissaries = <uint8_t>PIECES[n][0]
        s.players[i].research = <uint8_t>PIECES[n][1]
        s.players[i].space = <uint8_t>PIECES[n][2]
        if params.variant >= V_SHIPS:
            s.players[i].corvettes = 3
            s.players[i].rogues = 2
    for i in range(n):        # 1 combat token each, from the token stream in seat order
        _draw_token(s, i)
    _races_setup(s, seed)
    for i in range(MAX_PLAYERS):
        s.b_order[i] = -1
    # section V: the highest attack die starts; ties roll again
    while True:
        best = 0
        ties = 0
        for i in range(n):
            roll = rng_die(&s.rng_dice, 6)
            rolls[i] = roll
            if roll > best:
                best = roll
        for i in range(n):
            if rolls[i] == best:
                ties += 1
                k = i
        if ties == 1:
            break
    s.first_player = <int8_t>k
    s.turn_player = <int8_t>k
    s.turn = 1
    _start_turn(s)
    return 0


cdef void _start_turn(TrianState* s) noexcept nogil:
    cdef int k
    s.mode = M_PH1
    s.new_tile = TR_UNKNOWN
    s.actions_left = 0
    s.actions_taken = 0
    s.teleport_used = 0
    s.evolved = 0
    s.race_used = 0
    s.mission_tile = TR_UNKNOWN
    s.ev_pending = 0
    s.ev_n = 0
    s.ev_pos = 0
    for k in range(TR_EVENTS):
        s.ev_root[k] = 0
        s.ev_kind[k] = 0
    for k in range(TR_NEBULAS):
        s.neb_gained[k] = 0
    for k in range(s.n_placed):
        s.placed[k].ship_new = 0
        s.placed[k].rogue_used = 0
    if s.params.variant >= V_FULL:
        _race_turn_start(s)          # e.g. the upkeep of Adaptation Abilities (a racial sub-step)


cdef void _end_turn(TrianState* s) noexcept nogil:
    if s.stack_len[0] == 0 and s.stack_len[1] == 0:
        s.mode = M_END          # section VII: the turn in which the last tile was placed is over
        if s.params.variant >= V_SHIPS:
            _plunder(s)
        return
    s.turn_player = <int8_t>((s.turn_player + 1) % s.params.num_players)
    s.turn += 1
    _start_turn(s)


cdef void _enter_ph3(TrianState* s) noexcept nogil:
    s.mode = M_PH3
    s.actions_left = 1
    s.actions_taken = 0


cdef void _finish_ph3(TrianState* s) noexcept nogil:
    if s.ev_pending:
        s.ev_return = 1
        _events_run(s)
    else:
        _end_turn(s)


cdef void _plunder(TrianState* s) noexcept nogil:
    # section VII / X / XII: at the end, in turn order from the first player, each player's Corvettes
    # in a closed planetary system controlled by another player with a station there take
    # tiles x 1 (research station) or x 2 (space station) x Corvettes credits from that controller,
    # never more than the controller has
    cdef int n = s.params.num_players, k, p, i, j, root, victim, tiles, ext, st, corv, amount, seen
    cdef int units[MAX_PLAYERS]
    for k in range(n):
        p = (s.first_player + k) % n
        for i in range(s.n_placed):
            if not FACE_HAS_SYS[s.placed[i].face]:
                continue
            root = _cfind(s, i * 5 + K_SYSTEM)
            if s.uf_open[root] != 0:
                continue
            seen = 0             # the system is handled at its first tile only
            for j in range(i):
                if FACE_HAS_SYS[s.placed[j].face] and _cfind(s, j * 5 + K_SYSTEM) == root:
                    seen = 1
                    break
            if seen:
                continue
            victim = _controller(s, root)
            if victim < 0 or victim == p:
                continue
            tiles = 0
            corv = 0
            for j in range(s.n_placed):
                if FACE_HAS_SYS[s.placed[j].face] and _cfind(s, j * 5 + K_SYSTEM) == root:
                    tiles += 1
                    if s.placed[j].ship_kind == SHIP_CORVETTE and s.placed[j].ship == p:
                        corv += 1
            if corv == 0:
                continue
            _area_census(s, root, &ext, &ext, units, &st)
            if st == 0:
                continue
            amount = tiles * st * corv
            if amount > s.players[victim].credits:
                amount = s.players[victim].credits
            s.players[victim].credits -= amount
            s.players[p].credits += amount


cdef void _ship_home(TrianState* s, int i) noexcept nogil:
    # the ship on tile i goes back to its owner's supply; an emissary it blocked may now fight
    # (a racial ship token, e.g. the Supreme Priestess, is in its owner's supply when off the board)
    cdef int p = s.placed[i].ship
    if s.placed[i].ship_kind == 0:
        return
    if s.placed[i].ship_kind == SHIP_CORVETTE:
        s.players[p].corvettes += 1
    elif s.placed[i].ship_kind == SHIP_ROGUE:
        s.players[p].rogues += 1
    _race_ship_gone(s, i)
    s.placed[i].ship = -1
    s.placed[i].ship_kind = 0
    s.placed[i].ship_new = 0
    s.placed[i].rogue_used = 0
    _check_unblock(s, i)


cdef void _check_unblock(TrianState* s, int i) noexcept nogil:
    # issue 3 / section XI: an emissary that becomes unblocked in a closed, resolved area held by
    # another player starts an emissary battle there (queued with the turn's events)
    cdef int root, k
    if s.placed[i].emissary < 0:
        return
    root = _settled_root(s, i)
    if root < 0 or _controller(s, root) != -2:
        return
    if s.ev_n >= TR_EVENTS:
        return
    if not s.ev_pending:
        s.ev_n = 0
        s.ev_pos = 0
    k = s.ev_n
    s.ev_root[k] = <int16_t>root
    s.ev_kind[k] = AREA_UNBLOCKED
    s.ev_n += 1
    s.ev_pending = 1


cdef void _ship_arrive(TrianState* s, int i, int owner, int kind) noexcept nogil:
    s.placed[i].ship = <int8_t>owner
    s.placed[i].ship_kind = <uint8_t>kind
    s.placed[i].ship_new = 1
    s.placed[i].rogue_used = 0


cdef void _ship_battle_next(TrianState* s) noexcept nogil:
    # section VI.2.A: the clash continues while the attacking ship stands next to an enemy ship;
    # afterwards the phase 3 goes on (or ends when that was its last action)
    cdef int a = s.sb_att
    if s.sb_on and s.placed[a].ship_kind != 0 and _enemy_ship_adjacent(s, a, s.placed[a].ship):
        s.mode = M_SHIP_TARGET
        s.sb_def = 0                # no clash until the attacker picks its next target
        return
    s.sb_on = 0
    s.sb_att = 0
    s.sb_def = 0
    s.mode = M_PH3
    if s.actions_left == 0:
        _finish_ph3(s)


cdef void _ship_clash_result(TrianState* s, int winner_tile, int loser_tile) noexcept nogil:
    # the loser's ship goes home and the winner takes 2 random minerals (section VI.2.A)
    cdef int p = s.placed[winner_tile].ship, _k, c
    _ship_home(s, loser_tile)
    for _k in range(2):
        c = _draw_mineral(s)
        if c >= 0:
            s.players[p].minerals[c] += 1


cdef void _ship_clash(TrianState* s, int target) noexcept nogil:
    # the attacker picked `target`: a Corvette beats a Rogue without a roll, otherwise dice and tokens
    cdef int a = s.sb_att, k, w
    s.sb_def = <uint8_t>target
    if _race_before_clash(s, a, target):
        return                      # a racial skill decides first (e.g. Divine help)
    w = _clash_auto(s, a, target)
    if w >= 0:
        _ship_clash_result(s, w, target if w == a else a)
        _ship_battle_next(s)
        return
    for k in range(MAX_PLAYERS):
        s.b_order[k] = -1
        s.b_bonus[k] = 0
        s.b_dice[k] = 0
        s.b_rerolls[k] = 0
    s.b_order[0] = s.placed[a].ship
    s.b_order[1] = s.placed[target].ship
    s.b_n = 2
    s.b_pos = 0
    s.b_stage = 1
    s.mode = M_DECLARE


cdef int _clash_auto(const TrianState* s, int a, int t) noexcept nogil:
    # the tile of the ship that wins a clash without a roll, or -1 when the clash is rolled:
    # a Corvette beats a Rogue (section VI.2.A), the Supreme Priestess loses to any ship (VIII)
    cdef int ka = s.placed[a].ship_kind, kt = s.placed[t].ship_kind
    if ka == kt:
        return -1
    if ka == SHIP_PRIESTESS:
        return t
    if kt == SHIP_PRIESTESS:
        return a
    if ka == SHIP_CORVETTE and kt == SHIP_ROGUE:
        return -1 if _rogue_fights(s, t) else a
    if ka == SHIP_ROGUE and kt == SHIP_CORVETTE:
        return -1 if _rogue_fights(s, a) else t
    return -1


cdef void _ship_clash_end(TrianState* s) noexcept nogil:
    cdef int a = s.sb_att, d = s.sb_def, pa = s.placed[a].ship, pd = s.placed[d].ship, k, p, tie
    cdef int ta = s.b_dice[pa] + s.players[pa].decl_plus + _die_bonus(s, pa, a)
    cdef int td = s.b_dice[pd] + s.players[pd].decl_plus + _die_bonus(s, pd, d)
    for k in range(s.b_n):
        p = s.b_order[k]
        s.players[p].decl_count = 0             # declared tokens go back to the bag
        s.players[p].decl_plus = 0
        s.b_dice[p] = 0
        s.b_rerolls[p] = 0
    for k in range(MAX_PLAYERS):
        s.b_order[k] = -1
    s.b_n = 0
    s.b_pos = 0
    s.b_stage = 0
    s.b_warcry = 0
    if ta == td:
        tie = _wins_ties(s, pa, pd)       # a racial skill may win ties (Regeneration)
        if tie == pa:
            ta += 1
        elif tie == pd:
            td += 1
    if ta > td:
        _ship_clash_result(s, a, d)
    elif td > ta:
        _ship_clash_result(s, d, a)
    else:
        _ship_home(s, a)                        # a tie removes both ships, no minerals
        _ship_home(s, d)
    _ship_battle_next(s)


cdef void _ship_landed(TrianState* s, int i) noexcept nogil:
    # a ship moved or teleported onto tile i: a battle when an enemy ship is adjacent (section VI.2.A);
    # the ship's owner is the attacker
    if _enemy_ship_adjacent(s, i, s.placed[i].ship):
        s.sb_on = 1
        s.sb_att = <uint8_t>i
        s.sb_def = 0
        s.mode = M_SHIP_TARGET
    elif s.actions_left == 0:
        _finish_ph3(s)


cdef void _return_emissary(TrianState* s, int i) noexcept nogil:
    # a racial token acting as an emissary (unit != 0) goes back to the race's supply, i.e. off the board
    cdef int p = s.placed[i].emissary
    if p >= 0:
        if s.placed[i].unit == 0:
            s.players[p].emissaries += 1
        s.placed[i].emissary = -1
        s.placed[i].unit = 0


cdef void _after_place(TrianState* s, int i, int n_closed, int* roots, int* kinds) noexcept nogil:
    cdef int d, j, k
    s.new_tile = <uint8_t>i
    s.ev_n = <uint8_t>n_closed
    s.ev_pos = 0
    for k in range(n_closed):
        s.ev_root[k] = <int16_t>roots[k]
        s.ev_kind[k] = <uint8_t>kinds[k]
    for k in range(n_closed, TR_EVENTS):
        # entries past the queue are 0, so equal positions have equal bytes (JSON round trip); an
        # unblocking queued earlier this turn (ORVIN's upkeep) was already dropped by ev_n above
        s.ev_root[k] = 0
        s.ev_kind[k] = 0
    s.ev_pending = 1 if n_closed > 0 else 0
    if FACE_FEAT[s.placed[i].face] == F_EXMITTER:
        # section IX: units in the radius go back to their owners; stations stay; ships too (XII)
        for d in range(3):
            j = _nb_placed(s, i, d)
            if j >= 0 and s.placed[j].station == 0 and not _exmitter_immune(s, s.placed[j].emissary):
                _return_emissary(s, j)
            if j >= 0:
                if not _exmitter_immune(s, s.placed[j].ship):
                    _ship_home(s, j)
                _race_exmitter_hits(s, j)
    _enter_ph3(s)


# ---------------------------------------------------------------- events (sections VI and X)

cdef void _events_run(TrianState* s) noexcept nogil:
    # Resolve queued areas in order until one needs a decision, or all are done.
    cdef int root, kind, tiles, ext, st, p, n_part, total, value, c, m, k, only, _st
    cdef int units[MAX_PLAYERS]
    while s.ev_pos < s.ev_n:
        root = s.ev_root[s.ev_pos]
        kind = s.ev_kind[s.ev_pos]
        _area_census(s, root, &tiles, &ext, units, &st)
        if kind == AREA_SPACE:
            s.players[s.turn_player].credits += tiles * 3     # section VI.1.B: only the closer
            s.ev_pos += 1
            continue
        if kind == AREA_UNBLOCKED:
            # no closing: a battle for control only, when several players still have emissaries
            n_part = 0
            for p in range(s.params.num_players):
                if units[p] > 0:
                    n_part += 1
            if n_part < 2:
                s.ev_pos += 1
                continue
            s.ev_credits = 0
            _battle_start(s, units)
            return
        total = 0
        n_part = 0
        only = -1
        for p in range(s.params.num_players):
            total += units[p]
            if units[p] > 0:
                n_part += 1
                only = p
        if kind == AREA_NEBULA:
            value = (tiles + total) * (ext + 1)
            m = tiles + total + ext       # section X: minerals appear on closing
            k = s.n_nebulas
            if k < TR_NEBULAS:
                s.n_nebulas += 1
                s.neb_root[k] = <int16_t>root
                for _st in range(m):
                    c = _draw_mineral(s)
                    if c >= 0:
                        s.neb_minerals[k][c] += 1
        else:
            value = (tiles + total) * 2
        s.ev_credits = <int16_t>value
        if n_part == 0:
            s.players[s.turn_player].credits += value
            _closing_bonus(s, kind, tiles, -1)
            s.ev_pos += 1
            continue
        if n_part == 1:
            s.players[only].credits += value
            _closing_bonus(s, kind, tiles, only)
            if only == s.turn_player:
                s.mode = M_TAKEBACK
                return
            _control_token(s, only)       # taking control (section VI.3)
            s.ev_pos += 1
            continue
        _battle_start(s, units)
        return
    # all resolved
    s.ev_pending = 0
    s.ev_n = 0
    s.ev_pos = 0
    for k in range(TR_EVENTS):
        s.ev_root[k] = 0
        s.ev_kind[k] = 0
    s.ev_credits = 0
    if s.ev_return:
        s.ev_return = 0
        _end_turn(s)
    else:
        s.mode = M_PH3


cdef int _own_free_in_area(const TrianState* s, int root, int p) noexcept nogil:
    cdef int i, node, n = 0
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and s.placed[i].station == 0 and not _blocked(s, i):
            node = _area_node(s, i)
            if node >= 0 and _cfind(s, node) == root:
                n += 1
    return n


cdef void _remove_from_area(TrianState* s, int root, int p, int count) noexcept nogil:
    # return `count` of p's emissaries (not on stations) from an area, latest tiles first
    cdef int i, node
    i = s.n_placed - 1
    while i >= 0 and count > 0:
        if s.placed[i].emissary == p and s.placed[i].station == 0 and not _blocked(s, i):
            node = _area_node(s, i)
            if node >= 0 and _cfind(s, node) == root:
                _return_emissary(s, i)
                count -= 1
        i -= 1


cdef void _battle_start(TrianState* s, int* units) noexcept nogil:
    # section VI.2.B: bonus = emissaries at the start; the closer attacks if involved, else the
    # next seat clockwise with an emissary there; defenders follow clockwise
    cdef int n = s.params.num_players, k, p
    s.b_n = 0
    for k in range(MAX_PLAYERS):
        s.b_order[k] = -1
        s.b_bonus[k] = 0
        s.b_dice[k] = 0
        s.b_rerolls[k] = 0
    for k in range(n):
        p = (s.turn_player + k) % n
        if units[p] > 0:
            s.b_order[s.b_n] = <int8_t>p
            s.b_bonus[p] = <uint8_t>units[p]
            s.b_n += 1
    s.b_pos = 0
    s.b_stage = 1
    s.mode = M_DECLARE


cdef void _battle_roll(TrianState* s) noexcept nogil:
    cdef int k, p
    for k in range(s.b_n):
        p = s.b_order[k]
        s.b_dice[p] = <uint8_t>rng_die(&s.rng_dice, 6)
        s.b_rerolls[p] = <uint8_t>(s.players[p].decl_count - s.players[p].decl_plus)
    s.b_stage = 2
    s.b_pos = 0
    _battle_next_reroller(s)


cdef void _battle_next_reroller(TrianState* s) noexcept nogil:
    while s.b_pos < s.b_n and s.b_rerolls[s.b_order[s.b_pos]] == 0:
        s.b_pos += 1
    if s.b_pos < s.b_n:
        s.mode = M_REROLL
    else:
        _battle_clash_end(s)


cdef void _battle_clash_end(TrianState* s) noexcept nogil:
    cdef int root = s.ev_root[s.ev_pos], k, p, best = -1, n_best = 0, winner = -1, total, n_left
    if s.sb_on:
        _ship_clash_end(s)
        return
    cdef int totals[MAX_PLAYERS]
    for k in range(s.b_n):
        p = s.b_order[k]
        total = s.b_dice[p] + s.b_bonus[p] + s.players[p].decl_plus + _die_bonus(s, p, -1)  # +1 tokens help
        totals[k] = total
        if total > best:
            best = total
            n_best = 1
            winner = p
        elif total == best:
            n_best += 1
    if n_best > 1:
        for k in range(s.b_n):           # a racial skill may win ties at the top (Regeneration)
            p = s.b_order[k]
            if totals[k] == best and _wins_ties(s, p, -1) == p:
                winner = p
                n_best = 1
                break
    for k in range(s.b_n):
        p = s.b_order[k]
        if n_best > 1 or p != winner:
            _remove_from_area(s, root, p, 1)    # a tie at the top: every clashing seat loses one
        s.players[p].decl_count = 0             # declared tokens go back to the bag
        s.players[p].decl_plus = 0
        s.b_dice[p] = 0
        s.b_rerolls[p] = 0
    s.b_warcry = 0
    # who is still in the battle
    n_left = 0
    for k in range(s.b_n):
        p = s.b_order[k]
        if _own_free_in_area(s, root, p) > 0:
            s.b_order[n_left] = <int8_t>p
            n_left += 1
        else:
            s.b_bonus[p] = 0
    for k in range(n_left, MAX_PLAYERS):
        s.b_order[k] = -1
    s.b_n = <uint8_t>n_left
    s.b_pos = 0
    if n_left >= 2:
        s.b_stage = 1
        s.mode = M_DECLARE
        return
    s.b_stage = 0
    for k in range(MAX_PLAYERS):
        s.b_bonus[k] = 0
        s.b_order[k] = -1
    s.b_n = 0
    if n_left == 1:
        winner = _sole_left(s, root)
        s.players[winner].credits += s.ev_credits
        _battle_closing_bonus(s, root, winner)
        if winner == s.turn_player and s.ev_kind[s.ev_pos] != AREA_UNBLOCKED:
            s.mode = M_TAKEBACK
            return
        _control_token(s, winner)
    else:
        s.players[s.turn_player].credits += s.ev_credits   # a tie: the closer is paid, no token
        _battle_closing_bonus(s, root, -1)
    s.ev_pos += 1
    _events_run(s)


cdef void _battle_closing_bonus(TrianState* s, int root, int controller) noexcept nogil:
    cdef int tiles, ext, st
    cdef int units[MAX_PLAYERS]
    cdef int kind = s.ev_kind[s.ev_pos]
    if s.params.variant < V_FULL or kind == AREA_UNBLOCKED:
        return
    _area_census(s, root, &tiles, &ext, units, &st)
    _closing_bonus(s, kind, tiles, controller)


cdef int _sole_left(const TrianState* s, int root) noexcept nogil:
    cdef int i, node
    for i in range(s.n_placed):
        if _active_emissary(s, i) >= 0:
            node = _area_node(s, i)
            if node >= 0 and _cfind(s, node) == root:
                return s.placed[i].emissary
    return s.turn_player


# ---------------------------------------------------------------- legality helpers

cdef inline int _discount(const TrianState* s, int p) noexcept nogil:
    # section V.1.A: an own (unblocked) emissary on a trade outpost lowers prices by 1
    cdef int i
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and FACE_FEAT[s.placed[i].face] == F_OUTPOST and not _blocked(s, i):
            return 1
    return 0


cdef void _gain_caps(const TrianState* s, int p, int* caps) noexcept nogil:
    # section V.1.2.A, for every closed-nebula record at once (one pass over the tiles): minerals p
    # may still take this turn: 1 with a research station or an extractor, 2 with a space station,
    # none with emissaries alone or without control
    cdef int owner[TR_NEBULAS]
    cdef int8_t level[TR_NEBULAS]
    cdef int8_t ext[TR_NEBULAS]
    cdef int i, k, f, root, e, cap
    for k in range(s.n_nebulas):
        owner[k] = -1
        level[k] = 0
        ext[k] = 0
    for i in range(s.n_placed):
        f = s.placed[i].face
        if not FACE_HAS_NEB[f]:
            continue
        e = _active_emissary(s, i)
        if e < 0 and FACE_FEAT[f] != F_EXTRACTOR:
            continue
        root = _cfind(s, i * 5 + K_NEBULA)
        k = _nebula_record(s, root)
        if k < 0:
            continue
        if FACE_FEAT[f] == F_EXTRACTOR:
            ext[k] = 1
        if e >= 0:
            if owner[k] == -1:
                owner[k] = e
            elif owner[k] != e:
                owner[k] = -2
            if s.placed[i].station > level[k]:
                level[k] = <int8_t>s.placed[i].station
    for k in range(s.n_nebulas):
        cap = 0
        if owner[k] == p:
            cap = 2 if level[k] == 2 else (1 if (level[k] == 1 or ext[k]) else 0)
        caps[k] = cap - s.neb_gained[k] if cap > s.neb_gained[k] else 0


cdef bint _may_receive_emissary(const TrianState* s, int j, int owner, int from_tile) noexcept nogil:
    # teleport target rules (section V.3.4) shared with the expedition's closed-area rule
    cdef int f = s.placed[j].face, root, ctrl
    if s.placed[j].emissary >= 0 or not _emissary_may_stand(f) or \
            (_in_exmitter_field(s, j) and not _exmitter_immune(s, owner)):
        return False
    root = _settled_root(s, j)
    if root < 0:
        return True              # a trade outpost, or an area still open
    ctrl = _controller_except(s, root, from_tile)
    return ctrl == -1 or ctrl == owner


cdef int _controller_except(const TrianState* s, int root, int skip) noexcept nogil:
    # the controller as if the emissary on placed tile `skip` were gone (skip = -1: none skipped)
    cdef int i, owner = -1, node, e
    for i in range(s.n_placed):
        e = _active_emissary(s, i)
        if i == skip or e < 0:
            continue
        node = _area_node(s, i)
        if node < 0 or _cfind(s, node) != root:
            continue
        if owner == -1:
            owner = e
        elif owner != e:
            return -2
    return owner


cdef bint _may_construct(const TrianState* s, int i, int p) noexcept nogil:
    cdef int node, root, tiles, ext, st
    cdef int units[MAX_PLAYERS]
    if s.placed[i].emissary != p or s.placed[i].station >= 2 or _blocked(s, i):
        return False
    if s.placed[i].station == 0 and s.players[p].research == 0:
        return False
    if s.placed[i].station == 1 and s.players[p].space == 0:
        return False
    root = _settled_root(s, i)
    if root < 0 or _controller(s, root) != p:
        return False
    node = _area_node(s, i)
    if node % 5 == K_SYSTEM and s.placed[i].station == 0:
        _area_census(s, root, &tiles, &ext, units, &st)
        if st > 0:
            return False          # one station per planetary system (section V.3.3)
    return True


# ---------------------------------------------------------------- legal actions

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


cdef int _ship_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # phase 3 ship actions: expedition, moving one's ship, teleporting a ship
    cdef uint8_t reach[TR_TILES]
    cdef int i, j
    if s.actions_taken == 0 and _ship_expedition_ok(s):
        if s.players[me].corvettes > 0:
            out[n] = A_SHIP_EXPED
            n += 1
        if s.players[me].rogues > 0:
            out[n] = A_SHIP_EXPED + 1
            n += 1
    for i in range(s.n_placed):
        if s.placed[i].ship_kind == 0 or _ship_immobile(s, i):
            continue
        if s.placed[i].ship == me:
            memset(reach, 0, TR_TILES)
            _race_reach(s, i, reach)
            for j in range(s.n_placed):
                if reach[j]:
                    out[n] = A_SHIP_MOVE + i * TR_TILES + j
                    n += 1
        if _ship_may_teleport_from(s, i, me):
            for j in range(s.n_placed):
                if j != i and _ship_may_stand_for(s, j, s.placed[i].ship):
                    out[n] = A_SHIP_TELE + i * TR_TILES + j
                    n += 1
    return n


cdef void _sort_tail(action_t* out, int n) noexcept nogil:
    # insertion sort (phase 3 lists are short and nearly sorted)
    cdef int i, j
    cdef action_t v
    for i in range(1, n):
        v = out[i]
        j = i - 1
        while j >= 0 and out[j] > v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v


cdef bint _may_expedition(const TrianState* s, int me) noexcept nogil:
    # section V.3.2: one emissary onto the tile added this turn
    cdef int i = s.new_tile, root, ctrl
    if i == TR_UNKNOWN or s.players[me].emissaries == 0:
        return False
    if s.placed[i].emissary >= 0 or not _emissary_may_stand(s.placed[i].face):
        return False
    if _in_exmitter_field(s, i) and not _exmitter_immune(s, me):
        return False
    root = _settled_root(s, i)
    if root < 0:
        return True
    ctrl = _controller(s, root)
    return ctrl == -1 or ctrl == me


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


# ---------------------------------------------------------------- apply

cdef int _closed_area_owner(const TrianState* s, int j) noexcept nogil:
    # the controller (-1 none, -2 several) of the closed, resolved area of tile j; -3 if there is none
    cdef int root = _settled_root(s, j)
    return -3 if root < 0 else _controller(s, root)


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


cdef void _construct(TrianState* s, int me, int i, int levels) noexcept nogil:
    # section V.3.3: build `levels` station levels (1; 2 at once with Living structures) on me's emissary
    # on tile i: pay each level's credits, add each level's minerals in a nebula, and send blocked
    # enemy emissaries of the area home (section XI)
    cdef TrianPlayer* pl = &s.players[me]
    cdef int node = _area_node(s, i), root, tiles, ext, st, m = 0, k, c, lv, _lv, _q
    cdef int units[MAX_PLAYERS]
    root = _cfind(s, node)
    _area_census(s, root, &tiles, &ext, units, &st)
    for k in range(s.params.num_players):
        m += units[k]
    for _lv in range(levels):
        if s.placed[i].station == 0:
            pl.research -= 1
        else:
            pl.space -= 1
        s.placed[i].station += 1
    for k in range(s.n_placed):
        if _blocked(s, k) and s.placed[k].station == 0 and s.placed[k].emissary != me and \
                _area_node(s, k) >= 0 and _cfind(s, _area_node(s, k)) == root:
            _return_emissary(s, k)
    for _lv in range(levels):
        pl.credits += _construct_credits(s, i, node % 5 == K_SYSTEM, tiles + m)
    if node % 5 != K_SYSTEM:
        k = _nebula_record(s, root)
        for lv in range(levels):
            for _q in range(2 if s.placed[i].station - levels + 1 + lv == 1 else 4):
                c = _draw_mineral(s)
                if c >= 0 and k >= 0:
                    s.neb_minerals[k][c] += 1


cdef void _clear_drawn(TrianState* s) noexcept nogil:
    s.drawn_tile = TR_UNKNOWN
    s.drawn_up = TR_UNKNOWN
    s.drawn_face = TR_UNKNOWN
    s.drawn_stack = TR_UNKNOWN


# ---------------------------------------------------------------- scores, ranks, evaluation

cdef void trian_scores(const void* p, double* out) noexcept nogil:
    # credits, with minerals at 3 each (section VII.1); the same formula before the end
    cdef const TrianState* s = _cst(p)
    cdef int i
    for i in range(s.params.num_players):
        out[i] = s.players[i].credits + 3.0 * _mineral_total(&s.players[i])


cdef inline int _pieces_left(const TrianPlayer* pl) noexcept nogil:
    return pl.emissaries + pl.research + pl.space


cdef void trian_ranks(const void* p, int* out) noexcept nogil:
    # most credits first; a tie goes to fewer pieces left on the race board; then shared (VII.3)
    cdef const TrianState* s = _cst(p)
    cdef double sc[MAX_PLAYERS]
    cdef int n = s.params.num_players, i, j
    trian_scores(p, sc)
    for i in range(n):
        out[i] = 0
        for j in range(n):
            if sc[j] > sc[i] or (sc[j] == sc[i] and
                                 _pieces_left(&s.players[j]) < _pieces_left(&s.players[i])):
                out[i] += 1


cdef void trian_evaluate(const void* p, double* out) noexcept nogil:
    # credits + 3 per mineral + 2 per combat token + 2 per emissary on the board + 4 per station level,
    # squashed against the opponents' mean into [0, 1]
    cdef const TrianState* s = _cst(p)
    cdef int n = s.params.num_players, i, k
    cdef double v[MAX_PLAYERS]
    cdef double mean, diff
    cdef uint32_t sk
    for i in range(n):
        v[i] = s.players[i].credits + 3.0 * _mineral_total(&s.players[i]) + 2.0 * s.players[i].tok_count
        sk = s.players[i].skills          # variant full: a module is worth its price + 1 (racial + 3)
        for k in range(3):
            if (sk >> (2 + k)) & 1:
                v[i] += PRICE_RACIAL + 3
            if (sk >> (U_BIT + k)) & 1:
                v[i] += PRICE_UNIVERSAL + 1
    for k in range(s.n_placed):
        if s.placed[k].emissary >= 0:
            v[s.placed[k].emissary] += 2.0 + 4.0 * s.placed[k].station
    for i in range(n):
        mean = 0.0
        for k in range(n):
            if k != i:
                mean += v[k]
        mean /= (n - 1)
        diff = v[i] - mean
        out[i] = 0.5 + 0.5 * diff / (abs(diff) + 20.0)


cdef action_t trian_policy(const void* p, Rng* rng, action_t* scratch) noexcept nogil:
    # a cheap default policy: take minerals, skip buying, prefer construction, then expedition,
    # then research; keep one emissary in closed areas; declare what it has and reroll low dice
    cdef const TrianState* s = _cst(p)
    cdef int n = trian_legal_actions(p, scratch), k
    cdef action_t a
    if s.mode == M_PH1:
        for k in range(n):
            if A_GAIN <= scratch[k] < A_GAIN + TR_NEBULAS * 4:
                return scratch[k]
        if s.params.variant >= V_FULL and s.players[s.turn_player].credits >= 20:
            for k in range(n):            # variant full: a racial skill while 10 credits are left
                a = scratch[k]
                if A_UNLOCK <= a < A_UNLOCK + 6 and (a - A_UNLOCK) % 2 == 1:
                    return a
        return A_END_PH1
    if s.mode == M_PH3:
        for k in range(n):
            a = scratch[k]
            if A_CONSTRUCT <= a < A_CONSTRUCT + TR_TILES:
                return a
        for k in range(n):
            if scratch[k] == A_EXPEDITION:
                return A_EXPEDITION
        for k in range(n):
            if scratch[k] == A_RESEARCH:
                return A_RESEARCH
        return A_PASS
    if s.mode == M_TAKEBACK:
        return scratch[n - 2] if n >= 2 else scratch[0]      # take back all but one
    if s.mode == M_DECLARE:
        return scratch[n - 1]
    if s.mode == M_REROLL:
        return A_REROLL if s.b_dice[trian_current_player(p)] <= 3 else A_STAND
    return scratch[rng_below(rng, <uint32_t>n)]


cdef int trian_playout(void* p, Rng* rng, int max_moves) noexcept nogil:
    # Uniform random play, except that phase 1 ends with probability 1/2 at each step: uniform
    # choice among dozens of trades would spend every credit each turn and triple the game length.
    # A placement is drawn by rejection sampling over (cell, side, rotation), which is uniform over
    # the legal placements without listing them; after 64 misses the list is built as usual.
    cdef action_t buf[MAX_ACTIONS]
    cdef TrianState* s = _st(p)
    cdef int moves = 0, n, _tries, fi, side, rot, f
    cdef uint32_t r
    cdef action_t a
    while moves < max_moves and s.mode != M_END:
        a = -1
        if s.mode == M_PH1 and rng_below(rng, 2) == 0:
            a = A_END_PH1
        elif s.mode == M_PLACE and s.n_front > 0:
            for _tries in range(64):
                r = rng_below(rng, <uint32_t>(s.n_front * 6))
                fi = <int>(r // 6)
                side = <int>((r % 6) // 3)
                rot = <int>(r % 3)
                f = TILE_FACE[s.drawn_tile][side]
                if _fits(s.freq[fi], OCODE[f][_orient(s.fx[fi], s.fy[fi])][rot]):
                    a = A_PLACE + <int>r
                    break
        if a < 0:
            n = trian_legal_actions(p, buf)
            if n <= 0:
                return -1
            a = buf[rng_below(rng, <uint32_t>n)]
        if trian_apply(p, a) != 0:
            return -1
        moves += 1
    return moves


# ---------------------------------------------------------------- observation and determinization

cdef void trian_observe(const void* p, int player, void* outp) noexcept nogil:
    cdef TrianState* o = _st(outp)
    cdef int k, i
    memcpy(outp, p, sizeof(TrianState))
    for k in range(2):
        for i in range(o.stack_len[k]):
            o.stack_tile[k][i] = TR_UNKNOWN
            o.stack_up[k][i] = TR_UNKNOWN
    if o.drawn_tile != TR_UNKNOWN and o.turn_player != player:
        o.drawn_tile = TR_UNKNOWN
        o.drawn_up = TR_UNKNOWN
    for i in range(o.n_placed):
        if o.placed[i].placer != player:
            o.placed[i].tile = TR_UNKNOWN
            o.placed[i].side = TR_UNKNOWN
    for k in range(o.params.num_players):
        if k != player:
            o.players[k].tok_plus = TR_HIDDEN
            if o.mode == M_DECLARE:
                o.players[k].decl_plus = TR_HIDDEN
    memset(&o.rng_minerals, 0, sizeof(Rng))
    memset(&o.rng_tokens, 0, sizeof(Rng))
    memset(&o.rng_dice, 0, sizeof(Rng))


cdef bint _tile_fits(int t, int f1, int f2) noexcept nogil:
    # f1: a face the tile is known to show; f2: a second face seen on it (or f1 / -1 if none)
    cdef int a = TILE_FACE[t][0], b = TILE_FACE[t][1]
    if f2 < 0 or f2 == f1:
        return a == f1 or b == f1
    return (a == f1 and b == f2) or (a == f2 and b == f1)


cdef bint _augment(int slot, const int* f1, const int* f2, const uint8_t* pool, int* tile_slot,
                   int* slot_tile, uint8_t* seen, int start) noexcept nogil:
    cdef int k, t
    for k in range(TR_TILES):
        t = (start + k) % TR_TILES
        if not pool[t] or seen[t] or not _tile_fits(t, f1[slot], f2[slot]):
            continue
        seen[t] = 1
        if tile_slot[t] < 0 or _augment(tile_slot[t], f1, f2, pool, tile_slot, slot_tile, seen,
                                        (start * 7 + 13) % TR_TILES):
            tile_slot[t] = slot
            slot_tile[slot] = t
            return True
    return False


cdef inline int _side_with(int t, int f, Rng* rng) noexcept nogil:
    if TILE_FACE[t][0] == f and TILE_FACE[t][1] == f:
        return <int>rng_below(rng, 2)
    return 0 if TILE_FACE[t][0] == f else 1


cdef void trian_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    # Fill every TR_UNKNOWN / TR_HIDDEN field with a value consistent with what the observer saw:
    # tiles by a randomized bipartite matching of constrained slots (placed tiles with their shown
    # and stack faces, stack tops, a tile in another seat's hand) to the unseen catalogue, then the
    # rest shuffled into the stacks; token types by drawing without replacement; fresh streams.
    cdef TrianState* s = _st(p)
    cdef uint8_t pool[TR_TILES]
    cdef uint8_t seen[TR_TILES]
    cdef int tile_slot[TR_TILES]
    cdef int slot_tile[TR_TILES + 4]
    cdef int f1[TR_TILES + 4]
    cdef int f2[TR_TILES + 4]
    cdef int ref[TR_TILES + 4]      # >= 0 placed index; -1 / -2 stack top 0 / 1; -3 hand
    cdef int order[TR_TILES + 4]
    cdef uint8_t rest[TR_TILES]
    cdef int m = 0, i, k, t, j, n_rest, pos, n = s.params.num_players, h_total, h_plus, q
    for t in range(TR_TILES):
        pool[t] = 1
        tile_slot[t] = -1
    for i in range(s.n_placed):
        if s.placed[i].tile != TR_UNKNOWN:
            pool[s.placed[i].tile] = 0
        else:
            f1[m] = s.placed[i].face
            f2[m] = s.placed[i].up_face
            ref[m] = i
            m += 1
    for i in range(s.n_discarded):
        pool[s.discarded[i]] = 0
    if s.drawn_face != TR_UNKNOWN:
        if s.drawn_tile != TR_UNKNOWN:
            pool[s.drawn_tile] = 0
        else:
            f1[m] = s.drawn_face
            f2[m] = -1
            ref[m] = -3
            m += 1
    for k in range(2):
        if s.stack_len[k] > 0 and s.stack_tile[k][s.stack_len[k] - 1] == TR_UNKNOWN:
            f1[m] = s.stack_top_face[k]
            f2[m] = -1
            ref[m] = -1 - k
            m += 1
    # randomized maximum matching (Kuhn's augmenting paths); the truth is one perfect matching
    for i in range(m):
        order[i] = i
        slot_tile[i] = -1
    for i in range(m - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        k = order[i]
        order[i] = order[j]
        order[j] = k
    for i in range(m):
        memset(seen, 0, sizeof(seen))
        _augment(order[i], f1, f2, pool, tile_slot, slot_tile, seen, <int>rng_below(rng, TR_TILES))
    for i in range(m):
        t = slot_tile[i]
        if t < 0:
            continue            # only on an inconsistent observation; leave the slot unknown
        pool[t] = 0
        if ref[i] >= 0:
            s.placed[ref[i]].tile = <uint8_t>t
            s.placed[ref[i]].side = <uint8_t>_side_with(t, f1[i], rng)
        elif ref[i] == -3:
            s.drawn_tile = <uint8_t>t
            s.drawn_up = <uint8_t>_side_with(t, f1[i], rng)
        else:
            k = -1 - ref[i]
            s.stack_tile[k][s.stack_len[k] - 1] = <uint8_t>t
            s.stack_up[k][s.stack_len[k] - 1] = <uint8_t>_side_with(t, f1[i], rng)
    n_rest = 0
    for t in range(TR_TILES):
        if pool[t]:
            rest[n_rest] = <uint8_t>t
            n_rest += 1
    for i in range(n_rest - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        t = rest[i]
        rest[i] = rest[j]
        rest[j] = <uint8_t>t
    pos = 0
    for k in range(2):
        for i in range(s.stack_len[k]):
            if s.stack_tile[k][i] != TR_UNKNOWN or pos >= n_rest:
                continue
            t = rest[pos]
            pos += 1
            s.stack_tile[k][i] = <uint8_t>t
            if FACE_SPECIAL[TILE_FACE[t][0]]:
                s.stack_up[k][i] = 1
            elif FACE_SPECIAL[TILE_FACE[t][1]]:
                s.stack_up[k][i] = 0
            else:
                s.stack_up[k][i] = <uint8_t>rng_below(rng, 2)
    # combat token types: the unseen tokens are the others' holdings, hidden declarations and the bag
    h_plus = TOKENS_PLUS
    h_total = TOKENS_PLUS + TOKENS_REROLL
    for q in range(n):
        if s.players[q].tok_plus != TR_HIDDEN:
            h_plus -= s.players[q].tok_plus
            h_total -= s.players[q].tok_count
        if s.players[q].decl_plus != TR_HIDDEN:
            h_plus -= s.players[q].decl_plus
            h_total -= s.players[q].decl_count
    for q in range(n):
        if s.players[q].tok_plus == TR_HIDDEN:
            s.players[q].tok_plus = <int8_t>_draw_plus(rng, s.players[q].tok_count, &h_plus, &h_total)
        if s.players[q].decl_plus == TR_HIDDEN:
            s.players[q].decl_plus = <int8_t>_draw_plus(rng, s.players[q].decl_count, &h_plus, &h_total)
    rng_seed(&s.rng_minerals, rng_next(rng))
    rng_seed(&s.rng_tokens, rng_next(rng))
    rng_seed(&s.rng_dice, rng_next(rng))


cdef int _draw_plus(Rng* rng, int count, int* h_plus, int* h_total) noexcept nogil:
    cdef int _k, plus = 0
    for _k in range(count):
        if h_total[0] > 0 and <int>rng_below(rng, <uint32_t>h_total[0]) < h_plus[0]:
            plus += 1
            h_plus[0] -= 1
        h_total[0] -= 1
    return plus


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
