# Included by engine.pyx: events (sections VI and X): the areas a placement closed (and emissaries a ship
# unblocked), resolved in order until one needs a decision.

cdef bint _event_pending(const TrianState* s, int root) noexcept nogil:
    # an area closed this turn whose events are not resolved yet
    cdef int k
    if not s.events_pending:
        return False
    for k in range(s.events_next, s.events_count):
        if s.event_root[k] == root:
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
    if s.events_count >= TR_EVENTS:
        return
    if not s.events_pending:
        s.events_count = 0
        s.events_next = 0
    k = s.events_count
    s.event_root[k] = <int16_t>root
    s.event_kind[k] = AREA_UNBLOCKED
    s.events_count += 1
    s.events_pending = 1


cdef bint _unblock_queued(const TrianState* s) noexcept nogil:
    cdef int k
    if not s.events_pending:
        return False
    for k in range(s.events_next, s.events_count):
        if s.event_kind[k] == AREA_UNBLOCKED:
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
        s.events_end_turn = 0
        _events_run(s)


cdef void _events_run(TrianState* s) noexcept nogil:
    # Resolve queued areas in order until one needs a decision, or all are done.
    while s.events_next < s.events_count:
        if _resolve_event(s):
            return
    _events_done(s)


cdef bint _resolve_event(TrianState* s) noexcept nogil:
    # the event at events_next: pay, or start what needs a decision (a take-back, a battle); True when a
    # decision now waits (events_next then still points at this event)
    cdef int root = s.event_root[s.events_next], kind = s.event_kind[s.events_next]
    cdef int tiles, ext, st, total, n_part, only
    cdef int units[MAX_PLAYERS]
    _area_census(s, root, &tiles, &ext, units, &st)
    if kind == AREA_SPACE:
        _pay_closed_area(s, -1, _closed_area_value(kind, tiles, 0, 0))    # VI.1.B: only the closer
        s.events_next += 1
        return False
    n_part = _participants(s, units, &total, &only)
    if kind == AREA_UNBLOCKED:
        # no closing: a battle for control only, when several players still have emissaries
        if n_part < 2:
            s.events_next += 1
            return False
        s.event_credits = 0
        _battle_start(s, units)
        return True
    if kind == AREA_NEBULA:
        _nebula_minerals_appear(s, root, tiles + total + ext)
    s.event_credits = <int16_t>_closed_area_value(kind, tiles, total, ext)
    if n_part >= 2:
        _battle_start(s, units)
        return True
    _pay_closed_area(s, only, s.event_credits)
    _closing_bonus(s, kind, tiles, only)
    if n_part == 1 and only == s.turn_player:
        s.mode = M_TAKEBACK
        return True
    if n_part == 1:
        _control_token(s, only)       # taking control (section VI.3)
    s.events_next += 1
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
    s.nebula_root[k] = <int16_t>root
    for _m in range(count):
        c = _draw_mineral(s)
        if c >= 0:
            s.nebula_minerals[k][c] += 1


cdef void _events_done(TrianState* s) noexcept nogil:
    # every queued event is resolved: back to phase 3, or the end of the turn
    cdef int k
    s.events_pending = 0
    s.events_count = 0
    s.events_next = 0
    for k in range(TR_EVENTS):
        s.event_root[k] = 0
        s.event_kind[k] = 0
    s.event_credits = 0
    if s.events_end_turn:
        s.events_end_turn = 0
        _end_turn(s)
    else:
        s.mode = M_PH3


cdef int _legal_takeback(const TrianState* s, int me, action_t* out) noexcept nogil:
    # section VI.1.A: the closer alone in (or winner of) the area takes back any of its free emissaries
    # there, one decision per emissary in the galaxy's order (so each set is chosen one way), or keeps
    # the rest
    cdef int root = s.event_root[s.events_next], i, n = 1
    out[0] = A_TAKEBACK
    for i in range(s.takeback_next, s.n_placed):
        if _sendable(s, root, i, me):
            out[n] = A_TAKEBACK_TILE + i
            n += 1
    return n


cdef int _apply_takeback(TrianState* s, int me, action_t a) noexcept nogil:
    # keeping at least one emissary takes control and a combat token; the take-back ends by itself when
    # no emissary is left to choose (all taken back, or the rest lies before the last pick)
    cdef int root = s.event_root[s.events_next], i
    if a != A_TAKEBACK:
        _return_emissary(s, a - A_TAKEBACK_TILE)
        s.takeback_next = <uint8_t>(a - A_TAKEBACK_TILE + 1)
        for i in range(s.takeback_next, s.n_placed):
            if _sendable(s, root, i, me):
                return 0             # more to decide
    s.takeback_next = 0
    if _own_free_in_area(s, root, me) > 0:
        _control_token(s, me)        # control kept: 1 combat token
    s.events_next += 1
    _events_run(s)
    return 0
