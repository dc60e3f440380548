# Included by engine.pyx: search support: the evaluation (a projected renown per seat) and the
# heuristic playout policy (docs/rules/take_the_galaxy.md, section 10). The end-of-game returns are
# scoring.pxi's.

cdef double W_TURN = 0.45    # renown per card unit of economy per turn left
cdef double W_CARD = 0.5     # renown per card in hand (or card unit in the pool)


cdef double _economy(const TgState* s, int seat) noexcept nogil:
    # Card units a turn from the player's colonies and ships (transforms count their net gain).
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double total = 0.0, v
    cdef int i, k
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            if pl.systems[i].depth[k] > 0:
                v = CARD_VALUE[pl.systems[i].stack[k][pl.systems[i].depth[k] - 1]]
                total += v if v > 0 else 0.0
    for i in range(pl.n_ships):
        v = CARD_VALUE[pl.ships[i]]
        total += v if v > 0 else 0.0
    return total


cdef int _future_turns(const TgState* s, int seat) noexcept nogil:
    # Turns the seat will still begin: each space card left starts one turn, in seat order.
    cdef int n = s.params.num_players
    cdef int offset = (seat - s.current + n) % n
    if offset == 0:
        offset = n
    return 0 if s.n_space < offset else 1 + (s.n_space - offset) // n


cdef double _unused_potential(const TgState* s, int seat) noexcept nogil:
    # What the seat to move can still get from its unused colonies and ships this turn.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double total = 0.0, v
    cdef int i, k
    if seat != s.current or (s.phase != PH_ACTION and s.phase != PH_PAY):
        return 0.0
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            if pl.systems[i].depth[k] > 0 and not pl.systems[i].used[k]:
                v = CARD_VALUE[pl.systems[i].stack[k][pl.systems[i].depth[k] - 1]]
                total += v if v > 0 else 0.0
    for i in range(pl.n_ships):
        if not pl.ship_used[i]:
            v = CARD_VALUE[pl.ships[i]]
            total += v if v > 0 else 0.0
    return total


cdef double _projected(const TgState* s, int seat) noexcept nogil:
    # Renown now, plus what the economy, the hand, the pool and the bounties should still turn into
    # renown. A turn is worth the same before and after it begins (future turns at W_TURN per card unit
    # of economy, the current turn as its unused colonies at the same weight), and what the colonies
    # made is worth a little more than their unused promise, so a one-ply bot uses them and spends the
    # pool before ending the turn, which loses both.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double bounty = 0.0, pool = 0.0
    cdef int i
    for i in range(pl.n_systems):
        bounty += pl.systems[i].bounty[0] / 3.0 + pl.systems[i].bounty[1] / 2.0 + pl.systems[i].bounty[2] \
            + pl.systems[i].bounty[3]
    if seat == s.current and (s.phase == PH_ACTION or s.phase == PH_PAY):
        pool = s.pool[R_M] / 3.0 + s.pool[R_P] / 2.0 + s.pool[R_S]
    cdef double economy = _future_turns(s, seat) * _economy(s, seat) + _unused_potential(s, seat)
    return _score(s, seat) + W_TURN * economy + W_CARD * (pl.hand_size + bounty + pool)


cdef void ttg_evaluate(const void* p, double* out) noexcept nogil:
    ttg_plan_evaluate(p, 0, PLAN_NONE, 0.0, PLAN_NONE, 0.0, out)


cdef void ttg_plan_evaluate(const void* p, int seat, int plan, double weight, int all_seats_plan,
                            double all_seats_weight, double* out) noexcept nogil:
    # A plan (docs/search.md "Plans", docs/rules/take_the_galaxy.md section 13) adds weight x its term,
    # in renown, to `seat`'s own projection only: the opponents are still modelled as valuing the
    # position as evaluate() does, and the best other seat is measured without the term.
    # all_seats_plan adds all_seats_weight x its term to every seat's projection (section 13.1): how the
    # search values a position for everyone, so the opponents are modelled with it too. With neither,
    # this is evaluate() exactly (the learned model's features and the search signature rely on that).
    cdef const TgState* s = _cst(p)
    cdef int n = s.params.num_players, i, j
    cdef double base[MAX_PLAYERS]
    cdef double v[MAX_PLAYERS]
    cdef double best_other, d, mine
    if s.phase == PH_OVER:
        ttg_returns(p, out)
        return
    for i in range(n):
        base[i] = _projected(s, i)
        if all_seats_plan != PLAN_NONE:
            base[i] += all_seats_weight * _plan_term(s, i, all_seats_plan)
    if n == 1:
        out[0] = _solo_value(base[0] + (weight * _plan_term(s, 0, plan) if plan != PLAN_NONE else 0.0))
        return
    for i in range(n):
        v[i] = base[i] + base[_mate(s, i)] if s.params.variant == V_TEAM else base[i]
    for i in range(n):
        mine = v[i]
        if i == seat and plan != PLAN_NONE:
            mine += weight * _plan_term(s, i, plan)
        best_other = -1e9
        for j in range(n):
            if j != i and j != _mate(s, i) and v[j] > best_other:
                best_other = v[j]
        d = (mine - best_other) / 6.0
        out[i] = 0.5 + 0.5 * d / (1.0 + (d if d > 0 else -d))   # a smooth squash into (0, 1)


# ---------------------------------------------------------------- plans (docs/rules section 13)

cdef enum:
    PLAN_NONE = 0
    PLAN_SCIENCE = 1        # the order of TTG_PLAN_NAMES
    PLAN_ANOMALIES = 2
    PLAN_NEGATIVE_RENOWN = 3
    PLAN_RELINQUISH = 4

cdef const char* TTG_PLAN_NAMES = "science,anomalies,negative_renown,relinquish"


cdef double _plan_term(const TgState* s, int seat, int plan) noexcept nogil:
    # A plan's progress in renown, one point a unit (the units: docs/rules/take_the_galaxy.md section 13).
    if plan == PLAN_SCIENCE:
        return _science_engine(s, seat)
    if plan == PLAN_ANOMALIES:
        return _anomalies_progress(s, seat)
    if plan == PLAN_NEGATIVE_RENOWN:
        return _negative_colonies(s, seat)
    if plan == PLAN_RELINQUISH:
        return _relinquish_progress(s, seat)
    return 0.0


cdef double _science_engine(const TgState* s, int seat) noexcept nogil:
    # Science a turn from the seat's top colonies and ships (Research Station, Academy, Laboratory,
    # Scout, Survey Cruiser): the engine a science rush builds first. A build places its card at once
    # (payment follows), so no step is ever under way.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double total = 0.0
    cdef int i, k
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            if pl.systems[i].depth[k] > 0:
                total += CARD_OUT[pl.systems[i].stack[k][pl.systems[i].depth[k] - 1]][R_S]
    for i in range(pl.n_ships):
        total += CARD_OUT[pl.ships[i]][R_S]
    return total


cdef double _anomalies_progress(const TgState* s, int seat) noexcept nogil:
    # Anomalies studied (in the renown pile), and a study under way: in the seat's own turn, before it
    # has taken a card, the science in the pool as a share of the cheapest anomaly in explored space,
    # at half weight. A study is one action, but gathering its science takes several (using colonies
    # and ships, converting manpower), and the search scores a new leaf at once (no playout): without
    # this a leaf between the first science and the study would see no progress. Half, because unlike
    # a hire in Tiny Epic Galaxies the science can still be spent elsewhere; the pool empties at the end
    # of the turn, so hoarding without studying earns nothing at the next leaf.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double v = 0.0
    cdef int i, j, card, cheapest = 0
    for i in range(pl.n_renown):
        if pl.renown_pile[i] != TG_HAVEN and SPACE_KIND[pl.renown_pile[i]] == SK_ANOMALY:
            v += 1.0
    if seat != s.current or s.claimed or (s.phase != PH_ACTION and s.phase != PH_PAY):
        return v
    for j in range(s.n_explored):
        card = s.explored[j]
        if SPACE_KIND[card] == SK_ANOMALY and (cheapest == 0 or ANOM_SCIENCE[card] < cheapest):
            cheapest = ANOM_SCIENCE[card]
    if cheapest > 0:
        v += 0.5 * (s.pool[R_S] if s.pool[R_S] < cheapest else cheapest) / <double>cheapest
    return v


cdef double _negative_colonies(const TgState* s, int seat) noexcept nogil:
    # Colonies of negative printed renown (Penal Colony, Strip Mine) on the seat's slots, on top or
    # covered by an upgrade: the rush builds them for their cheap output and may upgrade them away
    # later ("Upgrading Colonies"), which should not undo its progress.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double v = 0.0
    cdef int i, k, d
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            for d in range(pl.systems[i].depth[k]):
                v += CARD_RENOWN[pl.systems[i].stack[k][d]] < 0
    return v


cdef double _relinquish_progress(const TgState* s, int seat) noexcept nogil:
    # Systems relinquished (in the renown pile, Haven included), and each held system's filled slots
    # as a share of its slots at half weight: relinquishing needs every slot filled, so filling a
    # system is the cycle's first half and claiming the next system (it must not be the newest) the
    # rest. Space Race, where it is in explored space, adds its renown on top through the score.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef double v = 0.0
    cdef int i, k, filled
    for i in range(pl.n_renown):
        if pl.renown_pile[i] == TG_HAVEN or SPACE_KIND[pl.renown_pile[i]] == SK_SYSTEM:
            v += 1.0
    for i in range(pl.n_systems):
        filled = 0
        for k in range(SYS_NSLOTS[pl.systems[i].card]):
            filled += pl.systems[i].depth[k] > 0
        v += 0.5 * filled / <double>SYS_NSLOTS[pl.systems[i].card]
    return v


# ---------------------------------------------------------------- playout policy

cdef double _action_priority(const TgState* s, action_t a) noexcept nogil:
    # A greedy order that plays the game's plan: take renown, run the economy, build, then spend
    # what is left on cards. Higher first; ties broken at random by the caller.
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int x, card
    if s.phase == PH_PAY:
        x = a - A_DISCARD            # discard the card least worth building
        return 10.0 - CARD_COST[x] - CARD_VALUE[x] + 0.5 * pl.hand[x]
    if s.phase == PH_FRONTIER:
        return 1.0
    if a == A_END:
        return 0.0
    if A_SOLVE <= a < A_OPPORT:
        card = s.explored[a - A_SOLVE]
        return 100.0 + SPACE_RENOWN[card]
    if A_BUILD <= a < MAX_ACTIONS:
        x = a - A_BUILD
        card = x % TG_TYPES
        if x // (4 * TG_TYPES) >= TG_MAX_SYSTEMS:
            return 90.0 + SPACE_RENOWN[s.explored[x // (4 * TG_TYPES) - TG_MAX_SYSTEMS]] + CARD_RENOWN[card]
        return 50.0 + CARD_VALUE[card] + CARD_RENOWN[card]
    if A_USE_SHIP <= a < A_BOUNTY:
        return 80.0
    if A_BOUNTY <= a < A_BUILD_SHIP:
        return 75.0
    if A_OPPORT <= a < A_SELL:
        return 70.0
    if A_UPGRADE <= a < A_BUILD:
        card = (a - A_UPGRADE) % TG_TYPES
        return 45.0 + CARD_RENOWN[card] + CARD_VALUE[card]
    if A_BUILD_SHIP <= a < A_UPGRADE:
        return 40.0 + CARD_VALUE[a - A_BUILD_SHIP]
    if A_RELINQ <= a < A_USE_SHIP:
        return 35.0 if pl.n_systems >= MAX_SYSTEMS_RULE else -1.0
    if A_SELL <= a < A_RELINQ:
        return 20.0 if s.n_space < s.params.num_players * 2 else -1.0
    if A_RETRIEVE <= a < A_DRAW_M:
        return 15.0 + CARD_COST[a - A_RETRIEVE]
    return 10.0                       # 3 manpower or 2 production: a card


cdef action_t ttg_policy_action(const void* p, Rng* rng, action_t* scratch) noexcept nogil:
    cdef const TgState* s = _cst(p)
    cdef int n = ttg_legal_actions(p, scratch), i, best = 0
    cdef double v, best_v = -1e9
    if n <= 0:
        return A_END
    if rng_uniform(rng) < 0.05:      # a little noise keeps playouts from repeating one line
        return scratch[rng_below(rng, <unsigned int>n)]
    for i in range(n):
        v = _action_priority(s, scratch[i]) + rng_uniform(rng)
        if v > best_v:
            best_v = v
            best = i
    return scratch[best]
