# Included by engine.pyx: the heuristic evaluation (evaluate(): greedy bots, truncated playouts) and
# the default playout policy; docs sections 12 and 13.8.


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
    teg_plan_evaluate(p, 0, PLAN_NONE, 0.0, PLAN_NONE, 0.0, out)


cdef void teg_plan_evaluate(const void* p, int seat, int plan, double weight, int all_seats_plan,
                            double all_seats_weight, double* out) noexcept nogil:
    # Each seat's value against the best other galaxy, through a logistic of scale 4 points. A plan
    # (docs/search.md "Plans", docs/rules section 13.18) adds weight x its term to `seat`'s own value
    # only: the opponents are still modelled as valuing the position as evaluate() does. all_seats_plan
    # adds all_seats_weight x its term to every galaxy's value (SearchConfig.all_seats_plan).
    cdef const TegState* s = _cst(p)
    cdef double vals[TEG_GALAXIES]
    cdef double best, mine
    cdef int g, h, n = _n_seats(s)
    if s.over:
        teg_returns(p, out)
        return
    for g in range(s.n_gal):
        vals[g] = _value(s, g)
        if all_seats_plan != PLAN_NONE and g < n:
            vals[g] += all_seats_weight * _plan_term(s, g, all_seats_plan)
    for g in range(n):
        mine = vals[g]
        if g == seat and plan != PLAN_NONE:
            mine += weight * _plan_term(s, g, plan)
        best = -1e9
        for h in range(s.n_gal):
            if h != g and vals[h] > best:
                best = vals[h]
        out[g] = 1.0 / (1.0 + exp(-(mine - best) / 4.0))


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

cdef double _btb_value(const TegState* s, int g) noexcept nogil:
    # Pilots are counted in points; here the abilities at work, badges toward majorities, ships held
    # up on danger tracks, and a ship waiting in Unexplored Space (it still yields culture).
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef double v = 0.6 * _active_pilots(gal)
    cdef int b, k
    for b in range(TEG_BADGES):
        v += 0.15 * _min(_badges(s, g, b), 3)
    v += 0.5 * _badge_bonus(s, g)  # the majorities as they stand, like the known mission's 0.5
    for k in range(s.depth):
        if s.stack[k].kind == K_EXPLORE and s.stack[k].seat == g:
            v += EXPLORE_WORTH  # an explore under way is worth the average card (one-ply bots see it)
    for k in range(TEG_SHIPS):
        if gal.ship_at[k] == TEG_DANGER:
            v -= 0.4 * (X_TRACK[gal.track_card[k]] - gal.ship_space[k])
        elif gal.ship_at[k] == TEG_EXPLORE:
            v += 0.3  # like a ship on a planet surface: it yields culture (Exploration)
    return v
