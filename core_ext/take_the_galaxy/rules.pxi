# Included by engine.pyx: set-up, the five phases and every action-phase choice.
#
# One rules concern per function: _legal_* lists the choices of one kind in ascending id order, and
# _do_* applies one kind. Section names in comments are the rulebook's headings.

cdef inline TgState* _st(void* p) noexcept nogil:
    return <TgState*>p


cdef inline const TgState* _cst(const void* p) noexcept nogil:
    return <const TgState*>p


cdef inline int _mate(const TgState* s, int seat) noexcept nogil:
    # "Alternative game modes": team mates sit across, seats 0/2 and 1/3.
    return (seat + 2) % 4 if s.params.variant == V_TEAM else -1


cdef inline int _owner(const TgState* s, int rel) noexcept nogil:
    return s.current if rel == 0 else _mate(s, s.current)


cdef int _effects(const TgState* s) noexcept nogil:
    # "Events": an event acts while it lies in explored space.
    cdef int bits = 0, j
    for j in range(s.n_explored):
        if SPACE_KIND[s.explored[j]] == SK_EVENT:
            bits |= EVENT_EFFECT[s.explored[j]]
    return bits


cdef void _shuffle(uint8_t* cards, int n, Rng* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, <unsigned int>(i + 1))
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


# ---------------------------------------------------------------- cards moving

cdef void _draw_card(TgState* s, int seat) noexcept nogil:
    # "B Player Deck": an empty deck is made anew from the shuffled discard pile when a card is needed.
    cdef TgPlayer* pl = &s.players[seat]
    cdef int i
    if pl.n_draw == 0:
        if pl.n_discard == 0:
            return
        for i in range(pl.n_discard):
            pl.draw[i] = pl.discard[i]
            pl.discard[i] = 0
        pl.n_draw = pl.n_discard
        pl.n_discard = 0
        _shuffle(pl.draw, pl.n_draw, &s.shuffle[seat])
    pl.n_draw -= 1
    pl.hand[pl.draw[pl.n_draw]] += 1
    pl.draw[pl.n_draw] = 0
    pl.hand_size += 1


cdef inline void _discard_push(TgPlayer* pl, int card) noexcept nogil:
    pl.discard[pl.n_discard] = <uint8_t>card
    pl.n_discard += 1


cdef inline void _hand_take(TgPlayer* pl, int card) noexcept nogil:
    pl.hand[card] -= 1
    pl.hand_size -= 1


cdef void _explored_remove(TgState* s, int j) noexcept nogil:
    # A card leaves explored space; the others close the gap in order.
    cdef int k
    for k in range(j, s.n_explored - 1):
        s.explored[k] = s.explored[k + 1]
        s.explored_used[k] = s.explored_used[k + 1]
    s.n_explored -= 1
    s.explored[s.n_explored] = 0
    s.explored_used[s.n_explored] = 0


cdef inline void _renown_push(TgPlayer* pl, int card) noexcept nogil:
    if pl.n_renown < TG_RENOWN_PILE:
        pl.renown_pile[pl.n_renown] = <uint8_t>card
        pl.n_renown += 1


cdef inline void _gain(TgState* s, int r, int amount) noexcept nogil:
    cdef int v = s.pool[r] + amount
    s.pool[r] = <uint8_t>(POOL_CAP if v > POOL_CAP else v)


cdef void _gain_credits(TgState* s, int amount) noexcept nogil:
    # "Credits": earning credits draws that many cards.
    cdef int i
    for i in range(amount):
        _draw_card(s, s.current)


# ---------------------------------------------------------------- set-up ("Setup")

cdef void _build_space_deck(TgState* s, Rng* rng) noexcept nogil:
    # Fringe at the bottom, then Expanse, Core on top; each sector shuffled on its own.
    cdef int sec, start, i
    for sec in range(2, -1, -1):
        start = s.n_space
        if s.params.variant == V_RANDOM:
            _select_random_sector(s, sec, rng)
        else:
            for i in range(N_SPACE):
                if SPACE_SECTOR[i] == sec and SPACE_PLAYERS[i] <= s.params.num_players:
                    s.space[s.n_space] = <uint8_t>i
                    s.n_space += 1
        _shuffle(&s.space[start], s.n_space - start, rng)


cdef void _select_random_sector(TgState* s, int sec, Rng* rng) noexcept nogil:
    # "Random Play": the sector's counts drawn at random from all of its cards. Solo Fringe takes
    # "1 Event or Anomaly": one card from the two kinds together.
    cdef int n = s.params.num_players, kind
    if n == 1 and sec == SEC_FRINGE:
        _pick_random(s, sec, SK_SYSTEM, -1, SETUP_COUNT[n][sec][SK_SYSTEM], rng)
        _pick_random(s, sec, SK_ANOMALY, SK_EVENT, 1, rng)
        return
    for kind in range(3):
        _pick_random(s, sec, kind, -1, SETUP_COUNT[n][sec][kind], rng)


cdef int _pick_random(TgState* s, int sec, int kind, int kind2, int count, Rng* rng) noexcept nogil:
    # Append `count` cards of the sector and kind (or kind2) not in the deck yet, uniformly.
    cdef uint8_t cand[TG_SPACE]
    cdef int n = 0, i, k
    for i in range(N_SPACE):
        if SPACE_SECTOR[i] == sec and (SPACE_KIND[i] == kind or SPACE_KIND[i] == kind2):
            if not _in_list(s.space, s.n_space, i):
                cand[n] = <uint8_t>i
                n += 1
    _shuffle(cand, n, rng)
    for k in range(count if count < n else n):
        s.space[s.n_space] = cand[k]
        s.n_space += 1
    return 0


cdef inline bint _in_list(const uint8_t* xs, int n, int v) noexcept nogil:
    cdef int i
    for i in range(n):
        if xs[i] == v:
            return True
    return False


cdef void _deal_player(TgState* s, int seat, uint64_t seed) noexcept nogil:
    # "B Player Deck": the 8 marked cards to the hand (the frontier choice takes one of them), the
    # starting system on the table, the rest shuffled as the player deck.
    cdef TgPlayer* pl = &s.players[seat]
    cdef Rng rng
    cdef int t, k
    for t in range(N_TYPES):
        pl.hand[t] = <uint8_t>CARD_SETUP[t]
        pl.hand_size += CARD_SETUP[t]
        for k in range(CARD_COPIES[t] - CARD_SETUP[t]):
            pl.draw[pl.n_draw] = <uint8_t>t
            pl.n_draw += 1
    rng_seed2(&rng, seed, STREAM_DECK + seat)
    _shuffle(pl.draw, pl.n_draw, &rng)
    _system_init(&pl.systems[0], TG_HAVEN)
    pl.n_systems = 1
    rng_seed2(&s.shuffle[seat], seed, STREAM_SHUFFLE + seat)


cdef void _system_init(TgSystem* sy, int card) noexcept nogil:
    cdef int k, d, r
    sy.card = <uint8_t>card
    for k in range(TG_SLOTS):
        sy.depth[k] = 0
        sy.used[k] = 0
        for d in range(TG_STACK):
            sy.stack[k][d] = TG_NONE
    for r in range(4):
        sy.bounty[r] = <uint8_t>SYS_BOUNTY[card][r]


cdef int ttg_init(void* p, const GameParams* params, uint64_t seed) noexcept nogil:
    cdef TgState* s = _st(p)
    cdef Rng rng
    cdef int n = params.num_players, seat
    if n < 1 or n > 4 or n > MAX_PLAYERS or params.variant < 0 or params.variant > V_RANDOM:
        return -1
    if params.variant == V_TEAM and n != 4:
        return -1
    memset(s, 0, sizeof(TgState))
    s.params = params[0]
    rng_seed2(&rng, seed, STREAM_SPACE)
    _build_space_deck(s, &rng)
    while s.n_explored < n:          # "turn over an equal number of cards as there are players"
        _reveal(s)
    for seat in range(n):
        _deal_player(s, seat, seed)
    s.phase = PH_FRONTIER
    s.current = 0
    return 0


# ---------------------------------------------------------------- turn flow

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


cdef void _choose_frontier(TgState* s, int choice) noexcept nogil:
    # "Setup": the chosen frontier colony goes on the starting system (the settlement on its
    # biosphere slot, the mine on its first deposit slot); the other 7 cards stay as the hand.
    cdef TgPlayer* pl = &s.players[s.current]
    cdef int card = CARD_FRONTIER[choice]
    cdef int slot = _first_slot(TG_HAVEN, SLOT_B if choice == 0 else SLOT_D)
    _hand_take(pl, card)
    _place_colony(&pl.systems[0], slot, card)
    pl.frontier = <uint8_t>(choice + 1)
    if s.current + 1 < s.params.num_players:
        s.current += 1
        return
    _begin_turn(s, 0)
    s.turn = 1


cdef int _first_slot(int card, int slot_type) noexcept nogil:
    cdef int k
    for k in range(SYS_NSLOTS[card]):
        if SYS_SLOT[card][k] == slot_type:
            return k
    return 0


cdef inline void _place_colony(TgSystem* sy, int slot, int card) noexcept nogil:
    sy.stack[slot][sy.depth[slot]] = <uint8_t>card
    sy.depth[slot] += 1
    sy.used[slot] = 0


# ---------------------------------------------------------------- costs and conditions

cdef inline int _build_cost(int card, int effects) noexcept nogil:
    # "Mech Revolution": mining and utility colonies cost 1 less to build or upgrade.
    cdef int c = CARD_COST[card]
    if (effects & EF_MECH) and (CARD_KIND[card] == KIND_MINING or CARD_KIND[card] == KIND_UTILITY):
        c -= MECH_OFF
    return c if c > 0 else 0


cdef inline int _upgrade_cost(int old, int new, int effects) noexcept nogil:
    cdef int c = CARD_COST[new] - CARD_COST[old]
    if (effects & EF_MECH) and (CARD_KIND[new] == KIND_MINING or CARD_KIND[new] == KIND_UTILITY):
        c -= MECH_OFF
    return c if c > 0 else 0


cdef inline bint _fits(int card, int slot_type) noexcept nogil:
    # "Civilization Colonies" only on biosphere, "Mining Colonies" only on deposit slots; utility
    # colonies on any slot (the rulebook restricts the other two only).
    cdef int kind = CARD_KIND[card]
    if kind == KIND_CIV:
        return slot_type == SLOT_B
    if kind == KIND_MINING:
        return slot_type == SLOT_D
    return kind == KIND_UTILITY


cdef inline int _hazards(const TgState* s, int card, int effects) noexcept nogil:
    # "Hazards" plus "Cosmic Burst" (1 extra on every system in explored space).
    return SYS_HAZARDS[card] + (BURST_HZ if effects & EF_BURST else 0)


cdef inline bint _pool_covers(const TgState* s, const int8_t* need) noexcept nogil:
    return s.pool[0] >= need[0] and s.pool[1] >= need[1] and s.pool[2] >= need[2]


cdef inline bint _can_use_card(const TgState* s, int card, int effects) noexcept nogil:
    # Transforming effects need their whole input; "Stellar Crackdown" and "Ion Storm" forbid some.
    if CARD_KIND[card] == KIND_SHIP and (effects & EF_ION):
        return False
    if CARD_KIND[card] != KIND_SHIP and CARD_RENOWN[card] < 0 and (effects & EF_CRACKDOWN):
        return False
    return _pool_covers(s, CARD_IN[card])


cdef inline bint _slots_full(const TgSystem* sy) noexcept nogil:
    cdef int k
    for k in range(SYS_NSLOTS[sy.card]):
        if sy.depth[k] == 0:
            return False
    return True


cdef int _banked_renown(const TgPlayer* pl) noexcept nogil:
    cdef int total = pl.tokens, i
    for i in range(pl.n_renown):
        total += SPACE_RENOWN[pl.renown_pile[i]]
    return total


cdef inline bint _can_draw(const TgPlayer* pl) noexcept nogil:
    return pl.n_draw + pl.n_discard > 0


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
    if not s.claimed:
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
    if s.claimed or pl.n_systems >= MAX_SYSTEMS_RULE:
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


# ---------------------------------------------------------------- state queries

cdef int ttg_current_player(const void* p) noexcept nogil:
    return TERMINAL_PLAYER if _cst(p).phase == PH_OVER else _cst(p).current


cdef bint ttg_is_terminal(const void* p) noexcept nogil:
    return _cst(p).phase == PH_OVER


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
