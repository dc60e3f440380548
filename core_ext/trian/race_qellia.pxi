# Included by races.pxi: race 3, QELLIA (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Crystalline particle transporter, Priceless technology.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Ice cell, Quantum harmonic
# oscillator, Holographic trick.
#
# The race's actions are A_RACE + 3 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.

cdef enum:
    QE_CPT_EM = 0            # + source tile * 84 + target tile: transport the emissary there
    QE_CPT_SHIP = 7056       # + source tile * 84 + target tile: transport the ship there
    QE_SELL = 15000          # + 0 a "+1" token, + 1 a reroll token: Priceless technology
    QE_USED_CPT = 1          # race_used bit: the transporter was used this turn
    CPT_BLUE = 3             # blue minerals per use, 1 less for Ice cell and for the oscillator


cdef inline int _qellia_cpt_cost(const TrianState* s, int p) noexcept nogil:
    return CPT_BLUE - _has(s, p, R_QELLIA, 2) - _has(s, p, R_QELLIA, 3)


cdef int _qellia_ph1_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # Priceless technology: sell combat tokens for 2 credits each during trade (phase 1)
    cdef const TrianPlayer* pl = &s.players[me]
    if not _has(s, me, R_QELLIA, 1):
        return n
    if pl.tokens_plus > 0:
        out[n] = A_RACE + R_QELLIA * RACE_BLOCK + QE_SELL
        n += 1
    if pl.tokens_held - pl.tokens_plus > 0:
        out[n] = A_RACE + R_QELLIA * RACE_BLOCK + QE_SELL + 1
        n += 1
    return n


cdef inline int _area_root_of(const TrianState* s, int i) noexcept nogil:
    # the area (nebula or planetary system) of tile i, -1 for a tile with neither (e.g. an outpost)
    cdef int node = _area_node(s, i)
    return -1 if node < 0 else _cfind(s, node)


cdef int _qellia_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # Crystalline particle transporter: the phase 3 action, once per turn, for 3 blue minerals (less
    # with Ice cell / Quantum harmonic oscillator): one own unblocked emissary (not on a station) to a
    # tile of a different nebula or system (never a trade outpost), or any ship to another free tile
    cdef uint8_t em_ok[TR_TILES]
    cdef uint8_t ship_ok[TR_TILES]
    cdef int i, j, root, base = A_RACE + R_QELLIA * RACE_BLOCK
    if not _has(s, me, R_QELLIA, 0) or s.race_used & QE_USED_CPT or \
            s.players[me].minerals[1] < _qellia_cpt_cost(s, me):
        return n
    for j in range(s.n_placed):
        em_ok[j] = FACE_FEAT[s.placed[j].face] != F_OUTPOST and _may_receive_emissary(s, j, me, -1)
        ship_ok[j] = _ship_may_stand(s, j)
    for i in range(s.n_placed):
        if s.placed[i].emissary == me and s.placed[i].station == 0 and not _blocked(s, i):
            root = _area_root_of(s, i)
            for j in range(s.n_placed):
                if em_ok[j] and (root < 0 or _area_root_of(s, j) != root):
                    out[n] = base + QE_CPT_EM + i * TR_TILES + j
                    n += 1
        if s.placed[i].ship_kind != 0 and not _ship_immobile(s, i):
            for j in range(s.n_placed):
                if ship_ok[j] and j != i:
                    out[n] = base + QE_CPT_SHIP + i * TR_TILES + j
                    n += 1
    return n


cdef int _qellia_apply(TrianState* s, int me, int local) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int src, j, owner, kind
    if local == QE_SELL or local == QE_SELL + 1:
        pl.tokens_held -= 1
        if local == QE_SELL:
            pl.tokens_plus -= 1
        pl.credits += 2          # the token goes back to the bag
        return 0
    src = (local % QE_CPT_SHIP) // TR_TILES
    j = local % TR_TILES
    _spend_action(s)
    s.race_used |= QE_USED_CPT
    pl.minerals[1] -= _qellia_cpt_cost(s, me)
    s.bag[1] += _qellia_cpt_cost(s, me)
    if local < QE_CPT_SHIP:
        owner = _closed_area_owner(s, j)
        _put_emissary(s, j, me)
        s.placed[j].unit = s.placed[src].unit
        _put_emissary(s, src, -1)
        s.placed[src].unit = 0
        s.mission_tile = <uint8_t>j
        if owner == -1 and not _blocked(s, j):
            _control_token(s, me)    # arrived unblocked in an uncontrolled closed area (VI.3, XI)
        _action_done(s)
        return 0
    owner = s.placed[src].ship_owner
    kind = s.placed[src].ship_kind
    _put_ship(s, src, -1, 0)
    s.placed[src].ship_arrived = 0
    s.placed[src].rogue_mined = 0
    _ship_arrive(s, j, owner, kind)
    _check_unblock(s, src)
    if _race_after_ship_move(s, j, True):
        return 0                     # a racial token destroyed it
    _ship_landed(s, j)
    return 0


cdef object _qellia_describe(const TrianState* s, int me, int a, int local):
    if local >= QE_SELL:
        kind = ("+1", "reroll")[local - QE_SELL]
        return {"id": a, "kind": "sell_token", "token": kind,
                "label": f"Priceless technology: sell a {kind} combat token for 2 credits"}
    ship = local >= QE_CPT_SHIP
    i = (local % QE_CPT_SHIP) // TR_TILES
    j = local % TR_TILES
    cost = _qellia_cpt_cost(s, me) if me >= 0 else CPT_BLUE
    unit = f"{SHIP_NAMES[s.placed[i].ship_kind]}" if ship else "emissary"
    return {"id": a, "kind": "transport", "unit": "ship" if ship else "emissary", "from": _cell(s, i),
            "to": _cell(s, j),
            "label": f"Crystalline particle transporter: the {unit} at ({s.placed[i].x}, {s.placed[i].y}) "
                     f"to ({s.placed[j].x}, {s.placed[j].y}) for {cost} blue"}
