# Included by engine.pyx: the 40 planet actions (Planets; docs section 6).
#
# A planet action is used after landing, through Utilize a Colony, or copied (Umbra-Forum, Walsfeo,
# Sargus-36). _planet_usable says whether it can do anything now and its costs can be paid;
# _begin_planet pays, resolves the automatic ones and pushes a K_PLANET task for those with decisions:
# a[0] planet, a[1] stage, a[2..] stage data.

cdef inline bint _is_copy_kind(int kind) noexcept nogil:
    return kind == PK_USE_OTHER or kind == PK_COPY_ROW or kind == PK_ANY_DIE or kind == PK_REPEAT_DIE


cdef inline bint _colony_of_another(const TegState* s, int q, int g) noexcept nogil:
    """Planet q is another galaxy's colony (Walsfeo, Sargus-36). W_BOX, the expansion's planets left out of
    a base game, lies above every W_COLONY + galaxy value, so a plain `>= W_COLONY` would take it for one."""
    return W_COLONY <= s.where[q] < W_COLONY + s.n_gal and s.where[q] != W_COLONY + g


cdef bint _enemy_target_exists(const TegState* s, int g, int track, int above_id) noexcept nogil:
    cdef int h, k
    for h in range(s.n_gal):
        if h == g:
            continue
        for k in range(TEG_SHIPS):
            if h * TEG_SHIPS + k <= above_id:
                continue
            if _in_orbit(&s.gal[h], k) and s.gal[h].ship_space[k] >= 1 and not _shielded(s, h, k) and \
                    (track == TRACK_ANY or P_TRACK[s.gal[h].ship_at[k]] == track):
                return True
    return False


cdef inline bint _occupied(const TegState* s, int p) noexcept nogil:
    cdef int h, k
    for h in range(s.n_gal):
        for k in range(TEG_SHIPS):
            if s.gal[h].ship_at[k] == p:
                return True
    return False


cdef int _lowest_level_discount(const TegState* s, int g, int discount) noexcept nogil:
    # Mared: 1 less when your empire level is strictly the lowest of all galaxies.
    cdef int h
    for h in range(s.n_gal):
        if h != g and s.gal[h].empire <= s.gal[g].empire:
            return 0
    return discount


cdef bint _jump_target_exists(const TegState* s, int g, int from_planet) noexcept nogil:
    cdef int i, p, k
    cdef bint mine
    for i in range(s.row_size):
        p = s.row[i]
        if p == TEG_NONE or p == from_planet:
            continue
        mine = False
        for k in range(TEG_SHIPS):
            if s.gal[g].ship_at[k] == p and s.gal[g].ship_orbit[k]:
                mine = True
        if not mine:
            return True
    return False


cdef bint _usable_after_paying(const TegState* s, int g, int q, int resource, int depth) noexcept nogil:
    # Walsfeo / Sargus-36 pay 1 resource to q's owner before q's action is used (_apply_planet), so q must
    # be usable with that payment made: with 2 culture, Jorg's "pay 2 culture" cannot be copied through
    # Walsfeo (it left -1 culture, a state no loader accepts).
    cdef TegState after
    memcpy(&after, s, sizeof(TegState))
    _gain(&after.gal[g], resource, -1)
    _gain(&after.gal[s.where[q] - W_COLONY], resource, 1)
    return _planet_usable(&after, g, q, depth)


cdef bint _planet_usable(const TegState* s, int g, int p, int depth) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int kind = P_KIND[p], k, q, i, h, orbiting = 0
    if _is_rogue(s, g) or depth > COPY_DEPTH:
        return False
    if P_OWN_TURN[p] and not _is_own_turn(s, g):
        return False
    if P_ONCE[p] and (gal.once_used >> p) & 1:
        return False
    if gal.energy < P_C[p] or gal.culture < P_D[p]:
        return False
    if kind == PK_GAIN:
        return (P_A[p] > 0 and gal.energy < CAP) or (P_B[p] > 0 and gal.culture < CAP)
    if kind == PK_ADVANCE_OWN:
        return _has_orbit_on(s, g, P_A[p])
    if kind == PK_FOLLOW_BONUS:
        return True
    if kind == PK_PUSH_BACK:
        return _enemy_target_exists(s, g, P_A[p], -1)
    if kind == PK_REPLACE_ROW:
        for i in range(s.row_size):
            if s.row[i] != TEG_NONE and not _occupied(s, s.row[i]):
                return True
        return False
    if kind == PK_UPGRADE_DISCOUNT:
        k = _lowest_level_discount(s, g, P_A[p])
        return _can_upgrade(gal, RES_ENERGY, k) or _can_upgrade(gal, RES_CULTURE, k)
    if kind == PK_UPGRADE_MIX:
        return gal.empire < MAX_LEVEL and gal.energy + gal.culture >= LEVEL_COST[gal.empire + 1]
    if kind == PK_REROLL or kind == PK_SET_DIE:
        return _pool_total(s) >= 1
    if kind == PK_TRADE:
        return (P_A[p] > 0 and gal.energy < CAP) or (P_B[p] > 0 and gal.culture < CAP)
    if kind == PK_STEAL:
        for h in range(s.n_gal):
            if h != g and _held(&s.gal[h], P_A[p]) >= 1:
                return True
        return False
    if kind == PK_CONVERT:
        return _held(gal, P_A[p]) >= 1 and _held(gal, P_B[p]) < CAP
    if kind == PK_DOUBLE_MOVE:
        return LEVEL_SHIPS[gal.empire] >= 2
    if kind == PK_COPY_ROW:
        if s.depth >= TEG_STACK - 12:
            return False
        for i in range(s.row_size):
            q = s.row[i]
            if q != TEG_NONE and P_KIND[q] != PK_COPY_ROW and _planet_usable(s, g, q, depth + 1):
                return True
        return False
    if kind == PK_GAIN_ALL:
        return True
    if kind == PK_DISCARD_DICE:
        return _pool_total(s) >= P_E[p]
    if kind == PK_RECALL:
        return _ship_count(s, g, TRACK_ANY, 1, TEG_NONE) >= 1
    if kind == PK_USE_OTHER:
        if _held(gal, P_A[p]) < 1 or s.depth >= TEG_STACK - 12:
            return False
        for q in range(N_PLANETS):
            if _colony_of_another(s, q, g) and not _is_copy_kind(P_KIND[q]) \
                    and _usable_after_paying(s, g, q, P_A[p], depth + 1):
                return True
        return False
    if kind == PK_ANY_DIE:
        return s.depth < TEG_STACK - 12
    if kind == PK_BACK_ADVANCE:
        for k in range(TEG_SHIPS):
            orbiting += _in_orbit(gal, k)
        return orbiting >= 2 and _ship_count(s, g, TRACK_ANY, 1, TEG_NONE) >= 1
    if kind == PK_PER_HOME_SHIP:
        return _held(gal, P_A[p]) < CAP and _ships_home(gal) >= 1
    if kind == PK_FOLLOW_COST:
        return s.follow_cost < P_A[p]
    if kind == PK_JUMP:
        for k in range(TEG_SHIPS):
            if _in_orbit(gal, k) and _jump_target_exists(s, g, gal.ship_at[k]):
                return True
        return False
    if kind == PK_ALL_ADVANCE:
        return True
    if kind == PK_REPEAT_DIE:
        if s.depth >= TEG_STACK - 12:
            return False
        for i in range(TEG_FACES):
            if s.bay[i] > 0 and _face_useful(s, g, i, depth + 1):
                return True
        return False
    return False


cdef int _ship_count(const TegState* s, int g, int track, int min_space, int excluded) noexcept nogil:
    cdef action_t buf[TEG_SHIPS]
    return _ship_options(s, g, track, min_space, excluded, buf)


cdef TegTask* _push_planet(TegState* s, int g, int p, int stage) noexcept nogil:
    cdef TegTask* t = _push(s, K_PLANET, g)
    t.a[0] = <uint8_t>p
    t.a[1] = <uint8_t>stage
    return t


cdef void _begin_planet(TegState* s, int g, int p) noexcept nogil:
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int kind = P_KIND[p], h, i
    cdef TegTask* t
    if P_ONCE[p]:
        gal.once_used |= (<uint64_t>1) << p
    gal.energy -= P_C[p]
    gal.culture -= P_D[p]
    if kind == PK_GAIN:
        _gain(gal, RES_ENERGY, P_A[p])
        _gain(gal, RES_CULTURE, P_B[p])
    elif kind == PK_FOLLOW_BONUS:
        s.follow_bonus |= 1 << P_A[p]
    elif kind == PK_TRADE:
        _gain(gal, RES_ENERGY, P_A[p])
        _gain(gal, RES_CULTURE, P_B[p])
    elif kind == PK_GAIN_ALL:
        _gain(gal, P_A[p], P_B[p])
        for h in range(s.n_gal):
            if h != g:
                _gain(&s.gal[h], P_A[p], P_E[p])
    elif kind == PK_PER_HOME_SHIP:
        _gain(gal, P_A[p], _ships_home(gal))
    elif kind == PK_FOLLOW_COST:
        s.follow_cost = <uint8_t>P_A[p]
    elif kind == PK_DOUBLE_MOVE:
        _push_die(s, g, FACE_MOVE, TEG_NONE, 1)
    elif kind == PK_REROLL:
        _push(s, K_REROLL, g).a[7] = 1
    elif kind == PK_SET_DIE:
        t = _push(s, K_CONVERT, g)
        t.a[0] = 2
        t.a[1] = TEG_NONE
        t.a[2] = TEG_NONE
        t.a[4] = 1
    elif kind == PK_ALL_ADVANCE:
        # every other player advances a ship 1 (clockwise), then you advance a ship 2
        _push_planet(s, g, p, 2)
        for i in range(s.n_gal - 1, 0, -1):
            h = (g + i) % s.n_gal
            if _is_rogue(s, h):
                _rogue_advance_best(s)
            else:
                _push_planet(s, h, p, 1)
    else:
        _push_planet(s, g, p, 0)


cdef int _planet_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[t.seat]
    cdef int g = t.seat, p = t.a[0], stage = t.a[1], kind = P_KIND[p], n = 0, i, k, h, q, lo, hi, d
    if kind == PK_ADVANCE_OWN:
        return _ship_options(s, g, P_A[p], 0, TEG_NONE, out)
    if kind == PK_PUSH_BACK:
        lo = -1
        if stage == 1:
            out[0] = A_DONE
            n = 1
            lo = t.a[2]
        for h in range(s.n_gal):
            for k in range(TEG_SHIPS):
                if h != g and h * TEG_SHIPS + k > lo and _in_orbit(&s.gal[h], k) and \
                        s.gal[h].ship_space[k] >= 1 and not _shielded(s, h, k) and \
                        (P_A[p] == TRACK_ANY or P_TRACK[s.gal[h].ship_at[k]] == P_A[p]):
                    out[n] = A_ENEMY + h * TEG_SHIPS + k
                    n += 1
        return n if n > 1 or stage == 0 else 0
    if kind == PK_REPLACE_ROW:
        for i in range(s.row_size):
            if s.row[i] != TEG_NONE and not _occupied(s, s.row[i]):
                out[n] = A_ROW + i
                n += 1
        return n
    if kind == PK_UPGRADE_DISCOUNT:
        d = _lowest_level_discount(s, g, P_A[p])
        if _can_upgrade(gal, RES_ENERGY, d):
            out[n] = A_UPG_E
            n += 1
        if _can_upgrade(gal, RES_CULTURE, d):
            out[n] = A_UPG_C
            n += 1
        return n
    if kind == PK_UPGRADE_MIX:
        if gal.empire >= MAX_LEVEL:
            return 0
        d = LEVEL_COST[gal.empire + 1]
        for i in range(_max(0, d - gal.culture), _min(gal.energy, d) + 1):
            out[n] = A_AMOUNT + i
            n += 1
        return n
    if kind == PK_STEAL:
        for h in range(s.n_gal):
            if h != g and _held(&s.gal[h], P_A[p]) >= 1:
                out[n] = A_PLAYER + h
                n += 1
        return n
    if kind == PK_CONVERT:
        hi = _min(_held(gal, P_A[p]), CAP - _held(gal, P_B[p]))
        for i in range(1, hi + 1):
            out[n] = A_AMOUNT + i
            n += 1
        return n
    if kind == PK_COPY_ROW:
        for i in range(s.row_size):
            q = s.row[i]
            if q != TEG_NONE and P_KIND[q] != PK_COPY_ROW and _planet_usable(s, g, q, 1):
                out[n] = A_ROW + i
                n += 1
        return n
    if kind == PK_DISCARD_DICE:
        for i in range(TEG_FACES):
            if stage == 0 and s.pool[i] >= 1 and _pair_from(s, i):
                out[n] = A_FACE + i
                n += 1
            elif stage == 1 and i >= t.a[2] and s.pool[i] - (i == t.a[2]) >= 1:
                out[n] = A_FACE + i
                n += 1
        return n
    if kind == PK_RECALL:
        if stage == 0:
            return _ship_options(s, g, TRACK_ANY, 1, TEG_NONE, out)
        for i in range(t.a[3] + 1):
            out[n] = A_AMOUNT + i
            n += 1
        return n
    if kind == PK_USE_OTHER:
        for q in range(N_PLANETS):
            if _colony_of_another(s, q, g) and not _is_copy_kind(P_KIND[q]) \
                    and _usable_after_paying(s, g, q, P_A[p], 1):
                out[n] = _colony_action(q)
                n += 1
        return n
    if kind == PK_ANY_DIE:
        for i in range(TEG_FACES):
            if _face_useful(s, g, i, 1):
                out[n] = A_FACE + i
                n += 1
        return n
    if kind == PK_BACK_ADVANCE:
        if stage == 0:
            n = _ship_options(s, g, TRACK_ANY, 1, TEG_NONE, out)
            # the ship moved back needs a different ship to advance afterwards
            return n if _ship_count(s, g, TRACK_ANY, 0, TEG_NONE) >= 2 else 0
        return _ship_options(s, g, TRACK_ANY, 0, t.a[2], out)
    if kind == PK_JUMP:
        if stage == 0:
            for k in range(TEG_SHIPS):
                if _in_orbit(gal, k) and _jump_target_exists(s, g, gal.ship_at[k]):
                    out[n] = A_SHIP + k
                    n += 1
            return n
        for i in range(s.row_size):
            q = s.row[i]
            if q == TEG_NONE or q == gal.ship_at[t.a[2]]:
                continue
            for k in range(TEG_SHIPS):
                if gal.ship_at[k] == q and gal.ship_orbit[k]:
                    break
            else:
                out[n] = A_ROW + i
                n += 1
        return n
    if kind == PK_ALL_ADVANCE:
        return _ship_options(s, g, TRACK_ANY, 0, TEG_NONE, out)
    if kind == PK_REPEAT_DIE:
        for i in range(TEG_FACES):
            if s.bay[i] > 0 and _face_useful(s, g, i, 1):
                out[n] = A_FACE + i
                n += 1
        return n
    return 0


cdef void _apply_planet(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef TegGalaxy* gal = &s.gal[t.seat]
    cdef int g = t.seat, p = t.a[0], stage = t.a[1], kind = P_KIND[p], v, slot, k, q
    if kind == PK_ADVANCE_OWN:
        _pop(s)
        _advance(s, g, a - A_SHIP, P_B[p])
    elif kind == PK_PUSH_BACK:
        if a == A_DONE:
            _pop(s)
            return
        v = a - A_ENEMY
        _push_back(s, v // TEG_SHIPS, v % TEG_SHIPS, P_B[p])
        if stage == 0 and P_E[p] >= 2:
            t.a[1] = 1
            t.a[2] = <uint8_t>v
        else:
            _pop(s)
    elif kind == PK_REPLACE_ROW:
        _pop(s)
        slot = a - A_ROW
        # Helios: the removed planet is discarded, not put under the deck (docs section 6)
        s.where[s.row[slot]] = W_DISCARD
        _refill_slot(s, slot)
    elif kind == PK_UPGRADE_DISCOUNT:
        _pop(s)
        _pay_upgrade(s, g, RES_ENERGY if a == A_UPG_E else RES_CULTURE, _lowest_level_discount(s, g, P_A[p]))
    elif kind == PK_UPGRADE_MIX:
        _pop(s)
        v = a - A_AMOUNT
        gal.culture -= LEVEL_COST[gal.empire + 1] - v
        gal.energy -= v
        _upgrade(s, g)
    elif kind == PK_STEAL:
        _pop(s)
        _gain(&s.gal[a - A_PLAYER], P_A[p], -1)
        _gain(gal, P_A[p], 1)
    elif kind == PK_CONVERT:
        _pop(s)
        _gain(gal, P_A[p], -(a - A_AMOUNT))
        _gain(gal, P_B[p], a - A_AMOUNT)
    elif kind == PK_COPY_ROW:
        _pop(s)
        _begin_planet(s, g, s.row[a - A_ROW])
    elif kind == PK_DISCARD_DICE:
        if stage == 0:
            t.a[1] = 1
            t.a[2] = <uint8_t>(a - A_FACE)
            return
        k = t.a[2]          # the first pick: read before _pop zeroes the task
        _pop(s)
        s.pool[k] -= 1
        s.pool[a - A_FACE] -= 1
        _gain(gal, RES_ENERGY, P_A[p])
        _gain(gal, RES_CULTURE, P_B[p])
    elif kind == PK_RECALL:
        if stage == 0:
            k = a - A_SHIP
            t.a[1] = 1
            t.a[2] = <uint8_t>k
            t.a[3] = gal.ship_space[k]
            gal.ship_at[k] = TEG_HOME
            gal.ship_orbit[k] = 0
            gal.ship_space[k] = 0
            return
        v = a - A_AMOUNT
        _gain(gal, RES_ENERGY, v)
        _gain(gal, RES_CULTURE, t.a[3] - v)
        _pop(s)
    elif kind == PK_USE_OTHER:
        _pop(s)
        q = _colony_of(a)
        _gain(gal, P_A[p], -1)
        _gain(&s.gal[s.where[q] - W_COLONY], P_A[p], 1)
        _begin_planet(s, g, q)
    elif kind == PK_ANY_DIE:
        _pop(s)
        _activate(s, g, a - A_FACE, 0)      # others may follow it for free
    elif kind == PK_BACK_ADVANCE:
        k = a - A_SHIP
        if stage == 0:
            _push_back(s, g, k, 1)
            t.a[1] = 1
            t.a[2] = <uint8_t>k
            return
        _pop(s)
        _advance(s, g, k, 1)
    elif kind == PK_JUMP:
        if stage == 0:
            t.a[1] = 1
            t.a[2] = <uint8_t>(a - A_SHIP)
            return
        k = t.a[2]
        _pop(s)
        _jump(s, g, k, s.row[a - A_ROW])
    elif kind == PK_ALL_ADVANCE:
        _pop(s)
        _advance(s, g, a - A_SHIP, P_A[p] if stage == 1 else P_B[p])
    elif kind == PK_REPEAT_DIE:
        _pop(s)
        _push_die(s, g, a - A_FACE, TEG_NONE, 0)   # not a die activation: no following


cdef void _jump(TegState* s, int g, int k, int q) noexcept nogil:
    # Gort: the same-numbered space on another planet's track; at or past its final space it colonizes.
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int space = gal.ship_space[k]
    gal.ship_at[k] = <uint8_t>q
    gal.ship_orbit[k] = 1
    if space >= P_N[q] + 1:
        gal.ship_space[k] = P_N[q]
        _advance(s, g, k, 1)
    else:
        gal.ship_space[k] = <uint8_t>space
