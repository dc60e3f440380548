# Included by engine.pyx: hidden information: what a seat observes, and determinization (docs/rules/
# take_the_galaxy.md, section 7).

cdef void ttg_observe(const void* p, int player, void* out) noexcept nogil:
    # Hidden: the order of every deck (the space deck and each player deck, the owner's own too),
    # other players' hands (sizes public), and the reshuffle streams (they would tell future orders).
    cdef TgState* o = _st(out)
    cdef int seat, i, t
    memcpy(out, p, sizeof(TgState))
    for i in range(o.n_space):
        o.space[i] = TG_UNKNOWN
    for seat in range(o.params.num_players):
        for i in range(o.players[seat].n_draw):
            o.players[seat].draw[i] = TG_UNKNOWN
        # During the set-up every hand is the public marked cards (less the frontier colony chosen).
        if seat != player and o.phase != PH_FRONTIER:
            for t in range(TG_TYPES):
                o.players[seat].hand[t] = TG_UNKNOWN
        memset(&o.shuffle[seat], 0, sizeof(Rng))


cdef void _known_counts(const TgState* s, int seat, int* counts) noexcept nogil:
    # Every card of `seat` in a public place (plus the hand when it is known).
    cdef const TgPlayer* pl = &s.players[seat]
    cdef int i, k, d, t
    for t in range(TG_TYPES):
        counts[t] = 0
    for i in range(pl.n_discard):
        counts[pl.discard[i]] += 1
    for i in range(pl.n_ships):
        counts[pl.ships[i]] += 1
    for i in range(pl.n_sold):
        counts[pl.sold[i]] += 1
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            for d in range(pl.systems[i].depth[k]):
                counts[pl.systems[i].stack[k][d]] += 1
    if pl.hand[0] != TG_UNKNOWN:
        for t in range(N_TYPES):
            counts[t] += pl.hand[t]


cdef void _determinize_player(TgState* s, int seat, Rng* rng) noexcept nogil:
    # The cards not seen anywhere are dealt into the unknown places: the hand (another player's) and
    # the draw pile, in a fresh random order.
    cdef TgPlayer* pl = &s.players[seat]
    cdef int counts[TG_TYPES]
    cdef uint8_t pool[TG_DECK]
    cdef int n = 0, t, k, i
    cdef bint hidden_hand = pl.hand[0] == TG_UNKNOWN
    _known_counts(s, seat, counts)
    for t in range(N_TYPES):
        for k in range(CARD_COPIES[t] - counts[t]):
            if n < TG_DECK:
                pool[n] = <uint8_t>t
                n += 1
    _shuffle(pool, n, rng)
    i = 0
    if hidden_hand:
        for t in range(TG_TYPES):
            pl.hand[t] = 0
        for i in range(pl.hand_size if pl.hand_size < n else n):
            pl.hand[pool[i]] += 1
        i = pl.hand_size if pl.hand_size < n else n
    for k in range(pl.n_draw):
        pl.draw[k] = pool[i + k] if i + k < n else 0
    rng_seed(&s.shuffle[seat], rng_next(rng))


cdef void _seen_space(const TgState* s, uint8_t* seen) noexcept nogil:
    cdef int i, seat
    cdef const TgPlayer* pl
    memset(seen, 0, TG_SPACE + 1)
    for i in range(s.n_explored):
        seen[s.explored[i]] = 1
    for i in range(s.n_space_discard):
        seen[s.space_discard[i]] = 1
    for seat in range(s.params.num_players):
        pl = &s.players[seat]
        for i in range(pl.n_renown):
            seen[pl.renown_pile[i]] = 1
        for i in range(pl.n_systems):
            seen[pl.systems[i].card] = 1


cdef void _determinize_space(TgState* s, Rng* rng) noexcept nogil:
    # Sector by sector (backs are public, Core on top): the cards of the sector not seen yet; in the
    # random set-up, which cards those are is drawn again from the sector's kinds still missing.
    cdef uint8_t seen[TG_SPACE + 1]
    cdef int sec, kind, left, pos = 0
    cdef int n = s.params.num_players
    cdef int seen_count[3][3]
    cdef int i
    _seen_space(s, seen)
    memset(seen_count, 0, sizeof(seen_count))
    for i in range(N_SPACE):
        if seen[i]:
            seen_count[SPACE_SECTOR[i]][SPACE_KIND[i]] += 1
    s.n_space = 0
    for sec in range(2, -1, -1):
        pos = s.n_space
        if s.params.variant != V_RANDOM:
            for i in range(N_SPACE):
                if SPACE_SECTOR[i] == sec and SPACE_PLAYERS[i] <= n and not seen[i]:
                    s.space[s.n_space] = <uint8_t>i
                    s.n_space += 1
        elif n == 1 and sec == SEC_FRINGE:
            _refill_kind(s, seen, sec, SK_SYSTEM, -1,
                         SETUP_COUNT[n][sec][SK_SYSTEM] - seen_count[sec][SK_SYSTEM], rng)
            left = 1 - seen_count[sec][SK_ANOMALY] - seen_count[sec][SK_EVENT]
            _refill_kind(s, seen, sec, SK_ANOMALY, SK_EVENT, left, rng)
        else:
            for kind in range(3):
                _refill_kind(s, seen, sec, kind, -1, SETUP_COUNT[n][sec][kind] - seen_count[sec][kind], rng)
        _shuffle(&s.space[pos], s.n_space - pos, rng)


cdef void _refill_kind(TgState* s, const uint8_t* seen, int sec, int kind, int kind2, int count,
                       Rng* rng) noexcept nogil:
    cdef uint8_t cand[TG_SPACE]
    cdef int n = 0, i, k
    for i in range(N_SPACE):
        if SPACE_SECTOR[i] == sec and (SPACE_KIND[i] == kind or SPACE_KIND[i] == kind2) and not seen[i]:
            cand[n] = <uint8_t>i
            n += 1
    _shuffle(cand, n, rng)
    for k in range(count if count < n else n):
        s.space[s.n_space] = cand[k]
        s.n_space += 1


cdef void ttg_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    cdef TgState* s = _st(p)
    cdef int seat
    cdef uint8_t keep = s.n_space
    _determinize_space(s, rng)
    if s.n_space != keep:          # an inconsistent observation: keep the size the observer saw
        s.n_space = keep
    for seat in range(s.params.num_players):
        _determinize_player(s, seat, rng)
