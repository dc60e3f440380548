# Included by engine.pyx: phase 1 (section V.1): buying, exchanging and gaining minerals, buying combat
# tokens.

cdef inline int _discount(const TrianState* s, int p) noexcept nogil:
    # section V.1.A: an own (unblocked) emissary on a trade outpost lowers prices by 1
    cdef uint8_t own_tiles[TR_TILES]
    cdef int n_own = _own_emissary_tiles(s, p, own_tiles), k, i
    for k in range(n_own):
        i = own_tiles[k]
        if FACE_FEAT[s.placed[i].face] == F_OUTPOST and not _blocked(s, i):
            return 1
    return 0


cdef void _gain_caps(const TrianState* s, int p, int* caps) noexcept nogil:
    # section V.1.2.A, for every closed-nebula record at once (one pass over the tiles): minerals p
    # may still take this turn: 1 with a research station or an extractor, 2 with a space station,
    # none with emissaries alone or without control
    cdef int owner[TR_NEBULAS]
    cdef int8_t level[TR_NEBULAS]
    cdef int8_t ext[TR_NEBULAS]
    cdef uint8_t tiles[2 * TR_TILES]     # emissary tiles, then extractor tiles (a tile may be in both)
    cdef int i, k, f, root, e, cap, t, n_tiles = _emissary_tiles(s, tiles)
    for k in range(s.n_nebulas):
        owner[k] = -1
        level[k] = 0
        ext[k] = 0
    # only tiles with an emissary or an extractor count; the order does not matter (a seat, a maximum, a flag)
    n_tiles += _tiles_list(s.extractor_tiles[0], s.extractor_tiles[1], tiles + n_tiles)
    for t in range(n_tiles):
        i = tiles[t]
        f = s.placed[i].face
        if not FACE_HAS_NEB[f]:
            continue
        e = _active_emissary(s, i)
        if e < 0 and FACE_FEAT[f] != F_EXTRACTOR:
            continue
        root = _cfind(s, _node(i, K_NEBULA))
        k = _nebula_record(s, root)
        if k < 0:
            continue
        if FACE_FEAT[f] == F_EXTRACTOR:
            ext[k] = 1
        if e >= 0:
            if owner[k] == -1:
                owner[k] = e
            elif owner[k] != e:
                owner[k] = -2
            if s.placed[i].station > level[k]:
                level[k] = <int8_t>s.placed[i].station
    for k in range(s.n_nebulas):
        cap = 0
        if owner[k] == p:
            cap = 2 if level[k] == 2 else (1 if (level[k] == 1 or ext[k]) else 0)
        caps[k] = cap - s.nebula_gained[k] if cap > s.nebula_gained[k] else 0


cdef int _legal_phase1(const TrianState* s, int me, action_t* out) noexcept nogil:
    # end phase 1, buy a mineral or a combat token, exchange two minerals for one, gain from nebulas,
    # mine with a Rogue; in the full variant evolution and racial phase 1 actions
    cdef const TrianPlayer* pl = &s.players[me]
    cdef int n = 0, c, k, a, b, disc = _discount(s, me), cost, i, r, n_rogues = 0, n_ships
    cdef int caps[TR_NEBULAS]
    cdef uint8_t rogues[TR_TILES]
    # an own Rogue is on the board only while fewer than 2 are in the supply (board + supply = 2, as
    # the loader checks)
    if s.params.variant >= V_SHIPS and pl.rogues < 2:
        n_ships = _ship_tiles(s, rogues)
        for k in range(n_ships):          # in place: the kept entries never overtake the read ones
            i = rogues[k]
            if s.placed[i].ship_kind == SHIP_ROGUE and s.placed[i].ship_owner == me and \
                    _rogue_may_mine(s, i, me):
                rogues[n_rogues] = <uint8_t>i
                n_rogues += 1
    cost = PRICE_MINERAL - disc
    out[n] = A_END_PH1
    n += 1
    for c in range(TR_COLORS):
        if pl.credits >= cost and s.bag[c] > 0:
            out[n] = A_BUY_MINERAL + c
            n += 1
    if pl.credits >= PRICE_TOKEN - disc and _tokens_in_bag_count(s) > 0:
        out[n] = A_BUY_TOKEN
        n += 1
    for k in range(10):
        a = PAIR_A[k]
        b = PAIR_B[k]
        if pl.minerals[a] == 0 or pl.minerals[b] == 0 or (a == b and pl.minerals[a] < 2):
            continue
        for c in range(TR_COLORS):
            if c != a and c != b and s.bag[c] > 0:
                out[n] = _colour_action(A_EXCHANGE, k, c)
                n += 1
    if s.n_nebulas > 0:
        _gain_caps(s, me, caps)
    for k in range(s.n_nebulas):
        if caps[k] <= 0:
            continue
        for c in range(TR_COLORS):
            if s.nebula_minerals[k][c] > 0:
                out[n] = _colour_action(A_GAIN, k, c)
                n += 1
    for r in range(n_rogues):
        i = rogues[r]
        k = _nebula_record(s, _cfind(s, _node(i, K_NEBULA)))
        for c in range(TR_COLORS):
            if s.nebula_minerals[k][c] > 0:
                out[n] = _colour_action(A_ROGUE, i, c)
                n += 1
    if s.params.variant >= V_FULL:
        n = _evolution_actions(s, me, out, n)
        n = _race_ph1_actions(s, me, out, n)
        _sort_tail(out, n)
    return n


cdef int _apply_phase1(TrianState* s, int me, action_t a) noexcept nogil:
    if a == A_END_PH1:
        _end_phase1(s)
        return 0
    if _in_block(a, A_BUY_MINERAL, TR_COLORS):
        _buy_mineral(s, me, a - A_BUY_MINERAL)
        return 0
    if a == A_BUY_TOKEN:
        s.players[me].credits -= PRICE_TOKEN - _discount(s, me)
        _draw_token(s, me)
        return 0
    if _in_block(a, A_EXCHANGE, 40):
        _exchange(s, me, a)
        return 0
    if _in_block(a, A_GAIN, TR_NEBULAS * 4):
        _gain_mineral(s, me, a)
        return 0
    if _in_block(a, A_ROGUE, TR_TILES * 4):
        _rogue_mine(s, me, a)
        return 0
    if s.params.variant >= V_FULL and _evolution_apply(s, me, a) == 0:
        return 0
    return _race_apply(s, me, a)


cdef void _end_phase1(TrianState* s) noexcept nogil:
    # on to drawing a tile; with both stacks empty straight to phase 3
    s.mode = M_DRAW if (s.stack_len[0] or s.stack_len[1]) else M_PH3
    if s.mode == M_PH3:
        _enter_ph3(s)


cdef void _buy_mineral(TrianState* s, int me, int colour) noexcept nogil:
    s.players[me].credits -= PRICE_MINERAL - _discount(s, me)
    s.bag[colour] -= 1
    s.players[me].minerals[colour] += 1


cdef void _exchange(TrianState* s, int me, action_t a) noexcept nogil:
    # two minerals (a colour pair) back to the bag for one of another colour
    cdef TrianPlayer* pl = &s.players[me]
    cdef int pair, c
    _decode_colour_action(a, A_EXCHANGE, &pair, &c)
    pl.minerals[PAIR_A[pair]] -= 1
    pl.minerals[PAIR_B[pair]] -= 1
    s.bag[PAIR_A[pair]] += 1
    s.bag[PAIR_B[pair]] += 1
    s.bag[c] -= 1
    pl.minerals[c] += 1


cdef void _gain_mineral(TrianState* s, int me, action_t a) noexcept nogil:
    # section V.1.2.A: a mineral from a closed nebula the player controls
    cdef int k, c
    _decode_colour_action(a, A_GAIN, &k, &c)
    s.nebula_minerals[k][c] -= 1
    s.nebula_gained[k] += 1
    s.players[me].minerals[c] += 1
    _race_after_gain(s, me, k, c)


cdef void _rogue_mine(TrianState* s, int me, action_t a) noexcept nogil:
    # section V.1.2.B: the Rogue on tile i mines 1 mineral of its nebula this turn
    cdef int i, c, k
    _decode_colour_action(a, A_ROGUE, &i, &c)
    k = _nebula_record(s, _cfind(s, _node(i, K_NEBULA)))
    s.nebula_minerals[k][c] -= 1
    s.placed[i].rogue_mined = 1
    s.players[me].minerals[c] += 1
    _race_after_gain(s, me, k, c)
