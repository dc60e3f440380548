# Included by engine.pyx: the active player's dice (activation, rerolls, the converter),
# resolving a die face for a galaxy, and following (Turn, Actions).

cdef int _acquire_amount(const TegState* s, int g, int res) noexcept nogil:
    # 1 per ship on or orbiting a planet of that resource; energy also 1 per ship on the galaxy mat
    # (Beyond the Black: see _ship_yield).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int k, at, n = 0
    if s.btb.on:
        for k in range(TEG_SHIPS):
            n += _ship_yield(s, g, k, res)
        return n
    for k in range(TEG_SHIPS):
        at = gal.ship_at[k]
        if at < TEG_PLANET_ROOM:
            n += P_RES[at] == res
        elif at == TEG_HOME and res == RES_ENERGY:
            n += 1
    return n


cdef void _pop_and_acquire(TegState* s, int g, int face) noexcept nogil:
    cdef int res = RES_ENERGY if face == FACE_ENERGY else RES_CULTURE
    _pop(s)
    _gain(&s.gal[g], res, _acquire_amount(s, g, res))


cdef bint _has_orbit_on(const TegState* s, int g, int track) noexcept nogil:
    cdef int k
    for k in range(TEG_SHIPS):
        if _in_orbit(&s.gal[g], k) and (track == TRACK_ANY or P_TRACK[s.gal[g].ship_at[k]] == track):
            return True
    return False


cdef inline bint _can_upgrade(const TegGalaxy* gal, int res, int discount) noexcept nogil:
    if gal.empire >= MAX_LEVEL:
        return False
    return _held(gal, res) >= LEVEL_COST[gal.empire + 1] - discount


cdef bint _face_useful(const TegState* s, int g, int face, int depth) noexcept nogil:
    # Whether resolving this face can change anything for galaxy g (activation and following offer
    # only useful dice; docs section 2).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int p
    if face == FACE_MOVE:
        return True
    if face == FACE_ENERGY:
        return gal.energy < CAP and _acquire_amount(s, g, RES_ENERGY) > 0
    if face == FACE_CULTURE:
        return gal.culture < CAP and _acquire_amount(s, g, RES_CULTURE) > 0
    if face == FACE_DIP or face == FACE_ECO:
        return _has_orbit_on(s, g, face)
    if _can_upgrade(gal, RES_ENERGY, 0) or _can_upgrade(gal, RES_CULTURE, 0):
        return True
    for p in range(N_PLANETS):
        if s.where[p] == W_COLONY + g and _planet_usable(s, g, p, depth):
            return True
    return False


# ---- the main step of a turn

cdef int _turn_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef int n = 0, f, g = t.seat, total = _pool_total(s)
    for f in range(TEG_FACES):
        if s.pool[f] > 0 and _face_useful(s, g, f, 0):
            out[n] = A_ACTIVATE + f
            n += 1
    out[n] = A_END_TURN
    n += 1
    if total > 0 and (s.rerolls == 0 or s.gal[g].energy >= 1):
        out[n] = A_REROLL
        n += 1
    if not s.converter_used and total >= 3:
        out[n] = A_CONVERT
        n += 1
    return n + _turn_btb_options(s, g, out + n)


cdef void _activate(TegState* s, int g, int face, int cost) noexcept nogil:
    # The die's face is resolved first; the followers are asked after it (stack order).
    cdef TegTask* t = _push(s, K_FOLLOW, g)
    t.a[0] = <uint8_t>face
    t.a[1] = 1
    t.a[2] = <uint8_t>cost
    _push_die(s, g, face, TEG_NONE, 0)


cdef void _push_die(TegState* s, int g, int face, int excluded, int then_second) noexcept nogil:
    cdef TegTask* t = _push(s, K_DIE, g)
    t.a[0] = <uint8_t>face
    t.a[1] = <uint8_t>excluded
    t.a[2] = <uint8_t>then_second


cdef void _apply_turn(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int g = t.seat
    if a < A_END_TURN:
        s.pool[a] -= 1
        s.bay[a] += 1
        _activate(s, g, a, s.follow_cost)
    elif a == A_END_TURN:
        _pop(s)
    elif a == A_REROLL:
        _push(s, K_REROLL, g)
    elif a == A_CONVERT:
        _push(s, K_CONVERT, g)
    elif a >= A_PILOT:
        _apply_turn_btb(s, g, a)


# ---- rerolls (micro-steps: FACE per die, non-decreasing, then DONE)

cdef int _reroll_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef int n = 0, f, picked = 0
    for f in range(TEG_FACES):
        picked += t.a[f]
    if picked > 0 or t.a[7]:
        out[n] = A_DONE
        n += 1
    for f in range(t.a[6], TEG_FACES):
        if t.a[f] < s.pool[f]:
            out[n] = A_FACE + f
            n += 1
    return n


cdef void _apply_reroll(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int f, i, picked = 0
    cdef uint8_t sel[TEG_FACES]
    if a != A_DONE:
        t.a[a - A_FACE] += 1
        t.a[6] = <uint8_t>(a - A_FACE)
        return
    for f in range(TEG_FACES):
        sel[f] = t.a[f]
        picked += sel[f]
    if not t.a[7]:
        # The first reroll of the turn is free, each later one costs 1 energy (Turn, majority reading).
        if s.rerolls > 0:
            s.gal[t.seat].energy -= 1
        s.rerolls += 1
    _pop(s)
    for f in range(TEG_FACES):
        s.pool[f] -= sel[f]
    for i in range(picked):
        s.pool[rng_below(&s.rng_dice, TEG_FACES)] += 1


# ---- the converter (two spent dice set a third), and Gyore (set one die)

cdef bint _pair_from(const TegState* s, int f) noexcept nogil:
    # A first pick of face f can be completed by a second die of face >= f (picks are non-decreasing).
    cdef int g
    if s.pool[f] >= 2:
        return True
    for g in range(f + 1, TEG_FACES):
        if s.pool[g] >= 1:
            return True
    return False


cdef int _convert_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef int n = 0, f, stage = t.a[0], left
    for f in range(TEG_FACES):
        left = s.pool[f]
        if stage >= 1:
            left -= t.a[1] == f
        if stage >= 2 and not t.a[4]:
            left -= t.a[2] == f
        if stage == 0 and left >= 1 and _pair_from(s, f):
            pass
        elif stage == 1 and f >= t.a[1] and left >= 1:
            pass
        elif stage == 2 and left >= 1:
            pass
        elif stage == 3 and f != t.a[3]:
            pass
        else:
            continue
        out[n] = A_FACE + f
        n += 1
    return n


cdef void _apply_convert(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int f = a - A_FACE
    if t.a[0] == 0:
        t.a[1] = <uint8_t>f
        t.a[0] = 1
    elif t.a[0] == 1:
        t.a[2] = <uint8_t>f
        t.a[0] = 2
    elif t.a[0] == 2:
        t.a[3] = <uint8_t>f
        t.a[0] = 3
    else:
        if not t.a[4]:
            # the two converter dice are spent: not activated, not followed (Turn)
            s.pool[t.a[1]] -= 1
            s.pool[t.a[2]] -= 1
            s.converter_used = 1
        s.pool[t.a[3]] -= 1
        s.pool[f] += 1
        _pop(s)


# ---- resolving a face for one galaxy (the active player's die, a follow, Zavodnick, Piedes)

cdef bint _move_ok(const TegState* s, int g, int k, int dest) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int at = gal.ship_at[k], slot, orbit, p, j
    if at == TEG_DANGER:
        return False        # a ship on a danger track only advances on it (Additional rules)
    if dest == 0:
        return at != TEG_HOME
    slot = (dest - 1) >> 1
    orbit = (dest - 1) & 1
    if slot >= s.row_size:
        return False
    p = s.row[slot]
    if p == TEG_NONE or p == at:
        return False        # a ship must change planet (Actions)
    for j in range(TEG_SHIPS):
        if j != k and gal.ship_at[j] == p and gal.ship_orbit[j] == orbit:
            return False    # one ship per player on a surface and one on a track
    return True


cdef int _move_options(const TegState* s, int g, int excluded, action_t* out) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int n = 0, k, d
    cdef bint home_seen = False
    for k in range(TEG_SHIPS):
        if k == excluded or gal.ship_at[k] == TEG_LOCKED or gal.ship_at[k] == TEG_NONE:
            continue
        if _interchangeable_home(gal, k):
            if home_seen:
                continue    # ships on the mat are interchangeable: offer the lowest-numbered one
            home_seen = True
        for d in range(MOVE_DESTS):
            if _move_ok(s, g, k, d):
                out[n] = A_MOVE + k * MOVE_DESTS + d
                n += 1
    return n + _move_btb_options(s, g, excluded, out + n)


cdef int _ship_options(const TegState* s, int g, int track, int min_space, int excluded,
                       action_t* out) noexcept nogil:
    cdef int n = 0, k
    for k in range(TEG_SHIPS):
        if k == excluded or not _in_orbit(&s.gal[g], k) or s.gal[g].ship_space[k] < min_space:
            continue
        if track == TRACK_ANY or P_TRACK[s.gal[g].ship_at[k]] == track:
            out[n] = A_SHIP + k
            n += 1
    return n


cdef int _die_options(const TegState* s, const TegTask* t, action_t* out) noexcept nogil:
    cdef int g = t.seat, face = t.a[0], n = 0, p
    if face == FACE_MOVE:
        return _move_options(s, g, t.a[1], out)
    if face == FACE_DIP or face == FACE_ECO:
        return _ship_options(s, g, face, 0, TEG_NONE, out)
    if face == FACE_COLONY:
        if _can_upgrade(&s.gal[g], RES_ENERGY, 0):
            out[n] = A_UPG_E
            n += 1
        if _can_upgrade(&s.gal[g], RES_CULTURE, 0):
            out[n] = A_UPG_C
            n += 1
        for p in range(N_PLANETS):
            if s.where[p] == W_COLONY + g and _planet_usable(s, g, p, 0):
                out[n] = _colony_action(p)
                n += 1
    return n


cdef void _pay_upgrade(TegState* s, int g, int res, int discount) noexcept nogil:
    _gain(&s.gal[g], res, -(LEVEL_COST[s.gal[g].empire + 1] - discount))
    _upgrade(s, g)


cdef void _do_move(TegState* s, int g, int k, int dest, int then_second) noexcept nogil:
    cdef TegGalaxy* gal = &s.gal[g]
    cdef int p
    cdef TegTask* t
    if dest == 0:
        gal.ship_at[k] = TEG_HOME
        gal.ship_orbit[k] = 0
        gal.ship_space[k] = 0
    else:
        p = s.row[(dest - 1) >> 1]
        gal.ship_at[k] = <uint8_t>p
        gal.ship_orbit[k] = <uint8_t>((dest - 1) & 1)
        gal.ship_space[k] = 0
        _pilot_on_arrival(s, g, k)
    if then_second:
        _push_die(s, g, FACE_MOVE, k, 0)      # Nagato: the second move, with a different ship
    if dest != 0 and not gal.ship_orbit[k] and _planet_usable(s, g, gal.ship_at[k], 0):
        t = _push(s, K_LAND, g)               # on landing the player may use the planet's action
        t.a[0] = gal.ship_at[k]


cdef void _apply_die(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int g = t.seat, face = t.a[0], then_second = t.a[2], m
    _pop(s)
    if face == FACE_MOVE and a >= A_MOVE_END:
        _apply_move_btb(s, g, a, then_second)
    elif face == FACE_MOVE:
        m = a - A_MOVE
        _do_move(s, g, m // MOVE_DESTS, m % MOVE_DESTS, then_second)
    elif face == FACE_DIP or face == FACE_ECO:
        _advance(s, g, a - A_SHIP, 1)
    elif a == A_UPG_E:
        _pay_upgrade(s, g, RES_ENERGY, 0)
    elif a == A_UPG_C:
        _pay_upgrade(s, g, RES_CULTURE, 0)
    else:
        _begin_planet(s, g, _colony_of(a))


cdef void _apply_land(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int g = t.seat, p = t.a[0]
    _pop(s)
    if a == A_USE:
        _begin_planet(s, g, p)


# ---- following (after each resolved die, each other player in clockwise order)

cdef inline int _follower(const TegState* s, const TegTask* t) noexcept nogil:
    if s.solo:
        return 0
    return (t.seat + t.a[1]) % _n_seats(s)


cdef inline int _followers(const TegState* s, const TegTask* t) noexcept nogil:
    # In solo only the player follows, and only the Rogue's dice; the Rogue never follows.
    if s.solo:
        return 1 if t.seat == ROGUE else 0
    return _n_seats(s) - 1


cdef bint _follow_settle(TegState* s, TegTask* t) noexcept nogil:
    # Skip followers who cannot pay or for whom the face does nothing; True when the task moved on.
    cdef int f
    while t.a[1] <= _followers(s, t):
        f = _follower(s, t)
        if s.gal[f].culture >= t.a[2] and _face_useful(s, f, t.a[0], 0):
            return False
        t.a[1] += 1
    _pop(s)
    return True


cdef void _apply_follow(TegState* s, TegTask* t, action_t a) noexcept nogil:
    cdef int f = _follower(s, t), face = t.a[0], leader = t.seat
    t.a[1] += 1
    if a != A_FOLLOW:
        return
    s.gal[f].culture -= t.a[2]
    if leader == s.active and not _is_rogue(s, leader):
        # Birkomius / Bisschop: the active player gains 1 for each player who follows this turn
        if s.follow_bonus & 1:
            _gain(&s.gal[leader], RES_ENERGY, 1)
        if s.follow_bonus & 2:
            _gain(&s.gal[leader], RES_CULTURE, 1)
    _push_die(s, f, face, TEG_NONE, 0)
