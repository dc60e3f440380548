# Included by engine.pyx: the Python side of the Trian core (the public JSON format, action structs, render).
#
# The JSON payload ("orrery.trian.state/3", "orrery.trian.observation/3"; every field in docs/rules/trian.md,
# section 15, and core_ext/trian/state.schema.json) holds game facts only: the tiles and where they lie,
# the stacks as the reader knows them, pieces, counters, and each pending decision named by the cells,
# seats and nebulas it concerns. Nothing of the struct's layout (hash table, union-find, frontier, padding)
# is part of it.
#
# Loading builds a fresh state from those facts. The galaxy is placed again tile by tile in its order,
# which rebuilds the board index, the frontier and the union-find exactly as play built them; every other
# value that indexes the state is a seat checked against the player count, a nebula checked against the
# list, or a cell looked up on that rebuilt board, so nothing read from JSON indexes memory unchecked.
# The state is then checked as a whole (conservation of tiles, pieces, minerals and combat tokens; every
# pending decision against the board), and an observation must hide exactly what observe() hides and
# admit a determinization. A failure raises StateFormatError and leaves the caller's object untouched.

TRIAN_FORMAT_VERSION = 3       # 3: send_home and take_back decisions per emissary (2 loads by upgrade)
MODE_NAMES = {M_PH1: "phase 1 (extraction)", M_DRAW: "phase 2 (draw)", M_PLACE: "phase 2 (place)",
              M_PH3: "phase 3 (exploration)", M_TAKEBACK: "events (take emissaries back)",
              M_DECLARE: "emissary battle (declare tokens)", M_REROLL: "emissary battle (rerolls)",
              M_END: "game over", M_SHIP_TARGET: "ship battle (the attacker picks a ship)",
              M_RACE: "racial skill (a decision)",
              M_SEND_HOME: "emissary battle (choose the emissary that goes home)"}

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

_PHASES_IN_ORDER = tuple(PHASE_IDS[m] for m in range(M_PH1, M_SEND_HOME + 1))
_STATE_KEYS = ("turn", "phase", "turn_player", "first_player", "stacks", "hand", "set_aside", "galaxy",
               "nebulas", "bag", "players", "this_turn", "events", "battle", "ship_battle", "racial_step",
               "send_home", "take_back")
_GALAXY_KEYS = ("x", "y", "tile", "side", "face", "face_when_drawn", "rotation", "placer", "emissary", "ship")
_PLAYER_KEYS = ("credits", "minerals", "supply", "combat_tokens", "declared_tokens", "race", "racial_skills",
                "universal_skills", "special_tokens")
_SUPPLY_KEYS = ("emissaries", "research_stations", "space_stations", "corvettes", "rogues")
_THIS_TURN_KEYS = ("tile_added", "actions_left", "actions_taken", "teleport_used", "skill_unlocked",
                   "racial_uses", "emissary_arrived")
_BATTLE_SEAT_KEYS = ("seat", "bonus", "die", "rerolls", "warcry")

# Bounds of counters that index nothing: far above anything a game reaches, far below C overflow.
MAX_TURN = 100000
MAX_CREDITS = 1000000
MAX_PHASE3_ACTIONS = 99
MAX_AREA_VALUE = 32767          # int16 event_credits
MAX_BATTLE_BONUS = 99
ALL_TOKENS = TOKENS_PLUS + TOKENS_REROLL

# ---------------------------------------------------------------- dump: the struct as facts


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


# ---------------------------------------------------------------- load: reading JSON values
#
# Every reader checks one value's type and range and names the field in its error.


cdef str _show(object value):
    # a short rendering of an untrusted value for an error message
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


cdef dict _object(object value, str where, tuple required, tuple optional=()):
    # a JSON object with every required key and nothing beyond the optional ones
    if type(value) is not dict:
        raise StateFormatError(f"field '{where}' must be an object, got {_show(value)}")
    for key in required:
        if key not in value:
            raise StateFormatError(f"missing field '{where}.{key}'")
    if len(<dict>value) > len(required):
        extra = [key for key in value if key not in required and key not in optional]
        if extra:
            raise StateFormatError(f"field '{where}': unknown keys {', '.join(_show(k) for k in extra[:5])}")
    return <dict>value


cdef object _integer(object value, str where, object lo, object hi):
    # JSON gives exact ints; bools and floats are refused
    if type(value) is not int or not lo <= value <= hi:
        raise StateFormatError(f"field '{where}': {_show(value)} is not an integer in [{lo}, {hi}]")
    return value


cdef bint _flag(object value, str where) except -1:
    if type(value) is not bool:
        raise StateFormatError(f"field '{where}': {_show(value)} is not true or false")
    return value


cdef int _named(object value, str where, tuple names) except -1:
    # the index of a name in `names` (an entry None stands for JSON null)
    cdef int i
    for i in range(len(names)):
        if (value is None and names[i] is None) or (type(value) is str and value == names[i]):
            return i
    allowed = ", ".join("null" if name is None else repr(name) for name in names)
    raise StateFormatError(f"field '{where}': {_show(value)} is not one of {allowed}")


cdef list _array(object value, str where, int shortest, int longest):
    if type(value) is not list or not shortest <= len(<list>value) <= longest:
        raise StateFormatError(f"field '{where}' must be a list of {shortest} to {longest} entries")
    return <list>value


cdef int _seat(object value, str where, const TrianState* s) except -1:
    return _integer(value, where, 0, s.params.num_players - 1)


cdef int _face(object value, str where) except -1:
    return _named(value, where, FACE_NAMES)


cdef int _tile_at(const TrianState* s, dict cell, str where) except -1:
    # the placed index of the tile at cell["x"], cell["y"] on the board rebuilt so far
    cdef int x = _integer(cell["x"], where + ".x", -TR_TILES, TR_TILES)
    cdef int y = _integer(cell["y"], where + ".y", -TR_TILES, TR_TILES)
    cdef int i = _placed_at(s, x, y)
    if i < 0:
        raise StateFormatError(f"field '{where}': no tile lies at ({x}, {y})")
    return i


cdef int _cell_at(const TrianState* s, object value, str where) except -1:
    return _tile_at(s, _object(value, where, ("x", "y")), where)


cdef int _load_minerals(uint8_t* counts, object value, str where) except -1:
    cdef int c
    d = _object(value, where, COLOR_NAMES)
    for c in range(TR_COLORS):
        counts[c] = _integer(d[COLOR_NAMES[c]], f"{where}.{COLOR_NAMES[c]}", 0, MINERALS_PER_COLOR)
    return 0


# ---------------------------------------------------------------- load: the sections of a payload


cdef int _load(dict payload, TrianState* s, int observer) except -1:
    # fill `s` (zeroed, params set) from a payload; the order matters: cells exist once the galaxy is
    # rebuilt, and the racial uses are read against the race of the seat whose turn it is
    cdef bint full = observer < 0
    _object(payload, "state", _STATE_KEYS + (("random_streams",) if full else ()))
    _set_defaults(s)
    s.turn = _integer(payload["turn"], "state.turn", 1, MAX_TURN)
    s.mode = M_PH1 + _named(payload["phase"], "state.phase", _PHASES_IN_ORDER)
    s.turn_player = _seat(payload["turn_player"], "state.turn_player", s)
    s.first_player = _seat(payload["first_player"], "state.first_player", s)
    _load_galaxy(s, payload["galaxy"])
    _load_stacks(s, payload["stacks"], full)
    _load_hand(s, payload["hand"])
    _load_set_aside(s, payload["set_aside"])
    _load_nebulas(s, payload["nebulas"])
    _load_minerals(s.bag, payload["bag"], "state.bag")
    _load_players(s, payload["players"])
    _load_this_turn(s, payload["this_turn"])
    _load_events(s, payload["events"])
    _load_battle(s, payload["battle"])
    _load_ship_battle(s, payload["ship_battle"])
    _load_racial_step(s, payload["racial_step"])
    _load_send_home(s, payload["send_home"])
    _load_take_back(s, payload["take_back"])
    if full:
        _load_streams(s, payload["random_streams"])
    return 0


cdef void _set_defaults(TrianState* s) noexcept:
    # what a fact left out means ("none"), as trian_init writes it
    cdef int p
    s.drawn_tile = TR_UNKNOWN
    s.drawn_side_up = TR_UNKNOWN
    s.drawn_face = TR_UNKNOWN
    s.drawn_stack = TR_UNKNOWN
    s.stack_top_face[0] = TR_UNKNOWN
    s.stack_top_face[1] = TR_UNKNOWN
    s.new_tile = TR_UNKNOWN
    s.mission_tile = TR_UNKNOWN
    for p in range(MAX_PLAYERS):
        s.battle_order[p] = -1
    for p in range(s.params.num_players):
        s.players[p].race = TR_UNKNOWN
        memset(s.players[p].special_tile, TR_UNKNOWN, sizeof(s.players[p].special_tile))


cdef int _load_galaxy(TrianState* s, object value) except -1:
    # place every tile again in its order: the board index, frontier and union-find come out as play built
    # them, and a tile that does not touch the galaxy or does not fit its neighbours is refused
    cdef int i, x, y, face, rot, fi
    cdef int roots[TR_EVENTS]
    cdef int kinds[TR_EVENTS]
    tiles = _array(value, "state.galaxy", 0, TR_TILES)
    _board_reset(s)
    for i in range(len(tiles)):
        where = f"state.galaxy[{i}]"
        t = _object(tiles[i], where, _GALAXY_KEYS)
        x = _integer(t["x"], where + ".x", -TR_TILES, TR_TILES)
        y = _integer(t["y"], where + ".y", -TR_TILES, TR_TILES)
        face = _face(t["face"], where + ".face")
        rot = _integer(t["rotation"], where + ".rotation", 0, 2)
        fi = _lookup(s, x, y) - FRONT_BASE
        if fi < 0:
            raise StateFormatError(f"field '{where}': ({x}, {y}) does not touch the galaxy or is taken")
        if not _fits(s.front_required[fi], OCODE[face][_orient(x, y)][rot]):
            raise StateFormatError(f"field '{where}': its borders do not match its neighbours")
        _board_place(s, fi, face, rot, roots, kinds)
        _load_placed(s, i, t, where)
    return 0


cdef int _load_placed(TrianState* s, int i, dict t, str where) except -1:
    cdef TrianPlaced* placed = &s.placed[i]
    placed.face_when_drawn = _face(t["face_when_drawn"], where + ".face_when_drawn")
    placed.placer = _seat(t["placer"], where + ".placer", s)
    placed.tile = TR_UNKNOWN if t["tile"] is None else _integer(t["tile"], where + ".tile", 0, TR_TILES - 1)
    placed.side = TR_UNKNOWN if t["side"] is None else _integer(t["side"], where + ".side", 0, 1)
    if t["emissary"] is not None:
        e = _object(t["emissary"], where + ".emissary", ("seat", "unit", "station"))
        _put_emissary(s, i, _seat(e["seat"], where + ".emissary.seat", s))
        placed.unit = _named(e["unit"], where + ".emissary.unit", UNIT_IDS)
        placed.station = _named(e["station"], where + ".emissary.station", STATION_IDS)
    if t["ship"] is not None:
        ship = _object(t["ship"], where + ".ship", ("seat", "kind", "arrived_this_turn", "mined_this_turn"))
        _put_ship(s, i, _seat(ship["seat"], where + ".ship.seat", s),
                  1 + _named(ship["kind"], where + ".ship.kind", SHIP_IDS[1:]))
        placed.ship_arrived = _flag(ship["arrived_this_turn"], where + ".ship.arrived_this_turn")
        placed.rogue_mined = _flag(ship["mined_this_turn"], where + ".ship.mined_this_turn")
    return 0


cdef int _load_stacks(TrianState* s, object value, bint full) except -1:
    # a full state lists each stack bottom to top; an observation knows its size and top face only
    cdef int k, i, size
    stacks = _array(value, "state.stacks", 2, 2)
    for k in range(2):
        where = f"state.stacks[{k}]"
        d = _object(stacks[k], where, ("size", "top_face", "tiles") if full else ("size", "top_face"))
        size = _integer(d["size"], where + ".size", 0, TR_STACK)
        s.stack_len[k] = size
        if d["top_face"] is not None:
            s.stack_top_face[k] = _face(d["top_face"], where + ".top_face")
        if not full:
            memset(s.stack_tile[k], TR_UNKNOWN, size)
            memset(s.stack_side_up[k], TR_UNKNOWN, size)
            continue
        tiles = _array(d["tiles"], where + ".tiles", size, size)
        for i in range(size):
            entry = _object(tiles[i], f"{where}.tiles[{i}]", ("tile", "side_up"))
            s.stack_tile[k][i] = _integer(entry["tile"], f"{where}.tiles[{i}].tile", 0, TR_TILES - 1)
            s.stack_side_up[k][i] = _integer(entry["side_up"], f"{where}.tiles[{i}].side_up", 0, 1)
    return 0


cdef int _load_hand(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = _object(value, "state.hand", ("stack", "face_up", "tile", "side_up"))
    s.drawn_stack = _integer(d["stack"], "state.hand.stack", 0, 1)
    s.drawn_face = _face(d["face_up"], "state.hand.face_up")
    if d["tile"] is not None:
        s.drawn_tile = _integer(d["tile"], "state.hand.tile", 0, TR_TILES - 1)
    if d["side_up"] is not None:
        s.drawn_side_up = _integer(d["side_up"], "state.hand.side_up", 0, 1)
    return 0


cdef int _load_set_aside(TrianState* s, object value) except -1:
    cdef int i
    tiles = _array(value, "state.set_aside", 0, TR_TILES)
    for i in range(len(tiles)):
        s.discarded[i] = _integer(tiles[i], f"state.set_aside[{i}]", 0, TR_TILES - 1)
    s.n_discarded = len(tiles)
    return 0


cdef int _load_nebulas(TrianState* s, object value) except -1:
    # closed nebulas in the order they closed (their position is the nebula number of the actions)
    cdef int k, i, root
    nebulas = _array(value, "state.nebulas", 0, TR_NEBULAS)
    for k in range(len(nebulas)):
        where = f"state.nebulas[{k}]"
        d = _object(nebulas[k], where, ("x", "y", "minerals", "gained_this_turn"))
        i = _tile_at(s, d, where)
        if not FACE_HAS_NEB[s.placed[i].face]:
            raise StateFormatError(f"field '{where}': the tile there has no nebula part")
        root = _cfind(s, _node(i, K_NEBULA))
        if s.area_open_borders[root] != 0:
            raise StateFormatError(f"field '{where}': that nebula is not closed")
        s.nebula_root[k] = <int16_t>root
        _load_minerals(s.nebula_minerals[k], d["minerals"], where + ".minerals")
        s.nebula_gained[k] = _integer(d["gained_this_turn"], where + ".gained_this_turn", 0, 2)
    s.n_nebulas = len(nebulas)
    return 0


cdef int _load_players(TrianState* s, object value) except -1:
    cdef int p, n = s.params.num_players
    players = _array(value, "state.players", n, n)
    for p in range(n):
        _load_player(s, p, players[p], f"state.players[{p}]")
    return 0


cdef int _load_player(TrianState* s, int p, object value, str where) except -1:
    cdef TrianPlayer* pl = &s.players[p]
    d = _object(value, where, _PLAYER_KEYS)
    pl.credits = _integer(d["credits"], where + ".credits", 0, MAX_CREDITS)
    _load_minerals(pl.minerals, d["minerals"], where + ".minerals")
    supply = _object(d["supply"], where + ".supply", _SUPPLY_KEYS)
    pl.emissaries = _integer(supply["emissaries"], where + ".supply.emissaries", 0, PIECES[2][0])
    pl.research_stations = _integer(supply["research_stations"], where + ".supply.research_stations", 0,
                                    PIECES[2][1])
    pl.space_stations = _integer(supply["space_stations"], where + ".supply.space_stations", 0, PIECES[2][2])
    pl.corvettes = _integer(supply["corvettes"], where + ".supply.corvettes", 0, SETUP_SHIPS[0])
    pl.rogues = _integer(supply["rogues"], where + ".supply.rogues", 0, SETUP_SHIPS[1])
    count, plus = _load_tokens(d["combat_tokens"], where + ".combat_tokens")
    pl.tokens_held = count
    pl.tokens_plus = plus
    count, plus = _load_tokens(d["declared_tokens"], where + ".declared_tokens")
    pl.declared_tokens = count
    pl.declared_plus = plus
    _load_race(pl, d, where)
    _load_special_tokens(s, pl, d["special_tokens"], where + ".special_tokens")
    return 0


cdef tuple _load_tokens(object value, str where):
    # (count, of which "+1"); the type is null where the reader cannot see it
    d = _object(value, where, ("count", "plus"))
    count = _integer(d["count"], where + ".count", 0, ALL_TOKENS)
    plus = TR_HIDDEN if d["plus"] is None else _integer(d["plus"], where + ".plus", 0, TOKENS_PLUS)
    return count, plus


cdef int _load_race(TrianPlayer* pl, dict d, str where) except -1:
    cdef int r = -1, k, j
    cdef uint32_t skills = 0
    pl.race = TR_UNKNOWN
    if d["race"] is not None:
        r = _named(d["race"], where + ".race", RACE_NAMES)
        pl.race = r
    racial = _array(d["racial_skills"], where + ".racial_skills", 0, RACE_SKILLS)
    if racial and r < 0:
        raise StateFormatError(f"field '{where}.racial_skills': a seat without a race has no racial skill")
    for j in range(len(racial)):
        k = _named(racial[j], f"{where}.racial_skills[{j}]", SKILL_NAMES[r])
        if (skills >> k) & 1:
            raise StateFormatError(f"field '{where}.racial_skills': {SKILL_NAMES[r][k]!r} is named twice")
        skills |= <uint32_t>1 << k
    universal = _array(d["universal_skills"], where + ".universal_skills", 0, 3)
    for j in range(len(universal)):
        k = _named(universal[j], f"{where}.universal_skills[{j}]", UNIVERSAL_NAMES)
        if (skills >> (U_BIT + k)) & 1:
            raise StateFormatError(f"field '{where}.universal_skills': {UNIVERSAL_NAMES[k]!r} is named twice")
        skills |= <uint32_t>1 << (U_BIT + k)
    pl.skills = skills
    return 0


cdef int _load_special_tokens(const TrianState* s, TrianPlayer* pl, object value, str where) except -1:
    cdef int j, slot
    tokens = _array(value, where, 0, 4)
    for j in range(len(tokens)):
        d = _object(tokens[j], f"{where}[{j}]", ("slot", "x", "y"))
        slot = _integer(d["slot"], f"{where}[{j}].slot", 0, 3)
        if pl.special_tile[slot] != TR_UNKNOWN:
            raise StateFormatError(f"field '{where}': slot {slot} is named twice")
        pl.special_tile[slot] = _tile_at(s, d, f"{where}[{j}]")
    return 0


cdef int _load_this_turn(TrianState* s, object value) except -1:
    cdef int j, k
    d = _object(value, "state.this_turn", _THIS_TURN_KEYS)
    if d["tile_added"] is not None:
        s.new_tile = _cell_at(s, d["tile_added"], "state.this_turn.tile_added")
    if d["emissary_arrived"] is not None:
        s.mission_tile = _cell_at(s, d["emissary_arrived"], "state.this_turn.emissary_arrived")
    s.actions_left = _integer(d["actions_left"], "state.this_turn.actions_left", 0, MAX_PHASE3_ACTIONS)
    s.actions_taken = _integer(d["actions_taken"], "state.this_turn.actions_taken", 0, MAX_PHASE3_ACTIONS)
    s.teleport_used = _flag(d["teleport_used"], "state.this_turn.teleport_used")
    s.evolved = _flag(d["skill_unlocked"], "state.this_turn.skill_unlocked")
    uses = RACIAL_USE_IDS.get(s.players[s.turn_player].race, ())
    names = tuple(name for _, name in uses)
    listed = _array(d["racial_uses"], "state.this_turn.racial_uses", 0, len(names))
    for j in range(len(listed)):
        k = _named(listed[j], f"state.this_turn.racial_uses[{j}]", names)
        if s.race_used & uses[k][0]:
            raise StateFormatError(f"field 'state.this_turn.racial_uses': {names[k]!r} is named twice")
        s.race_used |= uses[k][0]
    return 0


cdef int _load_events(TrianState* s, object value) except -1:
    # the areas queued this turn, in order; the first `resolved` of them are done
    cdef int k
    if value is None:
        return 0
    d = _object(value, "state.events", ("areas", "resolved", "then", "value"))
    areas = _array(d["areas"], "state.events.areas", 1, TR_EVENTS)
    for k in range(len(areas)):
        _load_area(s, k, areas[k], f"state.events.areas[{k}]")
    s.events_count = len(areas)
    s.events_next = _integer(d["resolved"], "state.events.resolved", 0, len(areas) - 1)
    s.events_end_turn = _named(d["then"], "state.events.then", AFTER_EVENTS_IDS)
    s.event_credits = _integer(d["value"], "state.events.value", 0, MAX_AREA_VALUE)
    s.events_pending = 1
    return 0


cdef int _load_area(TrianState* s, int k, object value, str where) except -1:
    # a tile and the part of it the area holds (for outer space: the side of the tile it touches)
    cdef int i, part, area, cause, d, node
    a = _object(value, where, ("cause", "area", "x", "y"), ("side",))
    cause = _named(a["cause"], where + ".cause", CAUSE_IDS)
    area = _named(a["area"], where + ".area", AREA_IDS)
    i = _tile_at(s, a, where)
    if area == 2 and "side" not in a or area == 0 and "side" in a:
        raise StateFormatError(f"field '{where}': an outer-space area names a side, a nebula does not")
    if area == 2:
        d = _named(a["side"], where + ".side", SIDE_IDS)
        if not _space_side(s, i, d):
            raise StateFormatError(f"field '{where}': that side of the tile is not outer space")
        node = _node(i, _side_group(s, i, d))
    elif area == 0:
        if not FACE_HAS_NEB[s.placed[i].face]:
            raise StateFormatError(f"field '{where}': the tile there has no nebula part")
        node = _node(i, K_NEBULA)
    elif "side" in a:
        d = _named(a["side"], where + ".side", SIDE_IDS)
        if _path_part(s, i, d) < 0:
            raise StateFormatError(f"field '{where}': that side of the tile is not a starlight path")
        node = _node(i, _path_part(s, i, d))
    else:
        if not FACE_HAS_SYS[s.placed[i].face]:
            raise StateFormatError(f"field '{where}': the tile there has no planetary-system part")
        node = _node(i, K_SYSTEM)
    if cause == 1 and area == 2:
        raise StateFormatError(f"field '{where}': an unblocking is fought over a nebula or a system")
    s.event_root[k] = <int16_t>_cfind(s, node)
    if s.area_open_borders[s.event_root[k]] != 0:
        raise StateFormatError(f"field '{where}': that area is not closed")
    s.event_kind[k] = AREA_UNBLOCKED if cause == 1 else (AREA_NEBULA, AREA_SYSTEM, AREA_SPACE)[area]
    return 0


cdef int _load_battle(TrianState* s, object value) except -1:
    # the seats of a clash, attacker first; bonus, die and rerolls are the battle's per seat
    cdef int k, p
    if value is None:
        return 0
    d = _object(value, "state.battle", ("seats", "acting"))
    seats = _array(d["seats"], "state.battle.seats", 2, s.params.num_players)
    for k in range(len(seats)):
        where = f"state.battle.seats[{k}]"
        e = _object(seats[k], where, _BATTLE_SEAT_KEYS)
        p = _seat(e["seat"], where + ".seat", s)
        if s.battle_size and p in [s.battle_order[j] for j in range(s.battle_size)]:
            raise StateFormatError(f"field '{where}.seat': seat {p} is in the battle twice")
        s.battle_order[k] = p
        s.battle_size = k + 1
        s.battle_bonus[p] = _integer(e["bonus"], where + ".bonus", 0, MAX_BATTLE_BONUS)
        s.battle_roll[p] = _integer(e["die"], where + ".die", 0, 6)
        s.battle_rerolls[p] = _integer(e["rerolls"], where + ".rerolls", 0, 3)
        if _flag(e["warcry"], where + ".warcry"):
            s.battle_warcry |= <uint8_t>(1 << p)
    s.battle_turn = _integer(d["acting"], "state.battle.acting", 0, len(seats) - 1)
    s.battle_stage = 2 if s.mode == M_REROLL else (0 if s.mode == M_SEND_HOME else 1)
    return 0


cdef int _load_take_back(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = _object(value, "state.take_back", ("after",))
    s.takeback_next = <uint8_t>(_cell_at(s, d["after"], "state.take_back.after") + 1)
    return 0


cdef int _load_send_home(TrianState* s, object value) except -1:
    # the seats named must fight the battle; the rest is checked with the state (_check_send_home)
    cdef int k, p
    if value is None:
        return 0
    d = _object(value, "state.send_home", ("winner", "seats"))
    if d["winner"] is not None:
        s.send_home_winner = _seat(d["winner"], "state.send_home.winner", s)
    else:
        s.send_home_winner = -1
    seats = _array(d["seats"], "state.send_home.seats", 1, s.params.num_players)
    for k in range(len(seats)):
        p = _seat(seats[k], f"state.send_home.seats[{k}]", s)
        if (s.send_home_seats >> p) & 1:
            raise StateFormatError(f"field 'state.send_home.seats[{k}]': seat {p} is named twice")
        s.send_home_seats |= <uint8_t>(1 << p)
    return 0


cdef int _load_ship_battle(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = _object(value, "state.ship_battle", ("attacker", "defender"))
    s.ship_battle_on = 1
    s.ship_battle_attacker = _cell_at(s, d["attacker"], "state.ship_battle.attacker")
    if (s.mode == M_SHIP_TARGET) != (d["defender"] is None):
        raise StateFormatError("field 'state.ship_battle.defender': a defender exactly while a clash is on")
    if d["defender"] is not None:
        s.ship_battle_target = _cell_at(s, d["defender"], "state.ship_battle.defender")
    return 0


cdef int _load_racial_step(TrianState* s, object value) except -1:
    cdef int step, picks
    if value is None:
        return 0
    d = _object(value, "state.racial_step", ("step", "seat"), ("at", "nebula", "picks_left", "unit"))
    steps = tuple(STEP_IDS)
    step = steps[_named(d["step"], "state.racial_step.step", tuple(STEP_IDS.values()))]
    s.race_step = step
    s.race_seat = _seat(d["seat"], "state.racial_step.seat", s)
    picks = 0
    if "picks_left" in d:
        picks = _integer(d["picks_left"], "state.racial_step.picks_left", 1, PRIESTESS_GAIN)
    if step == STEP_GATHER or (step == STEP_PR_GAIN and picks < PRIESTESS_GAIN):
        _step_fields(d, ("picks_left", "nebula"))
        s.race_arg = _integer(d["nebula"], "state.racial_step.nebula", 0, s.n_nebulas - 1)
        s.race_count = picks
    elif step == STEP_PR_GAIN:
        _step_fields(d, ("picks_left", "at"))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
        s.race_count = picks
    elif step == STEP_ADAPT:
        _step_fields(d, ("at", "unit"))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
        s.race_count = _named(d["unit"], "state.racial_step.unit", ADAPTED_UNIT_IDS)
    else:
        _step_fields(d, ("at",))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
    return 0


cdef int _step_fields(dict d, tuple wanted) except -1:
    given = sorted(key for key in d if key not in ("step", "seat"))
    if given != sorted(wanted):
        raise StateFormatError(f"field 'state.racial_step': a {d['step']} step has the fields step, seat, "
                               f"{', '.join(sorted(wanted))}")
    return 0


cdef int _load_streams(TrianState* s, object value) except -1:
    d = _object(value, "state.random_streams", STREAM_IDS)
    _load_stream(&s.rng_minerals, d["minerals"], "state.random_streams.minerals")
    _load_stream(&s.rng_tokens, d["tokens"], "state.random_streams.tokens")
    _load_stream(&s.rng_dice, d["dice"], "state.random_streams.dice")
    return 0


cdef int _load_stream(Rng* rng, object value, str where) except -1:
    cdef int w
    words = _array(value, where, 4, 4)
    for w in range(4):
        word = words[w]
        if type(word) is not str or len(word) != 16 or word.strip("0123456789abcdef"):
            raise StateFormatError(f"field '{where}[{w}]': {_show(word)} is not 16 lowercase hex digits")
        rng.s[w] = int(word, 16)
    return 0


# ---------------------------------------------------------------- checks of the state as a whole
#
# Each check returns an error message, or None. They run on a state every index of which was built in
# range by the loader, so they may follow any index.


cdef object _check_state(const TrianState* s, int observer):
    # observer -1: a full state
    return (_check_phase(s) or _check_tiles(s, observer) or _check_units(s) or _check_pieces(s)
            or _check_tokens(s, observer) or _check_minerals(s) or _check_nebulas(s) or _check_this_turn(s)
            or _check_events(s) or _check_battle(s) or _check_send_home(s) or _check_ship_battle(s)
            or _check_races(s))


cdef bint _resolving_area(const TrianState* s) noexcept:
    # a decision about the queued area at events.resolved waits: take back, or an emissary battle
    return s.mode == M_TAKEBACK or s.mode == M_SEND_HOME or \
        ((s.mode == M_DECLARE or s.mode == M_REROLL) and not s.ship_battle_on)


cdef object _check_phase(const TrianState* s):
    # the phase and the pending decisions agree
    cdef bint battle = s.mode == M_DECLARE or s.mode == M_REROLL or s.mode == M_SEND_HOME
    cdef bint resolving = _resolving_area(s)
    if (s.mode == M_PLACE) != (s.drawn_face != TR_UNKNOWN):
        return "a tile is in hand exactly in phase2_place"
    if s.mode == M_DRAW and s.stack_len[0] == 0 and s.stack_len[1] == 0:
        return "phase2_draw needs a tile in a stack"
    if s.mode == M_END and (s.stack_len[0] or s.stack_len[1]):
        return "the game is over only once both stacks are empty"
    if battle != (s.battle_size > 0):
        return "a battle is fought exactly in battle_declare, battle_reroll and send_home"
    if (s.mode == M_SEND_HOME) != (s.send_home_seats != 0) or \
            (s.mode != M_SEND_HOME and s.send_home_winner != 0):
        return "send_home is set exactly in the phase send_home"
    if s.takeback_next and (s.mode != M_TAKEBACK or not _takeback_offers_a_tile(s)):
        return "take_back.after is set only in take_back, with a later emissary of the closer to choose"
    if s.mode == M_SEND_HOME and s.ship_battle_on:
        return "emissaries are sent home after an emissary clash, never in a ship battle"
    if resolving and not s.events_pending:
        return "take_back and an emissary battle need an area being resolved (events)"
    if not resolving and (s.events_end_turn or s.event_credits):
        return "events.then is end_turn and events.value is set only while an area is being resolved"
    divine_help = s.mode == M_RACE and STEP_DIVINE <= s.race_step <= STEP_DIVINE_TO
    if (s.mode == M_SHIP_TARGET or divine_help) != bool(s.ship_battle_on) and not battle:
        return "a ship battle goes with ship_target, a clash or a Divine help step, and they with it"
    return None


cdef bint _takeback_offers_a_tile(const TrianState* s) noexcept:
    cdef action_t out[TR_TILES + 1]
    return _legal_takeback(s, s.turn_player, out) > 1


cdef object _note(set seen, bint full, int tile, bint may_hide, str where):
    if tile == TR_UNKNOWN:
        if full or not may_hide:
            return f"{where}: the tile must be known here"
        return None
    if tile in seen:
        return f"{where}: tile {tile} is used twice"
    seen.add(tile)
    return None


cdef object _check_tiles(const TrianState* s, int observer):
    # every catalogue tile is in exactly one place, and what is known of it fits its faces
    cdef int k, i
    cdef bint full = observer < 0, in_hand = s.drawn_face != TR_UNKNOWN
    total = s.n_placed + s.n_discarded + s.stack_len[0] + s.stack_len[1] + in_hand
    if total != TR_TILES:
        return f"{total} tiles accounted for, expected {TR_TILES}"
    seen = set()
    for k in range(2):
        err = _check_stack(s, k, full, seen)
        if err:
            return err
    for i in range(s.n_discarded):
        err = _note(seen, full, s.discarded[i], False, f"set_aside[{i}]")
        if err:
            return err
    if in_hand:
        err = _check_hand(s, observer, seen)
        if err:
            return err
    for i in range(s.n_placed):
        err = _check_placed_tile(s, i, observer, seen)
        if err:
            return err
    return None


cdef object _check_stack(const TrianState* s, int k, bint full, set seen):
    cdef int i, t, top = TR_UNKNOWN, n = s.stack_len[k]
    for i in range(n):
        t = s.stack_tile[k][i]
        err = _note(seen, full, t, True, f"stacks[{k}].tiles[{i}]")
        if err:
            return err
        if t != TR_UNKNOWN and FACE_SPECIAL[TILE_FACE[t][s.stack_side_up[k][i]]]:
            return f"stacks[{k}].tiles[{i}]: a special side is never face up in a stack"
    if n:
        t = s.stack_tile[k][n - 1]
        top = TILE_FACE[t][s.stack_side_up[k][n - 1]] if t != TR_UNKNOWN else s.stack_top_face[k]
        if top == TR_UNKNOWN or FACE_SPECIAL[top]:
            return f"stacks[{k}].top_face: the face up on a stack is public and never special"
    if s.stack_top_face[k] != top:
        return f"stacks[{k}].top_face does not match the stack"
    return None


cdef object _check_hand(const TrianState* s, int observer, set seen):
    cdef int t = s.drawn_tile
    err = _note(seen, observer < 0, t, s.turn_player != observer, "hand.tile")
    if err:
        return err
    if FACE_SPECIAL[s.drawn_face]:
        return "hand.face_up: a special side is never face up in a stack"
    if t != TR_UNKNOWN and (s.drawn_side_up == TR_UNKNOWN or TILE_FACE[t][s.drawn_side_up] != s.drawn_face):
        return "hand.face_up does not match the tile and side up"
    if t == TR_UNKNOWN and s.drawn_side_up != TR_UNKNOWN:
        return "hand.side_up is known only with the tile"
    return None


cdef object _check_placed_tile(const TrianState* s, int i, int observer, set seen):
    cdef const TrianPlaced* p = &s.placed[i]
    cdef int t = p.tile
    err = _note(seen, observer < 0, t, p.placer != observer, f"galaxy[{i}]")
    if err:
        return err
    if FACE_SPECIAL[p.face_when_drawn]:
        return f"galaxy[{i}].face_when_drawn: a special side is never face up in a stack"
    if t != TR_UNKNOWN and (p.side == TR_UNKNOWN or TILE_FACE[t][p.side] != p.face
                            or not _tile_fits(t, p.face_when_drawn, p.face)):
        return f"galaxy[{i}]: its faces do not match tile {t}"
    if t == TR_UNKNOWN and p.side != TR_UNKNOWN:
        return f"galaxy[{i}]: the side is known only with the tile"
    return None


cdef object _check_units(const TrianState* s):
    # what stands on each tile may stand there
    cdef int i
    cdef const TrianPlaced* p
    for i in range(s.n_placed):
        p = &s.placed[i]
        if p.emissary >= 0 and not _emissary_may_stand(p.face):
            return f"galaxy[{i}]: an emissary cannot stand on this face"
        if p.ship_kind and not _has_space(p.face):
            return f"galaxy[{i}]: a ship needs outer space"
        if p.rogue_mined and p.ship_kind != SHIP_ROGUE:
            return f"galaxy[{i}]: only a Rogue mines"
    return None


cdef object _check_pieces(const TrianState* s):
    # every seat's emissaries, stations and ships are on the board or in its supply
    cdef int p, i, n = s.params.num_players, em, research, space, corvettes, rogues
    cdef const TrianPlaced* t
    for p in range(n):
        em = research = space = corvettes = rogues = 0
        for i in range(s.n_placed):
            t = &s.placed[i]
            if t.emissary == p:
                em += t.unit == 0       # racial tokens acting as emissaries are not counted
                research += t.station >= 1
                space += t.station >= 2
            if t.ship_owner == p:
                corvettes += t.ship_kind == SHIP_CORVETTE
                rogues += t.ship_kind == SHIP_ROGUE
        ships = SETUP_SHIPS if s.params.variant >= V_SHIPS else (0, 0)
        if corvettes + s.players[p].corvettes != ships[0] or rogues + s.players[p].rogues != ships[1]:
            return f"player {p}: ships do not add up"
        if em + s.players[p].emissaries != PIECES[n][0] or \
                research + s.players[p].research_stations != PIECES[n][1] \
                or space + s.players[p].space_stations != PIECES[n][2]:
            return f"player {p}: emissaries or stations do not add up"
    return None


cdef object _check_tokens(const TrianState* s, int observer):
    # combat tokens: each type known to the reader fits the count and the 11 + 11 tokens that exist;
    # declared tokens exist only in a battle, for its seats
    cdef int p, n = s.params.num_players, held = 0, plus = 0, rerolls = 0
    cdef const TrianPlayer* pl
    battle_seats = {s.battle_order[k] for k in range(s.battle_size)}
    for p in range(n):
        pl = &s.players[p]
        held += pl.tokens_held + pl.declared_tokens
        if pl.declared_tokens and p not in battle_seats:
            return f"player {p}: declared tokens exist only in a battle the seat fights"
        for name, count, kind in (("combat_tokens", pl.tokens_held, pl.tokens_plus),
                                  ("declared_tokens", pl.declared_tokens, pl.declared_plus)):
            if kind == TR_HIDDEN:
                if observer < 0 or p == observer:
                    return f"player {p}: {name}.plus must be known here"
                continue
            if kind > count:
                return f"player {p}: {name}.plus exceeds the count"
            plus += kind
            rerolls += count - kind
    if held > ALL_TOKENS:
        return "more combat tokens held than exist"
    if plus > TOKENS_PLUS or rerolls > TOKENS_REROLL:
        return "more combat tokens of one type held than exist"
    return None


cdef object _check_minerals(const TrianState* s):
    cdef int c, p, k, amount
    for c in range(TR_COLORS):
        amount = s.bag[c]
        for p in range(s.params.num_players):
            amount += s.players[p].minerals[c]
        for k in range(s.n_nebulas):
            amount += s.nebula_minerals[k][c]
        if amount != MINERALS_PER_COLOR:
            return f"{COLOR_NAMES[c]} minerals add up to {amount}, expected {MINERALS_PER_COLOR}"
    return None


cdef object _check_nebulas(const TrianState* s):
    cdef int k, j
    for k in range(s.n_nebulas):
        for j in range(k):
            if s.nebula_root[j] == s.nebula_root[k]:
                return f"nebulas[{j}] and nebulas[{k}] are one nebula"
    return None


cdef object _check_this_turn(const TrianState* s):
    if s.new_tile != TR_UNKNOWN and s.new_tile != s.n_placed - 1:
        return "this_turn.tile_added: the tile added this turn is the last one of the galaxy"
    return None


cdef object _check_events(const TrianState* s):
    # queued areas wait once each; the one being resolved is one a decision can be about
    cdef int k, j, kind
    cdef bint resolving = _resolving_area(s)
    if not s.events_pending:
        return None
    for k in range(s.events_next, s.events_count):
        for j in range(s.events_next, k):
            if s.event_root[j] == s.event_root[k]:
                return f"events.areas[{j}] and [{k}] are one area waiting twice"
        # a nebula gets its minerals (its entry in nebulas) when its resolution starts
        started = k == s.events_next and resolving
        if not started and s.event_kind[k] == AREA_NEBULA and _nebula_record(s, s.event_root[k]) >= 0:
            return f"events.areas[{k}]: that nebula closed before (it is in nebulas)"
    kind = s.event_kind[s.events_next]
    if s.mode == M_TAKEBACK and kind != AREA_NEBULA and kind != AREA_SYSTEM:
        return "take_back follows the closing of a nebula or a system"
    if (s.mode == M_DECLARE or s.mode == M_REROLL or s.mode == M_SEND_HOME) and not s.ship_battle_on \
            and kind == AREA_SPACE:
        return "outer space is never fought over"
    return None


cdef object _check_battle(const TrianState* s):
    cdef int k, p, tiles, ext, st
    cdef int units[MAX_PLAYERS]
    if s.battle_size == 0:
        return None
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if s.mode == M_REROLL:
            if not 1 <= s.battle_roll[p] <= 6:
                return f"battle.seats[{k}]: a die shows 1 to 6 once rolled"
            if s.battle_rerolls[p] > s.players[p].declared_tokens - s.players[p].declared_plus:
                return f"battle.seats[{k}]: more rerolls than reroll tokens declared"
        elif s.battle_roll[p] or s.battle_rerolls[p]:
            return f"battle.seats[{k}]: no die is rolled before every seat declared"
    if s.mode == M_REROLL and s.battle_rerolls[s.battle_order[s.battle_turn]] == 0:
        return "battle.acting: the seat to reroll has no reroll left"
    if s.ship_battle_on:
        return None       # a ship clash: _check_ship_battle checks its seats
    _area_census(s, s.event_root[s.events_next], &tiles, &ext, units, &st)
    for k in range(s.battle_size):
        p = s.battle_order[k]
        # after a clash a seat may have sent its last emissary home already (send_home)
        if units[p] == 0 and not (s.mode == M_SEND_HOME and not (s.send_home_seats >> p) & 1):
            return f"battle.seats[{k}]: that seat has no emissary in the area fought over"
    return None


cdef object _check_send_home(const TrianState* s):
    # the pending choice agrees with the battle: the seats are clashing seats other than the winner,
    # each with an emissary to send home, and the first one has a real choice (two tiles or more;
    # with one the engine sends it home itself)
    cdef int k, p, first = -1
    if s.mode != M_SEND_HOME:
        return None
    seats = {s.battle_order[k] for k in range(s.battle_size)}
    if s.send_home_winner >= 0 and \
            (s.send_home_winner not in seats or (s.send_home_seats >> s.send_home_winner) & 1):
        return "send_home.winner: the winner fights the battle and sends none of its own home"
    for p in range(s.params.num_players):
        if not (s.send_home_seats >> p) & 1:
            continue
        if p not in seats:
            return f"send_home.seats: seat {p} does not fight the battle"
        if _send_home_candidates(s, p, NULL) == 0:
            return f"send_home.seats: seat {p} has no emissary in the area to send home"
    if s.battle_turn != 0:
        return "battle.acting: nobody acts in the battle while emissaries are sent home"
    first = _send_home_victim(s)
    if _send_home_candidates(s, first, NULL) < 2:
        return f"send_home.seats: seat {first} has one emissary to send home, which goes without a choice"
    return None


cdef object _check_ship_battle(const TrianState* s):
    cdef int a = s.ship_battle_attacker, d = s.ship_battle_target
    if not s.ship_battle_on:
        return None
    if s.placed[a].ship_kind == 0:
        return "ship_battle.attacker: no ship stands there"
    if s.mode == M_SHIP_TARGET:
        if not _enemy_ship_adjacent(s, a, s.placed[a].ship_owner):
            return "ship_battle.attacker: no enemy ship to clash with stands next to it"
        return None
    if s.placed[d].ship_kind == 0 or s.placed[d].ship_owner == s.placed[a].ship_owner:
        return "ship_battle.defender: an enemy ship stands there"
    if _space_nb(s, a, 0) != d and _space_nb(s, a, 1) != d and _space_nb(s, a, 2) != d:
        return "ship_battle.defender: it stands next to the attacker, across outer space"
    if s.battle_size and (s.battle_size != 2 or s.battle_order[0] != s.placed[a].ship_owner or
                          s.battle_order[1] != s.placed[d].ship_owner):
        return "battle.seats: a ship clash is fought by the attacker's owner, then the defender's"
    if s.battle_size and (s.battle_bonus[s.battle_order[0]] or s.battle_bonus[s.battle_order[1]]):
        return "battle.seats: a ship clash has no bonus"
    return None


cdef object _check_observation(const TrianState* s, int observer):
    # the reader sees exactly what observe() shows it: observe() of the observation hides nothing more
    # (no value it may not see), and observe() of a determinization of it shows nothing more (no value
    # hidden that it sees); and some full state fits what it sees
    cdef TrianState seen, sample
    cdef Rng rng
    trian_observe(s, observer, &seen)
    if memcmp(s, &seen, sizeof(TrianState)) != 0:
        return f"seat {observer} cannot see some of these values"
    memcpy(&sample, s, sizeof(TrianState))
    rng_seed(&rng, 0)
    trian_determinize(&sample, observer, &rng)
    if _unknown_tile_left(&sample):
        return "no set of the unseen tiles shows these faces"
    trian_observe(&sample, observer, &seen)
    if memcmp(s, &seen, sizeof(TrianState)) != 0:
        return f"seat {observer} sees some of the values hidden here"
    return None


cdef bint _unknown_tile_left(const TrianState* sample) noexcept:
    # determinize() fills the hidden tiles by a maximum matching, so it fills every one of them exactly
    # when the catalogue allows the faces shown; a tile left unknown would be drawn or placed later
    cdef int k, i
    if sample.drawn_face != TR_UNKNOWN and sample.drawn_tile == TR_UNKNOWN:
        return True
    for k in range(2):
        for i in range(sample.stack_len[k]):
            if sample.stack_tile[k][i] == TR_UNKNOWN:
                return True
    for i in range(sample.n_placed):
        if sample.placed[i].tile == TR_UNKNOWN:
            return True
    return False


def _face_label(int f):
    return FACE_NAMES[f] if f < N_FACES else "?"


cdef class TrianGame(Game):

    def __cinit__(self, int players, str variant):
        self.ops = &TRIAN_OPS
        self.params.num_players = players
        if variant not in VARIANT_IDS:
            raise ValueError(f"unknown Trian variant {variant!r}")
        self.params.variant = VARIANT_IDS[variant]
        self.params.options = 0
        self.name = "trian"
        self.variant = variant
        self.num_players = players

    def _format_version(self):
        return TRIAN_FORMAT_VERSION

    def _dump_payload(self, Position pos):
        return _dump(_cst(pos.ptr), pos.observer < 0)

    def _load_payload(self, Position pos, dict payload):
        cdef TrianState tmp
        cdef int observer = pos.observer
        memset(&tmp, 0, sizeof(TrianState))
        tmp.params = self.params
        _load(payload, &tmp, observer)
        err = _check_state(&tmp, observer)
        if err is None and observer >= 0:
            err = _check_observation(&tmp, observer)
        if err is not None:
            raise StateFormatError(f"inconsistent Trian state: {err}")
        memcpy(pos.ptr, &tmp, sizeof(TrianState))

    def _payload_from_v1(self, dict payload):
        from orrery.core_ext.trian.format_v1 import payload_from_v1

        return self._payload_from_older(2, payload_from_v1(payload, self.num_players))

    def _payload_from_older(self, int version, dict payload):
        # 2 -> 3 added only the send_home decision, which no version-2 state can be waiting for
        if version != 2:
            raise StateFormatError(f"orrery.trian.state/{version} cannot be upgraded; this server reads "
                                   f"orrery.trian.state/2 and /3")
        for key in ("send_home", "take_back"):
            if key in payload:
                raise StateFormatError(f"field 'state.{key}' is new in orrery.trian.state/3")
        return dict(payload, send_home=None, take_back=None)

    def _action_struct(self, Position pos, int action):
        return _describe(_cst(pos.ptr), action)

    def _render(self, Position pos):
        return _render(_cst(pos.ptr), None if pos.observer < 0 else pos.observer)


cdef dict _cell(const TrianState* s, int i):
    return {"x": s.placed[i].x, "y": s.placed[i].y}


cdef dict _describe(const TrianState* s, int a):
    cdef int k, c, fi, side, rot, d, j, src
    me = trian_current_player(s)
    if a == A_END_PH1:
        return {"id": a, "kind": "end_phase1", "label": "end phase 1"}
    if A_BUY_MINERAL <= a < A_BUY_MINERAL + 4:
        c = a - A_BUY_MINERAL
        return {"id": a, "kind": "buy_mineral", "color": COLOR_NAMES[c],
                "label": f"buy a {COLOR_NAMES[c]} mineral ({PRICE_MINERAL - _discount(s, me)} credits)"}
    if a == A_BUY_TOKEN:
        return {"id": a, "kind": "buy_token",
                "label": f"buy a combat token ({PRICE_TOKEN - _discount(s, me)} credits)"}
    if A_EXCHANGE <= a < A_EXCHANGE + 40:
        k = (a - A_EXCHANGE) // 4
        c = (a - A_EXCHANGE) % 4
        give = [COLOR_NAMES[PAIR_A[k]], COLOR_NAMES[PAIR_B[k]]]
        return {"id": a, "kind": "exchange", "give": give, "take": COLOR_NAMES[c],
                "label": f"exchange {give[0]} + {give[1]} for {COLOR_NAMES[c]}"}
    if A_GAIN <= a < A_GAIN + TR_NEBULAS * 4:
        k = (a - A_GAIN) // 4
        c = (a - A_GAIN) % 4
        return {"id": a, "kind": "gain_mineral", "nebula": k, "color": COLOR_NAMES[c],
                "label": f"gain a {COLOR_NAMES[c]} mineral from nebula #{k}"}
    if A_DRAW <= a <= A_DRAW + 1:
        k = a - A_DRAW
        return {"id": a, "kind": "draw", "stack": k,
                "label": f"draw from stack {k} ({_face_label(s.stack_top_face[k])} face up)"}
    if a == A_DISCARD:
        return {"id": a, "kind": "discard", "label": "set aside the tile (it fits nowhere)"}
    if A_PLACE <= a < A_PLACE + TR_FRONT * 6:
        fi = (a - A_PLACE) // 6
        side = ((a - A_PLACE) % 6) // 3
        rot = (a - A_PLACE) % 3
        f = TILE_FACE[s.drawn_tile][side] if s.drawn_tile != TR_UNKNOWN else TR_UNKNOWN
        x, y = s.front_x[fi], s.front_y[fi]
        return {"id": a, "kind": "place", "x": x, "y": y, "side": side, "rotation": rot,
                "face": _face_label(f),
                "label": f"place side {side} ({_face_label(f)}) at ({x}, {y}) rotation {rot}"}
    if a == A_PASS:
        return {"id": a, "kind": "pass", "label": "end phase 3"}
    if a == A_EVENTS_FIRST:
        return {"id": a, "kind": "events_first", "label": "resolve events before the phase 3 action"}
    if a == A_RESEARCH:
        return {"id": a, "kind": "research", "label": "research (draw a random mineral)"}
    if a == A_EXPEDITION:
        i = s.new_tile
        return dict(_cell(s, i), id=a, kind="expedition",
                    label=f"expedition: emissary to ({s.placed[i].x}, {s.placed[i].y}) "
                          f"{_face_label(s.placed[i].face)}")
    if A_CONSTRUCT <= a < A_CONSTRUCT + TR_TILES:
        i = a - A_CONSTRUCT
        what = "research station" if s.placed[i].station == 0 else "space station"
        return dict(_cell(s, i), id=a, kind="construct", station=what.split()[0],
                    label=f"construct a {what} at ({s.placed[i].x}, {s.placed[i].y})")
    if A_TELEPORT <= a < A_TELEPORT + 3 * TR_TILES:
        d = (a - A_TELEPORT) // TR_TILES
        j = (a - A_TELEPORT) % TR_TILES
        src = _nb_placed(s, s.new_tile, d) if s.new_tile != TR_UNKNOWN else -1
        fx, fy = (s.placed[src].x, s.placed[src].y) if src >= 0 else (None, None)
        return {"id": a, "kind": "teleport", "from": {"x": fx, "y": fy}, "to": _cell(s, j),
                "label": f"teleport the emissary at ({fx}, {fy}) to ({s.placed[j].x}, {s.placed[j].y})"}
    if a == A_TAKEBACK:
        return {"id": a, "kind": "take_back_done", "label": "keep the other emissaries in the closed area"}
    if A_TAKEBACK_TILE <= a < A_TAKEBACK_TILE + TR_TILES:
        j = a - A_TAKEBACK_TILE
        return dict(_cell(s, j), id=a, kind="take_back",
                    label=f"take the emissary at ({s.placed[j].x}, {s.placed[j].y}) back")
    if A_DECLARE <= a < A_DECLARE + 16:
        k = (a - A_DECLARE) // 4
        c = (a - A_DECLARE) % 4
        return {"id": a, "kind": "declare", "plus": k, "rerolls": c,
                "label": f"declare {k} +1 and {c} reroll tokens"}
    if a == A_REROLL:
        return {"id": a, "kind": "reroll", "label": f"reroll the die (showing {s.battle_roll[me]})"}
    if a == A_STAND:
        return {"id": a, "kind": "stand", "label": f"keep the die at {s.battle_roll[me]}"}
    if A_SHIP_EXPED <= a <= A_SHIP_EXPED + 1:
        i = s.new_tile
        kind = SHIP_NAMES[a - A_SHIP_EXPED + 1]
        return dict(_cell(s, i), id=a, kind="ship_expedition", ship=kind,
                    label=f"expedition: {kind} to ({s.placed[i].x}, {s.placed[i].y})")
    if A_SEND_HOME <= a < A_SEND_HOME + TR_TILES:
        j = a - A_SEND_HOME
        unit = UNIT_IDS[s.placed[j].unit].replace("_", " ")
        return dict(_cell(s, j), id=a, kind="send_home", seat=s.placed[j].emissary,
                    label=f"send seat {s.placed[j].emissary}'s {unit} at "
                          f"({s.placed[j].x}, {s.placed[j].y}) home")
    if A_SHIP_TARGET <= a < A_SHIP_TARGET + TR_TILES:
        j = a - A_SHIP_TARGET
        return dict(_cell(s, j), id=a, kind="ship_target", seat=s.placed[j].ship_owner,
                    label=f"clash with seat {s.placed[j].ship_owner}'s {SHIP_NAMES[s.placed[j].ship_kind]} "
                          f"at ({s.placed[j].x}, {s.placed[j].y})")
    if A_ROGUE <= a < A_ROGUE + TR_TILES * 4:
        i = (a - A_ROGUE) // 4
        c = (a - A_ROGUE) % 4
        return dict(_cell(s, i), id=a, kind="rogue_mine", color=COLOR_NAMES[c],
                    label=f"mine a {COLOR_NAMES[c]} mineral with the Rogue at "
                          f"({s.placed[i].x}, {s.placed[i].y})")
    if A_UNLOCK <= a < A_UNLOCK + 6:
        k = (a - A_UNLOCK) // 2
        side = (a - A_UNLOCK) % 2
        r = s.players[me].race if me >= 0 else TR_UNKNOWN
        skill = UNIVERSAL_NAMES[k] if side == 0 else (SKILL_NAMES[r][2 + k] if r < N_RACES else "?")
        cost = PRICE_UNIVERSAL if side == 0 else PRICE_RACIAL
        return {"id": a, "kind": "unlock", "module": k, "side": ("universal", "racial")[side], "skill": skill,
                "label": f"unlock {skill} (module {k}, {('universal', 'racial')[side]} side, {cost} credits)"}
    if a == A_MINERAL_SET:
        return {"id": a, "kind": "mineral_set",
                "label": f"discard a set of 4 minerals (one of each colour) for {SET_CREDITS} credits"}
    if a >= A_RACE:
        described = _race_describe(s, me, a)
        if described is not None:
            return described
    if A_SHIP_MOVE <= a < A_SHIP_TELE + TR_TILES * TR_TILES:
        tele = a >= A_SHIP_TELE
        k = a - (A_SHIP_TELE if tele else A_SHIP_MOVE)
        i = k // TR_TILES
        j = k % TR_TILES
        verb = "teleport" if tele else "move"
        return {"id": a, "kind": "ship_teleport" if tele else "ship_move", "from": _cell(s, i),
                "to": _cell(s, j),
                "label": f"{verb} the {SHIP_NAMES[s.placed[i].ship_kind]} at "
                         f"({s.placed[i].x}, {s.placed[i].y}) "
                         f"to ({s.placed[j].x}, {s.placed[j].y})"}
    return {"id": a, "kind": "unknown", "label": f"action {a}"}


SHIP_NAMES = ("none", "Corvette", "Rogue", "Supreme Priestess")

FACE_SHORT = {"space": "..", "nebula-cap": "n1", "nebula-bend": "n2", "nebula-core": "n3",
              "extractor-cap": "x1", "extractor-bend": "x2", "extractor-core": "x3",
              "planet-end": "p1", "planet-link": "p2", "planet-hub": "p3", "starlight-path": "--",
              "gas-cap": "g1", "gas-bend": "g2", "gas-core": "g3", "nebula-gas": "ng",
              "nebula-band": "nb", "gas-band": "gb", "trade-outpost": "$$", "teleport": "TT",
              "exmitter": "EX", "nebula-path": "n-", "planet-gas-end": "pg", "path-gas": "-g",
              "planet-end-and-path-end": "p:"}


cdef str _render(const TrianState* s, observer):
    cdef const TrianPlayer* pl
    n = s.params.num_players
    lines = []
    who = trian_current_player(s)
    lines.append(f"turn {s.turn}, seat {s.turn_player} to play, {MODE_NAMES.get(s.mode, s.mode)}"
                 + (f"; seat {who} decides" if who != s.turn_player and who >= 0 else ""))
    for k in range(2):
        lines.append(f"stack {k}: {s.stack_len[k]} tiles, top face: "
                     f"{_face_label(s.stack_top_face[k]) if s.stack_len[k] else '-'}")
    if s.drawn_face != TR_UNKNOWN:
        t = s.drawn_tile
        other = f", other side {_face_label(TILE_FACE[t][1 - s.drawn_side_up])}" if t != TR_UNKNOWN else ""
        lines.append(f"in hand: {_face_label(s.drawn_face)} (from stack {s.drawn_stack}){other}")
    for p in range(n):
        pl = &s.players[p]
        minerals = " ".join(f"{COLOR_NAMES[c]}:{pl.minerals[c]}" for c in range(4))
        tokens = f"{pl.tokens_held}" + (f" ({pl.tokens_plus} +1)" if pl.tokens_plus >= 0 else "")
        lines.append(f"seat {p}: {pl.credits} credits, minerals {minerals}, tokens {tokens}, "
                     f"supply {pl.emissaries} emissaries / {pl.research_stations} research"
                     f" / {pl.space_stations} space"
                     f", score {pl.credits + 3 * _mineral_total(pl)}")
        if s.params.variant >= V_FULL:
            lines.append(f"seat {p}: " + _skills_line(pl))
            placed_tokens = _tokens_line(s, p)
            if placed_tokens:
                lines.append(f"seat {p}: special tokens on the board: " + placed_tokens)
    ships = s.params.variant >= V_SHIPS
    if ships:
        for p in range(n):
            lines.append(f"seat {p}: ships in supply {s.players[p].corvettes} Corvettes / "
                         f"{s.players[p].rogues} Rogues")
    for k in range(s.n_nebulas):
        m = " ".join(f"{COLOR_NAMES[c]}:{s.nebula_minerals[k][c]}" for c in range(4))
        lines.append(f"nebula #{k}: minerals {m}")
    if s.mode in (M_DECLARE, M_REROLL, M_SEND_HOME):
        seats = [s.battle_order[k] for k in range(s.battle_size)]
        lines.append("battle: " + ", ".join(
            f"seat {p} bonus +{s.battle_bonus[p]} die {s.battle_roll[p] or '-'}"
            f" declared {s.players[p].declared_tokens}"
            for p in seats))
    if s.n_placed:
        xs = [s.placed[i].x for i in range(s.n_placed)]
        ys = [s.placed[i].y for i in range(s.n_placed)]
        lines.append("galaxy: ^/v up/down triangle, face code, emissary's seat, r/s research/space station"
                     + (", C/R Corvette/Rogue and its seat" if ships else ""))
        lines.append("  codes: .. space, n1-n3 nebula, x1-x3 extractor, p1-p3 planet, -- starlight path,")
        lines.append("  g1-g3 gas cloud, ng nebula+gas, nb/gb nebula/gas band, n- nebula+path, "
                     "pg planet+gas, -g path+gas, $$ outpost, TT teleport, EX exmitter")
        for y in range(min(ys), max(ys) + 1):
            row = []
            for x in range(min(xs), max(xs) + 1):
                i = _placed_at(s, x, y)
                if i < 0:
                    row.append("       " if ships else "     ")
                    continue
                code = FACE_SHORT.get(FACE_NAMES[s.placed[i].face], "??")
                em = str(s.placed[i].emissary) if s.placed[i].emissary >= 0 else " "
                st = " rs"[s.placed[i].station]
                kind = s.placed[i].ship_kind
                sh = (" CR"[kind] + str(s.placed[i].ship_owner)) if kind else "  "
                row.append(("^" if _orient(x, y) == 0 else "v") + code + em + st + (sh if ships else ""))
            lines.append(f"{y:4d} " + "".join(row).rstrip())
    if s.mode == M_END:
        cdef_scores = [s.players[p].credits + 3 * _mineral_total(&s.players[p]) for p in range(n)]
        lines.append("final scores: " + ", ".join(f"seat {p}: {cdef_scores[p]}" for p in range(n)))
    return "\n".join(lines)


def make_game(int players, str variant):
    return TrianGame(players, variant)


# ---------------------------------------------------------------- test hooks (scenario tests only)

def _debug_stack_top(State st, int stack, list tiles):
    """Move `tiles` ([(tile id, side up), ...], the last on top) to the top of one stack.

    The other stack tiles keep their order and side; stack sizes stay as they are. Only for building
    scenario positions from a fresh deal: the tiles must still be in the stacks.
    """
    cdef TrianState* s = _st(st.ptr)
    pool = []
    for k in range(2):
        pool += [(s.stack_tile[k][i], s.stack_side_up[k][i]) for i in range(s.stack_len[k])]
    wanted = [t for t, _ in tiles]
    if len(set(wanted)) != len(wanted) or any(t not in [p[0] for p in pool] for t in wanted):
        raise ValueError("every tile must be in a stack, once")
    if len(tiles) > s.stack_len[stack]:
        raise ValueError("more tiles than the stack holds")
    rest = [p for p in pool if p[0] not in wanted]
    lengths = [s.stack_len[0], s.stack_len[1]]
    top_start = lengths[stack] - len(tiles)
    it = iter(rest)
    for k in range(2):
        for i in range(lengths[k]):
            if k == stack and i >= top_start:
                t, up = tiles[i - top_start]
            else:
                t, up = next(it)
            s.stack_tile[k][i] = t
            s.stack_side_up[k][i] = up
    _refresh_tops(s)


def _debug_dice(uint64_t seed, int count):
    """The first `count` dice a dice stream seeded with `seed` rolls."""
    cdef Rng rng
    rng_seed(&rng, seed)
    return [rng_die(&rng, 6) for _ in range(count)]


def _debug_seed_dice(State st, uint64_t seed):
    rng_seed(&_st(st.ptr).rng_dice, seed)


DETERMINIZE_METHODS = {"auto": DET_AUTO, "rejection": DET_BY_REJECTION, "counting": DET_BY_COUNTING,
                       "matching": DET_BY_MATCHING}


def _debug_determinize(Observation o, uint64_t seed, str method="auto"):
    """determinize() with the tile sampler forced to one method ("auto" is determinize() itself);
    returns the full state and the method that drew the tiles (a DETERMINIZE_METHODS key). For the
    statistical tests of each exact sampler and for measuring how often each is needed."""
    cdef State st
    cdef Rng rng
    cdef int how
    if o.game.name != "trian":
        raise ValueError("a Trian observation is needed")
    if method not in DETERMINIZE_METHODS:
        raise ValueError(f"method must be one of {sorted(DETERMINIZE_METHODS)}")
    st = new_state(o.game)
    memcpy(st.ptr, o.ptr, sizeof(TrianState))
    rng_seed(&rng, seed)
    how = _determinize_tiles(_st(st.ptr), &rng, DETERMINIZE_METHODS[method])
    _determinize_rest(_st(st.ptr), &rng)
    return st, next(k for k, v in DETERMINIZE_METHODS.items() if v == how)


def _debug_draw_mineral(State st):
    """Draw one mineral from the bag with the state's own mineral stream: its colour, or -1."""
    return _draw_mineral(_st(st.ptr))


def tiles_with_face(str name):
    """Catalogue ids of the tiles that have a face of this name, with the side it is on."""
    f = FACE_NAMES.index(name)
    return [(t, side) for t in range(TR_TILES) for side in range(2) if TILE_FACE[t][side] == f]


register(
    GameInfo(
        name="trian",
        title=(
            "Galaxy of Trian: New Order (beginner variant; ships variant with Corvettes and Rogues; "
            "full game with ships and race evolution)"
        ),
        module=__name__,
        variants=("beginner", "ships", "full"),
        player_counts=(2, 3, 4),
        action_description=(
            "Phase 1: 0 end phase 1; 1-4 buy a mineral (red, blue, green, yellow); 5 buy a combat token; "
            "6 + pair*4 + colour exchange two minerals (pairs of colours a<=b in order) for one; "
            "46 + nebula*4 + colour gain a mineral from a closed nebula. Phase 2: 240/241 draw from "
            "stack 0/1; 1024 + frontier*6 + side*3 + rotation place the tile; 242 set aside a tile that "
            "fits nowhere. Phase 3: 243 end; 244 resolve events first; 245 research; 246 expedition; "
            "248 + tile construct; 332 + side*84 + tile teleport. Events: 788 + tile take that emissary "
            "back, 584 keep the rest; 600 + plus*4 + rerolls declare combat tokens; 616 reroll; 617 keep "
            "the die; 704 + tile send the emissary there home after an emissary clash. "
            "Ships variant: 618/619 Corvette/Rogue expedition; 620 + tile clash with the ship there; "
            "10000 + tile*4 + colour Rogue mining; 20000 + from*84 + to move a ship; 30000 + from*84 + to "
            "teleport a ship. Full variant: 40000 + module*2 + side unlock a skill (side 0 universal, 1 "
            "racial); 40010 trade a set of 4 minerals; 50000 + race*20000 + n racial actions (see "
            "docs/rules/trian.md). action_to_struct gives coordinates and a label for every id."
        ),
        # Tuned on 2-player Trian (docs/search.md): every leaf scored 48 moves after the searched position.
        default_search="ismcts@3",
        outcome="ranks",
        hidden_information=(
            "the order and undersides of both tile stacks, the tile in another seat's hand and the hidden "
            "side of tiles others placed, the types of other seats' combat tokens, future bag draws, "
            "token draws and dice"
        ),
        rules_doc="docs/rules/trian.md",
    )
)
