# Included by engine.pyx: battles (section VI.2): emissary battles for a closed area and ship clashes, from
# the start through declaring combat tokens, the roll, rerolls, to the result of each clash.

cdef void _battle_start(TrianState* s, int* units) noexcept nogil:
    # section VI.2.B: bonus = emissaries at the start; the closer attacks if involved, else the
    # next seat clockwise with an emissary there; defenders follow clockwise
    cdef int n = s.params.num_players, k, p
    s.battle_size = 0
    for k in range(MAX_PLAYERS):
        s.battle_order[k] = -1
        s.battle_bonus[k] = 0
        s.battle_roll[k] = 0
        s.battle_rerolls[k] = 0
    for k in range(n):
        p = (s.turn_player + k) % n
        if units[p] > 0:
            s.battle_order[s.battle_size] = <int8_t>p
            s.battle_bonus[p] = <uint8_t>units[p]
            s.battle_size += 1
    s.battle_turn = 0
    s.battle_stage = 1
    s.mode = M_DECLARE


cdef void _battle_roll(TrianState* s) noexcept nogil:
    cdef int k, p
    for k in range(s.battle_size):
        p = s.battle_order[k]
        s.battle_roll[p] = <uint8_t>rng_die(&s.rng_dice, 6)
        s.battle_rerolls[p] = <uint8_t>(s.players[p].declared_tokens - s.players[p].declared_plus)
    s.battle_stage = 2
    s.battle_turn = 0
    _battle_next_reroller(s)


cdef void _battle_next_reroller(TrianState* s) noexcept nogil:
    while s.battle_turn < s.battle_size and s.battle_rerolls[s.battle_order[s.battle_turn]] == 0:
        s.battle_turn += 1
    if s.battle_turn < s.battle_size:
        s.mode = M_REROLL
    else:
        _battle_clash_end(s)


cdef void _battle_clash_end(TrianState* s) noexcept nogil:
    # the result of an emissary clash (section VI.2.B.4): the winner sends home one emissary of each other
    # seat, of the winner's choice; after a tie at the top every clashing seat sends home one of its own
    cdef int k, p, best = -1, n_best = 0, winner = -1, total
    if s.ship_battle_on:
        _ship_clash_end(s)
        return
    cdef int totals[MAX_PLAYERS]
    for k in range(s.battle_size):
        p = s.battle_order[k]
        # +1 tokens help
        total = s.battle_roll[p] + s.battle_bonus[p] + s.players[p].declared_plus + _die_bonus(s, p, -1)
        totals[k] = total
        if total > best:
            best = total
            n_best = 1
            winner = p
        elif total == best:
            n_best += 1
    if n_best > 1:
        for k in range(s.battle_size):           # a racial skill may win ties at the top (Regeneration)
            p = s.battle_order[k]
            if totals[k] == best and _wins_ties(s, p, -1) == p:
                winner = p
                n_best = 1
                break
    s.send_home_seats = 0
    s.send_home_winner = <int8_t>(winner if n_best == 1 else -1)
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if n_best > 1 or p != winner:
            s.send_home_seats |= <uint8_t>(1 << p)     # a tie at the top: every clashing seat loses one
        s.players[p].declared_tokens = 0             # declared tokens go back to the bag
        s.players[p].declared_plus = 0
        s.battle_roll[p] = 0
        s.battle_rerolls[p] = 0
    s.battle_warcry = 0
    s.battle_stage = 0
    s.battle_turn = 0
    _send_home_next(s)


cdef inline bint _sendable(const TrianState* s, int root, int i, int p) noexcept nogil:
    # p's emissary on tile i counts in the area: not on a station, not blocked (the pieces a clash can
    # send home and a closer can take back, as _own_free_in_area counts them)
    cdef int node
    if s.placed[i].emissary != p or s.placed[i].station != 0 or _blocked(s, i):
        return False
    node = _area_node(s, i)
    return node >= 0 and _cfind(s, node) == root


cdef int _send_home_candidates(const TrianState* s, int p, action_t* out) noexcept nogil:
    # the tiles (as send-home actions, ascending) of p's emissaries that may go home after the clash
    cdef int root = s.event_root[s.events_next], i, n = 0
    for i in range(s.n_placed):
        if _sendable(s, root, i, p):
            if out != NULL:
                out[n] = A_SEND_HOME + i
            n += 1
    return n


cdef int _send_home_victim(const TrianState* s) noexcept nogil:
    # the next seat to lose an emissary: battle order (attacker first, then clockwise); -1 none
    cdef int k, p
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if (s.send_home_seats >> p) & 1:
            return p
    return -1


cdef int _send_home_chooser(const TrianState* s) noexcept nogil:
    # the winner chooses the loser's emissary; after a tie each seat chooses its own
    return s.send_home_winner if s.send_home_winner >= 0 else _send_home_victim(s)


cdef void _send_home_next(TrianState* s) noexcept nogil:
    # ask for the next emissary to go home; a choice among fewer than two tiles makes itself
    # (docs/rules/trian.md, section 7); when every loser has sent one home the battle goes on
    cdef int p = _send_home_victim(s), root = s.event_root[s.events_next], i
    while p >= 0:
        if _send_home_candidates(s, p, NULL) >= 2:
            s.mode = M_SEND_HOME
            return
        for i in range(s.n_placed):
            if _sendable(s, root, i, p):
                _return_emissary(s, i)
                break
        s.send_home_seats &= <uint8_t>~(1 << p)
        p = _send_home_victim(s)
    s.send_home_winner = 0
    _battle_after_clash(s)


cdef int _legal_send_home(const TrianState* s, action_t* out) noexcept nogil:
    return _send_home_candidates(s, _send_home_victim(s), out)


cdef int _apply_send_home(TrianState* s, action_t a) noexcept nogil:
    cdef int p = _send_home_victim(s)
    _return_emissary(s, a - A_SEND_HOME)
    s.send_home_seats &= <uint8_t>~(1 << p)
    _send_home_next(s)
    return 0


cdef void _battle_after_clash(TrianState* s) noexcept nogil:
    # every loser has sent an emissary home: the battle goes on while two seats still have emissaries
    # there, else the area is paid and taken (or nobody takes it after a tie)
    cdef int root = s.event_root[s.events_next], k, p, winner, n_left = 0
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if _own_free_in_area(s, root, p) > 0:
            s.battle_order[n_left] = <int8_t>p
            n_left += 1
        else:
            s.battle_bonus[p] = 0
    for k in range(n_left, MAX_PLAYERS):
        s.battle_order[k] = -1
    s.battle_size = <uint8_t>n_left
    s.battle_turn = 0
    if n_left >= 2:
        s.battle_stage = 1
        s.mode = M_DECLARE
        return
    s.battle_stage = 0
    for k in range(MAX_PLAYERS):
        s.battle_bonus[k] = 0
        s.battle_order[k] = -1
    s.battle_size = 0
    if n_left == 1:
        winner = _sole_left(s, root)
        _pay_closed_area(s, winner, s.event_credits)
        _battle_closing_bonus(s, root, winner)
        if winner == s.turn_player and s.event_kind[s.events_next] != AREA_UNBLOCKED:
            s.mode = M_TAKEBACK
            return
        _control_token(s, winner)
    else:
        _pay_closed_area(s, -1, s.event_credits)     # a tie: the closer is paid, no token
        _battle_closing_bonus(s, root, -1)
    s.events_next += 1
    _events_run(s)


cdef void _battle_closing_bonus(TrianState* s, int root, int controller) noexcept nogil:
    cdef int tiles, ext, st
    cdef int units[MAX_PLAYERS]
    cdef int kind = s.event_kind[s.events_next]
    if s.params.variant < V_FULL or kind == AREA_UNBLOCKED:
        return
    _area_census(s, root, &tiles, &ext, units, &st)
    _closing_bonus(s, kind, tiles, controller)


cdef void _ship_battle_next(TrianState* s) noexcept nogil:
    # section VI.2.A: the clash continues while the attacking ship stands next to an enemy ship;
    # afterwards the phase 3 goes on (or ends when that was its last action)
    cdef int a = s.ship_battle_attacker
    if s.ship_battle_on and s.placed[a].ship_kind != 0 and _enemy_ship_adjacent(s, a, s.placed[a].ship_owner):
        s.mode = M_SHIP_TARGET
        s.ship_battle_target = 0                # no clash until the attacker picks its next target
        return
    s.ship_battle_on = 0
    s.ship_battle_attacker = 0
    s.ship_battle_target = 0
    s.mode = M_PH3
    _phase3_goes_on(s)


cdef void _ship_clash_result(TrianState* s, int winner_tile, int loser_tile) noexcept nogil:
    # the loser's ship goes home and the winner takes 2 random minerals (section VI.2.A)
    cdef int p = s.placed[winner_tile].ship_owner, _k, c
    _ship_home(s, loser_tile)
    for _k in range(2):
        c = _draw_mineral(s)
        if c >= 0:
            s.players[p].minerals[c] += 1


cdef void _ship_clash(TrianState* s, int target) noexcept nogil:
    # the attacker picked `target`: a Corvette beats a Rogue without a roll, otherwise dice and tokens
    cdef int a = s.ship_battle_attacker, k, w
    s.ship_battle_target = <uint8_t>target
    if _race_before_clash(s, a, target):
        return                      # a racial skill decides first (e.g. Divine help)
    w = _clash_auto(s, a, target)
    if w >= 0:
        _ship_clash_result(s, w, target if w == a else a)
        _ship_battle_next(s)
        return
    for k in range(MAX_PLAYERS):
        s.battle_order[k] = -1
        s.battle_bonus[k] = 0
        s.battle_roll[k] = 0
        s.battle_rerolls[k] = 0
    s.battle_order[0] = s.placed[a].ship_owner
    s.battle_order[1] = s.placed[target].ship_owner
    s.battle_size = 2
    s.battle_turn = 0
    s.battle_stage = 1
    s.mode = M_DECLARE


cdef int _clash_auto(const TrianState* s, int a, int t) noexcept nogil:
    # the tile of the ship that wins a clash without a roll, or -1 when the clash is rolled:
    # a Corvette beats a Rogue (section VI.2.A), the Supreme Priestess loses to any ship (VIII)
    cdef int ka = s.placed[a].ship_kind, kt = s.placed[t].ship_kind
    if ka == kt:
        return -1
    if ka == SHIP_PRIESTESS:
        return t
    if kt == SHIP_PRIESTESS:
        return a
    if ka == SHIP_CORVETTE and kt == SHIP_ROGUE:
        return -1 if _rogue_fights(s, t) else a
    if ka == SHIP_ROGUE and kt == SHIP_CORVETTE:
        return -1 if _rogue_fights(s, a) else t
    return -1


cdef void _ship_clash_end(TrianState* s) noexcept nogil:
    cdef int a = s.ship_battle_attacker, d = s.ship_battle_target, k, p, tie
    cdef int pa = s.placed[a].ship_owner, pd = s.placed[d].ship_owner
    cdef int ta = s.battle_roll[pa] + s.players[pa].declared_plus + _die_bonus(s, pa, a)
    cdef int td = s.battle_roll[pd] + s.players[pd].declared_plus + _die_bonus(s, pd, d)
    for k in range(s.battle_size):
        p = s.battle_order[k]
        s.players[p].declared_tokens = 0             # declared tokens go back to the bag
        s.players[p].declared_plus = 0
        s.battle_roll[p] = 0
        s.battle_rerolls[p] = 0
    for k in range(MAX_PLAYERS):
        s.battle_order[k] = -1
    s.battle_size = 0
    s.battle_turn = 0
    s.battle_stage = 0
    s.battle_warcry = 0
    if ta == td:
        tie = _wins_ties(s, pa, pd)       # a racial skill may win ties (Regeneration)
        if tie == pa:
            ta += 1
        elif tie == pd:
            td += 1
    if ta > td:
        _ship_clash_result(s, a, d)
    elif td > ta:
        _ship_clash_result(s, d, a)
    else:
        _ship_home(s, a)                        # a tie removes both ships, no minerals
        _ship_home(s, d)
    _ship_battle_next(s)


cdef int _legal_declare(const TrianState* s, int me, action_t* out) noexcept nogil:
    # 0-3 of me's combat tokens face down: a number of "+1" and of "reroll" tokens
    cdef const TrianPlayer* pl = &s.players[me]
    cdef int n = 0, plus, rerolls
    for plus in range(4):
        for rerolls in range(4):
            if plus + rerolls <= 3 and plus <= pl.tokens_plus and rerolls <= pl.tokens_held - pl.tokens_plus:
                out[n] = _declare_action(plus, rerolls)
                n += 1
    if s.params.variant >= V_FULL:
        n = _race_declare_actions(s, me, out, n)     # e.g. Warcry, before the dice are rolled
    return n


cdef int _apply_declare(TrianState* s, int me, action_t a) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int plus, rerolls
    if a >= A_RACE:
        return _race_apply(s, me, a)
    _decode_declare(a, &plus, &rerolls)
    pl.tokens_held -= plus + rerolls
    pl.tokens_plus -= plus
    pl.declared_tokens += plus + rerolls
    pl.declared_plus += plus
    s.battle_turn += 1
    if s.battle_turn >= s.battle_size:
        _battle_roll(s)
    return 0


cdef int _legal_reroll(action_t* out) noexcept nogil:
    out[0] = A_REROLL
    out[1] = A_STAND
    return 2


cdef int _apply_reroll(TrianState* s, int me, action_t a) noexcept nogil:
    # reroll once per declared reroll token, or stand (the remaining rerolls are dropped)
    if a == A_REROLL:
        s.battle_roll[me] = <uint8_t>rng_die(&s.rng_dice, 6)
        s.battle_rerolls[me] -= 1
    else:
        s.battle_rerolls[me] = 0
    _battle_next_reroller(s)
    return 0


cdef int _legal_ship_target(const TrianState* s, action_t* out) noexcept nogil:
    # the enemy ships next to the attacking ship, through outer space
    cdef int n = 0, i = s.ship_battle_attacker, d, j
    for d in range(3):
        j = _space_nb(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0 and s.placed[j].ship_owner != s.placed[i].ship_owner:
            out[n] = A_SHIP_TARGET + j
            n += 1
    _sort_tail(out, n)
    return n


cdef int _apply_ship_target(TrianState* s, action_t a) noexcept nogil:
    _ship_clash(s, a - A_SHIP_TARGET)
    return 0
