# Included by races.pxi: race 4, MAEPHOS (named by the rulebook) (section VIII; docs/rules/trian.md,
# section 14.14).
#
# Starting skills (racial skills 0, 1): Harvester, Subspace tunnel technology.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Harvest technology,
# Harvest module (needs Harvest technology), Subspace tunnel generator.
#
# Actions A_RACE + 4 * RACE_BLOCK + n:
#   n = 100 + colour * 84 + tile    phase 3, free: discard a red (0) or blue (1) mineral, place a Wormhole
#   n = 1000 + token * 84 + from    phase 3 action: an own ship through the subspace tunnel to Wormhole token
#   n = 2000 + rogue * 30 + k       phase 1: a Rogue mines 2 minerals (Harvest technology: k < 10, combination
#                                   k of MSETS[0]) or 3 (Harvest module: k = 10 + combination of MSETS[1])
# Special tokens 0 and 1: the Wormholes (token 1 with the Subspace tunnel generator).

cdef enum:
    MA_HARVESTER = 0         # racial skill indices
    MA_TUNNEL = 1
    MA_HARVEST_TECH = 2
    MA_HARVEST_MODULE = 3
    MA_GENERATOR = 4
    MA_WORMHOLE = 100        # action numbers within the race's block
    MA_TUNNEL_MOVE = 1000
    MA_HARVEST = 2000


cdef inline int _maephos_tokens(const TrianState* s, int p) noexcept nogil:
    # Wormhole tokens the seat owns: 1, 2 with the Subspace tunnel generator
    return 2 if _has(s, p, R_MAEPHOS, MA_GENERATOR) else 1


cdef int _maephos_free_token(const TrianState* s, int p) noexcept nogil:
    cdef int k
    for k in range(_maephos_tokens(s, p)):
        if s.players[p].special_tile[k] == TR_UNKNOWN:
            return k
    return -1


cdef bint _is_wormhole(const TrianState* s, int p, int j) noexcept nogil:
    return s.players[p].special_tile[0] == j or s.players[p].special_tile[1] == j


cdef void _ship_relocate(TrianState* s, int src, int dst) noexcept nogil:
    # the ship on tile src lands on tile dst (no steps in between): a battle when it now stands next to
    # an enemy ship, racial tokens first (shared with SYLPHEX's Space Modulator)
    cdef int owner = s.placed[src].ship_owner, kind = s.placed[src].ship_kind
    _put_ship(s, src, -1, 0)
    s.placed[src].ship_arrived = 0
    s.placed[src].rogue_mined = 0
    _ship_arrive(s, dst, owner, kind)
    _check_unblock(s, src)
    if _race_after_ship_move(s, dst, True):
        return
    _ship_landed(s, dst)


cdef int _maephos_ph1_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # Harvest technology / module: a Rogue's mining takes 2 / 3 minerals of chosen colours
    cdef int i, k, size, combo, c, t
    cdef uint8_t ships[TR_TILES]
    cdef bint ok
    if not _has(s, me, R_MAEPHOS, MA_HARVEST_TECH):
        return n
    for t in range(_ship_tiles(s, ships)):      # _rogue_may_mine: an own Rogue stands there
        i = ships[t]
        if not _rogue_may_mine(s, i, me):
            continue
        k = _nebula_record(s, _cfind(s, _node(i, K_NEBULA)))
        for size in range(2 if _has(s, me, R_MAEPHOS, MA_HARVEST_MODULE) else 1):
            for combo in range(MSET_N[size]):
                ok = True
                for c in range(TR_COLORS):
                    if s.nebula_minerals[k][c] < MSET[size][combo][c]:
                        ok = False
                if ok:
                    out[n] = A_RACE + R_MAEPHOS * RACE_BLOCK + MA_HARVEST + i * 30 + size * 10 + combo
                    n += 1
    return n


cdef int _maephos_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    cdef int c, j, i, w, k, t, n_ships
    cdef uint8_t ships[TR_TILES]
    cdef const TrianPlayer* pl = &s.players[me]
    # a Wormhole (free): on a tile with outer space, outside every exmitter's radius, not on another
    if _maephos_free_token(s, me) >= 0:
        for c in range(2):
            if pl.minerals[c] == 0:
                continue
            for j in range(s.n_placed):
                if (_has_space(s.placed[j].face) and not _is_wormhole(s, me, j)
                        and not _in_exmitter_field(s, j)):
                    out[n] = A_RACE + R_MAEPHOS * RACE_BLOCK + MA_WORMHOLE + c * TR_TILES + j
                    n += 1
    # the tunnel (the action): any own ship, from anywhere, to a free Wormhole tile
    for k in range(2):
        w = pl.special_tile[k]
        if w == TR_UNKNOWN or not _ship_may_stand_for(s, w, me):
            continue
        n_ships = _ship_tiles(s, ships)
        for t in range(n_ships):
            i = ships[t]
            if s.placed[i].ship_owner == me and not _ship_immobile(s, i):
                out[n] = A_RACE + R_MAEPHOS * RACE_BLOCK + MA_TUNNEL_MOVE + k * TR_TILES + i
                n += 1
    return n


cdef int _maephos_apply(TrianState* s, int me, int n) noexcept nogil:
    cdef int i, j, c, k, size, combo
    if MA_HARVEST <= n < MA_HARVEST + TR_TILES * 30 and s.mode == M_PH1:
        i = (n - MA_HARVEST) // 30
        size = 0 if (n - MA_HARVEST) % 30 < 10 else 1
        combo = (n - MA_HARVEST) % 30 - size * 10
        k = _nebula_record(s, _cfind(s, _node(i, K_NEBULA)))
        for c in range(TR_COLORS):
            s.nebula_minerals[k][c] -= MSET[size][combo][c]
            s.players[me].minerals[c] += MSET[size][combo][c]
        s.placed[i].rogue_mined = 1
        return 0
    if s.mode != M_PH3:
        return -1
    if MA_WORMHOLE <= n < MA_WORMHOLE + 2 * TR_TILES:
        c = (n - MA_WORMHOLE) // TR_TILES
        j = (n - MA_WORMHOLE) % TR_TILES
        s.players[me].minerals[c] -= 1
        s.bag[c] += 1
        s.players[me].special_tile[_maephos_free_token(s, me)] = <uint8_t>j
        return 0
    if MA_TUNNEL_MOVE <= n < MA_TUNNEL_MOVE + 2 * TR_TILES:
        j = s.players[me].special_tile[(n - MA_TUNNEL_MOVE) // TR_TILES]
        i = (n - MA_TUNNEL_MOVE) % TR_TILES
        s.actions_left -= 1
        s.actions_taken += 1
        _ship_relocate(s, i, j)
        return 0
    return -1


cdef int _maephos_die_bonus(const TrianState* s, int p, int ship_tile) noexcept nogil:
    # Harvester: +1 to the roll of a Rogue in a ship clash
    if ship_tile >= 0 and s.placed[ship_tile].ship_kind == SHIP_ROGUE and _has(s, p, R_MAEPHOS, MA_HARVESTER):
        return 1
    return 0


cdef void _maephos_reach(const TrianState* s, int i, uint64_t* reach) noexcept nogil:
    # Harvester: a Rogue moves 1 tile further
    cdef int p = s.placed[i].ship_owner, depth = SHIP_MOVES
    if s.placed[i].ship_kind == SHIP_ROGUE and _has(s, p, R_MAEPHOS, MA_HARVESTER):
        depth += 1
    _reach(s, i, -1, depth, i, reach)


# ------------------------------------------------ Python side

cdef object _maephos_check(const TrianState* s, int p):
    cdef int i, k
    for i in range(s.n_placed):
        if (s.placed[i].unit and s.placed[i].emissary == p) or \
                (s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p):
            return f"placed[{i}]: seat {p}'s race has no such unit"
    for k in range(4):
        i = s.players[p].special_tile[k]
        if i == TR_UNKNOWN:
            continue
        if k >= _maephos_tokens(s, p):
            return f"player {p}: MAEPHOS has no Wormhole token {k}"
        if not _has_space(s.placed[i].face) or (k == 1 and s.players[p].special_tile[0] == i):
            return f"player {p}: a Wormhole needs its own tile with outer space"
    return None


cdef object _maephos_describe(const TrianState* s, int me, int n, int a):
    if MA_HARVEST <= n < MA_HARVEST + TR_TILES * 30:
        i = (n - MA_HARVEST) // 30
        size = 0 if (n - MA_HARVEST) % 30 < 10 else 1
        combo = (n - MA_HARVEST) % 30 - size * 10
        counts = MSETS[size][combo]
        taken = [COLOR_NAMES[c] for c in range(4) for _ in range(counts[c])]
        return dict(_cell(s, i), id=a, kind="harvest", minerals=taken,
                    label=f"harvest {' + '.join(taken)} with the Rogue at ({s.placed[i].x}, {s.placed[i].y})")
    if MA_WORMHOLE <= n < MA_WORMHOLE + 2 * TR_TILES:
        c = (n - MA_WORMHOLE) // TR_TILES
        j = (n - MA_WORMHOLE) % TR_TILES
        return dict(_cell(s, j), id=a, kind="wormhole", color=COLOR_NAMES[c],
                    label=f"discard a {COLOR_NAMES[c]} mineral: Wormhole at "
                          f"({s.placed[j].x}, {s.placed[j].y})")
    if MA_TUNNEL_MOVE <= n < MA_TUNNEL_MOVE + 2 * TR_TILES:
        i = (n - MA_TUNNEL_MOVE) % TR_TILES
        j = s.players[me].special_tile[(n - MA_TUNNEL_MOVE) // TR_TILES] if me >= 0 else TR_UNKNOWN
        if j == TR_UNKNOWN:
            return {"id": a, "kind": "tunnel", "from": _cell(s, i), "label": "subspace tunnel (no Wormhole)"}
        return {"id": a, "kind": "tunnel", "from": _cell(s, i), "to": _cell(s, j),
                "label": f"subspace tunnel: ship ({s.placed[i].x}, {s.placed[i].y}) -> Wormhole "
                         f"({s.placed[j].x}, {s.placed[j].y})"}
    return None
