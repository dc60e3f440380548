# Included by races.pxi: race 2, VANTH (invented name) (section VIII; docs/rules/trian.md, section 14).
#
# Starting skills (racial skills 0, 1): Risky Business, Minerals gatherer.
# Modules 0, 1, 2 (racial skills 2, 3, 4; universal skills on their other sides): Ion Drive, Lucky (needs
# Risky Business), Connoisseur of minerals (needs Minerals gatherer).
#
# The race's actions are A_RACE + 2 * RACE_BLOCK + n (n < RACE_BLOCK). Its skills hook into the engine
# through the dispatch functions at the end of races.pxi (_race_ph1_actions, _race_ph3_actions,
# _race_step_actions, _race_apply, _race_after_gain, _race_after_ship_move, _race_ship_gone,
# _race_before_clash, _rogue_fights, _die_bonus, _wins_ties, _ship_immobile, _race_reach,
# _construct_credits, _race_check, _race_describe); set SKILL_DONE for every skill implemented here.

cdef enum:
    VA_RISKY = 0             # + combination of 5 minerals (MSETS[2]): Risky Business
    VA_GATHER = 100          # + colour: the extra mineral of Minerals gatherer / Connoisseur
    VA_USED_RISKY = 2        # race_used bit
    RISKY_WIN = 4            # the die (+1 with Lucky) wins from 4 up
    RISKY_STAKE = 5          # minerals invested


cdef int _vanth_ph3_actions(const TrianState* s, int me, action_t* out, int n) noexcept nogil:
    # Risky Business: the phase 3 action, once per turn, 5 chosen minerals back to the bag
    cdef int k
    if (not _has(s, me, R_VANTH, 0) or s.race_used & VA_USED_RISKY
            or _mineral_total(&s.players[me]) < RISKY_STAKE):
        return n
    for k in range(MSET_N[2]):
        if _may_pay(&s.players[me], 2, k):
            out[n] = A_RACE + R_VANTH * RACE_BLOCK + VA_RISKY + k
            n += 1
    return n


cdef void _vanth_after_gain(TrianState* s, int me, int nebula) noexcept nogil:
    # Minerals gatherer: a green mineral gained from a nebula brings 1 more chosen mineral from the
    # same nebula (2 with Connoisseur of minerals), outside the 2-per-turn limit
    cdef int m = _nebula_mineral_total(s, nebula)
    if m == 0:
        return
    s.mode = M_RACE
    s.race_step = STEP_GATHER
    s.race_seat = <int8_t>me
    s.race_arg = <uint8_t>nebula
    s.race_count = <uint8_t>(1 + _has(s, me, R_VANTH, 4))


cdef int _vanth_step_actions(const TrianState* s, action_t* out) noexcept nogil:
    cdef int c, n = 0
    for c in range(TR_COLORS):
        if s.nebula_minerals[s.race_arg][c] > 0:
            out[n] = A_RACE + R_VANTH * RACE_BLOCK + VA_GATHER + c
            n += 1
    return n


cdef int _vanth_apply(TrianState* s, int me, int local) noexcept nogil:
    cdef TrianPlayer* pl = &s.players[me]
    cdef int c, k, die, nebula
    if local >= VA_GATHER:
        c = local - VA_GATHER
        nebula = s.race_arg
        s.nebula_minerals[nebula][c] -= 1
        pl.minerals[c] += 1
        s.race_count -= 1
        if s.race_count == 0 or _nebula_mineral_total(s, nebula) == 0:
            _race_step_clear(s)
            s.mode = M_PH1
        return 0
    _spend_action(s)
    s.race_used |= VA_USED_RISKY
    _pay_minerals(s, me, 2, local - VA_RISKY, -1)
    die = rng_die(&s.rng_dice, 6) + _has(s, me, R_VANTH, 3)      # Lucky: +1
    if die >= RISKY_WIN:
        for k in range(2 * RISKY_STAKE):                          # twice the stake, drawn at random
            c = _draw_mineral(s)
            if c >= 0:
                pl.minerals[c] += 1
    _action_done(s)
    return 0


cdef void _reach_ion(const TrianState* s, int i, int g, int depth, int start, uint64_t* out) noexcept nogil:
    # Ion Drive: like _reach, but a ship may also cross gas-cloud borders and pass through gas tiles
    # (never a nebula border); g is the outer-space group it entered by (-1 at the start or after a
    # gas border); on a tile with a nebula part it keeps to its outer-space region (nebula bands)
    cdef int d, j, e, f = s.placed[i].face
    if depth == 0:
        return
    for d in range(3):
        e = FACE_EDGE[f][_edge_at(s, i, d)]
        if e == E_NEBULA:
            continue
        j = _nb_placed(s, i, d)
        if j < 0 or _in_exmitter_field(s, j):
            continue
        if g >= 0 and e != E_GAS and FACE_HAS_NEB[f] and _side_group(s, i, d) != g:
            continue
        if j != start and s.placed[j].ship_kind == 0 and _has_space(s.placed[j].face):
            _tiles_add(out, j)
        _reach_ion(s, j, -1 if e == E_GAS else _side_group(s, j, _opposite(d)), depth - 1, start, out)


cdef object _vanth_describe(const TrianState* s, int me, int a, int local):
    if local >= VA_GATHER:
        color = COLOR_NAMES[local - VA_GATHER]
        return {"id": a, "kind": "gather", "color": color,
                "label": f"Minerals gatherer: take a {color} mineral from nebula #{s.race_arg}"}
    combo = MSETS[2][local - VA_RISKY]
    pay = {COLOR_NAMES[c]: combo[c] for c in range(4) if combo[c]}
    text = ", ".join(f"{v} {k}" for k, v in pay.items())
    return {"id": a, "kind": "risky_business", "pay": pay,
            "label": f"Risky Business: invest {text} (4-6 on the die doubles it)"}
