# Included by engine.pyx: phase 3 (section V.3): research, expedition, construction, teleportation and ship
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
    if s.placed[i].station == 0 and s.players[p].research_stations == 0:
        return False
    if s.placed[i].station == 1 and s.players[p].space_stations == 0:
        return False
    root = _settled_root(s, i)
    if root < 0 or _controller(s, root) != p:
        return False
    node = _area_node(s, i)
    if _node_part(node) == K_SYSTEM and s.placed[i].station == 0:
        _area_census(s, root, &tiles, &ext, units, &st)
        if st > 0:
            return False          # one station per planetary system (section V.3.3)
    return True


cdef void _construct(TrianState* s, int me, int i, int levels) noexcept nogil:
    # section V.3.3: build `levels` station levels (1; 2 at once with Living structures) on me's emissary
    # on tile i: pay each level's credits, add each level's minerals in a nebula, and send blocked
    # enemy emissaries of the area home (section XI)
    cdef TrianPlayer* pl = &s.players[me]
    cdef int node = _area_node(s, i), root, tiles, ext, st, m = 0, k, c, lv, _lv, _q, n_holders, h
    cdef int units[MAX_PLAYERS]
    cdef uint8_t holders[TR_TILES]
    root = _cfind(s, node)
    _area_census(s, root, &tiles, &ext, units, &st)
    for k in range(s.params.num_players):
        m += units[k]
    for _lv in range(levels):
        if s.placed[i].station == 0:
            pl.research_stations -= 1
        else:
            pl.space_stations -= 1
        s.placed[i].station += 1
    n_holders = _emissary_tiles(s, holders)
    for h in range(n_holders):
        k = holders[h]
        if _blocked(s, k) and s.placed[k].station == 0 and s.placed[k].emissary != me and \
                _area_node(s, k) >= 0 and _cfind(s, _area_node(s, k)) == root:
            _return_emissary(s, k)
    for _lv in range(levels):
        pl.credits += _construct_credits(s, i, _node_part(node) == K_SYSTEM, tiles + m)
    if _node_part(node) != K_SYSTEM:
        k = _nebula_record(s, root)
        for lv in range(levels):
            for _q in range(2 if s.placed[i].station - levels + 1 + lv == 1 else 4):
                c = _draw_mineral(s)
                if c >= 0 and k >= 0:
                    s.nebula_minerals[k][c] += 1


cdef int _legal_phase3(const TrianState* s, int me, action_t* out) noexcept nogil:
    # resolve events first, pass, and while an action is left: research, expedition, construction,
    # teleportation, ship actions and racial actions
    # Every block below is listed in ascending id order, and the blocks follow each other in id order
    # up to the racial actions, so only those are left to sort (_sort_from).
    cdef int n = 0, i, k, n_own, n_in_order
    cdef uint8_t own_tiles[TR_TILES]
    cdef bint events_first = s.events_pending and s.actions_taken == 0
    if s.actions_left == 0:
        if events_first:
            out[n] = A_EVENTS_FIRST       # this short list is returned as it always was, unsorted
            n += 1
        out[n] = A_PASS
        return n + 1
    out[n] = A_PASS
    n += 1
    if events_first:
        out[n] = A_EVENTS_FIRST
        n += 1
    out[n] = A_RESEARCH
    n += 1
    if s.actions_taken == 0 and _may_expedition(s, me):
        out[n] = A_EXPEDITION
        n += 1
    n_own = _own_emissary_tiles(s, me, own_tiles)
    for k in range(n_own):
        i = own_tiles[k]
        if _may_construct(s, i, me):
            out[n] = A_CONSTRUCT + i
            n += 1
    n = _teleport_actions(s, me, out, n)
    if s.params.variant >= V_SHIPS:
        n = _ship_actions(s, me, out, n)
    n_in_order = n
    if s.params.variant >= V_FULL:
        n = _race_ph3_actions(s, me, out, n)
    _sort_from(out, n_in_order, n)
    return n


cdef int _teleport_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # section V.3.4: an emissary next to the teleport added this turn moves to a free target
    cdef int d, src, j
    if s.new_tile == TR_UNKNOWN or s.teleport_used or FACE_FEAT[s.placed[s.new_tile].face] != F_TELEPORT:
        return n
    for d in range(3):
        src = _nb_placed(s, s.new_tile, d)
        if src < 0 or s.placed[src].emissary < 0 or s.placed[src].station > 0:
            continue
        if _blocked(s, src) or (_protected(s, src) and s.placed[src].emissary != me):
            continue          # section XII: blocked, or protected by its owner's Corvette
        for j in range(s.n_placed):
            if j != src and _may_receive_emissary(s, j, s.placed[src].emissary, src):
                out[n] = _tile_pair_action(A_TELEPORT, d, j)
                n += 1
    return n


cdef int _apply_phase3(TrianState* s, int me, action_t a) noexcept nogil:
    cdef int mission = -1
    if a == A_EVENTS_FIRST:
        s.events_end_turn = 0
        _events_run(s)
        return 0
    if a == A_PASS:
        _finish_ph3(s)
        return 0
    if a >= A_RACE:
        return _race_apply(s, me, a)     # racial actions spend the phase 3 action themselves
    s.actions_left -= 1
    s.actions_taken += 1
    if a == A_RESEARCH:
        _research(s, me)
    elif a == A_EXPEDITION:
        mission = _expedition(s, me)
    elif _in_block(a, A_CONSTRUCT, TR_TILES):
        _construct(s, me, a - A_CONSTRUCT, 1)
    elif _in_block(a, A_TELEPORT, 3 * TR_TILES):
        mission = _teleport(s, me, a)
    elif a == A_SHIP_EXPED or a == A_SHIP_EXPED + 1:
        if _ship_expedition(s, me, SHIP_CORVETTE if a == A_SHIP_EXPED else SHIP_ROGUE):
            return 0             # a racial token destroyed the ship; phase 3 went on without it
    elif _in_block(a, A_SHIP_MOVE, A_SHIP_TELE + TR_TILES * TR_TILES - A_SHIP_MOVE):
        _ship_move(s, a)
        return 0
    else:
        return -1
    if mission >= 0 and s.params.variant >= V_FULL:
        _race_after_mission(s, me, mission)
        if s.mode == M_RACE:
            return 0             # the racial sub-step ends phase 3 when this was its last action
    if s.actions_left == 0:
        _finish_ph3(s)
    return 0


cdef void _research(TrianState* s, int me) noexcept nogil:
    # section V.3.1: one mineral from the bag
    cdef int c = _draw_mineral(s)
    if c >= 0:
        s.players[me].minerals[c] += 1


cdef int _expedition(TrianState* s, int me) noexcept nogil:
    # section V.3.2: an emissary onto the tile added this turn; returns that tile
    cdef int i = s.new_tile, owner = _closed_area_owner(s, i)
    _put_emissary(s, i, me)
    s.players[me].emissaries -= 1
    s.mission_tile = <uint8_t>i
    if FACE_FEAT[s.placed[i].face] == F_OUTPOST:
        s.actions_left += 2       # section IX: two extra actions this phase 3
    if owner == -1:
        _control_token(s, me)     # took control of an uncontrolled closed area (VI.3)
    return i


cdef int _teleport(TrianState* s, int me, action_t a) noexcept nogil:
    # section V.3.4: the emissary on side d of the teleport moves to tile j; returns j when it is me's
    # own emissary (a mission), else -1
    cdef int d, j, src, before, owner, mission = -1
    _decode_tile_pair(a, A_TELEPORT, &d, &j)
    src = _nb_placed(s, s.new_tile, d)
    before = _closed_area_owner(s, j)          # before the move: a move within one area takes nothing
    owner = s.placed[src].emissary
    s.placed[j].unit = s.placed[src].unit
    _put_emissary(s, src, -1)
    s.placed[src].unit = 0
    _put_emissary(s, j, owner)
    s.teleport_used = 1
    if owner == me:
        s.mission_tile = <uint8_t>j
        mission = j
    if FACE_FEAT[s.placed[j].face] == F_OUTPOST and owner == me and not _blocked(s, j):
        s.actions_left += 2       # a blocked emissary gives no outpost bonus (section XI)
    if before == -1 and not _blocked(s, j):
        _control_token(s, owner)  # an emissary arriving blocked takes no control (XI; re-read 2026-11-26)
    return mission
