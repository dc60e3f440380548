# Included by engine.pyx: phase 2 (section V.2): drawing a tile and placing (or discarding) it.

cdef void _after_place(TrianState* s, int i, int n_closed, int* roots, int* kinds) noexcept nogil:
    cdef int d, j, k
    s.new_tile = <uint8_t>i
    s.events_count = <uint8_t>n_closed
    s.events_next = 0
    for k in range(n_closed):
        s.event_root[k] = <int16_t>roots[k]
        s.event_kind[k] = <uint8_t>kinds[k]
    for k in range(n_closed, TR_EVENTS):
        # entries past the queue are 0, so equal positions have equal bytes (JSON round trip); an
        # unblocking queued earlier this turn (ORVIN's upkeep) was already dropped by events_count above
        s.event_root[k] = 0
        s.event_kind[k] = 0
    s.events_pending = 1 if n_closed > 0 else 0
    if FACE_FEAT[s.placed[i].face] == F_EXMITTER:
        # section IX: units in the radius go back to their owners; stations stay; ships too (XII)
        for d in range(3):
            j = _nb_placed(s, i, d)
            if j >= 0 and s.placed[j].station == 0 and not _exmitter_immune(s, s.placed[j].emissary):
                _return_emissary(s, j)
            if j >= 0:
                if not _exmitter_immune(s, s.placed[j].ship_owner):
                    _ship_home(s, j)
                _race_exmitter_hits(s, j)
    _enter_ph3(s)


cdef int _legal_draw(const TrianState* s, action_t* out) noexcept nogil:
    cdef int n = 0, k
    for k in range(2):
        if s.stack_len[k] > 0:
            out[n] = A_DRAW + k
            n += 1
    return n


cdef int _apply_draw(TrianState* s, action_t a) noexcept nogil:
    # the top tile of a stack goes to the hand; everyone saw the face it showed
    cdef int k = a - A_DRAW, i
    if k < 0 or k > 1 or s.stack_len[k] == 0:
        return -1
    s.stack_len[k] -= 1
    i = s.stack_len[k]
    s.drawn_tile = s.stack_tile[k][i]
    s.drawn_side_up = s.stack_side_up[k][i]
    s.drawn_face = TILE_FACE[s.drawn_tile][s.drawn_side_up]
    s.drawn_stack = <uint8_t>k
    s.stack_tile[k][i] = 0
    s.stack_side_up[k][i] = 0
    _refresh_tops(s)
    s.mode = M_PLACE
    return 0


cdef int _legal_place(const TrianState* s, action_t* out) noexcept nogil:
    # every frontier cell, side and rotation whose edges match the neighbours; a discard when none
    cdef int n = 0, fi, side, rot, o, f
    cdef uint16_t req
    for fi in range(s.n_front):
        req = s.front_required[fi]
        o = _orient(s.front_x[fi], s.front_y[fi])
        for side in range(2):
            f = TILE_FACE[s.drawn_tile][side] if s.drawn_tile != TR_UNKNOWN else 0
            for rot in range(3):
                if _fits(req, OCODE[f][o][rot]):
                    out[n] = _place_action(fi, side, rot)
                    n += 1
    if n == 0:
        out[0] = A_DISCARD
        n = 1
    return n


cdef int _apply_place(TrianState* s, int me, action_t a) noexcept nogil:
    cdef int fi, side, rot, i, n_closed
    cdef int roots[TR_EVENTS]
    cdef int kinds[TR_EVENTS]
    if a == A_DISCARD:
        _discard_drawn(s)
        return 0
    if a < A_PLACE:
        return -1
    _decode_place(a, &fi, &side, &rot)
    if fi >= s.n_front:
        return -1
    i = s.n_placed
    n_closed = _board_place(s, fi, TILE_FACE[s.drawn_tile][side], rot, roots, kinds)
    s.placed[i].tile = s.drawn_tile
    s.placed[i].side = <uint8_t>side
    s.placed[i].face_when_drawn = s.drawn_face
    s.placed[i].placer = <int8_t>me
    _clear_drawn(s)
    _after_place(s, i, n_closed, roots, kinds)
    return 0


cdef void _discard_drawn(TrianState* s) noexcept nogil:
    # a tile that fits nowhere is shown and set aside; draw again (section V, phase 2)
    if s.n_discarded < TR_TILES:
        s.discarded[s.n_discarded] = s.drawn_tile
        s.n_discarded += 1
    _clear_drawn(s)
    if s.stack_len[0] or s.stack_len[1]:
        s.mode = M_DRAW
    else:
        _enter_ph3(s)
