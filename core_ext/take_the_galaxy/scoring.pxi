# Included by engine.pyx: the end of the game ("End the game"): each seat's renown, scores, ranks (team
# games compare combined scores) and returns (solo: the goal's value; team: the team's outcome).

cdef int _pile_renown(const TgPlayer* pl) noexcept nogil:
    # The renown pile: relinquished systems, studied anomalies, solved events.
    cdef int total = 0, i
    for i in range(pl.n_renown):
        total += SPACE_RENOWN[pl.renown_pile[i]]
    return total


cdef int _banked_renown(const TgPlayer* pl) noexcept nogil:
    return pl.tokens + _pile_renown(pl)


cdef int _system_renown(const TgPlayer* pl) noexcept nogil:
    # The systems under control.
    cdef int total = 0, i
    for i in range(pl.n_systems):
        total += SPACE_RENOWN[pl.systems[i].card]
    return total


cdef inline int _top_colony(const TgSystem* sy, int k) noexcept nogil:
    # The colony on top of slot k (the only one that counts), else -1.
    return sy.stack[k][sy.depth[k] - 1] if sy.depth[k] > 0 else -1


cdef int _colony_renown(const TgPlayer* pl) noexcept nogil:
    # Every slot's top colony (covered ones count nothing).
    cdef int total = 0, i, k, top
    for i in range(pl.n_systems):
        for k in range(SYS_NSLOTS[pl.systems[i].card]):
            top = _top_colony(&pl.systems[i], k)
            if top >= 0:
                total += CARD_RENOWN[top]
    return total


cdef int _score(const TgState* s, int seat) noexcept nogil:
    # "End the game": tokens, the renown pile, systems under control and every top colony. The same
    # four parts, named, are _score_breakdown's (what a player is shown).
    cdef const TgPlayer* pl = &s.players[seat]
    return pl.tokens + _pile_renown(pl) + _system_renown(pl) + _colony_renown(pl)


cdef dict _score_breakdown(const TgState* s, int seat):
    # _score's parts with their names and what makes them up, all public (docs/rules/take_the_galaxy.md
    # section 6; section 7: renown piles, systems and colonies are on the table).
    cdef const TgPlayer* pl = &s.players[seat]
    cdef const TgSystem* sy
    cdef int i, k, top
    pile = [f"{SPACE_NAMES[pl.renown_pile[i]]} {SPACE_RENOWN[pl.renown_pile[i]]:+d}"
            for i in range(pl.n_renown)]
    systems = [f"{SPACE_NAMES[pl.systems[i].card]} {SPACE_RENOWN[pl.systems[i].card]:+d}"
               for i in range(pl.n_systems)]
    colonies = []
    for i in range(pl.n_systems):
        sy = &pl.systems[i]
        for k in range(SYS_NSLOTS[sy.card]):
            top = _top_colony(sy, k)
            if top >= 0:
                colonies.append(f"{CARD_NAMES[top]} {CARD_RENOWN[top]:+d}")
    parts = [
        _part("renown tokens", pl.tokens, ""),
        _part(f"renown pile ({pl.n_renown})", _pile_renown(pl), ", ".join(pile)),
        _part(f"systems held ({pl.n_systems})", _system_renown(pl), ", ".join(systems)),
        _part(f"colonies on top ({len(colonies)})", _colony_renown(pl), ", ".join(colonies)),
    ]
    return {"seat": seat, "name": "", "parts": parts, "total": _score(s, seat)}


def _part(str label, int points, str detail):
    return {"label": label, "points": points, "detail": detail}


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
