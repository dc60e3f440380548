# Included by engine.pyx: the end of the game (section VII): plundering, scores and ranks.

cdef void _exchange_minerals(TrianState* s) noexcept nogil:
    # section VII.1: at the end, before plundering, every player exchanges each mineral for 3 credits
    # (the minerals go back to the bag), so plundering can take credits that were minerals
    cdef int p, c
    for p in range(s.params.num_players):
        for c in range(TR_COLORS):
            s.players[p].credits += 3 * s.players[p].minerals[c]
            s.bag[c] += s.players[p].minerals[c]
            s.players[p].minerals[c] = 0


cdef int _blocked_owner(const TrianState* s, int root) noexcept nogil:
    # the only seat with emissaries (blocked ones included) in a closed area, -1 none, -2 several:
    # who is plundered when every emissary there is blocked (ruling, issue 16)
    cdef int i, owner = -1, node, e
    for i in range(s.n_placed):
        e = s.placed[i].emissary
        if e < 0:
            continue
        node = _area_node(s, i)
        if node < 0 or _cfind(s, node) != root:
            continue
        if owner == -1:
            owner = e
        elif owner != e:
            return -2
    return owner


cdef void _plunder(TrianState* s) noexcept nogil:
    # section VII / X / XII: at the end, after the minerals were exchanged, in turn order from the first
    # player, each player's Corvettes in a closed planetary system controlled by another player with a
    # station there take tiles x 1 (research station) or x 2 (space station) x Corvettes credits from
    # that controller, never more than the controller has (plundering stops when the victim runs out).
    # Ruling (issue 16): the controller is plundered however it controls the system and whether or not
    # its emissaries are blocked; a system held by emissaries only is plundered (x 1) when p's Corvette
    # blocks one of its planets
    cdef int n = s.params.num_players, k, p, i, root, f
    for k in range(n):
        p = (s.first_player + k) % n
        for i in range(s.n_placed):
            f = s.placed[i].face
            if not FACE_HAS_SYS[f]:
                continue
            root = _cfind(s, _node(i, K_SYSTEM))
            _plunder_system(s, p, i, root)
            if FACE_HAS_SYS2[f] and _cfind(s, _node(i, K_SYSTEM2)) != root:
                _plunder_system(s, p, i, _cfind(s, _node(i, K_SYSTEM2)))


cdef void _plunder_system(TrianState* s, int p, int i, int root) noexcept nogil:
    # p's Corvettes plunder the system with this root, met at its part on placed tile i
    cdef int j, victim, tiles, ext, st, corv, amount, planets
    cdef int units[MAX_PLAYERS]
    if s.area_open_borders[root] != 0:
        return
    for j in range(i):      # the system is handled at its first tile only
        if _tile_in_system(s, j, root):
            return
    victim = _controller(s, root)
    if victim == -1:
        victim = _blocked_owner(s, root)
    if victim < 0 or victim == p:
        return
    tiles = 0
    corv = 0
    planets = 0
    for j in range(s.n_placed):
        if _tile_in_system(s, j, root):
            tiles += 1
            if s.placed[j].ship_kind == SHIP_CORVETTE and s.placed[j].ship_owner == p:
                corv += 1
                # the planet of a face lies on its first system part
                if FACE_FEAT[s.placed[j].face] == F_PLANET and _cfind(s, _node(j, K_SYSTEM)) == root:
                    planets += 1
    if corv == 0:
        return
    _area_census(s, root, &ext, &ext, units, &st)
    if st == 0:
        # ruling (issue 16, section IX "a Planet"): a planet blocked by p means the whole system is
        # plundered, also one controlled by emissaries only, at the research-station rate
        if planets == 0 or units[p] > 0:
            return
        st = 1
    amount = tiles * st * corv
    if amount > s.players[victim].credits:
        amount = s.players[victim].credits
    s.players[victim].credits -= amount
    s.players[p].credits += amount


cdef void _end_scoring(TrianState* s) noexcept nogil:
    # section VII: the minerals become credits (VII.1) first, then the Corvettes plunder (VII.2); the
    # game's end and end_scoring() (the picture's "if it ended now") both run exactly this
    _exchange_minerals(s)
    if s.params.variant >= V_SHIPS:
        _plunder(s)


def end_scoring(Position pos):
    """Where each seat's score comes from (rulebook section VII), from a state or an observation: per seat
    `credits`, `minerals` (each worth 3 credits at the end, VII.1) and `plunder` (the credits the end's
    plundering would move to (+) or from (-) the seat if the game ended now, VII.2; 0 once it has
    ended, when the credits already hold both). Runs the end's own scoring, `_end_scoring`, on a copy;
    plundering reads only public facts (tiles, ships, stations, credits), so an observation gives the
    same answer as the full state. The score (`scores()`) is credits + 3 x minerals; the final score is
    that plus the plunder."""
    cdef const TrianState* s = _cst(pos.ptr)
    cdef TrianState* tmp = <TrianState*>malloc(sizeof(TrianState))
    cdef int p, n = s.params.num_players
    if tmp == NULL:
        raise MemoryError()
    try:
        memcpy(tmp, s, sizeof(TrianState))
        if s.mode != M_END:
            _end_scoring(tmp)
        out = []
        for p in range(n):
            minerals = _mineral_total(&s.players[p])
            out.append({"credits": s.players[p].credits, "minerals": minerals,
                        "plunder": tmp.players[p].credits - s.players[p].credits - 3 * minerals})
        return out
    finally:
        free(tmp)


def _score_breakdown(Position pos):
    # Game._score_breakdown: end_scoring()'s parts as the score counts them (credits + 3 per mineral,
    # VII.1); before the end of a game with Corvettes, the plunder the end would add (VII.2) as a part
    # of 0 points that says how much (it is not in the score yet). Public facts only (end_scoring).
    # Once over, the credits hold everything (the end exchanged the minerals and plundered).
    cdef const TrianState* s = _cst(pos.ptr)
    cdef bint ships = s.params.variant >= V_SHIPS
    out = []
    for p, part in enumerate(end_scoring(pos)):
        minerals = part["minerals"]
        if s.mode == M_END:
            done = "minerals exchanged at 3 each" + (" and plundering done" if ships else "")
            parts = [_part(f"credits ({done})", part["credits"], "")]
        else:
            parts = [_part("credits", part["credits"], ""),
                     _part(f"minerals × 3 ({minerals})", 3 * minerals,
                           "exchanged for 3 credits each at the end")]
        if ships and s.mode != M_END:
            parts.append(_part("Corvettes' plunder (at the end)", 0,
                               f"{part['plunder']:+d} credits if the game ended now"))
        out.append({"seat": p, "name": "", "parts": parts, "total": _score(&s.players[p])})
    return out


def _part(str label, int points, str detail):
    return {"label": label, "points": points, "detail": detail}


cdef inline int _score(const TrianPlayer* pl) noexcept nogil:
    # credits, with minerals at 3 each (section VII.1); the same formula before the end
    return pl.credits + 3 * _mineral_total(pl)


cdef void trian_scores(const void* p, double* out) noexcept nogil:
    cdef const TrianState* s = _cst(p)
    cdef int i
    for i in range(s.params.num_players):
        out[i] = _score(&s.players[i])


cdef inline int _pieces_left(const TrianPlayer* pl) noexcept nogil:
    # section VII.3: emissaries, space stations, research stations and ships left on the race board
    return pl.emissaries + pl.research_stations + pl.space_stations + pl.corvettes + pl.rogues


cdef void trian_ranks(const void* p, int* out) noexcept nogil:
    # most credits first; a tie goes to fewer pieces (ships included) left on the race board; then shared
    # (VII.3)
    cdef const TrianState* s = _cst(p)
    cdef double sc[MAX_PLAYERS]
    cdef int n = s.params.num_players, i, j
    trian_scores(p, sc)
    for i in range(n):
        out[i] = 0
        for j in range(n):
            if sc[j] > sc[i] or (sc[j] == sc[i] and
                                 _pieces_left(&s.players[j]) < _pieces_left(&s.players[i])):
                out[i] += 1
