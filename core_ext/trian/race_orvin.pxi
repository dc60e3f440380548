# Included by races.pxi: race 5, ORVIN (invented name) (section VIII; docs/rules/trian.md, section
# 14.15).
#
# Starting skills (racial skills 0, 1): Exmitter, Manipulation.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Adaptation Abilities, An
# Extra Exmitter, Mental manipulation.
#
# Actions A_RACE + 5 * RACE_BLOCK + n:
#   n = 0                      phase 3, free, before the action: an Exmitter token on the tile added this turn
#   n = 100 + own * 84 + enemy Manipulation (free, once per turn, 1 green + 1 blue): swap the emissaries on
#                              placed tiles `own` and `enemy`
#   n = 7300 + k * 84 + enemy  Manipulation of ships: own ship number k (in tile order) and the enemy ship
#   n = 9000 + colour / 9010   Adaptation Abilities, at the start of the turn (sub-step STEP_ADAPT): pay a
#                              mineral of that colour for the unit race_arg (tile) / race_count (0 its
#                              emissary, 1 its ship), or send that unit home
# Special tokens 0 and 1: the Exmitters (token 1 with An Extra Exmitter).
# race_used bit 1: Manipulation was used this turn.

cdef enum:
    OR_EXMITTER = 0          # racial skill indices
    OR_MANIPULATION = 1
    OR_ADAPTATION = 2
    OR_EXTRA_EXMITTER = 3
    OR_MENTAL = 4
    OA_EXMITTER = 0          # action numbers within the race's block
    OA_SWAP_EMISSARY = 100
    OA_SWAP_SHIP = 7300
    OR_USED_MANIPULATION = 1
    OA_ADAPT_PAY = 9000
    OA_ADAPT_HOME = 9010
    MANIPULATION_RANGE = 3   # Mental manipulation: tiles away


cdef inline int _orvin_tokens(const TrianState* s, int p) noexcept nogil:
    return 2 if _has(s, p, R_ORVIN, OR_EXTRA_EXMITTER) else 1


cdef bint _orvin_exmits(const TrianState* s, int p, int i) noexcept nogil:
    # tile i is one of p's Exmitter tokens' tiles or shares an edge with one (an exmitter's radius)
    cdef int k, t
    for k in range(2):
        t = s.players[p].special_tile[k]
        if t == TR_UNKNOWN:
            continue
        if t == i or _nb_placed(s, t, 0) == i or _nb_placed(s, t, 1) == i or _nb_placed(s, t, 2) == i:
            return True
    return False


cdef bint _within(const TrianState* s, int a, int b, int steps) noexcept nogil:
    # tile b is at most `steps` tiles from tile a, through any borders
    cdef int d, j
    if a == b:
        return True
    if steps == 0:
        return False
    for d in range(3):
        j = _nb_placed(s, a, d)
        if j >= 0 and _within(s, j, b, steps - 1):
            return True
    return False


cdef bint _same_space(const TrianState* s, int a, int b) noexcept nogil:
    # tiles a and b lie in one outer-space area (any outer-space region of each)
    cdef int ea, eb, fa = s.placed[a].face, fb = s.placed[b].face, ta, tb
    for ea in range(3):
        ta = FACE_EDGE[fa][ea]
        if ta != E_SPACE and ta != E_PATH:
            continue
        for eb in range(3):
            tb = FACE_EDGE[fb][eb]
            if (tb == E_SPACE or tb == E_PATH) and \
                    _cfind(s, _node(a, FACE_GROUP[fa][ea])) == _cfind(s, _node(b, FACE_GROUP[fb][eb])):
                return True
    return False


cdef bint _swappable_emissary(const TrianState* s, int i) noexcept nogil:
    # ruling: an emissary on a station, a blocked one and one its owner's Corvette protects stay put
    return (s.placed[i].emissary >= 0 and s.placed[i].station == 0 and not _blocked(s, i)
            and not _protected(s, i))


cdef bint _may_swap(const TrianState* s, int me, int a, int b, bint ships) noexcept nogil:
    cdef int na, nb
    if _has(s, me, R_ORVIN, OR_MENTAL) and _within(s, a, b, MANIPULATION_RANGE):
        return True
    if ships:
        return _same_space(s, a, b)
    na = _area_node(s, a)
    nb = _area_node(s, b)
    return na >= 0 and nb >= 0 and _node_part(na) == _node_part(nb) and _cfind(s, na) == _cfind(s, nb)


cdef int _orvin_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    cdef const TrianPlayer* pl = &s.players[me]
    cdef int i = s.new_tile, k, a, b, rank, base = A_RACE + R_ORVIN * RACE_BLOCK
    # an Exmitter token: "in phase 2, on the tile you've just added" (ruling: before the phase 3 action)
    if s.actions_taken == 0 and i != TR_UNKNOWN and pl.special_tile[0] != i and pl.special_tile[1] != i and \
            FACE_FEAT[s.placed[i].face] != F_EXMITTER:
        for k in range(_orvin_tokens(s, me)):
            if pl.special_tile[k] == TR_UNKNOWN:
                out[n] = base + OA_EXMITTER
                n += 1
                break
    # Manipulation: once per turn, 1 green + 1 blue
    if (s.race_used >> OR_USED_MANIPULATION) & 1 or pl.minerals[1] == 0 or pl.minerals[2] == 0:
        return n
    for a in range(s.n_placed):
        if s.placed[a].emissary != me or not _swappable_emissary(s, a):
            continue
        for b in range(s.n_placed):
            if (b != a and s.placed[b].emissary != me and _swappable_emissary(s, b)
                    and _may_swap(s, me, a, b, False)):
                out[n] = base + OA_SWAP_EMISSARY + a * TR_TILES + b
                n += 1
    rank = 0
    for a in range(s.n_placed):
        if s.placed[a].ship_owner != me or s.placed[a].ship_kind == 0:
            continue
        if s.placed[a].ship_kind != SHIP_PRIESTESS and not _ship_immobile(s, a):
            for b in range(s.n_placed):
                if s.placed[b].ship_kind != 0 and s.placed[b].ship_kind != SHIP_PRIESTESS and \
                        s.placed[b].ship_owner != me and not _ship_immobile(s, b) and \
                        _may_swap(s, me, a, b, True):
                    out[n] = base + OA_SWAP_SHIP + rank * TR_TILES + b
                    n += 1
        rank += 1
    return n


cdef int _orvin_own_ship(const TrianState* s, int me, int rank) noexcept nogil:
    cdef int a
    for a in range(s.n_placed):
        if s.placed[a].ship_owner == me and s.placed[a].ship_kind != 0:
            if rank == 0:
                return a
            rank -= 1
    return -1


cdef void _exmit(TrianState* s, int i) noexcept nogil:
    # an exmitter arrives on tile i: emissaries not on stations and ships in its radius go home, and
    # the racial tokens an exmitter removes (section IX)
    cdef int d, j
    for d in range(4):
        j = i if d == 3 else _nb_placed(s, i, d)
        if j < 0:
            continue
        if s.placed[j].station == 0 and not _exmitter_immune(s, s.placed[j].emissary):
            _return_emissary(s, j)
        if not _exmitter_immune(s, s.placed[j].ship_owner):
            _ship_home(s, j)
        _race_exmitter_hits(s, j)


# ------------------------------------------------ Adaptation Abilities: the upkeep at the start of a turn

cdef int _adapt_next(const TrianState* s, int p, int after) noexcept nogil:
    # the next unit of p (tile * 2 + 0 emissary / 1 ship) after `after` standing in an exmitter's
    # radius; an emissary on a station is not affected by exmitters (section IX); -1 when none
    cdef int u, i
    for u in range(after + 1, 2 * s.n_placed):
        i = u // 2
        if u % 2 == 0 and s.placed[i].emissary == p and s.placed[i].station == 0 and _in_exmitter_field(s, i):
            return u
        if u % 2 == 1 and s.placed[i].ship_owner == p and s.placed[i].ship_kind != 0 and \
                _in_exmitter_field(s, i):
            return u
    return -1


cdef void _adapt_step(TrianState* s, int p, int after) noexcept nogil:
    # wait for p's decision on its next unit in a radius, or go on with phase 1
    cdef int u = _adapt_next(s, p, after)
    if u < 0:
        s.mode = M_PH1
        s.race_step = 0
        s.race_seat = 0
        s.race_arg = 0
        s.race_count = 0
        return
    s.mode = M_RACE
    s.race_step = STEP_ADAPT
    s.race_seat = <int8_t>p
    s.race_arg = <uint8_t>(u // 2)
    s.race_count = <uint8_t>(u % 2)


cdef void _orvin_turn_start(TrianState* s) noexcept nogil:
    if _has(s, s.turn_player, R_ORVIN, OR_ADAPTATION):
        _adapt_step(s, s.turn_player, -1)


cdef int _orvin_step_actions(const TrianState* s, action_t* out) noexcept nogil:
    cdef int c, n = 0, base = A_RACE + R_ORVIN * RACE_BLOCK
    for c in range(TR_COLORS):
        if s.players[s.race_seat].minerals[c] > 0:
            out[n] = base + OA_ADAPT_PAY + c
            n += 1
    out[n] = base + OA_ADAPT_HOME
    n += 1
    return n


cdef int _orvin_apply(TrianState* s, int me, int n) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int a, b, k, owner, unit, kind, new, used
    if s.mode == M_RACE and s.race_step == STEP_ADAPT:
        a = s.race_arg
        if OA_ADAPT_PAY <= n < OA_ADAPT_PAY + TR_COLORS:
            pl.minerals[n - OA_ADAPT_PAY] -= 1
            s.bag[n - OA_ADAPT_PAY] += 1
        elif s.race_count == 0:
            _return_emissary(s, a)
        else:
            _ship_home(s, a)
        _adapt_step(s, me, a * 2 + s.race_count)
        return 0
    if s.mode != M_PH3:
        return -1
    if n == OA_EXMITTER:
        k = 0 if pl.special_tile[0] == TR_UNKNOWN else 1
        pl.special_tile[k] = s.new_tile
        _exmit(s, s.new_tile)
        return 0
    pl.minerals[1] -= 1                     # Manipulation: 1 blue + 1 green back to the bag
    pl.minerals[2] -= 1
    s.bag[1] += 1
    s.bag[2] += 1
    s.race_used |= 1 << OR_USED_MANIPULATION
    if OA_SWAP_EMISSARY <= n < OA_SWAP_EMISSARY + TR_TILES * TR_TILES:
        a = (n - OA_SWAP_EMISSARY) // TR_TILES
        b = (n - OA_SWAP_EMISSARY) % TR_TILES
        owner = s.placed[b].emissary
        unit = s.placed[b].unit
        _put_emissary(s, b, s.placed[a].emissary)
        s.placed[b].unit = s.placed[a].unit
        _put_emissary(s, a, owner)
        s.placed[a].unit = <uint8_t>unit
        _check_unblock(s, a)               # control may change hands when an emissary is (un)blocked
        _check_unblock(s, b)
        return 0
    if OA_SWAP_SHIP <= n < OA_SWAP_SHIP + 5 * TR_TILES:
        a = _orvin_own_ship(s, me, (n - OA_SWAP_SHIP) // TR_TILES)
        b = (n - OA_SWAP_SHIP) % TR_TILES
        owner = s.placed[b].ship_owner
        kind = s.placed[b].ship_kind
        new = s.placed[b].ship_arrived
        used = s.placed[b].rogue_mined
        _put_ship(s, b, s.placed[a].ship_owner, s.placed[a].ship_kind)
        s.placed[b].ship_arrived = s.placed[a].ship_arrived
        s.placed[b].rogue_mined = s.placed[a].rogue_mined
        _put_ship(s, a, owner, kind)
        s.placed[a].ship_arrived = <uint8_t>new
        s.placed[a].rogue_mined = <uint8_t>used
        _check_unblock(s, a)
        _check_unblock(s, b)
        # ruling: both ships arrive (racial tokens may fire); only the manipulating seat's ship attacks
        _race_after_ship_move(s, a, True)
        if not _race_after_ship_move(s, b, True):
            _ship_landed(s, b)
        return 0
    return -1


# ------------------------------------------------ Python side

cdef object _orvin_check(const TrianState* s, int p):
    cdef int i
    for i in range(s.n_placed):
        if (s.placed[i].unit and s.placed[i].emissary == p) or \
                (s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p):
            return f"placed[{i}]: seat {p}'s race has no such unit"
    if s.players[p].special_tile[2] != TR_UNKNOWN or s.players[p].special_tile[3] != TR_UNKNOWN or \
            (s.players[p].special_tile[1] != TR_UNKNOWN and _orvin_tokens(s, p) < 2):
        return f"player {p}: ORVIN has no such special token"
    exmitters = s.players[p].special_tile
    if exmitters[0] != TR_UNKNOWN and exmitters[0] == exmitters[1]:
        return f"player {p}: two Exmitters on one tile"
    return None


cdef object _orvin_describe(const TrianState* s, int me, int n, int a):
    if n == OA_EXMITTER:
        i = s.new_tile if s.new_tile != TR_UNKNOWN else 0
        return dict(_cell(s, i), id=a, kind="exmitter_token",
                    label=f"place an Exmitter token at ({s.placed[i].x}, {s.placed[i].y})")
    if OA_ADAPT_PAY <= n < OA_ADAPT_PAY + TR_COLORS:
        return {"id": a, "kind": "adaptation", "pay": COLOR_NAMES[n - OA_ADAPT_PAY],
                "tile": _cell(s, s.race_arg),
                "label": f"Adaptation Abilities: pay a {COLOR_NAMES[n - OA_ADAPT_PAY]} mineral to keep the "
                         f"{('emissary', 'ship')[s.race_count]} at "
                         f"({s.placed[s.race_arg].x}, {s.placed[s.race_arg].y})"}
    if n == OA_ADAPT_HOME:
        return {"id": a, "kind": "adaptation", "pay": None, "tile": _cell(s, s.race_arg),
                "label": f"Adaptation Abilities: the {('emissary', 'ship')[s.race_count]} at "
                         f"({s.placed[s.race_arg].x}, {s.placed[s.race_arg].y}) goes home"}
    if OA_SWAP_EMISSARY <= n < OA_SWAP_EMISSARY + TR_TILES * TR_TILES:
        i = (n - OA_SWAP_EMISSARY) // TR_TILES
        j = (n - OA_SWAP_EMISSARY) % TR_TILES
        return {"id": a, "kind": "manipulate", "unit": "emissary", "own": _cell(s, i), "enemy": _cell(s, j),
                "label": f"Manipulation (1 green + 1 blue): swap the emissaries at ({s.placed[i].x}, "
                         f"{s.placed[i].y}) and ({s.placed[j].x}, {s.placed[j].y})"}
    if OA_SWAP_SHIP <= n < OA_SWAP_SHIP + 5 * TR_TILES:
        i = _orvin_own_ship(s, me, (n - OA_SWAP_SHIP) // TR_TILES) if me >= 0 else -1
        j = (n - OA_SWAP_SHIP) % TR_TILES
        own = _cell(s, i) if i >= 0 else {}
        return {"id": a, "kind": "manipulate", "unit": "ship", "own": own, "enemy": _cell(s, j),
                "label": f"Manipulation (1 green + 1 blue): swap the ships at "
                         f"({own.get('x')}, {own.get('y')}) "
                         f"and ({s.placed[j].x}, {s.placed[j].y})"}
    return None
