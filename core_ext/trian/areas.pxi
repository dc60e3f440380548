# Included by engine.pyx: closed areas (sections VI, X, XI, XII): which area a unit stands in, who counts
# there (blocked and protected emissaries), who controls it, its census, and units going home from it.

cdef inline int _area_node(const TrianState* s, int i) noexcept nogil:
    # the area an emissary on placed tile i belongs to: its nebula part or its planetary system
    cdef int f = s.placed[i].face
    if FACE_HAS_NEB[f]:
        return _node(i, K_NEBULA)
    if FACE_FEAT[f] == F_PLANET:
        return _node(i, K_SYSTEM)
    return -1


cdef inline bint _emissary_may_stand(int f) noexcept nogil:
    # section V.2 / IX: a planet, a nebula part without an extractor, or a trade outpost
    return FACE_FEAT[f] == F_PLANET or FACE_FEAT[f] == F_OUTPOST or \
        (FACE_HAS_NEB[f] and FACE_FEAT[f] != F_EXTRACTOR)


cdef bint _in_exmitter_field(const TrianState* s, int i) noexcept nogil:
    # the exmitter tile itself or an edge neighbour of one (section IX; the table _board_place keeps),
    # or a racial exmitter token's radius
    if s.exmitter_radius[i]:
        return True
    return s.params.variant >= V_FULL and _race_exmitter_field(s, i)


cdef void _exmitter_field_map(const TrianState* s, int8_t* field) noexcept nogil:
    # field[i] = _in_exmitter_field(s, i) for every placed tile
    memcpy(field, s.exmitter_radius, s.n_placed)
    if s.params.variant >= V_FULL:
        _race_exmitter_map(s, field)


cdef inline void _mark_radius(const TrianState* s, int i, int8_t* field) noexcept nogil:
    # an exmitter on tile i: the tile and its edge neighbours
    cdef int d, j
    field[i] = 1
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j >= 0:
            field[j] = 1


cdef inline bint _blocked(const TrianState* s, int i) noexcept nogil:
    # section XII: an enemy Corvette on the tile of an emissary on a planet or a trade outpost blocks
    # it; an emissary on a space station is never affected (section XI)
    cdef int e = s.placed[i].emissary, f = s.placed[i].face
    return e >= 0 and s.placed[i].ship_kind == SHIP_CORVETTE and s.placed[i].ship_owner != e and \
        s.placed[i].station < 2 and (FACE_FEAT[f] == F_PLANET or FACE_FEAT[f] == F_OUTPOST)


cdef inline bint _protected(const TrianState* s, int i) noexcept nogil:
    # section XII: an own Corvette on the emissary's tile protects it from others' teleports
    return s.placed[i].emissary >= 0 and s.placed[i].ship_kind == SHIP_CORVETTE and \
        s.placed[i].ship_owner == s.placed[i].emissary


cdef inline int _active_emissary(const TrianState* s, int i) noexcept nogil:
    # the owner of an emissary that counts (present and not blocked), or -1
    if s.placed[i].emissary < 0 or _blocked(s, i):
        return -1
    return s.placed[i].emissary


cdef int _nebula_record(const TrianState* s, int root) noexcept nogil:
    cdef int k
    for k in range(s.n_nebulas):
        if s.nebula_root[k] == root:
            return k
    return -1


cdef inline int _settled_root(const TrianState* s, int i) noexcept nogil:
    # the union-find root of tile i's area when that area is closed and its events are resolved;
    # -1 when the tile has no area part (e.g. a trade outpost), the area is open, or events wait
    cdef int node = _area_node(s, i), root
    if node < 0:
        return -1
    root = _cfind(s, node)
    if s.area_open_borders[root] != 0 or _event_pending(s, root):
        return -1
    return root


cdef inline int _controller(const TrianState* s, int root) noexcept nogil:
    # the only seat with units in a closed area; -1 none, -2 several (section VI.3)
    return _controller_except(s, root, -1)


cdef int _controller_except(const TrianState* s, int root, int skip) noexcept nogil:
    # the controller as if the emissary on placed tile `skip` were gone (skip = -1: none skipped)
    cdef uint8_t tiles[TR_TILES]
    cdef int i, t, owner = -1, node, e, n_tiles = _emissary_tiles(s, tiles)
    for t in range(n_tiles):
        i = tiles[t]
        e = _active_emissary(s, i)
        if i == skip or e < 0:
            continue
        node = _area_node(s, i)
        if node < 0 or _cfind(s, node) != root:
            continue
        if owner == -1:
            owner = e
        elif owner != e:
            return -2
    return owner


cdef int _closed_area_owner(const TrianState* s, int j) noexcept nogil:
    # the controller (-1 none, -2 several) of the closed, resolved area of tile j; -3 if there is none
    cdef int root = _settled_root(s, j)
    return -3 if root < 0 else _controller(s, root)


cdef void _area_census(const TrianState* s, int root, int* tiles, int* extractors, int* units,
                       int* stations) noexcept nogil:
    # tiles, extractors, units per seat, and the highest station level in an area
    cdef int i, k, node, f, p
    tiles[0] = 0
    extractors[0] = 0
    stations[0] = 0
    for p in range(MAX_PLAYERS):
        units[p] = 0
    k = _area_kind(_node_part(root))
    for i in range(s.n_placed):
        f = s.placed[i].face
        if k == AREA_NEBULA:
            if not FACE_HAS_NEB[f] or _cfind(s, _node(i, K_NEBULA)) != root:
                continue
        elif k == AREA_SYSTEM:
            if not _tile_in_system(s, i, root):
                continue
        else:
            if not _tile_in_space(s, i, root):
                continue
        tiles[0] += 1
        if FACE_FEAT[f] == F_EXTRACTOR:
            extractors[0] += 1
        node = _area_node(s, i)
        if s.placed[i].emissary >= 0 and node >= 0 and _cfind(s, node) == root:
            if s.placed[i].station > stations[0]:
                stations[0] = s.placed[i].station
            if not _blocked(s, i):
                units[s.placed[i].emissary] += 1
    if k == AREA_SYSTEM:
        # section XII: a planet holding a Corvette of a player with no (unblocked) emissary in the
        # system is blocked and not counted
        for i in range(s.n_placed):
            if s.placed[i].ship_kind == SHIP_CORVETTE and FACE_FEAT[s.placed[i].face] == F_PLANET and \
                    units[s.placed[i].ship_owner] == 0 and _cfind(s, _node(i, K_SYSTEM)) == root:
                tiles[0] -= 1


cdef inline bint _tile_in_system(const TrianState* s, int i, int root) noexcept nogil:
    # a tile is in a planetary system when one of its system parts is (a face with two separate parts
    # counts in each of its two systems, section 1 of docs/rules/trian.md)
    cdef int f = s.placed[i].face
    if not FACE_HAS_SYS[f]:
        return False
    return _cfind(s, _node(i, K_SYSTEM)) == root or \
        (FACE_HAS_SYS2[f] and _cfind(s, _node(i, K_SYSTEM2)) == root)


cdef bint _tile_in_space(const TrianState* s, int i, int root) noexcept nogil:
    cdef int e, f = s.placed[i].face
    for e in range(3):
        if (FACE_EDGE[f][e] == E_SPACE or FACE_EDGE[f][e] == E_PATH) and \
                _cfind(s, _node(i, FACE_GROUP[f][e])) == root:
            return True
    return False


cdef int _own_free_in_area(const TrianState* s, int root, int p) noexcept nogil:
    cdef int i, node, n = 0
    for i in range(s.n_placed):
        if s.placed[i].emissary == p and s.placed[i].station == 0 and not _blocked(s, i):
            node = _area_node(s, i)
            if node >= 0 and _cfind(s, node) == root:
                n += 1
    return n


cdef void _return_emissary(TrianState* s, int i) noexcept nogil:
    # a racial token acting as an emissary (unit != 0) goes back to the race's supply, i.e. off the board
    cdef int p = s.placed[i].emissary
    if p >= 0:
        if s.placed[i].unit == 0:
            s.players[p].emissaries += 1
        _put_emissary(s, i, -1)
        s.placed[i].unit = 0


cdef int _sole_left(const TrianState* s, int root) noexcept nogil:
    cdef int i, node
    for i in range(s.n_placed):
        if _active_emissary(s, i) >= 0:
            node = _area_node(s, i)
            if node >= 0 and _cfind(s, node) == root:
                return s.placed[i].emissary
    return s.turn_player


cdef inline int _closed_area_value(int kind, int tiles, int emissaries, int extractors) noexcept nogil:
    # section X, counted when the area closes: a nebula (tiles + emissaries) x (extractors + 1), a
    # planetary system (tiles + emissaries) x 2, an outer-space area tiles x 3
    if kind == AREA_NEBULA:
        return (tiles + emissaries) * (extractors + 1)
    if kind == AREA_SYSTEM:
        return (tiles + emissaries) * 2
    return tiles * 3


cdef inline void _pay_closed_area(TrianState* s, int controller, int value) noexcept nogil:
    # section VI.1.A: the area's controller (the only player with units there, or the battle's winner)
    # is paid; with nobody there, after a tie, and for outer space (VI.1.B) the closer
    s.players[controller if controller >= 0 else s.turn_player].credits += value
