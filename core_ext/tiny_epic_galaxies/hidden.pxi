# Included by engine.pyx: hidden information and determinization. What each seat cannot see (the
# other seats' secret missions, the decks' order, future dice; with Beyond the Black the other seats'
# face-down exploration cards) and how determinize() resamples exactly that (docs sections 10 and 13.5).


cdef void _deal_missions(TegState* s, Rng* rng, int observer) noexcept nogil:
    # Deal 2 missions to every seat whose missions are unknown (all at set-up; in determinize, every
    # seat but the observer), from the missions nobody in the observation has seen.
    cdef uint8_t pool[TEG_MISSION_ROOM]
    cdef int n = 0, m, g, j, tmp, seen
    for m in range(_mission_count(s)):
        seen = 0
        for g in range(_n_seats(s)):
            if s.gal[g].dealt[0] == m or s.gal[g].dealt[1] == m or s.gal[g].mission == m:
                seen = 1
        if not seen:
            pool[n] = <uint8_t>m
            n += 1
    for j in range(n - 1, 0, -1):
        m = <int>rng_below(rng, <unsigned int>(j + 1))
        tmp = pool[j]
        pool[j] = pool[m]
        pool[m] = <uint8_t>tmp
    j = 0
    for g in range(_n_seats(s)):
        if g == observer:
            continue
        if s.gal[g].mission < TEG_MISSION_ROOM:
            # a revealed kept mission (the game is over): only the discarded one is resampled
            if s.gal[g].dealt[0] == TEG_HIDDEN:
                s.gal[g].dealt[0] = s.gal[g].mission
                s.gal[g].dealt[1] = pool[j]
                j += 1
            continue
        if s.gal[g].dealt[0] == TEG_HIDDEN or s.gal[g].dealt[0] == TEG_NONE:
            s.gal[g].dealt[0] = pool[j]
            s.gal[g].dealt[1] = pool[j + 1]
            j += 2
        if s.gal[g].mission == TEG_HIDDEN:
            s.gal[g].mission = s.gal[g].dealt[0]


cdef void teg_observe(const void* p, int player, void* out) noexcept nogil:
    cdef TegState* o = _st(out)
    cdef int g
    memcpy(out, p, sizeof(TegState))
    for g in range(_n_seats(o)):
        if g == player:
            continue
        o.gal[g].dealt[0] = TEG_HIDDEN
        o.gal[g].dealt[1] = TEG_HIDDEN
        # A kept mission is shown when the game ends (End of game); before, only that one was kept.
        if o.gal[g].mission != TEG_NONE and not o.over:
            o.gal[g].mission = TEG_HIDDEN
    memset(&o.rng_dice, 0, sizeof(Rng))
    memset(&o.rng_deck, 0, sizeof(Rng))
    if o.btb.on:
        _btb_observe(o, player)


cdef void teg_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    cdef TegState* s = _st(p)
    _deal_missions(s, rng, observer)
    rng_seed(&s.rng_dice, rng_next(rng))
    rng_seed(&s.rng_deck, rng_next(rng))
    if s.btb.on:
        _btb_determinize(s, observer, rng)


# ---------------------------------------------------------------- Beyond the Black: hidden cards (13.5)

cdef inline bint _card_face_up(const TegState* s, int g, int c) noexcept nogil:
    # A taken card is still face up while a ship is on its track or while its advance is being chosen.
    cdef int k
    for k in range(TEG_SHIPS):
        if s.gal[g].ship_at[k] == TEG_DANGER and s.gal[g].track_card[k] == c:
            return True
    for k in range(s.depth):
        if s.stack[k].kind == K_XCARD and s.stack[k].a[0] == c:
            return True
    return False


cdef inline int _hidden_from(const TegState* s, int observer, int c) noexcept nogil:
    # The seat whose face-down card c the observer cannot see, or -1: another seat's face-down cards
    # are unknown, only their class (badge, dwarf points) stays public; a card whose track holds a ship,
    # or whose advance is being chosen, is face up. The Rogue's cards are public.
    cdef int g = s.btb.card_where[c] - CW_TAKEN
    if g < 0 or g == observer or g >= _n_seats(s) or _card_face_up(s, g, c):
        return -1
    return g


cdef void _btb_hide(TegState* s, int observer) noexcept nogil:
    cdef int c, g
    for c in range(TEG_CARDS):
        g = _hidden_from(s, observer, c)
        if g < 0:
            continue
        s.btb.card_where[c] = CW_DECK
        s.btb.hidden[g][X_BADGE[c] * 4 + X_DWARF[c]] += 1


cdef int teg_hidden_cards(const void* p, int observer) noexcept nogil:
    # How many cards observe(p, observer) turns face down (its card_where then reads CW_DECK for them);
    # 0 in the base game.
    cdef const TegState* s = _cst(p)
    cdef int c, n = 0
    if not s.btb.on:
        return 0
    for c in range(TEG_CARDS):
        n += _hidden_from(s, observer, c) >= 0
    return n


cdef void _btb_observe(TegState* o, int player) noexcept nogil:
    memset(&o.rng_explore, 0, sizeof(Rng))
    memset(&o.rng_pilots, 0, sizeof(Rng))
    _btb_hide(o, player)


cdef void _btb_determinize(TegState* s, int observer, Rng* rng) noexcept nogil:
    # Deal every hidden face-down card from the unknown cards of its class; reseed the decks.
    cdef uint8_t pool[TEG_CARDS]
    cdef int g, cls, n, c, j, tmp
    _btb_hide(s, observer)
    for g in range(TEG_GALAXIES):
        for cls in range(TEG_CARD_CLASSES):
            if s.btb.hidden[g][cls] == 0:
                continue
            n = 0
            for c in range(TEG_CARDS):
                if s.btb.card_where[c] == CW_DECK and X_BADGE[c] * 4 + X_DWARF[c] == cls:
                    pool[n] = <uint8_t>c
                    n += 1
            for j in range(s.btb.hidden[g][cls]):
                if j >= n:
                    break
                c = j + <int>rng_below(rng, <unsigned int>(n - j))
                tmp = pool[j]
                pool[j] = pool[c]
                pool[c] = <uint8_t>tmp
                s.btb.card_where[pool[j]] = <uint8_t>(CW_TAKEN + g)
            s.btb.hidden[g][cls] = 0
    rng_seed(&s.rng_explore, rng_next(rng))
    rng_seed(&s.rng_pilots, rng_next(rng))
