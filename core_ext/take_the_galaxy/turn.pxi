# Included by engine.pyx: the turn flow: "Exploration Phase" (reveal, Space Pirates), "Draw Phase",
# "Reset Phase" and "End Phase" (the action phase is actions.pxi), and who moves.

cdef void _reveal(TgState* s) noexcept nogil:
    # "Exploration Phase": the new card at the newest end; over players + 1, the oldest drops off
    # (dropped first here, so the array never holds more than players + 1 cards).
    if s.n_explored >= s.params.num_players + 1:
        s.space_discard[s.n_space_discard] = s.explored[0]
        s.n_space_discard += 1
        _explored_remove(s, 0)
    s.n_space -= 1
    s.explored[s.n_explored] = s.space[s.n_space]
    s.explored_used[s.n_explored] = 0
    s.space[s.n_space] = 0
    s.n_explored += 1


cdef void _begin_turn(TgState* s, int seat) noexcept nogil:
    s.current = <int8_t>seat
    s.turn += 1
    s.turn_steps = 0
    s.claimed = 0
    s.relinquished = 0
    _reveal(s)
    # Event effects of the exploration phase: Space Pirates take one card (a decision), once.
    if (_effects(s) & EF_PIRATES) and s.players[seat].hand_size > 0:
        s.phase = PH_PAY
        s.pay_left = 1
        s.pay_then_draw = 1
        return
    _draw_and_reset(s)


cdef void _draw_and_reset(TgState* s) noexcept nogil:
    # "Draw Phase" and "Reset Phase": one card; own colonies, ships and every opportunity unused.
    cdef TgPlayer* pl = &s.players[s.current]
    cdef int i, k
    _draw_card(s, s.current)
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            pl.systems[i].used[k] = 0
    for i in range(pl.n_ships):
        pl.ship_used[i] = 0
    for i in range(s.n_explored):
        s.explored_used[i] = 0
    s.phase = PH_ACTION


cdef void _end_turn(TgState* s) noexcept nogil:
    # "End Phase": the pool is emptied; the turn that revealed the last space card ends the game.
    s.pool[0] = 0
    s.pool[1] = 0
    s.pool[2] = 0
    if s.n_space == 0:
        s.phase = PH_OVER
        s.current = 0            # no seat moves any more; one value keeps equal states byte-equal
        return
    _begin_turn(s, (s.current + 1) % s.params.num_players)


cdef int ttg_current_player(const void* p) noexcept nogil:
    return TERMINAL_PLAYER if _cst(p).phase == PH_OVER else _cst(p).current


cdef bint ttg_is_terminal(const void* p) noexcept nogil:
    return _cst(p).phase == PH_OVER
