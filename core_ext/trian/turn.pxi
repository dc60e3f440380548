# Included by engine.pyx: setup (section III) and the flow of a turn (section V): start, phase changes, end
# of game.

cdef void _refresh_tops(TrianState* s) noexcept nogil:
    cdef int k, n
    for k in range(2):
        n = s.stack_len[k]
        if n > 0:
            s.stack_top_face[k] = TILE_FACE[s.stack_tile[k][n - 1]][s.stack_side_up[k][n - 1]]
        else:
            s.stack_top_face[k] = TR_UNKNOWN


cdef int trian_init(void* p, const GameParams* params, uint64_t seed) noexcept nogil:
    cdef TrianState* s = _st(p)
    cdef Rng rng
    cdef int n = params.num_players, i, j, t, k, best, ties, roll
    cdef uint8_t order[TR_TILES]
    cdef int rolls[MAX_PLAYERS]
    if n < 2 or n > MAX_PLAYERS or params.variant < V_BEGINNER or params.variant > V_FULL:
        return -1
    memset(s, 0, sizeof(TrianState))
    s.params = params[0]
    rng_seed2(&s.rng_minerals, seed, STREAM_MINERALS)
    rng_seed2(&s.rng_tokens, seed, STREAM_TOKENS)
    rng_seed2(&s.rng_dice, seed, STREAM_DICE)
    # section III: two even stacks, shuffled, no special side face up
    rng_seed2(&rng, seed, STREAM_STACKS)
    for i in range(TR_TILES):
        order[i] = <uint8_t>i
    for i in range(TR_TILES - 1, 0, -1):
        j = <int>rng_below(&rng, <uint32_t>(i + 1))
        t = order[i]
        order[i] = order[j]
        order[j] = <uint8_t>t
    for i in range(TR_TILES):
        k = i % 2
        t = order[i]
        s.stack_tile[k][i // 2] = <uint8_t>t
        if FACE_SPECIAL[TILE_FACE[t][0]]:
            s.stack_side_up[k][i // 2] = 1
        elif FACE_SPECIAL[TILE_FACE[t][1]]:
            s.stack_side_up[k][i // 2] = 0
        else:
            s.stack_side_up[k][i // 2] = <uint8_t>rng_below(&rng, 2)
    s.stack_len[0] = TR_STACK
    s.stack_len[1] = TR_STACK
    _refresh_tops(s)
    s.drawn_tile = TR_UNKNOWN
    s.drawn_side_up = TR_UNKNOWN
    s.drawn_face = TR_UNKNOWN
    s.drawn_stack = TR_UNKNOWN
    _board_reset(s)
    for k in range(TR_COLORS):
        s.bag[k] = MINERALS_PER_COLOR
    for i in range(n):
        s.players[i].credits = 10
        s.players[i].emissaries = <uint8_t>PIECES[n][0]
        s.players[i].research_stations = <uint8_t>PIECES[n][1]
        s.players[i].space_stations = <uint8_t>PIECES[n][2]
        if params.variant >= V_SHIPS:
            s.players[i].corvettes = 3
            s.players[i].rogues = 2
    for i in range(n):        # 1 combat token each, from the token stream in seat order
        _draw_token(s, i)
    _races_setup(s, seed)
    for i in range(MAX_PLAYERS):
        s.battle_order[i] = -1
    # section V: the highest attack die starts; ties roll again
    while True:
        best = 0
        ties = 0
        for i in range(n):
            roll = rng_die(&s.rng_dice, 6)
            rolls[i] = roll
            if roll > best:
                best = roll
        for i in range(n):
            if rolls[i] == best:
                ties += 1
                k = i
        if ties == 1:
            break
    s.first_player = <int8_t>k
    s.turn_player = <int8_t>k
    s.turn = 1
    _start_turn(s)
    return 0


cdef void _start_turn(TrianState* s) noexcept nogil:
    cdef uint8_t tiles[TR_TILES]
    cdef int k, n_ships = _ship_tiles(s, tiles)
    s.mode = M_PH1
    s.new_tile = TR_UNKNOWN
    s.actions_left = 0
    s.actions_taken = 0
    s.teleport_used = 0
    s.evolved = 0
    s.race_used = 0
    s.mission_tile = TR_UNKNOWN
    s.events_pending = 0
    s.events_count = 0
    s.events_next = 0
    memset(s.event_root, 0, sizeof(s.event_root))
    memset(s.event_kind, 0, sizeof(s.event_kind))
    memset(s.nebula_gained, 0, sizeof(s.nebula_gained))
    for k in range(n_ships):        # both flags are 0 on a tile without a ship
        s.placed[tiles[k]].ship_arrived = 0
        s.placed[tiles[k]].rogue_mined = 0
    if s.params.variant >= V_FULL:
        _race_turn_start(s)          # e.g. the upkeep of Adaptation Abilities (a racial sub-step)


cdef void _end_turn(TrianState* s) noexcept nogil:
    if s.stack_len[0] == 0 and s.stack_len[1] == 0:
        s.mode = M_END          # section VII: the turn in which the last tile was placed is over
        _end_scoring(s)
        return
    s.turn_player = <int8_t>((s.turn_player + 1) % s.params.num_players)
    s.turn += 1
    _start_turn(s)


cdef void _enter_ph3(TrianState* s) noexcept nogil:
    s.mode = M_PH3
    s.actions_left = 1
    s.actions_taken = 0


cdef void _finish_ph3(TrianState* s) noexcept nogil:
    if s.events_pending:
        s.events_end_turn = 1
        _events_run(s)
    else:
        _end_turn(s)


cdef void _clear_drawn(TrianState* s) noexcept nogil:
    s.drawn_tile = TR_UNKNOWN
    s.drawn_side_up = TR_UNKNOWN
    s.drawn_face = TR_UNKNOWN
    s.drawn_stack = TR_UNKNOWN
