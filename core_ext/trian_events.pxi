# Included by trian.pyx: events (sections VI and X): the areas a placement closed (and emissaries a ship
# unblocked), resolved in order until one needs a decision.

cdef bint _event_pending(const TrianState* s, int root) noexcept nogil:
    # an area closed this turn whose events are not resolved yet
    cdef int k
    if not s.ev_pending:
        return False
    for k in range(s.ev_pos, s.ev_n):
        if s.ev_root[k] == root:
            return True
    return False


cdef void _check_unblock(TrianState* s, int i) noexcept nogil:
    # issue 3 / section XI: an emissary that becomes unblocked in a closed, resolved area held by
    # another player starts an emissary battle there (queued with the turn's events)
    cdef int root, k
    if s.placed[i].emissary < 0:
        return
    root = _settled_root(s, i)
    if root < 0 or _controller(s, root) != -2:
        return
    if s.ev_n >= TR_EVENTS:
        return
    if not s.ev_pending:
        s.ev_n = 0
        s.ev_pos = 0
    k = s.ev_n
    s.ev_root[k] = <int16_t>root
    s.ev_kind[k] = AREA_UNBLOCKED
    s.ev_n += 1
    s.ev_pending = 1


cdef void _events_run(TrianState* s) noexcept nogil:
    # Resolve queued areas in order until one needs a decision, or all are done.
    cdef int root, kind, tiles, ext, st, p, n_part, total, value, c, m, k, only, _st
    cdef int units[MAX_PLAYERS]
    while s.ev_pos < s.ev_n:
        root = s.ev_root[s.ev_pos]
        kind = s.ev_kind[s.ev_pos]
        _area_census(s, root, &tiles, &ext, units, &st)
        s.ev_closer = s.turn_player
        if kind == AREA_SPACE:
            s.players[s.turn_player].credits += tiles * 3     # section VI.1.B: only the closer
            s.ev_pos += 1
            continue
        if kind == AREA_UNBLOCKED:
            # no closing: a battle for control only, when several players still have emissaries
            n_part = 0
            for p in range(s.params.num_players):
                if units[p] > 0:
                    n_part += 1
            if n_part < 2:
                s.ev_pos += 1
                continue
            s.ev_credits = 0
            _battle_start(s, units)
            return
        total = 0
        n_part = 0
        only = -1
        for p in range(s.params.num_players):
            total += units[p]
            if units[p] > 0:
                n_part += 1
                only = p
        if kind == AREA_NEBULA:
            value = (tiles + total) * (ext + 1)
            m = tiles + total + ext       # section X: minerals appear on closing
            k = s.n_nebulas
            if k < TR_NEBULAS:
                s.n_nebulas += 1
                s.neb_root[k] = <int16_t>root
                for _st in range(m):
                    c = _draw_mineral(s)
                    if c >= 0:
                        s.neb_minerals[k][c] += 1
        else:
            value = (tiles + total) * 2
        s.ev_credits = <int16_t>value
        if n_part == 0:
            s.players[s.turn_player].credits += value
            _closing_bonus(s, kind, tiles, -1)
            s.ev_pos += 1
            continue
        if n_part == 1:
            s.players[only].credits += value
            _closing_bonus(s, kind, tiles, only)
            if only == s.turn_player:
                s.mode = M_TAKEBACK
                return
            _control_token(s, only)       # taking control (section VI.3)
            s.ev_pos += 1
            continue
        _battle_start(s, units)
        return
    # all resolved
    s.ev_pending = 0
    s.ev_n = 0
    s.ev_pos = 0
    for k in range(TR_EVENTS):
        s.ev_root[k] = 0
        s.ev_kind[k] = 0
    s.ev_credits = 0
    s.ev_closer = 0
    if s.ev_return:
        s.ev_return = 0
        _end_turn(s)
    else:
        s.mode = M_PH3
