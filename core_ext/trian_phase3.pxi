# Included by trian.pyx: phase 3 (section V.3): research, expedition, construction, teleportation and ship
# actions.

cdef bint _may_expedition(const TrianState* s, int me) noexcept nogil:
    # section V.3.2: one emissary onto the tile added this turn
    cdef int i = s.new_tile, root, ctrl
    if i == TR_UNKNOWN or s.players[me].emissaries == 0:
        return False
    if s.placed[i].emissary >= 0 or not _emissary_may_stand(s.placed[i].face):
        return False
    if _in_exmitter_field(s, i) and not _exmitter_immune(s, me):
        return False
    root = _settled_root(s, i)
    if root < 0:
        return True
    ctrl = _controller(s, root)
    return ctrl == -1 or ctrl == me


cdef bint _may_receive_emissary(const TrianState* s, int j, int owner, int from_tile) noexcept nogil:
    # teleport target rules (section V.3.4) shared with the expedition's closed-area rule
    cdef int f = s.placed[j].face, root, ctrl
    if s.placed[j].emissary >= 0 or not _emissary_may_stand(f) or \
            (_in_exmitter_field(s, j) and not _exmitter_immune(s, owner)):
        return False
    root = _settled_root(s, j)
    if root < 0:
        return True              # a trade outpost, or an area still open
    ctrl = _controller_except(s, root, from_tile)
    return ctrl == -1 or ctrl == owner


cdef bint _may_construct(const TrianState* s, int i, int p) noexcept nogil:
    cdef int node, root, tiles, ext, st
    cdef int units[MAX_PLAYERS]
    if s.placed[i].emissary != p or s.placed[i].station >= 2 or _blocked(s, i):
        return False
    if s.placed[i].station == 0 and s.players[p].research == 0:
        return False
    if s.placed[i].station == 1 and s.players[p].space == 0:
        return False
    root = _settled_root(s, i)
    if root < 0 or _controller(s, root) != p:
        return False
    node = _area_node(s, i)
    if node % 5 == K_SYSTEM and s.placed[i].station == 0:
        _area_census(s, root, &tiles, &ext, units, &st)
        if st > 0:
            return False          # one station per planetary system (section V.3.3)
    return True


cdef void _construct(TrianState* s, int me, int i, int levels) noexcept nogil:
    # section V.3.3: build `levels` station levels (1; 2 at once with Living structures) on me's emissary
    # on tile i: pay each level's credits, add each level's minerals in a nebula, and send blocked
    # enemy emissaries of the area home (section XI)
    cdef TrianPlayer* pl = &s.players[me]
    cdef int node = _area_node(s, i), root, tiles, ext, st, m = 0, k, c, lv, _lv, _q
    cdef int units[MAX_PLAYERS]
    root = _cfind(s, node)
    _area_census(s, root, &tiles, &ext, units, &st)
    for k in range(s.params.num_players):
        m += units[k]
    for _lv in range(levels):
        if s.placed[i].station == 0:
            pl.research -= 1
        else:
            pl.space -= 1
        s.placed[i].station += 1
    for k in range(s.n_placed):
        if _blocked(s, k) and s.placed[k].station == 0 and s.placed[k].emissary != me and \
                _area_node(s, k) >= 0 and _cfind(s, _area_node(s, k)) == root:
            _return_emissary(s, k)
    for _lv in range(levels):
        pl.credits += _construct_credits(s, i, node % 5 == K_SYSTEM, tiles + m)
    if node % 5 != K_SYSTEM:
        k = _nebula_record(s, root)
        for lv in range(levels):
            for _q in range(2 if s.placed[i].station - levels + 1 + lv == 1 else 4):
                c = _draw_mineral(s)
                if c >= 0 and k >= 0:
                    s.neb_minerals[k][c] += 1


cdef void _sort_tail(action_t* out, int n) noexcept nogil:
    # insertion sort (phase 3 lists are short and nearly sorted)
    cdef int i, j
    cdef action_t v
    for i in range(1, n):
        v = out[i]
        j = i - 1
        while j >= 0 and out[j] > v:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v
