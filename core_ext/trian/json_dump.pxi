# Included by engine.pyx: JSON dump, the struct as facts (the public format's names, and one function
# per section of the payload).
#
# The JSON payload ("orrery.trian.state/3", "orrery.trian.observation/3"; every field in docs/rules/trian.md,
# section 15, and core_ext/trian/state.schema.json) holds game facts only: the tiles and where they lie,
# the stacks as the reader knows them, pieces, counters, and each pending decision named by the cells,
# seats and nebulas it concerns. Nothing of the struct's layout (hash table, union-find, frontier, padding)
# is part of it. json_load.pxi reads it back, json_checks.pxi checks the state it loads as a whole.

TRIAN_FORMAT_VERSION = 3       # 3: send_home and take_back decisions per emissary (2 loads by upgrade)

# ---------------------------------------------------------------- the names the format uses

PHASE_IDS = {M_PH1: "phase1", M_DRAW: "phase2_draw", M_PLACE: "phase2_place", M_PH3: "phase3",
             M_TAKEBACK: "take_back", M_DECLARE: "battle_declare", M_REROLL: "battle_reroll",
             M_END: "game_over", M_SHIP_TARGET: "ship_target", M_RACE: "racial_step",
             M_SEND_HOME: "send_home"}
SIDE_IDS = ("left", "right", "horizontal")                       # D_LEFT, D_RIGHT, D_VERT
UNIT_IDS = ("emissary", "slave_minion", "supreme_priestess")     # TrianPlaced.unit
STATION_IDS = (None, "research", "space")                        # TrianPlaced.station
SHIP_IDS = (None, "corvette", "rogue", "supreme_priestess")      # TrianPlaced.ship_kind
AREA_IDS = ("nebula", "system", "space")
CAUSE_IDS = ("closed", "unblocked")
AFTER_EVENTS_IDS = ("phase3", "end_turn")                        # TrianState.events_end_turn
STEP_IDS = {STEP_GATHER: "minerals_gatherer", STEP_MINION: "slave_minion",
            STEP_PR_GAIN: "priestess_minerals", STEP_PR_FIX: "priestess_fix", STEP_DIVINE: "divine_help",
            STEP_DIVINE_TO: "divine_help_destination", STEP_ADAPT: "adaptation"}
ADAPTED_UNIT_IDS = ("emissary", "ship")                          # race_count of STEP_ADAPT
# the once-per-turn racial abilities behind the bits of race_used, per race of the seat whose turn it is
RACIAL_USE_IDS = {
    R_AURELI: ((AU_USED_HARNESS, "harness_technology"),),
    R_KORRAX: ((KO_USED_MINION, "slave_minion"),),
    R_VANTH: ((VA_USED_RISKY, "risky_business"),),
    R_QELLIA: ((QE_USED_CPT, "particle_transporter"),),
    R_ORVIN: ((1 << OR_USED_MANIPULATION, "manipulation"),),
    R_SYLPHEX: ((1 << 1, "space_modulator_1"), (1 << 2, "space_modulator_2")),
}
STREAM_IDS = ("minerals", "tokens", "dice")


# ---------------------------------------------------------------- dump: the struct as facts
cdef dict _cell(const TrianState* s, int i):
    return {"x": s.placed[i].x, "y": s.placed[i].y}


cdef object _maybe(int value, int unknown):
    return None if value == unknown else value


cdef object _face_json(int face):
    return None if face == TR_UNKNOWN else FACE_NAMES[face]


cdef dict _minerals_json(const uint8_t* counts):
    return {COLOR_NAMES[c]: counts[c] for c in range(TR_COLORS)}


cdef dict _dump(const TrianState* s, bint full):
    cdef int k, i, p
    payload = {
        "turn": s.turn,
        "phase": PHASE_IDS[s.mode],
        "turn_player": s.turn_player,
        "first_player": s.first_player,
        "stacks": [_stack_json(s, k, full) for k in range(2)],
        "hand": _hand_json(s),
        "set_aside": [s.discarded[i] for i in range(s.n_discarded)],
        "galaxy": [_placed_json(s, i) for i in range(s.n_placed)],
        "nebulas": [_nebula_json(s, k) for k in range(s.n_nebulas)],
        "bag": _minerals_json(s.bag),
        "players": [_player_json(s, p) for p in range(s.params.num_players)],
        "this_turn": _this_turn_json(s),
        "events": _events_json(s),
        "battle": _battle_json(s),
        "ship_battle": _ship_battle_json(s),
        "racial_step": _racial_step_json(s),
        "send_home": _send_home_json(s),
        "take_back": _take_back_json(s),
    }
    if full:
        payload["random_streams"] = {
            "minerals": _stream_json(&s.rng_minerals),
            "tokens": _stream_json(&s.rng_tokens),
            "dice": _stream_json(&s.rng_dice),
        }
    return payload


cdef list _stream_json(const Rng* rng):
    # hex text: JSON readers that hold numbers as doubles would round 64-bit words
    return [format(rng.s[w], "016x") for w in range(4)]


cdef dict _stack_json(const TrianState* s, int k, bint full):
    cdef int i
    out = {"size": s.stack_len[k], "top_face": _face_json(s.stack_top_face[k])}
    if full:
        out["tiles"] = [{"tile": s.stack_tile[k][i], "side_up": s.stack_side_up[k][i]}
                        for i in range(s.stack_len[k])]
    return out


cdef object _hand_json(const TrianState* s):
    if s.drawn_face == TR_UNKNOWN:
        return None
    return {"stack": s.drawn_stack, "face_up": FACE_NAMES[s.drawn_face],
            "tile": _maybe(s.drawn_tile, TR_UNKNOWN), "side_up": _maybe(s.drawn_side_up, TR_UNKNOWN)}


cdef dict _placed_json(const TrianState* s, int i):
    cdef const TrianPlaced* t = &s.placed[i]
    emissary = None
    if t.emissary >= 0:
        emissary = {"seat": t.emissary, "unit": UNIT_IDS[t.unit], "station": STATION_IDS[t.station]}
    ship = None
    if t.ship_kind != 0:
        ship = {"seat": t.ship_owner, "kind": SHIP_IDS[t.ship_kind],
                "arrived_this_turn": bool(t.ship_arrived),
                "mined_this_turn": bool(t.rogue_mined)}
    return {"x": t.x, "y": t.y, "tile": _maybe(t.tile, TR_UNKNOWN), "side": _maybe(t.side, TR_UNKNOWN),
            "face": FACE_NAMES[t.face], "face_when_drawn": FACE_NAMES[t.face_when_drawn], "rotation": t.rot,
            "placer": t.placer, "emissary": emissary, "ship": ship}


cdef dict _nebula_json(const TrianState* s, int k):
    # a union-find root is the smallest node of its area, a node of the area's first tile
    out = _cell(s, _node_tile(s.nebula_root[k]))
    out["minerals"] = _minerals_json(s.nebula_minerals[k])
    out["gained_this_turn"] = s.nebula_gained[k]
    return out


cdef dict _player_json(const TrianState* s, int p):
    cdef const TrianPlayer* pl = &s.players[p]
    cdef int r = pl.race if pl.race < N_RACES else -1
    return {
        "credits": pl.credits,
        "minerals": _minerals_json(pl.minerals),
        "supply": {"emissaries": pl.emissaries, "research_stations": pl.research_stations,
                   "space_stations": pl.space_stations,
                   "corvettes": pl.corvettes, "rogues": pl.rogues},
        "combat_tokens": {"count": pl.tokens_held, "plus": _maybe(pl.tokens_plus, TR_HIDDEN)},
        "declared_tokens": {"count": pl.declared_tokens, "plus": _maybe(pl.declared_plus, TR_HIDDEN)},
        "race": RACE_NAMES[r] if r >= 0 else None,
        "racial_skills": [SKILL_NAMES[r][k] for k in range(RACE_SKILLS) if r >= 0 and (pl.skills >> k) & 1],
        "universal_skills": [UNIVERSAL_NAMES[u] for u in range(3) if (pl.skills >> (U_BIT + u)) & 1],
        "special_tokens": [dict(_cell(s, pl.special_tile[k]), slot=k)
                           for k in range(4) if pl.special_tile[k] != TR_UNKNOWN],
    }


cdef dict _this_turn_json(const TrianState* s):
    uses = RACIAL_USE_IDS.get(s.players[s.turn_player].race, ())
    return {
        "tile_added": None if s.new_tile == TR_UNKNOWN else _cell(s, s.new_tile),
        "actions_left": s.actions_left,
        "actions_taken": s.actions_taken,
        "teleport_used": bool(s.teleport_used),
        "skill_unlocked": bool(s.evolved),
        "racial_uses": [name for bit, name in uses if s.race_used & bit],
        "emissary_arrived": None if s.mission_tile == TR_UNKNOWN else _cell(s, s.mission_tile),
    }


cdef object _events_json(const TrianState* s):
    cdef int k
    if not s.events_pending:
        return None
    return {"areas": [_area_json(s, s.event_root[k], s.event_kind[k]) for k in range(s.events_count)],
            "resolved": s.events_next, "then": AFTER_EVENTS_IDS[s.events_end_turn], "value": s.event_credits}


cdef dict _area_json(const TrianState* s, int root, int kind):
    # the root's own tile names the area: a nebula or system part, or the side of an outer-space part;
    # a face's second system part is named by the side of one of its starlight paths
    cdef int i = _node_tile(root), part = _node_part(root)
    out = _cell(s, i)
    out["cause"] = "unblocked" if kind == AREA_UNBLOCKED else "closed"
    if part == K_NEBULA:
        out["area"] = "nebula"
    elif part == K_SYSTEM:
        out["area"] = "system"
    elif part == K_SYSTEM2:
        out["area"] = "system"
        out["side"] = SIDE_IDS[_side_of_system_part(s, i, part)]
    else:
        out["area"] = "space"
        out["side"] = SIDE_IDS[_side_of_space_group(s, i, part)]
    return out


cdef int _side_of_space_group(const TrianState* s, int i, int group) noexcept:
    cdef int d
    for d in range(3):
        if _space_side(s, i, d) and _side_group(s, i, d) == group:
            return d
    return 0          # unreachable: a space-group node exists only behind an outer-space edge


cdef int _side_of_system_part(const TrianState* s, int i, int part) noexcept:
    cdef int d
    for d in range(3):
        if _path_part(s, i, d) == part:
            return d
    return 0          # unreachable: a system-part node exists only behind a starlight-path edge


cdef object _battle_json(const TrianState* s):
    cdef int k, p
    if s.mode != M_DECLARE and s.mode != M_REROLL and s.mode != M_SEND_HOME:
        return None
    seats = []
    for k in range(s.battle_size):
        p = s.battle_order[k]
        seats.append({"seat": p, "bonus": s.battle_bonus[p], "die": s.battle_roll[p],
                      "rerolls": s.battle_rerolls[p],
                      "warcry": bool((s.battle_warcry >> p) & 1)})
    return {"seats": seats, "acting": s.battle_turn}


cdef object _send_home_json(const TrianState* s):
    # after an emissary clash: the seats still to send one emissary home, in battle order, and who
    # chooses (the clash's winner; null after a tie: each seat chooses its own)
    cdef int k, p
    if s.mode != M_SEND_HOME:
        return None
    seats = [s.battle_order[k] for k in range(s.battle_size) if (s.send_home_seats >> s.battle_order[k]) & 1]
    return {"winner": None if s.send_home_winner < 0 else s.send_home_winner, "seats": seats}


cdef object _take_back_json(const TrianState* s):
    # after the first emissary taken back: the tile it left; only later tiles are offered (section 7)
    if s.mode != M_TAKEBACK or s.takeback_next == 0:
        return None
    return {"after": _cell(s, s.takeback_next - 1)}


cdef object _ship_battle_json(const TrianState* s):
    if not s.ship_battle_on:
        return None
    # no clash is on while the attacker picks its target
    defender = None if s.mode == M_SHIP_TARGET else _cell(s, s.ship_battle_target)
    return {"attacker": _cell(s, s.ship_battle_attacker), "defender": defender}


cdef object _racial_step_json(const TrianState* s):
    if s.mode != M_RACE:
        return None
    out = {"step": STEP_IDS[s.race_step], "seat": s.race_seat}
    if s.race_step == STEP_GATHER:
        out["nebula"] = s.race_arg
        out["picks_left"] = s.race_count
    elif s.race_step == STEP_PR_GAIN:
        out["picks_left"] = s.race_count
        if s.race_count == PRIESTESS_GAIN:
            out["at"] = _cell(s, s.race_arg)        # before the first pick: where the Priestess stands
        else:
            out["nebula"] = s.race_arg              # the nebula the first pick chose
    elif s.race_step == STEP_ADAPT:
        out["at"] = _cell(s, s.race_arg)
        out["unit"] = ADAPTED_UNIT_IDS[s.race_count]
    else:
        out["at"] = _cell(s, s.race_arg)
    return out
