# Included by engine.pyx: the turn's flow. Turns and rounds, and settle(), which runs automatic steps
# until a decision is on top (Turn, End of game; docs section 2).


cdef void _reset_turn(TegState* s) noexcept nogil:
    cdef int g
    for g in range(TEG_GALAXIES):
        s.gal[g].once_used = 0
    memset(s.pool, 0, sizeof(s.pool))
    memset(s.bay, 0, sizeof(s.bay))
    memset(s.hire_bay, 0, sizeof(s.hire_bay))
    s.rerolls = 0
    s.converter_used = 0
    s.follow_cost = 1
    s.follow_bonus = 0


cdef void _start_turn(TegState* s, int g) noexcept nogil:
    cdef int _
    _reset_turn(s)
    s.active = <int8_t>g
    if _is_rogue(s, g):
        _push(s, K_ROGUE_TURN, g).a[0] = <uint8_t>LEVEL_DICE[s.gal[g].empire]
        return
    for _ in range(LEVEL_DICE[s.gal[g].empire]):
        s.pool[rng_below(&s.rng_dice, TEG_FACES)] += 1
    _push(s, K_TURN, g)


cdef void _next_turn(TegState* s) noexcept nogil:
    # Called when no task is pending: the next seat's turn, or the end of the round.
    cdef int last = ROGUE if s.solo else _n_seats(s) - 1
    if s.round == 0:
        s.round = 1
        _start_turn(s, 0)
        return
    if s.active < last:
        _start_turn(s, s.active + 1)
        return
    _reset_turn(s)
    if s.trigger >= 0 or s.round >= ROUND_CAP:
        s.over = 1
        return
    s.round += 1
    _start_turn(s, 0)


cdef void _settle(TegState* s) noexcept nogil:
    # Resolve automatic steps until a decision with at least one option is on top (or the game ends).
    cdef action_t buf[MAX_ACTIONS]
    cdef TegTask* t
    while not s.over:
        if s.depth == 0:
            _next_turn(s)
            continue
        t = _top(s)
        if t.kind == K_DIE and (t.a[0] == FACE_ENERGY or t.a[0] == FACE_CULTURE):
            _pop_and_acquire(s, t.seat, t.a[0])
            continue
        if t.kind == K_ROGUE_TURN:
            _rogue_step(s, t)
            continue
        if t.kind == K_ROGUE_DIE and not _can_force(s, t):
            _rogue_resolve(s)
            continue
        if t.kind == K_ROGUE_TAKE and not (s.gal[0].energy > 0 and s.gal[0].culture > 0):
            _rogue_take_auto(s, t)
            continue
        if t.kind == K_FOLLOW:
            if _follow_settle(s, t):
                continue
            break
        if t.kind == K_EXPLORE and t.a[1] == 1 and not _may_leave(s):
            _take_card(s, t.seat, t.a[0], t.a[2])
            continue
        if _options(s, buf) == 0:
            _pop(s)      # the step can do nothing (e.g. no second target): it is skipped
            continue
        break
