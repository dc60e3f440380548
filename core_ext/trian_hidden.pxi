# Included by trian.pyx: hidden information: what a seat observes, and determinization (docs/rules/trian.md,
# section 9).

cdef void trian_observe(const void* p, int player, void* outp) noexcept nogil:
    cdef TrianState* o = _st(outp)
    cdef int k, i
    memcpy(outp, p, sizeof(TrianState))
    for k in range(2):
        for i in range(o.stack_len[k]):
            o.stack_tile[k][i] = TR_UNKNOWN
            o.stack_up[k][i] = TR_UNKNOWN
    if o.drawn_tile != TR_UNKNOWN and o.turn_player != player:
        o.drawn_tile = TR_UNKNOWN
        o.drawn_up = TR_UNKNOWN
    for i in range(o.n_placed):
        if o.placed[i].placer != player:
            o.placed[i].tile = TR_UNKNOWN
            o.placed[i].side = TR_UNKNOWN
    for k in range(o.params.num_players):
        if k != player:
            o.players[k].tok_plus = TR_HIDDEN
            if o.mode == M_DECLARE:
                o.players[k].decl_plus = TR_HIDDEN
    memset(&o.rng_minerals, 0, sizeof(Rng))
    memset(&o.rng_tokens, 0, sizeof(Rng))
    memset(&o.rng_dice, 0, sizeof(Rng))


cdef bint _tile_fits(int t, int f1, int f2) noexcept nogil:
    # f1: a face the tile is known to show; f2: a second face seen on it (or f1 / -1 if none)
    cdef int a = TILE_FACE[t][0], b = TILE_FACE[t][1]
    if f2 < 0 or f2 == f1:
        return a == f1 or b == f1
    return (a == f1 and b == f2) or (a == f2 and b == f1)


cdef bint _augment(int slot, const int* f1, const int* f2, const uint8_t* pool, int* tile_slot,
                   int* slot_tile, uint8_t* seen, int start) noexcept nogil:
    cdef int k, t
    for k in range(TR_TILES):
        t = (start + k) % TR_TILES
        if not pool[t] or seen[t] or not _tile_fits(t, f1[slot], f2[slot]):
            continue
        seen[t] = 1
        if tile_slot[t] < 0 or _augment(tile_slot[t], f1, f2, pool, tile_slot, slot_tile, seen,
                                        (start * 7 + 13) % TR_TILES):
            tile_slot[t] = slot
            slot_tile[slot] = t
            return True
    return False


cdef inline int _side_with(int t, int f, Rng* rng) noexcept nogil:
    if TILE_FACE[t][0] == f and TILE_FACE[t][1] == f:
        return <int>rng_below(rng, 2)
    return 0 if TILE_FACE[t][0] == f else 1


cdef void trian_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    # Fill every TR_UNKNOWN / TR_HIDDEN field with a value consistent with what the observer saw:
    # tiles by a randomized bipartite matching of constrained slots (placed tiles with their shown
    # and stack faces, stack tops, a tile in another seat's hand) to the unseen catalogue, then the
    # rest shuffled into the stacks; token types by drawing without replacement; fresh streams.
    cdef TrianState* s = _st(p)
    cdef uint8_t pool[TR_TILES]
    cdef uint8_t seen[TR_TILES]
    cdef int tile_slot[TR_TILES]
    cdef int slot_tile[TR_TILES + 4]
    cdef int f1[TR_TILES + 4]
    cdef int f2[TR_TILES + 4]
    cdef int ref[TR_TILES + 4]      # >= 0 placed index; -1 / -2 stack top 0 / 1; -3 hand
    cdef int order[TR_TILES + 4]
    cdef uint8_t rest[TR_TILES]
    cdef int m = 0, i, k, t, j, n_rest, pos, n = s.params.num_players, h_total, h_plus, q
    for t in range(TR_TILES):
        pool[t] = 1
        tile_slot[t] = -1
    for i in range(s.n_placed):
        if s.placed[i].tile != TR_UNKNOWN:
            pool[s.placed[i].tile] = 0
        else:
            f1[m] = s.placed[i].face
            f2[m] = s.placed[i].up_face
            ref[m] = i
            m += 1
    for i in range(s.n_discarded):
        pool[s.discarded[i]] = 0
    if s.drawn_face != TR_UNKNOWN:
        if s.drawn_tile != TR_UNKNOWN:
            pool[s.drawn_tile] = 0
        else:
            f1[m] = s.drawn_face
            f2[m] = -1
            ref[m] = -3
            m += 1
    for k in range(2):
        if s.stack_len[k] > 0 and s.stack_tile[k][s.stack_len[k] - 1] == TR_UNKNOWN:
            f1[m] = s.stack_top_face[k]
            f2[m] = -1
            ref[m] = -1 - k
            m += 1
    # randomized maximum matching (Kuhn's augmenting paths); the truth is one perfect matching
    for i in range(m):
        order[i] = i
        slot_tile[i] = -1
    for i in range(m - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        k = order[i]
        order[i] = order[j]
        order[j] = k
    for i in range(m):
        memset(seen, 0, sizeof(seen))
        _augment(order[i], f1, f2, pool, tile_slot, slot_tile, seen, <int>rng_below(rng, TR_TILES))
    for i in range(m):
        t = slot_tile[i]
        if t < 0:
            continue            # only on an inconsistent observation; leave the slot unknown
        pool[t] = 0
        if ref[i] >= 0:
            s.placed[ref[i]].tile = <uint8_t>t
            s.placed[ref[i]].side = <uint8_t>_side_with(t, f1[i], rng)
        elif ref[i] == -3:
            s.drawn_tile = <uint8_t>t
            s.drawn_up = <uint8_t>_side_with(t, f1[i], rng)
        else:
            k = -1 - ref[i]
            s.stack_tile[k][s.stack_len[k] - 1] = <uint8_t>t
            s.stack_up[k][s.stack_len[k] - 1] = <uint8_t>_side_with(t, f1[i], rng)
    n_rest = 0
    for t in range(TR_TILES):
        if pool[t]:
            rest[n_rest] = <uint8_t>t
            n_rest += 1
    for i in range(n_rest - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        t = rest[i]
        rest[i] = rest[j]
        rest[j] = <uint8_t>t
    pos = 0
    for k in range(2):
        for i in range(s.stack_len[k]):
            if s.stack_tile[k][i] != TR_UNKNOWN or pos >= n_rest:
                continue
            t = rest[pos]
            pos += 1
            s.stack_tile[k][i] = <uint8_t>t
            if FACE_SPECIAL[TILE_FACE[t][0]]:
                s.stack_up[k][i] = 1
            elif FACE_SPECIAL[TILE_FACE[t][1]]:
                s.stack_up[k][i] = 0
            else:
                s.stack_up[k][i] = <uint8_t>rng_below(rng, 2)
    # combat token types: the unseen tokens are the others' holdings, hidden declarations and the bag
    h_plus = TOKENS_PLUS
    h_total = TOKENS_PLUS + TOKENS_REROLL
    for q in range(n):
        if s.players[q].tok_plus != TR_HIDDEN:
            h_plus -= s.players[q].tok_plus
            h_total -= s.players[q].tok_count
        if s.players[q].decl_plus != TR_HIDDEN:
            h_plus -= s.players[q].decl_plus
            h_total -= s.players[q].decl_count
    for q in range(n):
        if s.players[q].tok_plus == TR_HIDDEN:
            s.players[q].tok_plus = <int8_t>_draw_plus(rng, s.players[q].tok_count, &h_plus, &h_total)
        if s.players[q].decl_plus == TR_HIDDEN:
            s.players[q].decl_plus = <int8_t>_draw_plus(rng, s.players[q].decl_count, &h_plus, &h_total)
    rng_seed(&s.rng_minerals, rng_next(rng))
    rng_seed(&s.rng_tokens, rng_next(rng))
    rng_seed(&s.rng_dice, rng_next(rng))


cdef int _draw_plus(Rng* rng, int count, int* h_plus, int* h_total) noexcept nogil:
    cdef int _k, plus = 0
    for _k in range(count):
        if h_total[0] > 0 and <int>rng_below(rng, <uint32_t>h_total[0]) < h_plus[0]:
            plus += 1
            h_plus[0] -= 1
        h_total[0] -= 1
    return plus
