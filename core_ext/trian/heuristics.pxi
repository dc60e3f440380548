# Included by engine.pyx: search support: the evaluation, the default policy and the fast random playout.

cdef void trian_evaluate(const void* p, double* out) noexcept nogil:
    # credits + 3 per mineral + 2 per combat token + 2 per emissary on the board + 4 per station level,
    # squashed against the opponents' mean into [0, 1]
    cdef const TrianState* s = _cst(p)
    cdef int n = s.params.num_players, i, k
    cdef double v[MAX_PLAYERS]
    cdef double mean, diff
    cdef uint32_t sk
    for i in range(n):
        v[i] = s.players[i].credits + 3.0 * _mineral_total(&s.players[i]) + 2.0 * s.players[i].tokens_held
        sk = s.players[i].skills          # variant full: a module is worth its price + 1 (racial + 3)
        for k in range(3):
            if (sk >> (2 + k)) & 1:
                v[i] += PRICE_RACIAL + 3
            if (sk >> (U_BIT + k)) & 1:
                v[i] += PRICE_UNIVERSAL + 1
    for k in range(s.n_placed):
        if s.placed[k].emissary >= 0:
            v[s.placed[k].emissary] += 2.0 + 4.0 * s.placed[k].station
    for i in range(n):
        mean = 0.0
        for k in range(n):
            if k != i:
                mean += v[k]
        mean /= (n - 1)
        diff = v[i] - mean
        out[i] = 0.5 + 0.5 * diff / (abs(diff) + 20.0)


cdef action_t trian_policy(const void* p, Rng* rng, action_t* scratch) noexcept nogil:
    # a cheap default policy: take minerals, skip buying, prefer construction, then expedition,
    # then research; keep one emissary in closed areas; declare what it has and reroll low dice
    cdef const TrianState* s = _cst(p)
    cdef int n = trian_legal_actions(p, scratch), k
    cdef action_t a
    if s.mode == M_PH1:
        for k in range(n):
            if A_GAIN <= scratch[k] < A_GAIN + TR_NEBULAS * 4:
                return scratch[k]
        if s.params.variant >= V_FULL and s.players[s.turn_player].credits >= 20:
            for k in range(n):            # variant full: a racial skill while 10 credits are left
                a = scratch[k]
                if A_UNLOCK <= a < A_UNLOCK + 6 and (a - A_UNLOCK) % 2 == 1:
                    return a
        return A_END_PH1
    if s.mode == M_PH3:
        for k in range(n):
            a = scratch[k]
            if A_CONSTRUCT <= a < A_CONSTRUCT + TR_TILES:
                return a
        for k in range(n):
            if scratch[k] == A_EXPEDITION:
                return A_EXPEDITION
        for k in range(n):
            if scratch[k] == A_RESEARCH:
                return A_RESEARCH
        return A_PASS
    if s.mode == M_TAKEBACK:                # take back all but one: the first offered while 2 are left
        if n >= 2 and _own_free_in_area(s, s.event_root[s.events_next], s.turn_player) >= 2:
            return scratch[1]
        return A_TAKEBACK
    if s.mode == M_DECLARE:
        return scratch[n - 1]
    if s.mode == M_REROLL:
        return A_REROLL if s.battle_roll[trian_current_player(p)] <= 3 else A_STAND
    return scratch[rng_below(rng, <uint32_t>n)]


cdef int trian_playout(void* p, Rng* rng, int max_moves) noexcept nogil:
    # Uniform random play, except that phase 1 ends with probability 1/2 at each step: uniform
    # choice among dozens of trades would spend every credit each turn and triple the game length.
    # A placement is drawn by rejection sampling over (cell, side, rotation), which is uniform over
    # the legal placements without listing them; after 64 misses the list is built as usual.
    cdef action_t buf[MAX_ACTIONS]
    cdef TrianState* s = _st(p)
    cdef int moves = 0, n, _tries, fi, side, rot, f
    cdef uint32_t r
    cdef action_t a
    while moves < max_moves and s.mode != M_END:
        a = -1
        if s.mode == M_PH1 and rng_below(rng, 2) == 0:
            a = A_END_PH1
        elif s.mode == M_PLACE and s.n_front > 0:
            for _tries in range(64):
                r = rng_below(rng, <uint32_t>(s.n_front * 6))
                fi = <int>(r // 6)
                side = <int>((r % 6) // 3)
                rot = <int>(r % 3)
                f = TILE_FACE[s.drawn_tile][side]
                if _fits(s.front_required[fi], OCODE[f][_orient(s.front_x[fi], s.front_y[fi])][rot]):
                    a = A_PLACE + <int>r
                    break
        if a < 0:
            n = trian_legal_actions(p, buf)
            if n <= 0:
                return -1
            a = buf[rng_below(rng, <uint32_t>n)]
        if trian_apply(p, a) != 0:
            return -1
        moves += 1
    return moves
