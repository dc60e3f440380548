# Included by engine.pyx: the "Action Phase" and the payment: every choice's legal ids and its effect.
#
# One rules concern per function: _legal_* lists the choices of one kind in ascending id order, and
# _do_* applies one kind (the id blocks: ACTION_BLOCKS in describe.pxi).

# ---------------------------------------------------------------- legal actions

cdef int ttg_legal_actions(const void* p, action_t* out) noexcept nogil:
    cdef const TgState* s = _cst(p)
    cdef int t, n = 0
    cdef const TgPlayer* pl
    if s.phase == PH_OVER:
        return 0
    if s.phase == PH_FRONTIER:
        out[0] = A_FRONTIER
        out[1] = A_FRONTIER + 1
        return 2
    pl = &s.players[s.current]
    if s.phase == PH_PAY:
        for t in range(N_TYPES):
            if pl.hand[t] > 0:
                out[n] = A_DISCARD + t
                n += 1
        return n
    out[0] = A_END
    if s.turn_steps >= TURN_STEP_CAP:
        return 1
    return _legal_action_phase(s, out, 1)


cdef int _legal_action_phase(const TgState* s, action_t* out, int n) noexcept nogil:
    cdef int effects = _effects(s)
    n = _legal_resource_uses(s, out, n)
    n = _legal_explored(s, out, n)
    n = _legal_relinquish(s, out, n)
    n = _legal_use(s, out, n, effects)
    n = _legal_bounty(s, out, n)
    n = _legal_build_ship(s, out, n, effects)
    n = _legal_upgrade(s, out, n, effects)
    n = _legal_build(s, out, n, effects)
    return n


cdef int _legal_resource_uses(const TgState* s, action_t* out, int n) noexcept nogil:
    # "The Resources": science fetches a card from the discard pile; manpower and production draw.
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef uint8_t seen[TG_TYPES]
    cdef int i, t
    if s.pool[R_S] >= 1 and pl.n_discard > 0:
        memset(seen, 0, TG_TYPES)
        for i in range(pl.n_discard):
            seen[pl.discard[i]] = 1
        for t in range(N_TYPES):
            if seen[t]:
                out[n] = A_RETRIEVE + t
                n += 1
    if _can_draw(pl):
        if s.pool[R_M] >= 3:
            out[n] = A_DRAW_M
            n += 1
        if s.pool[R_P] >= 2:
            out[n] = A_DRAW_P
            n += 1
    return n


cdef int _legal_explored(const TgState* s, action_t* out, int n) noexcept nogil:
    # Solving events, studying anomalies ("Taking a card from Explored Space", one card per turn),
    # then opportunities (once per turn each) and The Next Step's ship sale.
    cdef int j, card, m, next_step = -1
    if _may_take(s):
        for j in range(s.n_explored):
            card = s.explored[j]
            if SPACE_KIND[card] == SK_ANOMALY and s.pool[R_S] >= ANOM_SCIENCE[card]:
                out[n] = A_SOLVE + j
                n += 1
            elif SPACE_KIND[card] == SK_EVENT and _pool_covers(s, EVENT_SOLVE[card]):
                out[n] = A_SOLVE + j
                n += 1
    for j in range(s.n_explored):
        card = s.explored[j]
        if SPACE_KIND[card] != SK_EVENT or s.explored_used[j]:
            continue
        if _opportunity_usable(s, EVENT_EFFECT[card]):
            out[n] = A_OPPORT + j
            n += 1
        elif EVENT_EFFECT[card] == EF_NEXT and next_step < 0:
            next_step = j
    if next_step >= 0:
        for m in range(s.players[s.current].n_ships):
            out[n] = A_SELL + m
            n += 1
    return n


cdef bint _opportunity_usable(const TgState* s, int effect) noexcept nogil:
    cdef int mate
    if effect == EF_MIGRATION:
        return True
    if effect == EF_GUILDSHIP:
        return s.pool[R_P] >= GUILD_P
    if effect == EF_INVESTORS:
        if _banked_renown(&s.players[s.current]) >= INVESTORS_RP:
            return True
        mate = _mate(s, s.current)
        return mate >= 0 and _banked_renown(&s.players[mate]) >= INVESTORS_RP
    return False


cdef int _legal_relinquish(const TgState* s, action_t* out, int n) noexcept nogil:
    # "Relinquishing a system": once per turn, not the newest, every slot filled.
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int i
    if s.relinquished:
        return n
    for i in range(pl.n_systems - 1):
        if _slots_full(&pl.systems[i]):
            out[n] = A_RELINQ + i
            n += 1
    return n


cdef int _legal_use(const TgState* s, action_t* out, int n, int effects) noexcept nogil:
    # "Using ships and colonies": once per turn; team mates' unused ones too ("Alternative game modes").
    cdef int rel, seat, m, i, k, top
    cdef const TgPlayer* pl
    cdef const TgSystem* sy
    for rel in range(2):
        seat = _owner(s, rel)
        if seat < 0:
            break
        pl = &s.players[seat]
        for m in range(pl.n_ships):
            if not pl.ship_used[m] and _can_use_card(s, pl.ships[m], effects):
                out[n] = A_USE_SHIP + rel * TG_MAX_SHIPS + m
                n += 1
    for rel in range(2):
        seat = _owner(s, rel)
        if seat < 0:
            break
        pl = &s.players[seat]
        for i in range(pl.n_systems):
            sy = &pl.systems[i]
            for k in range(SYS_NSLOTS[sy.card]):
                if sy.depth[k] == 0 or sy.used[k]:
                    continue
                top = sy.stack[k][sy.depth[k] - 1]
                if _can_use_card(s, top, effects):
                    out[n] = A_USE_COLONY + rel * 16 + i * 4 + k
                    n += 1
    return n


cdef int _legal_bounty(const TgState* s, action_t* out, int n) noexcept nogil:
    # "Bounty Systems": resources on a colonized bounty system are taken one at a time, any time.
    cdef int rel, seat, i, r
    cdef const TgPlayer* pl
    for rel in range(2):
        seat = _owner(s, rel)
        if seat < 0:
            break
        pl = &s.players[seat]
        for i in range(pl.n_systems):
            for r in range(4):
                if pl.systems[i].bounty[r] > 0:
                    out[n] = A_BOUNTY + rel * 16 + i * 4 + r
                    n += 1
    return n


cdef int _legal_build_ship(const TgState* s, action_t* out, int n, int effects) noexcept nogil:
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int t
    if pl.n_ships >= TG_MAX_SHIPS:
        return n
    for t in range(N_TYPES):
        if CARD_KIND[t] == KIND_SHIP and pl.hand[t] > 0 and pl.hand_size - 1 >= _build_cost(t, effects):
            out[n] = A_BUILD_SHIP + t
            n += 1
    return n


cdef int _legal_upgrade(const TgState* s, action_t* out, int n, int effects) noexcept nogil:
    # "Upgrading Colonies": same kind, higher printed cost, the difference paid; not under A.I. Strike.
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef const TgSystem* sy
    cdef int i, k, t, old
    if effects & EF_STRIKE:
        return n
    for i in range(pl.n_systems):
        sy = &pl.systems[i]
        for k in range(SYS_NSLOTS[sy.card]):
            if sy.depth[k] == 0 or sy.depth[k] >= TG_STACK:
                continue
            old = sy.stack[k][sy.depth[k] - 1]
            for t in range(N_TYPES):
                if pl.hand[t] > 0 and CARD_KIND[t] == CARD_KIND[old] and CARD_COST[t] > CARD_COST[old] \
                        and pl.hand_size - 1 >= _upgrade_cost(old, t, effects):
                    out[n] = A_UPGRADE + (i * 4 + k) * TG_TYPES + t
                    n += 1
    return n


cdef int _legal_build(const TgState* s, action_t* out, int n, int effects) noexcept nogil:
    # "Building Colonies" on an own system's empty slot, or on a system in explored space (claiming it:
    # room for it, one card per turn, its hazards paid in production first).
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int i, j, k, card, target
    for i in range(pl.n_systems):
        card = pl.systems[i].card
        for k in range(SYS_NSLOTS[card]):
            if pl.systems[i].depth[k] == 0:
                n = _legal_build_slot(s, out, n, effects, i, k, SYS_SLOT[card][k])
    if not _may_take(s) or pl.n_systems >= MAX_SYSTEMS_RULE:
        return n
    for j in range(s.n_explored):
        card = s.explored[j]
        if SPACE_KIND[card] != SK_SYSTEM or s.pool[HAZARD_RESOURCE] < _hazards(s, card, effects):
            continue
        for k in range(SYS_NSLOTS[card]):
            n = _legal_build_slot(s, out, n, effects, TG_MAX_SYSTEMS + j, k, SYS_SLOT[card][k])
    return n


cdef int _legal_build_slot(const TgState* s, action_t* out, int n, int effects, int target, int slot,
                           int slot_type) noexcept nogil:
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int t
    for t in range(N_TYPES):
        if pl.hand[t] > 0 and _fits(t, slot_type) and pl.hand_size - 1 >= _build_cost(t, effects):
            out[n] = A_BUILD + (target * 4 + slot) * TG_TYPES + t
            n += 1
    return n


# ---------------------------------------------------------------- apply

cdef int ttg_apply(void* p, action_t a) noexcept nogil:
    cdef TgState* s = _st(p)
    if s.phase == PH_OVER:
        return -1
    if s.phase == PH_FRONTIER:
        if a != A_FRONTIER and a != A_FRONTIER + 1:
            return -1
        _choose_frontier(s, a - A_FRONTIER)
        return 0
    if s.phase == PH_PAY:
        return _do_discard(s, a - A_DISCARD) if A_DISCARD <= a < A_DISCARD + N_TYPES else -1
    s.turn_steps += 1
    if a == A_END:
        _end_turn(s)
        return 0
    return _apply_action_phase(s, a)


cdef int _apply_action_phase(TgState* s, action_t a) noexcept nogil:
    cdef int x
    if A_RETRIEVE <= a < A_DRAW_M:
        return _do_retrieve(s, a - A_RETRIEVE)
    if a == A_DRAW_M or a == A_DRAW_P:
        return _do_resource_draw(s, a == A_DRAW_M)
    if A_SOLVE <= a < A_OPPORT:
        return _do_solve(s, a - A_SOLVE)
    if A_OPPORT <= a < A_SELL:
        return _do_opportunity(s, a - A_OPPORT)
    if A_SELL <= a < A_RELINQ:
        return _do_sell_ship(s, a - A_SELL)
    if A_RELINQ <= a < A_USE_SHIP:
        return _do_relinquish(s, a - A_RELINQ)
    if A_USE_SHIP <= a < A_USE_COLONY:
        x = a - A_USE_SHIP
        return _do_use_ship(s, _owner(s, x // TG_MAX_SHIPS), x % TG_MAX_SHIPS)
    if A_USE_COLONY <= a < A_BOUNTY:
        x = a - A_USE_COLONY
        return _do_use_colony(s, _owner(s, x // 16), (x % 16) // 4, x % 4)
    if A_BOUNTY <= a < A_BUILD_SHIP:
        x = a - A_BOUNTY
        return _do_bounty(s, _owner(s, x // 16), (x % 16) // 4, x % 4)
    if A_BUILD_SHIP <= a < A_UPGRADE:
        return _do_build_ship(s, a - A_BUILD_SHIP)
    if A_UPGRADE <= a < A_BUILD:
        x = a - A_UPGRADE
        return _do_upgrade(s, x // (4 * TG_TYPES), (x // TG_TYPES) % 4, x % TG_TYPES)
    if A_BUILD <= a < MAX_ACTIONS:
        x = a - A_BUILD
        return _do_build(s, x // (4 * TG_TYPES), (x // TG_TYPES) % 4, x % TG_TYPES)
    return -1


cdef int _do_discard(TgState* s, int card) noexcept nogil:
    cdef TgPlayer* pl = &s.players[s.current]
    if pl.hand[card] == 0 or s.pay_left == 0:
        return -1
    _hand_take(pl, card)
    _discard_push(pl, card)
    s.pay_left -= 1
    if s.pay_left == 0:
        if s.pay_then_draw:
            s.pay_then_draw = 0
            _draw_and_reset(s)
        else:
            s.phase = PH_ACTION
    return 0


cdef void _start_payment(TgState* s, int cost) noexcept nogil:
    # Costs are paid by discarding cards from the hand, one decision per card.
    if cost > 0:
        s.pay_left = <uint8_t>cost
        s.pay_then_draw = 0
        s.phase = PH_PAY


cdef int _do_retrieve(TgState* s, int card) noexcept nogil:
    cdef TgPlayer* pl = &s.players[s.current]
    cdef int i
    for i in range(pl.n_discard - 1, -1, -1):
        if pl.discard[i] == card:
            for i in range(i, pl.n_discard - 1):
                pl.discard[i] = pl.discard[i + 1]
            pl.n_discard -= 1
            pl.discard[pl.n_discard] = 0
            pl.hand[card] += 1
            pl.hand_size += 1
            s.pool[R_S] -= 1
            return 0
    return -1


cdef int _do_resource_draw(TgState* s, bint manpower) noexcept nogil:
    if manpower:
        s.pool[R_M] -= 3
    else:
        s.pool[R_P] -= 2
    _draw_card(s, s.current)
    return 0


cdef int _do_solve(TgState* s, int j) noexcept nogil:
    # "Anomaly" and "Events": pay, the card goes to the renown pile; one card per turn.
    cdef int card = s.explored[j], r
    if SPACE_KIND[card] == SK_ANOMALY:
        s.pool[R_S] -= ANOM_SCIENCE[card]
    else:
        for r in range(TG_RES):
            s.pool[r] -= EVENT_SOLVE[card][r]
    _renown_push(&s.players[s.current], card)
    _explored_remove(s, j)
    s.claimed = 1
    return 0


cdef int _do_opportunity(TgState* s, int j) noexcept nogil:
    cdef int effect = EVENT_EFFECT[s.explored[j]]
    cdef TgPlayer* pl = &s.players[s.current]
    s.explored_used[j] = 1
    if effect == EF_MIGRATION:
        _gain(s, R_M, MIGRATION_M)
    elif effect == EF_GUILDSHIP:
        s.pool[R_P] -= GUILD_P
        _gain(s, R_S, GUILD_S)
    elif effect == EF_INVESTORS:
        if _banked_renown(pl) < INVESTORS_RP:
            pl = &s.players[_mate(s, s.current)]
        pl.tokens -= INVESTORS_RP
        _gain_credits(s, INVESTORS_C)
    else:
        return -1
    return 0


cdef int _do_sell_ship(TgState* s, int m) noexcept nogil:
    # "The Next Step": a ship leaves the game for renown; the opportunity is used for this turn.
    cdef TgPlayer* pl = &s.players[s.current]
    cdef int j, i
    for j in range(s.n_explored):
        if EVENT_EFFECT[s.explored[j]] == EF_NEXT and SPACE_KIND[s.explored[j]] == SK_EVENT:
            s.explored_used[j] = 1
            break
    pl.sold[pl.n_sold] = pl.ships[m]
    pl.n_sold += 1
    for i in range(m, pl.n_ships - 1):
        pl.ships[i] = pl.ships[i + 1]
        pl.ship_used[i] = pl.ship_used[i + 1]
    pl.n_ships -= 1
    pl.ships[pl.n_ships] = 0
    pl.ship_used[pl.n_ships] = 0
    pl.tokens += NEXT_RP
    return 0


cdef int _do_relinquish(TgState* s, int i) noexcept nogil:
    # "Relinquishing a system": the system to the renown pile, the top colonies' renown as tokens, all
    # colony cards to the discard pile, the bounty lost, the other systems keep their order.
    cdef TgPlayer* pl = &s.players[s.current]
    cdef TgSystem* sy = &pl.systems[i]
    cdef int k, d
    for k in range(SYS_NSLOTS[sy.card]):
        pl.tokens += CARD_RENOWN[sy.stack[k][sy.depth[k] - 1]]
        for d in range(sy.depth[k]):
            _discard_push(pl, sy.stack[k][d])
    _renown_push(pl, sy.card)
    if _effects(s) & EF_RACE:
        pl.tokens += RACE_RP
    for k in range(i, pl.n_systems - 1):
        pl.systems[k] = pl.systems[k + 1]
    pl.n_systems -= 1
    memset(&pl.systems[pl.n_systems], 0, sizeof(TgSystem))
    s.relinquished = 1
    return 0


cdef void _use_effect(TgState* s, int card) noexcept nogil:
    # Generating and transforming effects: input from the pool, output to the pool (credits draw cards).
    cdef int r
    for r in range(TG_RES):
        s.pool[r] -= CARD_IN[card][r]
    for r in range(TG_RES):
        if CARD_OUT[card][r]:
            _gain(s, r, CARD_OUT[card][r])
    s.players[s.current].tokens += CARD_OUT_RENOWN[card]
    _gain_credits(s, CARD_OUT[card][R_C])


cdef int _do_use_ship(TgState* s, int seat, int m) noexcept nogil:
    s.players[seat].ship_used[m] = 1
    _use_effect(s, s.players[seat].ships[m])
    return 0


cdef int _do_use_colony(TgState* s, int seat, int i, int k) noexcept nogil:
    cdef TgSystem* sy = &s.players[seat].systems[i]
    sy.used[k] = 1
    _use_effect(s, sy.stack[k][sy.depth[k] - 1])
    return 0


cdef int _do_bounty(TgState* s, int seat, int i, int r) noexcept nogil:
    s.players[seat].systems[i].bounty[r] -= 1
    if r == R_C:
        _gain_credits(s, 1)
    else:
        _gain(s, r, 1)
    return 0


cdef int _do_build_ship(TgState* s, int card) noexcept nogil:
    cdef TgPlayer* pl = &s.players[s.current]
    _hand_take(pl, card)
    pl.ships[pl.n_ships] = <uint8_t>card
    pl.ship_used[pl.n_ships] = 0
    pl.n_ships += 1
    _start_payment(s, _build_cost(card, _effects(s)))
    return 0


cdef int _do_upgrade(TgState* s, int i, int k, int card) noexcept nogil:
    cdef TgPlayer* pl = &s.players[s.current]
    cdef TgSystem* sy = &pl.systems[i]
    cdef int old = sy.stack[k][sy.depth[k] - 1]
    cdef int cost = _upgrade_cost(old, card, _effects(s))
    _hand_take(pl, card)
    _place_colony(sy, k, card)
    _start_payment(s, cost)
    return 0


cdef int _do_build(TgState* s, int target, int k, int card) noexcept nogil:
    cdef TgPlayer* pl = &s.players[s.current]
    cdef int effects = _effects(s)
    cdef int cost = _build_cost(card, effects)
    cdef int j, space_card
    if target >= TG_MAX_SYSTEMS:
        j = target - TG_MAX_SYSTEMS
        space_card = s.explored[j]
        s.pool[HAZARD_RESOURCE] -= _hazards(s, space_card, effects)
        _explored_remove(s, j)
        _system_init(&pl.systems[pl.n_systems], space_card)
        target = pl.n_systems
        pl.n_systems += 1
        s.claimed = 1
    _hand_take(pl, card)
    _place_colony(&pl.systems[target], k, card)
    _start_payment(s, cost)
    return 0
