# Included by races.pxi: race 6, SYLPHEX (invented name) (section VIII; docs/rules/trian.md, section
# 14.16).
#
# Starting skills (racial skills 0, 1): Decoy, Space modulator technology.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Manoeuvring thrusters,
# Shockwave, Space Modulator.
#
# Actions A_RACE + 6 * RACE_BLOCK + n:
#   n = 0                      phase 3 action: place the Decoy on the tile added this turn
#   n = 100 + tile             phase 3 action: move the Decoy (1 tile, 2 with Manoeuvring thrusters)
#   n = 200 + tile             phase 3 action: move the Decoy and detonate it there
#   n = 300 + c * 84 + tile    phase 3, free, before the action: place a Space Modulator paying red (c = 0)
#                              or yellow (c = 1)
#   n = 1000 + ((token * 2 + kind) * 4 + src) * 84 + tile
#                              phase 3 action: teleport through Space Modulator `token` an emissary (kind 0)
#                              or a ship (kind 1) from the modulator's side src (0..2) or its own tile (3)
# Special tokens: 0 the Decoy, 1 and 2 the Space Modulators (token 2 with the Space Modulator module).
# race_used bits 1 << (1 + token): that Space Modulator was placed or used this turn.

cdef enum:
    SY_DECOY = 0             # racial skill indices
    SY_MODULATOR_TECH = 1
    SY_THRUSTERS = 2
    SY_SHOCKWAVE = 3
    SY_MODULATOR = 4
    SA_DECOY = 0             # action numbers within the race's block
    SA_DECOY_MOVE = 100
    SA_DECOY_BLAST = 200
    SA_MODULATOR = 300
    SA_MOD_TELEPORT = 1000


cdef inline int _sy_modulators(const TrianState* s, int p) noexcept nogil:
    return 2 if _has(s, p, R_SYLPHEX, SY_MODULATOR) else 1


cdef int _sy_mod_source(const TrianState* s, int m, int src) noexcept nogil:
    # the tile a modulator on tile m teleports from: its side src (0..2) or itself (3); -1 none
    return m if src == 3 else _nb_placed(s, m, src)


cdef void _sy_explode(TrianState* s, int p) noexcept nogil:
    # section VIII: every ship and emissary in the Decoy's field of fire is destroyed (back to its owner;
    # ruling: stations stay, like under an exmitter); 2 random minerals per enemy ship; the Decoy goes
    # back to the supply
    cdef int c = s.players[p].special_tile[0], j
    cdef bint wide = _has(s, p, R_SYLPHEX, SY_SHOCKWAVE)
    s.players[p].special_tile[0] = TR_UNKNOWN
    for j in range(s.n_placed):
        if _in_fire(s, c, j, wide) and s.placed[j].emissary >= 0 and s.placed[j].station == 0:
            _return_emissary(s, j)
    _destroy_ships_in_fire(s, p, c, wide, True)


cdef bint _sy_enemy_next_to_decoy(const TrianState* s, int p) noexcept nogil:
    cdef int c = s.players[p].special_tile[0], j
    for j in range(s.n_placed):
        if s.placed[j].ship_kind != 0 and s.placed[j].ship_owner != p and _in_fire(s, c, j, False):
            return True
    return False


cdef void _sylphex_ship_near(TrianState* s, int p, int j) noexcept nogil:
    # "Decoy explodes immediately when attacked or if there is an enemy ship on an adjacent tile"
    # (ruling: an enemy ship arriving on the Decoy's tile or a tile sharing an edge with it)
    cdef int c = s.players[p].special_tile[0]
    if c == TR_UNKNOWN or s.placed[j].ship_kind == 0 or s.placed[j].ship_owner == p:
        return
    if _in_fire(s, c, j, False):
        _sy_explode(s, p)


cdef int _sylphex_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    cdef const TrianPlayer* pl = &s.players[me]
    cdef uint64_t reach[2]                 # a tile set (pieces.pxi)
    cdef uint8_t targets[TR_TILES]
    cdef int i = s.new_tile, j, c, k, m, src, kind, base = A_RACE + R_SYLPHEX * RACE_BLOCK
    # the Decoy: placed like a ship expedition (the first action, the new tile, no ship next to it)
    if _has(s, me, R_SYLPHEX, SY_DECOY):
        if pl.special_tile[0] == TR_UNKNOWN:
            if (s.actions_taken == 0 and i != TR_UNKNOWN and not _in_exmitter_field(s, i)
                    and not _ships_near(s, i)):
                out[n] = base + SA_DECOY
                n += 1
        elif pl.special_tile[0] != s.new_tile:    # not on the turn it was placed (or moved onto the new tile)
            reach[0] = 0
            reach[1] = 0
            src = pl.special_tile[0]
            _reach(s, src, -1, 2 if _has(s, me, R_SYLPHEX, SY_THRUSTERS) else 1, src, reach)
            for k in range(_tiles_list(reach[0], reach[1], targets)):
                j = targets[k]
                out[n] = base + SA_DECOY_MOVE + j
                n += 1
                out[n] = base + SA_DECOY_BLAST + j
                n += 1
    # Space Modulators: placed for free before the action, on the new tile or any tile without a ship
    for k in range(_sy_modulators(s, me)):
        if pl.special_tile[1 + k] != TR_UNKNOWN:
            continue
        if s.actions_taken == 0:
            for c in range(2):
                if pl.minerals[3 * c] == 0:
                    continue
                for j in range(s.n_placed):
                    if s.placed[j].ship_kind == 0 and pl.special_tile[1] != j and pl.special_tile[2] != j:
                        out[n] = base + SA_MODULATOR + c * TR_TILES + j
                        n += 1
        break                                   # one token at a time: the first one in the supply
    # ... and used as a teleport on later turns, once per turn each
    for k in range(2):
        m = pl.special_tile[1 + k]
        if m == TR_UNKNOWN or (s.race_used >> (1 + k)) & 1:
            continue
        for src in range(4):
            i = _sy_mod_source(s, m, src)
            if i < 0:
                continue
            if s.placed[i].emissary >= 0 and s.placed[i].station == 0 and not _blocked(s, i) and \
                    not (_protected(s, i) and s.placed[i].emissary != me):
                for j in range(s.n_placed):
                    if j != i and _may_receive_emissary(s, j, s.placed[i].emissary, i):
                        out[n] = base + SA_MOD_TELEPORT + ((k * 2) * 4 + src) * TR_TILES + j
                        n += 1
            if s.placed[i].ship_kind != 0 and not _ship_immobile(s, i):
                for j in range(s.n_placed):
                    if j != i and _ship_may_stand_for(s, j, s.placed[i].ship_owner):
                        out[n] = base + SA_MOD_TELEPORT + ((k * 2 + 1) * 4 + src) * TR_TILES + j
                        n += 1
    return n


cdef void _sy_teleport_emissary(TrianState* s, int me, int src, int j) noexcept nogil:
    # the teleport rules of section V.3.4 (as for a teleport tile)
    cdef int k = _closed_area_owner(s, j), owner = s.placed[src].emissary
    s.placed[j].unit = s.placed[src].unit
    _put_emissary(s, src, -1)
    s.placed[src].unit = 0
    _put_emissary(s, j, owner)
    if owner == me:
        s.mission_tile = <uint8_t>j
    if FACE_FEAT[s.placed[j].face] == F_OUTPOST and owner == me and not _blocked(s, j):
        s.actions_left += 2
    if k == -1 and not _blocked(s, j):
        _control_token(s, owner)     # arriving blocked takes no control (section XI)


cdef int _sylphex_apply(TrianState* s, int me, int n) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int j, c, k, kind, src, i
    if s.mode != M_PH3:
        return -1
    if SA_MODULATOR <= n < SA_MODULATOR + 2 * TR_TILES:
        c = 3 * ((n - SA_MODULATOR) // TR_TILES)        # red (0) or yellow (3)
        j = (n - SA_MODULATOR) % TR_TILES
        k = 0 if pl.special_tile[1] == TR_UNKNOWN else 1
        pl.minerals[c] -= 1
        s.bag[c] += 1
        pl.special_tile[1 + k] = <uint8_t>j
        s.race_used |= <uint8_t>(1 << (1 + k))          # usable from the next turn on
        return 0
    s.actions_left -= 1                                    # the rest are the phase 3 action
    s.actions_taken += 1
    if n == SA_DECOY:
        pl.special_tile[0] = s.new_tile
    elif SA_DECOY_MOVE <= n < SA_DECOY_BLAST + TR_TILES:
        pl.special_tile[0] = <uint8_t>((n - SA_DECOY_MOVE) % 100)
        if n >= SA_DECOY_BLAST or _sy_enemy_next_to_decoy(s, me):
            _sy_explode(s, me)
    elif SA_MOD_TELEPORT <= n < SA_MOD_TELEPORT + 16 * TR_TILES:
        j = (n - SA_MOD_TELEPORT) % TR_TILES
        src = ((n - SA_MOD_TELEPORT) // TR_TILES) % 4
        kind = ((n - SA_MOD_TELEPORT) // TR_TILES // 4) % 2
        k = (n - SA_MOD_TELEPORT) // TR_TILES // 8
        s.race_used |= <uint8_t>(1 << (1 + k))
        i = _sy_mod_source(s, pl.special_tile[1 + k], src)
        if kind == 1:
            _ship_relocate(s, i, j)
            return 0
        _sy_teleport_emissary(s, me, i, j)
    else:
        return -1
    if s.actions_left == 0:
        _finish_ph3(s)
    return 0


# ------------------------------------------------ Python side

cdef object _sylphex_check(const TrianState* s, int p):
    cdef int i
    for i in range(s.n_placed):
        if (s.placed[i].unit and s.placed[i].emissary == p) or \
                (s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p):
            return f"placed[{i}]: seat {p}'s race has no such unit"
    if (s.players[p].special_tile[3] != TR_UNKNOWN
            or (s.players[p].special_tile[2] != TR_UNKNOWN and _sy_modulators(s, p) < 2)):
        return f"player {p}: SYLPHEX has no such special token"
    tokens = s.players[p].special_tile
    if tokens[1] != TR_UNKNOWN and tokens[1] == tokens[2]:
        return f"player {p}: two Space Modulators on one tile"
    return None


cdef object _sylphex_describe(const TrianState* s, int me, int n, int a):
    if n == SA_DECOY:
        i = s.new_tile if s.new_tile != TR_UNKNOWN else 0
        return dict(_cell(s, i), id=a, kind="decoy",
                    label=f"place the Decoy at ({s.placed[i].x}, {s.placed[i].y})")
    if SA_DECOY_MOVE <= n < SA_DECOY_BLAST + TR_TILES:
        j = (n - SA_DECOY_MOVE) % 100
        blast = n >= SA_DECOY_BLAST
        return dict(_cell(s, j), id=a, kind="decoy_move", detonate=blast,
                    label=f"move the Decoy to ({s.placed[j].x}, {s.placed[j].y})"
                          + (" and detonate it" if blast else ""))
    if SA_MODULATOR <= n < SA_MODULATOR + 2 * TR_TILES:
        c = 3 * ((n - SA_MODULATOR) // TR_TILES)
        j = (n - SA_MODULATOR) % TR_TILES
        return dict(_cell(s, j), id=a, kind="space_modulator", color=COLOR_NAMES[c],
                    label=f"discard a {COLOR_NAMES[c]} mineral: Space Modulator at "
                          f"({s.placed[j].x}, {s.placed[j].y})")
    if SA_MOD_TELEPORT <= n < SA_MOD_TELEPORT + 16 * TR_TILES:
        j = (n - SA_MOD_TELEPORT) % TR_TILES
        src = ((n - SA_MOD_TELEPORT) // TR_TILES) % 4
        kind = ((n - SA_MOD_TELEPORT) // TR_TILES // 4) % 2
        k = (n - SA_MOD_TELEPORT) // TR_TILES // 8
        m = s.players[me].special_tile[1 + k] if me >= 0 else TR_UNKNOWN
        i = _sy_mod_source(s, m, src) if m != TR_UNKNOWN else -1
        frm = _cell(s, i) if i >= 0 else {}
        what = ("emissary", "ship")[kind]
        return {"id": a, "kind": "modulator_teleport", "unit": what, "token": k, "from": frm,
                "to": _cell(s, j),
                "label": f"Space Modulator: teleport the {what} at ({frm.get('x')}, {frm.get('y')}) to "
                         f"({s.placed[j].x}, {s.placed[j].y})"}
    return None
