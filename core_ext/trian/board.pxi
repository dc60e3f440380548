# Included by engine.pyx: the board: triangle geometry, the cell index (open addressing), the frontier
# with the edge code every empty neighbour requires, the union-find over tile parts that counts open
# borders, and placing a face (section V, phase 2; section IX).

cdef inline int _orient(int x, int y) noexcept nogil:
    return (x + y) & 1      # 0: up triangle, 1: down triangle


cdef inline void _neighbour(int x, int y, int d, int* nx, int* ny) noexcept nogil:
    if d == D_LEFT:
        nx[0] = x - 1
        ny[0] = y
    elif d == D_RIGHT:
        nx[0] = x + 1
        ny[0] = y
    else:
        nx[0] = x
        ny[0] = y + 1 if _orient(x, y) == 0 else y - 1


cdef inline int _opposite(int d) noexcept nogil:
    if d == D_LEFT:
        return D_RIGHT
    if d == D_RIGHT:
        return D_LEFT
    return D_VERT


cdef inline uint16_t _key(int x, int y) noexcept nogil:
    return <uint16_t>((((x + 128) & 0xFF) << 8) | ((y + 128) & 0xFF))


cdef inline int _hslot(const TrianState* s, uint16_t k) noexcept nogil:
    # Fibonacci hashing: the top 9 bits (TR_HASH = 2^9) of k times 2^32 / golden ratio. The low bits of
    # k * odd depend only on the low bits of k, i.e. on y and the parity of x: a row shared one chain.
    cdef int h = <int>((<uint32_t>k * <uint32_t>2654435769U) >> 23)
    while s.cell_key[h] != 0 and s.cell_key[h] != k:
        h = (h + 1) & (TR_HASH - 1)
    return h


cdef inline int _lookup(const TrianState* s, int x, int y) noexcept nogil:
    # placed index, FRONT_BASE + frontier index, or -1
    cdef uint16_t k = _key(x, y)
    cdef int h = _hslot(s, k)
    if s.cell_key[h] == 0:
        return -1
    return s.cell_value[h]


cdef inline void _hset(TrianState* s, int x, int y, int v) noexcept nogil:
    cdef uint16_t k = _key(x, y)
    cdef int h = _hslot(s, k)
    s.cell_key[h] = k
    s.cell_value[h] = <int16_t>v


cdef inline int _placed_at(const TrianState* s, int x, int y) noexcept nogil:
    cdef int v = _lookup(s, x, y)
    return v if 0 <= v < TR_TILES else -1


cdef inline int _nb_placed(const TrianState* s, int i, int d) noexcept nogil:
    # the placed tile across side d of placed tile i, or -1 (the neighbour table _board_place keeps)
    return s.neighbour[i][d]


cdef inline int _edge_at(const TrianState* s, int i, int d) noexcept nogil:
    # face edge index of placed tile i on side d
    return SLOT_EDGE[_orient(s.placed[i].x, s.placed[i].y)][s.placed[i].rot][d]


cdef inline bint _space_side(const TrianState* s, int i, int d) noexcept nogil:
    cdef int e = FACE_EDGE[s.placed[i].face][_edge_at(s, i, d)]
    return e == E_SPACE or e == E_PATH


cdef inline int _path_part(const TrianState* s, int i, int d) noexcept nogil:
    # the system part (K_SYSTEM, K_SYSTEM2) behind side d of placed tile i; -1 if no starlight path
    cdef int e = _edge_at(s, i, d), f = s.placed[i].face
    return FACE_SYS_PART[f][e] if FACE_EDGE[f][e] == E_PATH else -1


cdef inline int _side_group(const TrianState* s, int i, int d) noexcept nogil:
    return FACE_GROUP[s.placed[i].face][_edge_at(s, i, d)]


cdef inline bint _has_space(int f) noexcept nogil:
    return FACE_HAS_SPACE[f]


cdef inline int _space_nb(const TrianState* s, int i, int d) noexcept nogil:
    # the tile across side d of tile i when outer space continues across that border, else -1
    return s.space_neighbour[i][d]


cdef int _find(TrianState* s, int a) noexcept nogil:
    cdef int r = a, nxt
    while s.part_parent[r] != r:
        r = s.part_parent[r]
    while s.part_parent[a] != r:      # path compression
        nxt = s.part_parent[a]
        s.part_parent[a] = <int16_t>r
        a = nxt
    return r


cdef int _cfind(const TrianState* s, int a) noexcept nogil:
    while s.part_parent[a] != a:
        a = s.part_parent[a]
    return a


cdef void _union(TrianState* s, int a, int b) noexcept nogil:
    a = _find(s, a)
    b = _find(s, b)
    if a == b:
        return
    if a > b:           # the smaller node id is the root: deterministic layout
        a, b = b, a
    s.part_parent[b] = <int16_t>a
    s.area_open_borders[a] += s.area_open_borders[b]
    s.area_open_borders[b] = 0


cdef int _front_add(TrianState* s, int x, int y) noexcept nogil:
    cdef int v = _lookup(s, x, y)
    if v >= FRONT_BASE:
        return v - FRONT_BASE
    if v >= 0:
        return -1
    cdef int fi = s.n_front
    s.front_x[fi] = <int16_t>x
    s.front_y[fi] = <int16_t>y
    s.front_required[fi] = 0
    s.n_front += 1
    _hset(s, x, y, FRONT_BASE + fi)
    return fi


cdef void _front_remove(TrianState* s, int fi) noexcept nogil:
    cdef int last = s.n_front - 1
    if fi != last:
        s.front_x[fi] = s.front_x[last]
        s.front_y[fi] = s.front_y[last]
        s.front_required[fi] = s.front_required[last]
        _hset(s, s.front_x[fi], s.front_y[fi], FRONT_BASE + fi)
    s.front_x[last] = 0
    s.front_y[last] = 0
    s.front_required[last] = 0
    s.n_front -= 1


cdef inline bint _fits(uint16_t req, uint16_t code) noexcept nogil:
    # every side the frontier cell requires (a nonzero 3-bit field of req) has that edge in code
    cdef uint32_t required = (req | (req >> 1) | (req >> 2)) & 0o111    # the low bit of each nonzero field
    return ((req ^ code) & (required * 7)) == 0


cdef int _board_place(TrianState* s, int fi, int face, int rot, int* closed_roots,
                      int* closed_kinds) noexcept nogil:
    # Put a face on frontier cell fi; join the areas; return the number of areas this tile closed.
    cdef int x = s.front_x[fi], y = s.front_y[fi], o = _orient(x, y)
    cdef int i = s.n_placed, d, e, t, g, nx, ny, j, ej, gj, sj, node, r, k, n_closed = 0
    cdef int nodes[TR_TILE_NODES]
    cdef int n_nodes = 0
    _front_remove(s, fi)
    s.n_placed += 1
    s.placed[i].x = <int16_t>x
    s.placed[i].y = <int16_t>y
    s.placed[i].face = <uint8_t>face
    s.placed[i].rot = <uint8_t>rot
    s.placed[i].emissary = -1
    s.placed[i].ship_owner = -1
    _hset(s, x, y, i)
    for k in range(TR_TILE_NODES):
        s.part_parent[_node(i, k)] = <int16_t>(_node(i, k))
        s.area_open_borders[_node(i, k)] = 0
    for d in range(3):
        e = SLOT_EDGE[o][rot][d]
        t = FACE_EDGE[face][e]
        g = FACE_GROUP[face][e]
        _neighbour(x, y, d, &nx, &ny)
        j = _placed_at(s, nx, ny)
        _link_neighbours(s, i, d, j, t == E_SPACE or t == E_PATH, g)
        if j >= 0:
            ej = _edge_at(s, j, _opposite(d))
            gj = FACE_GROUP[s.placed[j].face][ej]
            if t == E_SPACE or t == E_PATH:
                s.area_open_borders[_find(s, _node(j, gj))] -= 1
                _union(s, _node(i, g), _node(j, gj))
            if t == E_PATH:
                sj = _node(j, FACE_SYS_PART[s.placed[j].face][ej])
                s.area_open_borders[_find(s, sj)] -= 1
                _union(s, _node(i, FACE_SYS_PART[face][e]), sj)
            if t == E_NEBULA:
                s.area_open_borders[_find(s, _node(j, K_NEBULA))] -= 1
                _union(s, _node(i, K_NEBULA), _node(j, K_NEBULA))
        else:
            if t == E_SPACE or t == E_PATH:
                s.area_open_borders[_find(s, _node(i, g))] += 1
            if t == E_PATH:
                s.area_open_borders[_find(s, _node(i, FACE_SYS_PART[face][e]))] += 1
            if t == E_NEBULA:
                s.area_open_borders[_find(s, _node(i, K_NEBULA))] += 1
            k = _front_add(s, nx, ny)
            if k >= 0:
                s.front_required[k] |= <uint16_t>((t + 1) << (3 * _opposite(d)))
    _mark_exmitter_field(s, i)
    if FACE_FEAT[face] == F_EXTRACTOR:
        _tiles_add(s.extractor_tiles, i)
    # areas this tile belongs to, nebula first, then the system parts, then outer space parts
    if FACE_HAS_NEB[face]:
        nodes[n_nodes] = _node(i, K_NEBULA)
        n_nodes += 1
    if FACE_HAS_SYS[face]:
        nodes[n_nodes] = _node(i, K_SYSTEM)
        n_nodes += 1
    if FACE_HAS_SYS2[face]:
        nodes[n_nodes] = _node(i, K_SYSTEM2)
        n_nodes += 1
    for e in range(3):
        t = FACE_EDGE[face][e]
        if t == E_SPACE or t == E_PATH:
            node = _node(i, FACE_GROUP[face][e])
            for k in range(n_nodes):
                if nodes[k] == node:
                    break
            else:
                nodes[n_nodes] = node
                n_nodes += 1
    for k in range(n_nodes):
        r = _find(s, nodes[k])
        if s.area_open_borders[r] != 0:
            continue
        for j in range(n_closed):
            if closed_roots[j] == r:
                break
        else:
            closed_roots[n_closed] = r
            closed_kinds[n_closed] = _area_kind(_node_part(nodes[k]))
            n_closed += 1
    return n_closed


cdef inline int _area_kind(int part) noexcept nogil:
    if part == K_NEBULA:
        return AREA_NEBULA
    return AREA_SYSTEM if _is_system_part(part) else AREA_SPACE


cdef inline void _link_neighbours(TrianState* s, int i, int d, int j, bint space, int group) noexcept nogil:
    # the derived neighbour tables of new tile i on side d (j: the placed tile there, or -1); equal
    # edges meet, so outer space on this side is outer space on j's side too
    s.neighbour[i][d] = <int8_t>j
    s.space_neighbour[i][d] = <int8_t>(j if space else -1)
    s.side_space_group[i][d] = <uint8_t>group
    if j >= 0:
        s.neighbour[j][_opposite(d)] = <int8_t>i
        if space:
            s.space_neighbour[j][_opposite(d)] = <int8_t>i


cdef void _mark_exmitter_field(TrianState* s, int i) noexcept nogil:
    # new tile i: an exmitter's radius is the tile and its edge neighbours (section IX)
    cdef int d, j
    s.exmitter_radius[i] = 0
    for d in range(3):
        j = s.neighbour[i][d]
        if FACE_FEAT[s.placed[i].face] == F_EXMITTER:
            s.exmitter_radius[i] = 1
            if j >= 0:
                s.exmitter_radius[j] = 1
        elif j >= 0 and FACE_FEAT[s.placed[j].face] == F_EXMITTER:
            s.exmitter_radius[i] = 1


cdef void _board_reset(TrianState* s) noexcept nogil:
    s.n_placed = 0
    s.n_front = 0
    _pieces_reset(s)
    memset(s.cell_key, 0, sizeof(s.cell_key))
    memset(s.cell_value, 0, sizeof(s.cell_value))
    _front_add(s, 0, 0)     # the first tile goes anywhere: call that place the origin
