# Included by engine.pyx: the end of the game ("End the game"): each seat's renown, scores, ranks (team
# games compare combined scores) and returns (solo: the goal's value; team: the team's outcome).

cdef int _banked_renown(const TgPlayer* pl) noexcept nogil:
    cdef int total = pl.tokens, i
    for i in range(pl.n_renown):
        total += SPACE_RENOWN[pl.renown_pile[i]]
    return total


cdef int _score(const TgState* s, int seat) noexcept nogil:
    # "End the game": tokens, the renown pile, systems under control and every top colony.
    cdef const TgPlayer* pl = &s.players[seat]
    cdef int total = _banked_renown(pl), i, k
    cdef const TgSystem* sy
    for i in range(pl.n_systems):
        sy = &pl.systems[i]
        total += SPACE_RENOWN[sy.card]
        for k in range(SYS_NSLOTS[sy.card]):
            if sy.depth[k] > 0:
                total += CARD_RENOWN[sy.stack[k][sy.depth[k] - 1]]
    return total


cdef void ttg_scores(const void* p, double* out) noexcept nogil:
    cdef int i
    for i in range(_cst(p).params.num_players):
        out[i] = _score(_cst(p), i)


cdef int _side_score(const TgState* s, int seat) noexcept nogil:
    # Team games compare combined scores.
    if s.params.variant == V_TEAM:
        return _score(s, seat) + _score(s, _mate(s, seat))
    return _score(s, seat)


cdef void ttg_ranks(const void* p, int* out) noexcept nogil:
    # Ties are shared: tied seats (or teams) share a rank.
    cdef const TgState* s = _cst(p)
    cdef int n = s.params.num_players, i, j
    cdef int sc[MAX_PLAYERS]
    for i in range(n):
        sc[i] = _side_score(s, i)
    for i in range(n):
        out[i] = 0
        for j in range(n):
            if sc[j] > sc[i]:
                out[i] += 1


cdef double _solo_value(double renown) noexcept nogil:
    # Solo: the search maximises min(1, renown / scale), clamped at 0 (docs, "Solo").
    cdef double v = renown / SOLO_SCALE
    return 0.0 if v < 0 else (1.0 if v > 1 else v)


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
