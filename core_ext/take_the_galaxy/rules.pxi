# Included by engine.pyx: the rule helpers every phase uses: casts, team mates, the event effects in
# force, shuffling, cards moving, and costs and conditions. The phases themselves: setup.pxi (set-up and
# the frontier choice), turn.pxi (exploration, draw, reset and end phases), actions.pxi (every
# action-phase choice and the payment), scoring.pxi (the end: scores, ranks, returns).
#
# Section names in comments are the rulebook's headings.

cdef inline TgState* _st(void* p) noexcept nogil:
    return <TgState*>p


cdef inline const TgState* _cst(const void* p) noexcept nogil:
    return <const TgState*>p


cdef inline int _mate(const TgState* s, int seat) noexcept nogil:
    # "Alternative game modes": team mates sit across, seats 0/2 and 1/3.
    return (seat + 2) % 4 if s.params.variant == V_TEAM else -1


cdef inline int _owner(const TgState* s, int rel) noexcept nogil:
    return s.current if rel == 0 else _mate(s, s.current)


cdef inline bint _may_take(const TgState* s) noexcept nogil:
    # "Taking a card from Explored Space": one card a turn. The no_first_claim variant (Orrery's catch-up
    # rule for 2 players, docs/rules/take_the_galaxy.md section 4) allows none in the first player's first
    # turn, which is where the first seat's edge comes from (section 11, "Where the first-seat edge ...").
    return not s.claimed and not (s.params.variant == V_NO_FIRST_CLAIM and s.turn == 1)


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


cdef inline bint _can_draw(const TgPlayer* pl) noexcept nogil:
    return pl.n_draw + pl.n_discard > 0
