# Included by engine.pyx: the set-up ("Setup"): the space deck, each player's deck and starting system,
# and the frontier colony every seat chooses before the first turn.

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
    if n < 1 or n > 4 or n > MAX_PLAYERS or params.variant < 0 or params.variant > V_NO_FIRST_CLAIM:
        return -1
    if params.variant == V_TEAM and n != 4:
        return -1
    if params.variant == V_NO_FIRST_CLAIM and n != 2:
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
