# Included by races.pxi: race 7, XEMH (named by the rulebook) (section VIII; docs/rules/trian.md,
# section 14.17).
#
# Starting skills (racial skills 0, 1): Gauss Cannon, Warcry.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Afterburner, Absorbing
# shield, Long range system (needs Gauss Cannon).
#
# Actions A_RACE + 7 * RACE_BLOCK + n: n = 0 place the Gauss Cannon on the tile added this turn (the phase 3
# action); n = 1 Warcry (in a clash, before the dice: 1 red mineral for +1).
# Special token 0: the Gauss Cannon (special_tile[0]).

cdef enum:
    XEMH_CANNON = 0          # racial skill indices
    XEMH_WARCRY = 1
    XEMH_AFTERBURNER = 2
    XEMH_SHIELD = 3
    XEMH_LONG_RANGE = 4
    XA_CANNON = 0            # action numbers within the race's block
    XA_WARCRY = 1


# ------------------------------------------------ field of fire (shared with SYLPHEX's Decoy)

cdef bint _in_fire(const TrianState* s, int c, int j, bint wide) noexcept nogil:
    # tile j is in the field of fire of a token on tile c: the tile itself and the 3 tiles sharing an
    # edge with it, or (wide: Long range system, Shockwave) the 12 tiles sharing an edge or a corner
    cdef int dx = s.placed[j].x - s.placed[c].x, dy = s.placed[j].y - s.placed[c].y
    cdef int base = 1 if _orient(s.placed[c].x, s.placed[c].y) == 0 else -1   # the row across the base
    if dx < 0:
        dx = -dx
    if dy == 0:
        return dx == 0 or dx == 1 or (wide and dx == 2)
    if dy == base:
        return dx == 0 or (wide and dx <= 2)
    if dy == -base:
        return wide and dx <= 1
    return False


cdef bint _ships_near(const TrianState* s, int i) noexcept nogil:
    # a ship on tile i or on a tile sharing an edge with it (the placing rule of Decoy and Cannon)
    cdef int d, j
    if s.placed[i].ship_kind != 0:
        return True
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0:
            return True
    return False


cdef int _destroy_ships_in_fire(TrianState* s, int owner, int c, bint wide, bint own_too) noexcept nogil:
    # every ship in the field of fire of the token on tile c goes home (own ships only when own_too);
    # the token's owner gains 2 random minerals per enemy ship destroyed; returns the ships destroyed
    cdef int j, k, m, hits = 0
    for j in range(s.n_placed):
        if s.placed[j].ship_kind == 0 or not _in_fire(s, c, j, wide):
            continue
        if s.placed[j].ship_owner == owner and not own_too:
            continue
        if s.placed[j].ship_owner != owner:
            for k in range(2):
                m = _draw_mineral(s)
                if m >= 0:
                    s.players[owner].minerals[m] += 1
        _ship_home(s, j)
        hits += 1
    return hits


# ------------------------------------------------ hooks

cdef bint _xemh_may_place_cannon(const TrianState* s, int me) noexcept nogil:
    # section VIII: in phase 3, as the action, on the tile added this turn, not next to other ships;
    # ruling: like a ship expedition, as the first action and never into an exmitter's radius
    cdef int i = s.new_tile
    return _has(s, me, R_XEMH, XEMH_CANNON) and s.players[me].special_tile[0] == TR_UNKNOWN and \
        s.actions_taken == 0 and i != TR_UNKNOWN and not _in_exmitter_field(s, i) and not _ships_near(s, i)


cdef int _xemh_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    if _xemh_may_place_cannon(s, me):
        out[n] = A_RACE + R_XEMH * RACE_BLOCK + XA_CANNON
        n += 1
    return n


cdef int _xemh_declare_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # Warcry: before the dice of a clash, 1 red mineral for +1; at most 1 mineral per clash
    if _has(s, me, R_XEMH, XEMH_WARCRY) and s.players[me].minerals[0] > 0 and not (s.battle_warcry >> me) & 1:
        out[n] = A_RACE + R_XEMH * RACE_BLOCK + XA_WARCRY
        n += 1
    return n


cdef int _xemh_apply(TrianState* s, int me, int n) noexcept nogil:
    cdef int c
    if n == XA_CANNON and s.mode == M_PH3:
        c = s.new_tile
        s.players[me].special_tile[0] = <uint8_t>c
        s.actions_left -= 1
        s.actions_taken += 1
        # the cannon fires at once on the enemy ships in its field (only Long range reaches any, since
        # nothing stands next to the tile it is placed on)
        _destroy_ships_in_fire(s, me, c, _has(s, me, R_XEMH, XEMH_LONG_RANGE), False)
        if s.actions_left == 0:
            _finish_ph3(s)
        return 0
    if n == XA_WARCRY and s.mode == M_DECLARE:
        s.players[me].minerals[0] -= 1
        s.bag[0] += 1
        s.battle_warcry |= <uint8_t>(1 << me)
        return 0
    return -1


cdef void _xemh_ship_near(TrianState* s, int p, int j) noexcept nogil:
    # a ship arrived on tile j: p's Gauss Cannon destroys it when it is an enemy ship in its field of
    # fire (ruling: the cannon keeps firing at every enemy ship that ends a move, a teleport or an
    # expedition in its field; p's own ships are never hit)
    cdef int c = s.players[p].special_tile[0], m, k
    if c == TR_UNKNOWN or s.placed[j].ship_kind == 0 or s.placed[j].ship_owner == p:
        return
    if not _in_fire(s, c, j, _has(s, p, R_XEMH, XEMH_LONG_RANGE)):
        return
    for k in range(2):
        m = _draw_mineral(s)
        if m >= 0:
            s.players[p].minerals[m] += 1
    _ship_home(s, j)


cdef void _xemh_exmitted(TrianState* s, int p, int j) noexcept nogil:
    # section VIII: only an exmitter removes the cannon; it goes back to the supply
    if s.players[p].special_tile[0] == j:
        s.players[p].special_tile[0] = TR_UNKNOWN


cdef int _xemh_die_bonus(const TrianState* s, int p, int ship_tile) noexcept nogil:
    return 1 if (s.battle_warcry >> p) & 1 else 0


cdef void _reach_any(const TrianState* s, int i, int depth, int start, uint64_t* out) noexcept nogil:
    # Absorbing shield: through any border (nebulas and gas clouds too), never into an exmitter's
    # radius, ending only on a tile with outer space and no ship
    cdef int d, j
    if depth == 0:
        return
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j < 0 or _in_exmitter_field(s, j):
            continue
        if j != start and s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face):
            _tiles_add(out, j)
        _reach_any(s, j, depth - 1, start, out)


cdef void _xemh_reach(const TrianState* s, int i, uint64_t* reach) noexcept nogil:
    cdef int p = s.placed[i].ship_owner
    cdef int depth = SHIP_MOVES + (1 if _has(s, p, R_XEMH, XEMH_AFTERBURNER) else 0)
    if _has(s, p, R_XEMH, XEMH_SHIELD):
        _reach_any(s, i, depth, i, reach)
    else:
        _reach(s, i, -1, depth, i, reach)


# ------------------------------------------------ Python side

cdef object _xemh_check(const TrianState* s, int p):
    cdef int i
    for i in range(s.n_placed):
        if (s.placed[i].unit and s.placed[i].emissary == p) or \
                (s.placed[i].ship_kind == SHIP_PRIESTESS and s.placed[i].ship_owner == p):
            return f"placed[{i}]: seat {p}'s race has no such unit"
    for i in range(1, 4):
        if s.players[p].special_tile[i] != TR_UNKNOWN:
            return f"player {p}: XEMH has no special token {i}"
    return None


cdef object _xemh_describe(const TrianState* s, int me, int n, int a):
    if n == XA_CANNON:
        i = s.new_tile if s.new_tile != TR_UNKNOWN else 0
        return dict(_cell(s, i), id=a, kind="gauss_cannon",
                    label=f"place the Gauss Cannon at ({s.placed[i].x}, {s.placed[i].y})")
    if n == XA_WARCRY:
        return {"id": a, "kind": "warcry", "label": "Warcry: spend 1 red mineral for +1 to this clash's roll"}
    return None
