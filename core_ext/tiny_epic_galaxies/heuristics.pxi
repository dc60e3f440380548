# Included by engine.pyx: the heuristic evaluation (evaluate(): greedy bots, truncated playouts) and
# the default playout policy; docs sections 12 and 13.8.


cdef double _value(const TegState* s, int g) noexcept nogil:
    # A galaxy's worth in points (the greedy policy's measure of a move): _worth() of the full state.
    cdef int badges[TEG_GALAXIES * TEG_BADGES]
    if s.btb.on:
        _badge_counts(s, badges)
    return _worth(s, g, _points(s, g), True, badges)


cdef inline double _worth(const TegState* s, int g, int points, bint mission_seen,
                          const int* badges) noexcept nogil:
    # A galaxy's worth in points: points (_points()), the known mission (mission_seen: a viewer who
    # sees it), progress on tracks, resources, level; with Beyond the Black badges (_badge_counts()).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef double v = points
    cdef int k, p
    if mission_seen and gal.mission < TEG_MISSION_ROOM:   # never read where not seen
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
        v += _btb_value(s, g, badges)
    return v


cdef inline void _worths(const TegState* s, int viewer, double* vals, int* points) noexcept nogil:
    # Every galaxy's _worth() and _points(); viewer >= 0: as that seat's observation would give them
    # (another seat's kept mission is hidden from it until the end, which evaluate() does not reach).
    cdef int badges[TEG_GALAXIES * TEG_BADGES]
    cdef int g
    if s.btb.on:
        _badge_counts(s, badges)
    for g in range(s.n_gal):
        points[g] = _points(s, g)
        vals[g] = _worth(s, g, points[g], viewer < 0 or g == viewer, badges)


cdef inline void _against_best(const TegState* s, const double* vals, int seat, int plan, double weight,
                               double* out) noexcept nogil:
    # Each seat's value against the best other galaxy, through a logistic of scale 4 points; `seat`'s
    # own plus weight x its plan's term.
    cdef double best, mine
    cdef int g, h
    for g in range(_n_seats(s)):
        mine = vals[g]
        if g == seat and plan != PLAN_NONE:
            mine += weight * _plan_term(s, g, plan)
        best = -1e9
        for h in range(s.n_gal):
            if h != g and vals[h] > best:
                best = vals[h]
        out[g] = 1.0 / (1.0 + exp(-(mine - best) / 4.0))


cdef void teg_evaluate(const void* p, double* out) noexcept nogil:
    teg_plan_evaluate(p, 0, PLAN_NONE, 0.0, PLAN_NONE, 0.0, out)


cdef void teg_plan_evaluate(const void* p, int seat, int plan, double weight, int all_seats_plan,
                            double all_seats_weight, double* out) noexcept nogil:
    # Each seat's value against the best other galaxy, through a logistic of scale 4 points. A plan
    # (docs/search.md "Plans", docs/rules section 13.18) adds weight x its term to `seat`'s own value
    # only: the opponents are still modelled as valuing the position as evaluate() does. all_seats_plan
    # adds all_seats_weight x its term to every galaxy's value (SearchConfig.all_seats_plan).
    cdef const TegState* s = _cst(p)
    cdef double vals[TEG_GALAXIES]
    cdef int points[TEG_GALAXIES]
    cdef int g
    if s.over:
        teg_returns(p, out)
        return
    _worths(s, -1, vals, points)
    if all_seats_plan != PLAN_NONE:
        for g in range(_n_seats(s)):
            vals[g] += all_seats_weight * _plan_term(s, g, all_seats_plan)
    _against_best(s, vals, seat, plan, weight, out)


cdef void teg_observed_values(const void* p, int observer, double* value, double* points) noexcept nogil:
    # evaluate() and scores() of observe(p, observer), without building the observation: an
    # observation differs from its state in the other seats' missions (evaluate() counts only the
    # observer's), the decks and dice (read by neither) and the other seats' face-down cards, of which
    # both read only the counts by class, which hiding keeps (hidden.pxi). For the learned evaluation's
    # features (features.pyx); tests/test_learned_teg.py checks it bit for bit.
    cdef const TegState* s = _cst(p)
    cdef double vals[TEG_GALAXIES]
    cdef int pts[TEG_GALAXIES]
    cdef int g
    if s.over:
        teg_returns(p, value)
        teg_scores(p, points)
        return
    _worths(s, observer, vals, pts)
    for g in range(_n_seats(s)):
        points[g] = pts[g]      # scores() before the end: _points()
    _against_best(s, vals, 0, PLAN_NONE, 0.0, value)


# ---------------------------------------------------------------- plans (docs/rules section 13.18)

cdef enum:
    PLAN_NONE = 0
    PLAN_PILOTS = 1     # the order of TEG_PLAN_NAMES
    PLAN_EXPLORE = 2
    PLAN_COLONIES = 3

cdef const char* TEG_PLAN_NAMES = "pilots,explore,colonies"


cdef double _plan_term(const TegState* s, int g, int plan) noexcept nogil:
    # A plan's progress in value points, one point a unit: pilots hired (flying or replaced, as they
    # score); exploration cards taken (face up or down, their badges and dwarf planets with them);
    # planets colonized plus each ship's share of its colony track (as _value counts track progress).
    # A hire or an explore under way counts as done: it cannot be abandoned, and a leaf scored at its
    # first micro-step (the pilot or the move chosen) must already see the plan's unit.
    # Zero in the base game for the two expansion plans.
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef double v = 0.0
    cdef int k, p
    if plan == PLAN_PILOTS or plan == PLAN_EXPLORE:
        if not s.btb.on:
            return 0.0
        v = <double>(_pilots_hired(s, g) if plan == PLAN_PILOTS else _cards_taken(s, g, 0))
        for k in range(s.depth):
            if s.stack[k].seat == g and s.stack[k].kind == (K_HIRE if plan == PLAN_PILOTS else K_EXPLORE):
                v += 1.0
        return v
    if plan == PLAN_COLONIES:
        for p in range(N_PLANETS):
            v += s.where[p] == W_COLONY + g
        for k in range(TEG_SHIPS):
            p = gal.ship_at[k]
            if p < TEG_PLANET_ROOM and gal.ship_orbit[k]:
                v += (gal.ship_space[k] + 1.0) / (P_N[p] + 1.0)
    return v


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


# ---------------------------------------------------------------- Beyond the Black's part

cdef double _btb_value(const TegState* s, int g, const int* badges) noexcept nogil:
    # Pilots are counted in points; here the abilities at work, badges toward majorities, ships held
    # up on danger tracks, and a ship waiting in Unexplored Space (it still yields culture). badges:
    # _badge_counts().
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef double v = 0.6 * _active_pilots(gal)
    cdef int b, k
    for b in range(TEG_BADGES):
        v += 0.15 * _min(badges[g * TEG_BADGES + b], 3)
    v += 0.5 * _bonus_of(badges, s.n_gal, g)  # the majorities as they stand, like the known mission's 0.5
    for k in range(s.depth):
        if s.stack[k].kind == K_EXPLORE and s.stack[k].seat == g:
            v += EXPLORE_WORTH  # an explore under way is worth the average card (one-ply bots see it)
    for k in range(TEG_SHIPS):
        if gal.ship_at[k] == TEG_DANGER:
            v -= 0.4 * (X_TRACK[gal.track_card[k]] - gal.ship_space[k])
        elif gal.ship_at[k] == TEG_EXPLORE:
            v += 0.3  # like a ship on a planet surface: it yields culture (Exploration)
    return v
