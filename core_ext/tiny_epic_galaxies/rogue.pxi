# Included by engine.pyx: the solo Rogue galaxy (Solo; docs section 7). It is galaxy 1, not
# a seat: its dice are chance and every choice follows a rule. The player's decisions on its turn are
# the forced reroll, following, and which resources it takes.

cdef void _rogue_setup(TegState* s) noexcept nogil:
    cdef TegGalaxy* r = &s.gal[ROGUE]
    cdef int k
    r.energy = 0
    r.culture = 0
    r.empire = 1
    for k in range(TEG_SHIPS):
        r.ship_at[k] = TEG_HOME     # all 4 ships on its mat from the start
    if s.btb.rogue_level:
        _harder_rogue_setup(s)


cdef inline bint _can_force(const TegState* s, const TegTask* t) noexcept nogil:
    return not t.a[1] and s.gal[0].energy >= 1 and s.gal[0].culture >= 1


cdef void _rogue_step(TegState* s, TegTask* t) noexcept nogil:
    # Roll the next die; when none is left, the end-of-turn checks (which may give 3 bonus dice).
    cdef TegGalaxy* r = &s.gal[ROGUE]
    cdef TegTask* d
    if t.a[0] > 0:
        t.a[0] -= 1
        d = _push(s, K_ROGUE_DIE, ROGUE)
        d.a[0] = <uint8_t>rng_below(&s.rng_dice, TEG_FACES)
        return
    if t.a[1]:
        _pop(s)
        return
    t.a[1] = 1
    if r.energy >= CAP:
        r.energy = 0
        _upgrade(s, ROGUE)
    if r.culture >= CAP:
        r.culture = 0
        t.a[0] = <uint8_t>_rogue_bonus_dice(s)


cdef void _apply_rogue_die(TegState* s, TegTask* t, action_t a) noexcept nogil:
    if a == A_FORCE:
        s.gal[0].energy -= 1
        s.gal[0].culture -= 1
        t.a[0] = <uint8_t>rng_below(&s.rng_dice, TEG_FACES)
        t.a[1] = 1
    else:
        _rogue_resolve(s)


cdef void _rogue_resolve(TegState* s) noexcept nogil:
    # The die resolves, then the player may follow it (stack order).
    cdef int face = _top(s).a[0]
    cdef TegTask* f
    _pop(s)
    f = _push(s, K_FOLLOW, ROGUE)
    f.a[0] = <uint8_t>face
    f.a[1] = 1
    f.a[2] = s.follow_cost
    if face == FACE_MOVE:
        _rogue_move(s)
    elif face == FACE_ENERGY or face == FACE_CULTURE:
        _rogue_acquire(s, RES_ENERGY if face == FACE_ENERGY else RES_CULTURE)
    elif face == FACE_DIP or face == FACE_ECO:
        _rogue_advance(s, face)
    else:
        _rogue_colony_action(s)


cdef void _rogue_move(TegState* s) noexcept nogil:
    # A ship from its mat enters orbit of the leftmost planet without a Rogue ship in orbit.
    cdef TegGalaxy* r = &s.gal[ROGUE]
    cdef int k, j, i, p, ship = -1
    cdef bint taken
    for k in range(TEG_SHIPS):
        if r.ship_at[k] == TEG_HOME:
            ship = k
            break
    if ship < 0:
        return
    for i in range(s.row_size):
        p = s.row[i]
        if p == TEG_NONE:
            continue
        taken = False
        for j in range(TEG_SHIPS):
            if r.ship_at[j] == p and r.ship_orbit[j]:
                taken = True
        if not taken:
            r.ship_at[ship] = <uint8_t>p
            r.ship_orbit[ship] = 1
            r.ship_space[ship] = 0
            return


cdef void _rogue_acquire(TegState* s, int res) noexcept nogil:
    # Its galaxy produces both resources, plus 1 per ship orbiting a planet of the die's resource.
    cdef TegGalaxy* r = &s.gal[ROGUE]
    cdef int k, n = 0
    for k in range(TEG_SHIPS):
        if r.ship_at[k] < TEG_PLANET_ROOM and (P_RES[r.ship_at[k]] == res or P_RES[r.ship_at[k]] == RES_BOTH):
            n += 1
    _gain(r, RES_ENERGY, 1 + (n if res == RES_ENERGY else 0))
    _gain(r, RES_CULTURE, 1 + (n if res == RES_CULTURE else 0))


cdef void _rogue_advance(TegState* s, int track) noexcept nogil:
    # Every Rogue ship on a track of that type advances 1, left to right in the row.
    cdef TegGalaxy* r = &s.gal[ROGUE]
    cdef int ships[TEG_ROW]
    cdef int n = 0, i, k
    for i in range(s.row_size):
        for k in range(TEG_SHIPS):
            if s.row[i] != TEG_NONE and r.ship_at[k] == s.row[i] and r.ship_orbit[k] and \
                    P_TRACK[s.row[i]] == track:
                ships[n] = k
                n += 1
    for i in range(n):
        _advance(s, ROGUE, ships[i], 1)


cdef int _most_advanced(const TegState* s, int g, int min_space) noexcept nogil:
    # The ship furthest along its track (ties: the leftmost planet), or -1.
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int i, k, best = -1, best_space = min_space - 1
    for i in range(s.row_size):
        for k in range(TEG_SHIPS):
            if s.row[i] != TEG_NONE and gal.ship_at[k] == s.row[i] and gal.ship_orbit[k] and \
                    gal.ship_space[k] > best_space and not _shielded(s, g, k):
                best = k
                best_space = gal.ship_space[k]
    return best


cdef void _rogue_advance_best(TegState* s) noexcept nogil:
    # Terra-Bettia used by the player: the Rogue advances its most advanced ship.
    cdef int k = _most_advanced(s, ROGUE, 0)
    if k >= 0:
        _advance(s, ROGUE, k, 1)


cdef void _rogue_colony_action(TegState* s) noexcept nogil:
    # The beginner Rogue's colony action by its empire level (level 6 uses level 5's).
    cdef TegGalaxy* me = &s.gal[0]
    cdef int level = s.gal[ROGUE].empire, k
    if s.btb.rogue_level:
        _harder_rogue_action(s)
    elif level == 1:
        _gain(me, RES_ENERGY, -1)
    elif level == 2:
        _gain(me, RES_CULTURE, -1)
    elif level == 3:
        if me.culture > 0:
            _gain(me, RES_CULTURE, -1)
            _gain(&s.gal[ROGUE], RES_CULTURE, 1)
    elif level == 4:
        k = _most_advanced(s, 0, 1)
        if k >= 0:
            _push_back(s, 0, k, 1)
    else:
        _push(s, K_ROGUE_TAKE, 0).a[0] = 2


cdef void _rogue_take_one(TegState* s, TegTask* t, int res) noexcept nogil:
    _gain(&s.gal[0], res, -1)
    _gain(&s.gal[ROGUE], res, 1)
    t.a[0] -= 1
    if t.a[0] == 0:
        _pop(s)


cdef void _rogue_take_auto(TegState* s, TegTask* t) noexcept nogil:
    # The player's choice is forced when they hold only one kind (or nothing: the rest is not taken).
    if s.gal[0].energy > 0:
        _rogue_take_one(s, t, RES_ENERGY)
    elif s.gal[0].culture > 0:
        _rogue_take_one(s, t, RES_CULTURE)
    else:
        _pop(s)


cdef void _apply_rogue_take(TegState* s, TegTask* t, action_t a) noexcept nogil:
    _rogue_take_one(s, t, RES_ENERGY if a == A_TAKE_E else RES_CULTURE)
