# Included by engine.pyx: ships (variant ships; sections V.3.2, V.3.4, V.3.5, XII): where a ship may stand,
# how it moves through outer space, teleports, Rogue mining, a ship going home or landing, and the ship
# actions.

cdef inline bint _ship_may_stand(const TrianState* s, int j) noexcept nogil:
    # a free outer-space tile outside every exmitter's radius (sections V.3.2, V.3.4, V.3.5)
    return s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face) and not _in_exmitter_field(s, j)


cdef inline bint _ship_may_stand_for(const TrianState* s, int j, int owner) noexcept nogil:
    # _ship_may_stand for a ship of `owner`, whose race may ignore exmitters (Adaptation Abilities)
    return s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face) and \
        (not _in_exmitter_field(s, j) or _exmitter_immune(s, owner))


cdef bint _enemy_ship_adjacent(const TrianState* s, int i, int owner) noexcept nogil:
    cdef int d, j
    for d in range(3):
        j = _space_nb(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0 and s.placed[j].ship_owner != owner:
            return True
    return False


cdef inline void _reach_cache_init(const TrianState* s, ReachCache* c) noexcept nogil:
    _exmitter_field_map(s, c.field)


cdef inline bint _cached_field(const TrianState* s, ReachCache* c, int j) noexcept nogil:
    return c.field[j]


cdef void _reach(const TrianState* s, int i, int g, int depth, int start, uint64_t* out) noexcept nogil:
    # _reach_cached with a cache of its own
    cdef ReachCache cache
    _reach_cache_init(s, &cache)
    _reach_cached(s, i, g, depth, start, out, &cache)


cdef void _reach_cached(const TrianState* s, int i, int g, int depth, int start, uint64_t* out,
                        ReachCache* c) noexcept nogil:
    # add to the tile set `out` every tile a ship may end on from tile i (entered by outer-space group g,
    # -1 at the start) within `depth` more steps: through outer space only, never into an exmitter's
    # radius, passing other ships but not ending on them nor where it started (section V.3.5).
    # A breadth-first search over (tile, group entered by): each is expanded once, at its fewest steps,
    # which reaches exactly the tiles of every walk of up to `depth` steps.
    cdef int16_t q_tile[TR_TILES * 4]
    cdef int8_t q_group[TR_TILES * 4]
    cdef uint64_t seen[6]         # bit tile * 4 + group + 1 (< TR_TILES * 4 = 336): (tile, group) queued
    cdef bint immune = _exmitter_immune(s, s.placed[start].ship_owner)
    cdef int head = 0, tail = 1, level_end = 1, steps = 0, d, j, t, gt, gj, bit
    memset(seen, 0, sizeof(seen))
    q_tile[0] = <int16_t>i
    q_group[0] = <int8_t>g
    _tiles_add(seen, i * 4 + g + 1)
    while head < tail:
        if head == level_end:              # the queue is in order of steps: one level after another
            steps += 1
            level_end = tail
        if steps >= depth:
            break
        t = q_tile[head]
        gt = q_group[head]
        for d in range(3):
            j = s.space_neighbour[t][d]
            if j < 0 or (gt >= 0 and s.side_space_group[t][d] != gt):
                continue
            if not immune and _cached_field(s, c, j):
                continue
            if j != start and s.placed[j].ship_kind == 0:
                _tiles_add(out, j)
            gj = s.side_space_group[j][_opposite(d)]
            bit = j * 4 + gj + 1
            if not _tiles_has(seen, bit):
                _tiles_add(seen, bit)
                q_tile[tail] = <int16_t>j
                q_group[tail] = <int8_t>gj
                tail += 1
        head += 1


cdef bint _ship_expedition_ok(const TrianState* s) noexcept nogil:
    # section V.3.2: onto the outer space of the tile added this turn, no ship on any adjacent tile
    cdef int i = s.new_tile, d, j
    if i == TR_UNKNOWN or not _ship_may_stand_for(s, i, s.turn_player):
        return False
    for d in range(3):
        j = _nb_placed(s, i, d)
        if j >= 0 and s.placed[j].ship_kind != 0:
            return False
    return True


cdef inline bint _teleport_radius(const TrianState* s, int i) noexcept nogil:
    # tile i is next to the teleport added this turn, and that teleport is still unused
    cdef int d
    if s.new_tile == TR_UNKNOWN or s.teleport_used or FACE_FEAT[s.placed[s.new_tile].face] != F_TELEPORT:
        return False
    for d in range(3):
        if _nb_placed(s, s.new_tile, d) == i:
            return True
    return False


cdef inline bint _mobile_ship_may_teleport_from(const TrianState* s, int i, int me) noexcept nogil:
    # any ship in the radius of the teleport added this turn (section V.3.4), or one's own ship that
    # ended a move on a teleport on an earlier turn ("on your next turn", section V.3.5); the ship on
    # tile i is known to be free to move
    if _teleport_radius(s, i):
        return True
    return s.placed[i].ship_owner == me and not s.placed[i].ship_arrived and \
        FACE_FEAT[s.placed[i].face] == F_TELEPORT


cdef bint _rogue_may_mine(const TrianState* s, int i, int me) noexcept nogil:
    # section V.1.2.B: 1 mineral per turn from the closed nebula whose part shares the Rogue's tile,
    # never across a gas cloud (ruling: not on a face with a gas edge)
    cdef int f = s.placed[i].face, e
    if s.placed[i].ship_kind != SHIP_ROGUE or s.placed[i].ship_owner != me or s.placed[i].rogue_mined:
        return False
    if not FACE_HAS_NEB[f]:
        return False
    for e in range(3):
        if FACE_EDGE[f][e] == E_GAS:
            return False
    return _nebula_record(s, _cfind(s, _node(i, K_NEBULA))) >= 0


cdef void _ship_home(TrianState* s, int i) noexcept nogil:
    # the ship on tile i goes back to its owner's supply; an emissary it blocked may now fight
    # (a racial ship token, e.g. the Supreme Priestess, is in its owner's supply when off the board)
    cdef int p = s.placed[i].ship_owner
    if s.placed[i].ship_kind == 0:
        return
    if s.placed[i].ship_kind == SHIP_CORVETTE:
        s.players[p].corvettes += 1
    elif s.placed[i].ship_kind == SHIP_ROGUE:
        s.players[p].rogues += 1
    _race_ship_gone(s, i)
    _put_ship(s, i, -1, 0)
    s.placed[i].ship_arrived = 0
    s.placed[i].rogue_mined = 0
    _check_unblock(s, i)


cdef void _ship_arrive(TrianState* s, int i, int owner, int kind) noexcept nogil:
    _put_ship(s, i, owner, kind)
    s.placed[i].ship_arrived = 1
    s.placed[i].rogue_mined = 0


cdef void _ship_landed(TrianState* s, int i) noexcept nogil:
    # a ship moved or teleported onto tile i: a battle when an enemy ship is adjacent (section VI.2.A);
    # the ship's owner is the attacker
    if _enemy_ship_adjacent(s, i, s.placed[i].ship_owner):
        s.ship_battle_on = 1
        s.ship_battle_attacker = <uint8_t>i
        s.ship_battle_target = 0
        s.mode = M_SHIP_TARGET
    else:
        _phase3_goes_on(s)


cdef int _moves_to_tiles(const uint64_t* targets, int i, action_t* out, int n) noexcept nogil:
    # a move of the ship on tile i to every tile of the set `targets`, in tile order
    cdef uint8_t tiles[TR_TILES]
    cdef int count = _tiles_list(targets[0], targets[1], tiles), k
    for k in range(count):
        out[n] = _tile_pair_action(A_SHIP_MOVE, i, tiles[k])
        n += 1
    return n


cdef bint _any_harness(const TrianState* s) noexcept nogil:
    # an AURELI's Harness token is on the board (only then can a ship be held: _ship_immobile)
    cdef int p
    if s.params.variant < V_FULL:
        return False
    for p in range(s.params.num_players):
        if s.players[p].race == R_AURELI and s.players[p].special_tile[0] != TR_UNKNOWN:
            return True
    return False


cdef int _ship_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # phase 3 ship actions: expedition, moving one's ship, teleporting a ship
    cdef uint64_t reach[2]                # a tile set (pieces.pxi)
    cdef uint8_t ship_tiles[TR_TILES]
    cdef ReachCache cache
    cdef int i, j, owner, k, n_ships = _ship_tiles(s, ship_tiles)
    cdef bint cache_ready = False         # filled when the first ship needs it
    cdef bint harness = _any_harness(s)
    cdef uint8_t teleports[TR_TILES]      # per entry of ship_tiles: that ship may teleport
    if s.actions_taken == 0 and _ship_expedition_ok(s):
        if s.players[me].corvettes > 0:
            out[n] = A_SHIP_EXPED
            n += 1
        if s.players[me].rogues > 0:
            out[n] = A_SHIP_EXPED + 1
            n += 1
    # every move before every teleport, so that the ids come out in ascending order (A_SHIP_MOVE + from *
    # TR_TILES + to, then A_SHIP_TELE + ...) and need no sorting
    for k in range(n_ships):
        i = ship_tiles[k]
        teleports[k] = 0
        if harness and _ship_immobile(s, i):
            continue
        teleports[k] = _mobile_ship_may_teleport_from(s, i, me)
        if s.placed[i].ship_owner == me:
            if not cache_ready:
                _reach_cache_init(s, &cache)
                cache_ready = True
            reach[0] = 0
            reach[1] = 0
            _race_reach(s, i, reach, &cache)
            n = _moves_to_tiles(reach, i, out, n)
    for k in range(n_ships):
        if teleports[k]:
            i = ship_tiles[k]
            if not cache_ready:
                _reach_cache_init(s, &cache)
                cache_ready = True
            owner = s.placed[i].ship_owner
            for j in range(s.n_placed):
                if j != i and s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face) and \
                        (not _cached_field(s, &cache, j) or _exmitter_immune(s, owner)):
                    out[n] = _tile_pair_action(A_SHIP_TELE, i, j)
                    n += 1
    return n


cdef bint _ship_expedition(TrianState* s, int me, int kind) noexcept nogil:
    # section V.3.2: a ship from the supply onto the tile added this turn; True when a racial token
    # destroyed it on arrival (phase 3 then went on without it)
    if kind == SHIP_CORVETTE:
        s.players[me].corvettes -= 1
    else:
        s.players[me].rogues -= 1
    _ship_arrive(s, s.new_tile, me, kind)
    return s.params.variant >= V_FULL and _race_after_ship_move(s, s.new_tile, False)


cdef void _ship_move(TrianState* s, action_t a) noexcept nogil:
    # section V.3.5: a ship moves (or is teleported) from tile src to tile j, then lands: a battle when
    # an enemy ship is next to it, else the end of phase 3 after its last action
    cdef int base = A_SHIP_MOVE if a < A_SHIP_TELE else A_SHIP_TELE, src, j, owner, kind
    _decode_tile_pair(a, base, &src, &j)
    if base == A_SHIP_TELE and _teleport_radius(s, src):
        s.teleport_used = 1
    owner = s.placed[src].ship_owner
    kind = s.placed[src].ship_kind
    _put_ship(s, src, -1, 0)
    s.placed[src].ship_arrived = 0
    s.placed[src].rogue_mined = 0
    _ship_arrive(s, j, owner, kind)
    _check_unblock(s, src)
    if _race_after_ship_move(s, j, base == A_SHIP_TELE):
        return                   # a racial skill decides first; it lands the ship afterwards
    _ship_landed(s, j)
