# Included by engine.pyx: points, the 12 secret missions, ranks with tie-breaks, the
# heuristic evaluation and the default playout policy (End of game, Secret missions).

cdef enum:
    M_CHARGER = 0
    M_SEEKER = 1
    M_CONQUEROR = 2
    M_HERMIT = 3
    M_NOBLE = 4
    M_TRADER = 5
    M_EQUALIZER = 6
    M_ELDER = 7
    M_HOARDER = 8
    M_INDUSTRIALIST = 9
    M_ORBITER = 10
    M_EXPLORER = 11
    # Beyond the Black
    M_COMMANDER = 12
    M_CARTOGRAPHER = 13
    M_ASTRONOMER = 14
    M_COLLECTOR = 15
    M_FLEET_ADMIRAL = 16
    M_PATHFINDER = 17
    M_BALANCER = 18
    M_MENTOR = 19


cdef int _track_colonies(const TegState* s, int g, int track) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        n += s.where[p] == W_COLONY + g and P_TRACK[p] == track
    return n


cdef int _measure(const TegState* s, int g, int mission) noexcept nogil:
    # The quantity a comparative mission compares; "fewest" is negated so that "most" applies.
    if mission == M_CHARGER:
        return s.gal[g].energy
    if mission == M_SEEKER:
        return s.gal[g].culture
    if mission == M_CONQUEROR:
        return _colonies(s, g)
    if mission == M_HERMIT:
        return -_colonies(s, g)
    if mission == M_NOBLE:
        return _track_colonies(s, g, FACE_DIP)
    if mission == M_COMMANDER:
        return _pilots_hired(s, g)
    if mission == M_CARTOGRAPHER:
        return _cards_taken(s, g, 0)
    if mission == M_ASTRONOMER:
        return _cards_taken(s, g, 1)       # dwarf planets, never planets (Bonus points)
    return _track_colonies(s, g, FACE_ECO)


cdef int _resource_colonies(const TegState* s, int g, int res) noexcept nogil:
    cdef int p, n = 0
    for p in range(N_PLANETS):
        n += s.where[p] == W_COLONY + g and (P_RES[p] == res or P_RES[p] == RES_BOTH)
    return n


cdef int _btb_mission_points(const TegState* s, int g, int m) noexcept nogil:
    # The expansion's non-comparative missions (docs section 13.12).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int b, k
    cdef bint ok = False
    if m == M_COLLECTOR:
        ok = True
        for b in range(TEG_BADGES):
            ok = ok and _badges(s, g, b) > 0
    elif m == M_FLEET_ADMIRAL:
        ok = _active_pilots(gal) >= 3
    elif m == M_PATHFINDER:
        for k in range(TEG_SHIPS):
            ok = ok or gal.ship_at[k] == TEG_EXPLORE
    elif m == M_BALANCER:
        ok = _colonies(s, g) >= 2 and \
            _resource_colonies(s, g, RES_ENERGY) == _resource_colonies(s, g, RES_CULTURE)
    elif m == M_MENTOR:
        ok = _pilots_hired(s, g) > _active_pilots(gal)
    return MISSION_VP[m] if ok else 0


cdef int _mission_points(const TegState* s, int g) noexcept nogil:
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int m = gal.mission, h, mine, best_other = -1000, k
    cdef bint all_home = True, none_home = True
    if m >= N_ALL_MISSIONS:
        return 0
    if m <= M_TRADER or M_COMMANDER <= m <= M_ASTRONOMER:
        # strictly most: full value; tied for most: the tied value (Secret missions)
        mine = _measure(s, g, m)
        for h in range(s.n_gal):
            if h != g:
                best_other = _max(best_other, _measure(s, h, m))
        if mine > best_other:
            return MISSION_VP[m]
        return MISSION_TIED[m] if mine == best_other else 0
    if m >= M_COMMANDER:
        return _btb_mission_points(s, g, m)
    if m == M_EQUALIZER:
        return MISSION_VP[m] if _track_colonies(s, g, FACE_DIP) == _track_colonies(s, g, FACE_ECO) else 0
    if m == M_ELDER:
        return MISSION_VP[m] if s.trigger == g else 0
    if m == M_HOARDER:
        return MISSION_VP[m] if gal.energy >= 3 and gal.culture >= 3 else 0
    if m == M_INDUSTRIALIST:
        return MISSION_VP[m] if gal.empire >= MAX_LEVEL else 0
    for k in range(TEG_SHIPS):
        if gal.ship_at[k] == TEG_LOCKED or gal.ship_at[k] == TEG_NONE:
            continue
        if gal.ship_at[k] == TEG_HOME:
            none_home = False
        else:
            all_home = False
    if m == M_ORBITER:
        return MISSION_VP[m] if all_home else 0
    return MISSION_VP[m] if none_home else 0


cdef int _final_score(const TegState* s, int g) noexcept nogil:
    # Missions are revealed and scored at the end (End of game); before, points only.
    if not s.over:
        return _points(s, g)
    return _points(s, g) + _mission_points(s, g) + (_badge_bonus(s, g) if s.btb.on else 0)


cdef int _compare(const TegState* s, int a, int b) noexcept nogil:
    # > 0 when galaxy a finishes ahead of b: score, then colonies, then empire level, then energy +
    # culture (End of game); 0 is a shared place.
    cdef int d = _final_score(s, a) - _final_score(s, b)
    if d != 0:
        return d
    d = _colonies(s, a) - _colonies(s, b)
    if d != 0:
        return d
    d = s.gal[a].empire - s.gal[b].empire
    if d != 0:
        return d
    return (s.gal[a].energy + s.gal[a].culture) - (s.gal[b].energy + s.gal[b].culture)


cdef double _solo_result(const TegState* s) noexcept nogil:
    # The player's result against the Rogue: 1 win, 0 loss, 0.5 a full tie (Solo; docs section 7).
    cdef int c
    if s.gal[ROGUE].empire >= MAX_LEVEL:
        return 0.0
    c = _compare(s, 0, ROGUE)
    return 1.0 if c > 0 else (0.0 if c < 0 else 0.5)


cdef void teg_scores(const void* p, double* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef int g
    for g in range(_n_seats(s)):
        out[g] = _final_score(s, g)


cdef void teg_ranks(const void* p, int* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef int g, h
    if s.solo:
        out[0] = 0 if _solo_result(s) >= 0.5 else 1
        return
    for g in range(_n_seats(s)):
        out[g] = 0
        for h in range(_n_seats(s)):
            if h != g and _compare(s, h, g) > 0:
                out[g] += 1


cdef void teg_returns(const void* p, double* out) noexcept nogil:
    # Solo: the chance of beating the Rogue; otherwise the share of opponents beaten, ties half.
    cdef const TegState* s = _cst(p)
    cdef int g, h, n = _n_seats(s), c
    if s.solo:
        out[0] = _solo_result(s)
        return
    for g in range(n):
        out[g] = 0.0
        for h in range(n):
            if h != g:
                c = _compare(s, g, h)
                out[g] += 1.0 if c > 0 else (0.5 if c == 0 else 0.0)
        out[g] /= n - 1


cdef double _value(const TegState* s, int g) noexcept nogil:
    # A galaxy's worth in points: points, the known mission, progress on tracks, resources, level.
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef double v = _points(s, g)
    cdef int k, p
    if gal.mission < TEG_MISSION_ROOM:
        v += 0.5 * _mission_points(s, g)
    for k in range(TEG_SHIPS):
        p = gal.ship_at[k]
        if p < TEG_PLANET_ROOM and gal.ship_orbit[k]:
            v += 0.25 * P_VP[p] + 0.6 * P_VP[p] * (gal.ship_space[k] + 1.0) / (P_N[p] + 1.0)
        elif p < TEG_PLANET_ROOM:
            v += 0.3
    v += 0.3 * (gal.energy + gal.culture) + 0.8 * gal.empire
    if _is_rogue(s, g):
        v += 1.5 * gal.empire     # the Rogue also wins at level 6
    if s.btb.on:
        v += _btb_value(s, g)
    return v


cdef void teg_evaluate(const void* p, double* out) noexcept nogil:
    cdef const TegState* s = _cst(p)
    cdef double vals[TEG_GALAXIES]
    cdef double best
    cdef int g, h, n = _n_seats(s)
    if s.over:
        teg_returns(p, out)
        return
    for g in range(s.n_gal):
        vals[g] = _value(s, g)
    for g in range(n):
        best = -1e9
        for h in range(s.n_gal):
            if h != g and vals[h] > best:
                best = vals[h]
        out[g] = 1.0 / (1.0 + exp(-(vals[g] - best) / 4.0))


cdef action_t teg_policy(const void* p, Rng* rng, action_t* scratch) noexcept nogil:
    # Greedy one step: the action whose result has the highest value for the decider, with a little
    # exploration; ending the turn with dice left counts slightly less than a neutral use of them.
    cdef const TegState* s = _cst(p)
    cdef TegState child
    cdef int n = teg_legal_actions(p, scratch), i, me = teg_current_player(p), best_i = 0
    cdef double v, best = -1e18
    if n <= 1 or rng_below(rng, 10) == 0:
        return scratch[rng_below(rng, <unsigned int>n)] if n > 0 else 0
    for i in range(n):
        memcpy(&child, s, sizeof(TegState))
        teg_apply(&child, scratch[i])
        v = _value(&child, me) + 0.001 * <double>rng_below(rng, 100)
        if scratch[i] == A_END_TURN:
            v -= 0.2
        if v > best:
            best = v
            best_i = i
    return scratch[best_i]
