# Included by engine.pyx: hidden information (observe, determinize) and search support
# (evaluate, the playout policy, returns).

cdef double W_TURN = 0.45    # renown per card unit of economy per turn left
cdef double W_CARD = 0.5     # renown per card in hand (or card unit in the pool)

# ---------------------------------------------------------------- hidden information

cdef void ttg_observe(const void* p, int player, void* out) noexcept nogil:
    # Hidden: the order of every deck (the space deck and each player deck, the owner's own too),
    # other players' hands (sizes public), and the reshuffle streams (they would tell future orders).
    cdef TgState* o = _st(out)
    cdef int seat, i, t
    memcpy(out, p, sizeof(TgState))
    for i in range(o.n_space):
        o.space[i] = TG_UNKNOWN
    for seat in range(o.params.num_players):
        for i in range(o.players[seat].n_draw):
            o.players[seat].draw[i] = TG_UNKNOWN
        # During the set-up every hand is the public marked cards (less the frontier colony chosen).
        if seat != player and o.phase != PH_FRONTIER:
            for t in range(TG_TYPES):
                o.players[seat].hand[t] = TG_UNKNOWN
        memset(&o.shuffle[seat], 0, sizeof(Rng))


cdef void _known_counts(const TgState* s, int seat, int* counts) noexcept nogil:
    # Every card of `seat` in a public place (plus the hand when it is known).
    cdef const TgPlayer* pl = &s.players[seat]
    cdef int i, k, d, t
    for t in range(TG_TYPES):
        counts[t] = 0
    for i in range(pl.n_discard):
        counts[pl.discard[i]] += 1
    for i in range(pl.n_ships):
        counts[pl.ships[i]] += 1
    for i in range(pl.n_sold):
        counts[pl.sold[i]] += 1
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            for d in range(pl.systems[i].depth[k]):
                counts[pl.systems[i].stack[k][d]] += 1
    if pl.hand[0] != TG_UNKNOWN:
        for t in range(N_TYPES):
            counts[t] += pl.hand[t]


cdef void _determinize_player(TgState* s, int seat, Rng* rng) noexcept nogil:
    # The cards not seen anywhere are dealt into the unknown places: the hand (another player's) and
    # the draw pile, in a fresh random order.
    cdef TgPlayer* pl = &s.players[seat]
    cdef int counts[TG_TYPES]
    cdef uint8_t pool[TG_DECK]
    cdef int n = 0, t, k, i
    cdef bint hidden_hand = pl.hand[0] == TG_UNKNOWN
    _known_counts(s, seat, counts)
    for t in range(N_TYPES):
        for k in range(CARD_COPIES[t] - counts[t]):
            if n < TG_DECK:
                pool[n] = <uint8_t>t
                n += 1
    _shuffle(pool, n, rng)
    i = 0
    if hidden_hand:
        for t in range(TG_TYPES):
            pl.hand[t] = 0
        for i in range(pl.hand_size if pl.hand_size < n else n):
            pl.hand[pool[i]] += 1
        i = pl.hand_size if pl.hand_size < n else n
    for k in range(pl.n_draw):
        pl.draw[k] = pool[i + k] if i + k < n else 0
    rng_seed(&s.shuffle[seat], rng_next(rng))


cdef void _seen_space(const TgState* s, uint8_t* seen) noexcept nogil:
    cdef int i, seat
    cdef const TgPlayer* pl
    memset(seen, 0, TG_SPACE + 1)
    for i in range(s.n_explored):
        seen[s.explored[i]] = 1
    for i in range(s.n_space_discard):
        seen[s.space_discard[i]] = 1
    for seat in range(s.params.num_players):
        pl = &s.players[seat]
        for i in range(pl.n_renown):
            seen[pl.renown_pile[i]] = 1
        for i in range(pl.n_systems):
            seen[pl.systems[i].card] = 1


cdef void _determinize_space(TgState* s, Rng* rng) noexcept nogil:
    # Sector by sector (backs are public, Core on top): the cards of the sector not seen yet; in the
    # random set-up, which cards those are is drawn again from the sector's kinds still missing.
    cdef uint8_t seen[TG_SPACE + 1]
    cdef int sec, kind, left, pos = 0
    cdef int n = s.params.num_players
    cdef int seen_count[3][3]
    cdef int i
    _seen_space(s, seen)
    memset(seen_count, 0, sizeof(seen_count))
    for i in range(N_SPACE):
        if seen[i]:
            seen_count[SPACE_SECTOR[i]][SPACE_KIND[i]] += 1
    s.n_space = 0
    for sec in range(2, -1, -1):
        pos = s.n_space
        if s.params.variant != V_RANDOM:
            for i in range(N_SPACE):
                if SPACE_SECTOR[i] == sec and SPACE_PLAYERS[i] <= n and not seen[i]:
                    s.space[s.n_space] = <uint8_t>i
                    s.n_space += 1
        elif n == 1 and sec == SEC_FRINGE:
            _refill_kind(s, seen, sec, SK_SYSTEM, -1,
                         SETUP_COUNT[n][sec][SK_SYSTEM] - seen_count[sec][SK_SYSTEM], rng)
            left = 1 - seen_count[sec][SK_ANOMALY] - seen_count[sec][SK_EVENT]
            _refill_kind(s, seen, sec, SK_ANOMALY, SK_EVENT, left, rng)
        else:
            for kind in range(3):
                _refill_kind(s, seen, sec, kind, -1, SETUP_COUNT[n][sec][kind] - seen_count[sec][kind], rng)
        _shuffle(&s.space[pos], s.n_space - pos, rng)


cdef void _refill_kind(TgState* s, const uint8_t* seen, int sec, int kind, int kind2, int count,
                       Rng* rng) noexcept nogil:
    cdef uint8_t cand[TG_SPACE]
    cdef int n = 0, i, k
    for i in range(N_SPACE):
        if SPACE_SECTOR[i] == sec and (SPACE_KIND[i] == kind or SPACE_KIND[i] == kind2) and not seen[i]:
            cand[n] = <uint8_t>i
            n += 1
    _shuffle(cand, n, rng)
    for k in range(count if count < n else n):
        s.space[s.n_space] = cand[k]
        s.n_space += 1


cdef void ttg_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    cdef TgState* s = _st(p)
    cdef int seat
    cdef uint8_t keep = s.n_space
    _determinize_space(s, rng)
    if s.n_space != keep:          # an inconsistent observation: keep the size the observer saw
        s.n_space = keep
    for seat in range(s.params.num_players):
        _determinize_player(s, seat, rng)


# ---------------------------------------------------------------- evaluation

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


cdef double _solo_value(double renown) noexcept nogil:
    # Solo: the search maximises min(1, renown / scale), clamped at 0 (docs, "Solo").
    cdef double v = renown / SOLO_SCALE
    return 0.0 if v < 0 else (1.0 if v > 1 else v)


cdef void ttg_evaluate(const void* p, double* out) noexcept nogil:
    cdef const TgState* s = _cst(p)
    cdef int n = s.params.num_players, i, j
    cdef double v[MAX_PLAYERS]
    cdef double best_other, d
    if s.phase == PH_OVER:
        ttg_returns(p, out)
        return
    for i in range(n):
        v[i] = _projected(s, i)
    if n == 1:
        out[0] = _solo_value(v[0])
        return
    if s.params.variant == V_TEAM:
        for i in range(n):
            v[i] = v[i] + _projected(s, _mate(s, i))
    for i in range(n):
        best_other = -1e9
        for j in range(n):
            if j != i and j != _mate(s, i) and v[j] > best_other:
                best_other = v[j]
        d = (v[i] - best_other) / 6.0
        out[i] = 0.5 + 0.5 * d / (1.0 + (d if d > 0 else -d))   # a smooth squash into (0, 1)


cdef void ttg_returns(const void* p, double* out) noexcept nogil:
    # Solo: the goal's value; team: every member the team's outcome; otherwise the rank default.
    cdef const TgState* s = _cst(p)
    cdef int n = s.params.num_players, i, mine, theirs
    if n == 1:
        out[0] = _solo_value(_score(s, 0))
        return
    if s.params.variant == V_TEAM:
        for i in range(n):
            mine = _side_score(s, i)
            theirs = _side_score(s, (i + 1) % n)
            out[i] = 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)
        return
    rank_returns(&TTG_OPS, p, out)


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
