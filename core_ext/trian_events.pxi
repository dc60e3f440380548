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


cdef bint _unblock_queued(const TrianState* s) noexcept nogil:
    cdef int k
    if not s.ev_pending:
        return False
    for k in range(s.ev_pos, s.ev_n):
        if s.ev_kind[k] == AREA_UNBLOCKED:
            return True
    return False


cdef void _phase3_goes_on(TrianState* s) noexcept nogil:
    # after a ship's move (and its ship battle) in phase 3: the end of phase 3 after its last action;
    # ruling (issue 16): emissaries the move unblocked fight at once, also when actions remain (a trade
    # outpost's extra actions), so no later move of the turn can undo it (the turn's events still waiting
    # are resolved with it, in queue order), then phase 3 goes on
    if s.actions_left == 0:
        _finish_ph3(s)
    elif _unblock_queued(s):
        s.ev_return = 0
        _events_run(s)


cdef void _events_run(TrianState* s) noexcept nogil:
    # Resolve queued areas in order until one needs a decision, or all are done.
    while s.ev_pos < s.ev_n:
        if _resolve_event(s):
            return
    _events_done(s)


cdef bint _resolve_event(TrianState* s) noexcept nogil:
    # the event at ev_pos: pay, or start what needs a decision (a take-back, a battle); True when a
    # decision now waits (ev_pos then still points at this event)
    cdef int root = s.ev_root[s.ev_pos], kind = s.ev_kind[s.ev_pos], tiles, ext, st, total, n_part, only
    cdef int units[MAX_PLAYERS]
    _area_census(s, root, &tiles, &ext, units, &st)
    if kind == AREA_SPACE:
        _pay_closed_area(s, -1, _closed_area_value(kind, tiles, 0, 0))    # VI.1.B: only the closer
        s.ev_pos += 1
        return False
    n_part = _participants(s, units, &total, &only)
    if kind == AREA_UNBLOCKED:
        # no closing: a battle for control only, when several players still have emissaries
        if n_part < 2:
            s.ev_pos += 1
            return False
        s.ev_credits = 0
        _battle_start(s, units)
        return True
    if kind == AREA_NEBULA:
        _nebula_minerals_appear(s, root, tiles + total + ext)
    s.ev_credits = <int16_t>_closed_area_value(kind, tiles, total, ext)
    if n_part >= 2:
        _battle_start(s, units)
        return True
    _pay_closed_area(s, only, s.ev_credits)
    _closing_bonus(s, kind, tiles, only)
    if n_part == 1 and only == s.turn_player:
        s.mode = M_TAKEBACK
        return True
    if n_part == 1:
        _control_token(s, only)       # taking control (section VI.3)
    s.ev_pos += 1
    return False


cdef int _participants(const TrianState* s, const int* units, int* total, int* only) noexcept nogil:
    # the number of seats with units in the area, their units in all, and the last such seat (-1 none)
    cdef int p, n_part = 0
    total[0] = 0
    only[0] = -1
    for p in range(s.params.num_players):
        total[0] += units[p]
        if units[p] > 0:
            n_part += 1
            only[0] = p
    return n_part


cdef void _nebula_minerals_appear(TrianState* s, int root, int count) noexcept nogil:
    # section X: a closed nebula gets a record with `count` minerals drawn from the bag
    cdef int k = s.n_nebulas, c, _m
    if k >= TR_NEBULAS:
        return
    s.n_nebulas += 1
    s.neb_root[k] = <int16_t>root
    for _m in range(count):
        c = _draw_mineral(s)
        if c >= 0:
            s.neb_minerals[k][c] += 1


cdef void _events_done(TrianState* s) noexcept nogil:
    # every queued event is resolved: back to phase 3, or the end of the turn
    cdef int k
    s.ev_pending = 0
    s.ev_n = 0
    s.ev_pos = 0
    for k in range(TR_EVENTS):
        s.ev_root[k] = 0
        s.ev_kind[k] = 0
    s.ev_credits = 0
    if s.ev_return:
        s.ev_return = 0
        _end_turn(s)
    else:
        s.mode = M_PH3


cdef int _legal_takeback(const TrianState* s, int me, action_t* out) noexcept nogil:
    # section VI.1.A: the closer alone in (or winner of) the area takes back any of its free emissaries
    # there, one decision per emissary in the galaxy's order (so each set is chosen one way), or keeps
    # the rest
    cdef int root = s.ev_root[s.ev_pos], i, n = 1
    out[0] = A_TAKEBACK
    for i in range(s.tb_next, s.n_placed):
        if _sendable(s, root, i, me):
            out[n] = A_TAKEBACK_TILE + i
            n += 1
    return n


cdef int _apply_takeback(TrianState* s, int me, action_t a) noexcept nogil:
    # keeping at least one emissary takes control and a combat token; the take-back ends by itself when
    # no emissary is left to choose (all taken back, or the rest lies before the last pick)
    cdef int root = s.ev_root[s.ev_pos], i
    if a != A_TAKEBACK:
        _return_emissary(s, a - A_TAKEBACK_TILE)
        s.tb_next = <uint8_t>(a - A_TAKEBACK_TILE + 1)
        for i in range(s.tb_next, s.n_placed):
            if _sendable(s, root, i, me):
                return 0             # more to decide
    s.tb_next = 0
    if _own_free_in_area(s, root, me) > 0:
        _control_token(s, me)        # control kept: 1 combat token
    s.ev_pos += 1
    _events_run(s)
    return 0
