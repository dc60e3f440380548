# Included by trian.pyx: phase 2 (section V.2): drawing a tile and placing (or discarding) it.

cdef void _after_place(TrianState* s, int i, int n_closed, int* roots, int* kinds) noexcept nogil:
    cdef int d, j, k
    s.new_tile = <uint8_t>i
    s.ev_n = <uint8_t>n_closed
    s.ev_pos = 0
    for k in range(n_closed):
        s.ev_root[k] = <int16_t>roots[k]
        s.ev_kind[k] = <uint8_t>kinds[k]
    s.ev_pending = 1 if n_closed > 0 else 0
    if FACE_FEAT[s.placed[i].face] == F_EXMITTER:
        # section IX: units in the radius go back to their owners; stations stay; ships too (XII)
        for d in range(3):
            j = _nb_placed(s, i, d)
            if j >= 0 and s.placed[j].station == 0 and not _exmitter_immune(s, s.placed[j].emissary):
                _return_emissary(s, j)
            if j >= 0:
                if not _exmitter_immune(s, s.placed[j].ship):
                    _ship_home(s, j)
                _race_exmitter_hits(s, j)
    _enter_ph3(s)
