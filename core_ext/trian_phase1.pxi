# Included by trian.pyx: phase 1 (section V.1): buying, exchanging and gaining minerals, buying combat tokens.

cdef inline int _discount(const TrianState* s, int p) noexcept nogil:
    # section V.1.A: an own (unblocked) emissary on a trade outpost lowers prices by 1
    cdef int i
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and FACE_FEAT[s.placed[i].face] == F_OUTPOST and not _blocked(s, i):
            return 1
    return 0


cdef void _gain_caps(const TrianState* s, int p, int* caps) noexcept nogil:
    # section V.1.2.A, for every closed-nebula record at once (one pass over the tiles): minerals p
    # may still take this turn: 1 with a research station or an extractor, 2 with a space station,
    # none with emissaries alone or without control
    cdef int owner[TR_NEBULAS]
    cdef int8_t level[TR_NEBULAS]
    cdef int8_t ext[TR_NEBULAS]
    cdef int i, k, f, root, e, cap
    for k in range(s.n_nebulas):
        owner[k] = -1
        level[k] = 0
        ext[k] = 0
    for i in range(s.n_placed):
        f = s.placed[i].face
        if not FACE_HAS_NEB[f]:
            continue
        e = _active_emissary(s, i)
        if e < 0 and FACE_FEAT[f] != F_EXTRACTOR:
            continue
        root = _cfind(s, i * 5 + K_NEBULA)
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
        caps[k] = cap - s.neb_gained[k] if cap > s.neb_gained[k] else 0
