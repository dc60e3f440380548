# Included by engine.pyx: JSON load, the payload (json_dump.pxi) read back into a struct, field by field.
#
# Loading builds a fresh state from the payload's facts. The galaxy is placed again tile by tile in its
# order, which rebuilds the board index, the frontier and the union-find exactly as play built them; every
# other value that indexes the state is a seat checked against the player count, a nebula checked against
# the list, or a cell looked up on that rebuilt board, so nothing read from JSON indexes memory unchecked.
# The state is then checked as a whole (json_checks.pxi). A failure raises StateFormatError and leaves the
# caller's object untouched. The field readers are the shared ones (core_ext/json_fields.pxd); the helpers
# below add the game's own concepts (a seat, a face, a cell of the galaxy, a set of minerals).

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


# ---------------------------------------------------------------- load: the game's values

cdef int _seat(object value, str where, const TrianState* s) except -1:
    return read_int(value, where, 0, s.params.num_players - 1)


cdef int _face(object value, str where) except -1:
    return read_name(value, where, FACE_NAMES)


cdef int _tile_at(const TrianState* s, dict cell, str where) except -1:
    # the placed index of the tile at cell["x"], cell["y"] on the board rebuilt so far
    cdef int x = read_int(cell["x"], where + ".x", -TR_TILES, TR_TILES)
    cdef int y = read_int(cell["y"], where + ".y", -TR_TILES, TR_TILES)
    cdef int i = _placed_at(s, x, y)
    if i < 0:
        fail(where, f"no tile lies at ({x}, {y})")
    return i


cdef int _cell_at(const TrianState* s, object value, str where) except -1:
    return _tile_at(s, read_object(value, where, ("x", "y")), where)


cdef int _load_minerals(uint8_t* counts, object value, str where) except -1:
    cdef int c
    d = read_object(value, where, COLOR_NAMES)
    for c in range(TR_COLORS):
        counts[c] = read_int(d[COLOR_NAMES[c]], f"{where}.{COLOR_NAMES[c]}", 0, MINERALS_PER_COLOR)
    return 0


# ---------------------------------------------------------------- load: the sections of a payload


cdef int _load(dict payload, TrianState* s, int observer) except -1:
    # fill `s` (zeroed, params set) from a payload; the order matters: cells exist once the galaxy is
    # rebuilt, and the racial uses are read against the race of the seat whose turn it is
    cdef bint full = observer < 0
    read_object(payload, "state", _STATE_KEYS + (("random_streams",) if full else ()))
    _set_defaults(s)
    s.turn = read_int(payload["turn"], "state.turn", 1, MAX_TURN)
    s.mode = M_PH1 + read_name(payload["phase"], "state.phase", _PHASES_IN_ORDER)
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
    tiles = read_list(value, "state.galaxy", 0, TR_TILES)
    _board_reset(s)
    for i in range(len(tiles)):
        where = f"state.galaxy[{i}]"
        t = read_object(tiles[i], where, _GALAXY_KEYS)
        x = read_int(t["x"], where + ".x", -TR_TILES, TR_TILES)
        y = read_int(t["y"], where + ".y", -TR_TILES, TR_TILES)
        face = _face(t["face"], where + ".face")
        rot = read_int(t["rotation"], where + ".rotation", 0, 2)
        fi = _lookup(s, x, y) - FRONT_BASE
        if fi < 0:
            fail(where, f"({x}, {y}) does not touch the galaxy or is taken")
        if not _fits(s.front_required[fi], OCODE[face][_orient(x, y)][rot]):
            fail(where, "its borders do not match its neighbours")
        _board_place(s, fi, face, rot, roots, kinds)
        _load_placed(s, i, t, where)
    return 0


cdef int _load_placed(TrianState* s, int i, dict t, str where) except -1:
    cdef TrianPlaced* placed = &s.placed[i]
    placed.face_when_drawn = _face(t["face_when_drawn"], where + ".face_when_drawn")
    placed.placer = _seat(t["placer"], where + ".placer", s)
    placed.tile = TR_UNKNOWN if t["tile"] is None else read_int(t["tile"], where + ".tile", 0, TR_TILES - 1)
    placed.side = TR_UNKNOWN if t["side"] is None else read_int(t["side"], where + ".side", 0, 1)
    if t["emissary"] is not None:
        e = read_object(t["emissary"], where + ".emissary", ("seat", "unit", "station"))
        _put_emissary(s, i, _seat(e["seat"], where + ".emissary.seat", s))
        placed.unit = read_name(e["unit"], where + ".emissary.unit", UNIT_IDS)
        placed.station = read_name(e["station"], where + ".emissary.station", STATION_IDS)
    if t["ship"] is not None:
        ship = read_object(t["ship"], where + ".ship",
                           ("seat", "kind", "arrived_this_turn", "mined_this_turn"))
        _put_ship(s, i, _seat(ship["seat"], where + ".ship.seat", s),
                  1 + read_name(ship["kind"], where + ".ship.kind", SHIP_IDS[1:]))
        placed.ship_arrived = read_bool(ship["arrived_this_turn"], where + ".ship.arrived_this_turn")
        placed.rogue_mined = read_bool(ship["mined_this_turn"], where + ".ship.mined_this_turn")
    return 0


cdef int _load_stacks(TrianState* s, object value, bint full) except -1:
    # a full state lists each stack bottom to top; an observation knows its size and top face only
    cdef int k, i, size
    stacks = read_list(value, "state.stacks", 2, 2)
    for k in range(2):
        where = f"state.stacks[{k}]"
        d = read_object(stacks[k], where, ("size", "top_face", "tiles") if full else ("size", "top_face"))
        size = read_int(d["size"], where + ".size", 0, TR_STACK)
        s.stack_len[k] = size
        if d["top_face"] is not None:
            s.stack_top_face[k] = _face(d["top_face"], where + ".top_face")
        if not full:
            memset(s.stack_tile[k], TR_UNKNOWN, size)
            memset(s.stack_side_up[k], TR_UNKNOWN, size)
            continue
        tiles = read_list(d["tiles"], where + ".tiles", size, size)
        for i in range(size):
            entry = read_object(tiles[i], f"{where}.tiles[{i}]", ("tile", "side_up"))
            s.stack_tile[k][i] = read_int(entry["tile"], f"{where}.tiles[{i}].tile", 0, TR_TILES - 1)
            s.stack_side_up[k][i] = read_int(entry["side_up"], f"{where}.tiles[{i}].side_up", 0, 1)
    return 0


cdef int _load_hand(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = read_object(value, "state.hand", ("stack", "face_up", "tile", "side_up"))
    s.drawn_stack = read_int(d["stack"], "state.hand.stack", 0, 1)
    s.drawn_face = _face(d["face_up"], "state.hand.face_up")
    if d["tile"] is not None:
        s.drawn_tile = read_int(d["tile"], "state.hand.tile", 0, TR_TILES - 1)
    if d["side_up"] is not None:
        s.drawn_side_up = read_int(d["side_up"], "state.hand.side_up", 0, 1)
    return 0


cdef int _load_set_aside(TrianState* s, object value) except -1:
    cdef int i
    tiles = read_list(value, "state.set_aside", 0, TR_TILES)
    for i in range(len(tiles)):
        s.discarded[i] = read_int(tiles[i], f"state.set_aside[{i}]", 0, TR_TILES - 1)
    s.n_discarded = len(tiles)
    return 0


cdef int _load_nebulas(TrianState* s, object value) except -1:
    # closed nebulas in the order they closed (their position is the nebula number of the actions)
    cdef int k, i, root
    nebulas = read_list(value, "state.nebulas", 0, TR_NEBULAS)
    for k in range(len(nebulas)):
        where = f"state.nebulas[{k}]"
        d = read_object(nebulas[k], where, ("x", "y", "minerals", "gained_this_turn"))
        i = _tile_at(s, d, where)
        if not FACE_HAS_NEB[s.placed[i].face]:
            fail(where, "the tile there has no nebula part")
        root = _cfind(s, _node(i, K_NEBULA))
        if s.area_open_borders[root] != 0:
            fail(where, "that nebula is not closed")
        s.nebula_root[k] = <int16_t>root
        _load_minerals(s.nebula_minerals[k], d["minerals"], where + ".minerals")
        s.nebula_gained[k] = read_int(d["gained_this_turn"], where + ".gained_this_turn", 0, 2)
    s.n_nebulas = len(nebulas)
    return 0


cdef int _load_players(TrianState* s, object value) except -1:
    cdef int p, n = s.params.num_players
    players = read_list(value, "state.players", n, n)
    for p in range(n):
        _load_player(s, p, players[p], f"state.players[{p}]")
    return 0


cdef int _load_player(TrianState* s, int p, object value, str where) except -1:
    cdef TrianPlayer* pl = &s.players[p]
    d = read_object(value, where, _PLAYER_KEYS)
    pl.credits = read_int(d["credits"], where + ".credits", 0, MAX_CREDITS)
    _load_minerals(pl.minerals, d["minerals"], where + ".minerals")
    supply = read_object(d["supply"], where + ".supply", _SUPPLY_KEYS)
    pl.emissaries = read_int(supply["emissaries"], where + ".supply.emissaries", 0, PIECES[2][0])
    pl.research_stations = read_int(supply["research_stations"], where + ".supply.research_stations", 0,
                                    PIECES[2][1])
    pl.space_stations = read_int(supply["space_stations"], where + ".supply.space_stations", 0, PIECES[2][2])
    pl.corvettes = read_int(supply["corvettes"], where + ".supply.corvettes", 0, SETUP_SHIPS[0])
    pl.rogues = read_int(supply["rogues"], where + ".supply.rogues", 0, SETUP_SHIPS[1])
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
    d = read_object(value, where, ("count", "plus"))
    count = read_int(d["count"], where + ".count", 0, ALL_TOKENS)
    plus = TR_HIDDEN if d["plus"] is None else read_int(d["plus"], where + ".plus", 0, TOKENS_PLUS)
    return count, plus


cdef int _load_race(TrianPlayer* pl, dict d, str where) except -1:
    cdef int r = -1, k, j
    cdef uint32_t skills = 0
    pl.race = TR_UNKNOWN
    if d["race"] is not None:
        r = read_name(d["race"], where + ".race", RACE_NAMES)
        pl.race = r
    racial = read_list(d["racial_skills"], where + ".racial_skills", 0, RACE_SKILLS)
    if racial and r < 0:
        fail(where + ".racial_skills", "a seat without a race has no racial skill")
    for j in range(len(racial)):
        k = read_name(racial[j], f"{where}.racial_skills[{j}]", SKILL_NAMES[r])
        if (skills >> k) & 1:
            fail(where + ".racial_skills", f"{SKILL_NAMES[r][k]!r} is named twice")
        skills |= <uint32_t>1 << k
    universal = read_list(d["universal_skills"], where + ".universal_skills", 0, 3)
    for j in range(len(universal)):
        k = read_name(universal[j], f"{where}.universal_skills[{j}]", UNIVERSAL_NAMES)
        if (skills >> (U_BIT + k)) & 1:
            fail(where + ".universal_skills", f"{UNIVERSAL_NAMES[k]!r} is named twice")
        skills |= <uint32_t>1 << (U_BIT + k)
    pl.skills = skills
    return 0


cdef int _load_special_tokens(const TrianState* s, TrianPlayer* pl, object value, str where) except -1:
    cdef int j, slot
    tokens = read_list(value, where, 0, 4)
    for j in range(len(tokens)):
        d = read_object(tokens[j], f"{where}[{j}]", ("slot", "x", "y"))
        slot = read_int(d["slot"], f"{where}[{j}].slot", 0, 3)
        if pl.special_tile[slot] != TR_UNKNOWN:
            fail(where, f"slot {slot} is named twice")
        pl.special_tile[slot] = _tile_at(s, d, f"{where}[{j}]")
    return 0


cdef int _load_this_turn(TrianState* s, object value) except -1:
    cdef int j, k
    d = read_object(value, "state.this_turn", _THIS_TURN_KEYS)
    if d["tile_added"] is not None:
        s.new_tile = _cell_at(s, d["tile_added"], "state.this_turn.tile_added")
    if d["emissary_arrived"] is not None:
        s.mission_tile = _cell_at(s, d["emissary_arrived"], "state.this_turn.emissary_arrived")
    s.actions_left = read_int(d["actions_left"], "state.this_turn.actions_left", 0, MAX_PHASE3_ACTIONS)
    s.actions_taken = read_int(d["actions_taken"], "state.this_turn.actions_taken", 0, MAX_PHASE3_ACTIONS)
    s.teleport_used = read_bool(d["teleport_used"], "state.this_turn.teleport_used")
    s.evolved = read_bool(d["skill_unlocked"], "state.this_turn.skill_unlocked")
    uses = RACIAL_USE_IDS.get(s.players[s.turn_player].race, ())
    names = tuple(name for _, name in uses)
    listed = read_list(d["racial_uses"], "state.this_turn.racial_uses", 0, len(names))
    for j in range(len(listed)):
        k = read_name(listed[j], f"state.this_turn.racial_uses[{j}]", names)
        if s.race_used & uses[k][0]:
            fail("state.this_turn.racial_uses", f"{names[k]!r} is named twice")
        s.race_used |= uses[k][0]
    return 0


cdef int _load_events(TrianState* s, object value) except -1:
    # the areas queued this turn, in order; the first `resolved` of them are done
    cdef int k
    if value is None:
        return 0
    d = read_object(value, "state.events", ("areas", "resolved", "then", "value"))
    areas = read_list(d["areas"], "state.events.areas", 1, TR_EVENTS)
    for k in range(len(areas)):
        _load_area(s, k, areas[k], f"state.events.areas[{k}]")
    s.events_count = len(areas)
    s.events_next = read_int(d["resolved"], "state.events.resolved", 0, len(areas) - 1)
    s.events_end_turn = read_name(d["then"], "state.events.then", AFTER_EVENTS_IDS)
    s.event_credits = read_int(d["value"], "state.events.value", 0, MAX_AREA_VALUE)
    s.events_pending = 1
    return 0


cdef int _load_area(TrianState* s, int k, object value, str where) except -1:
    # a tile and the part of it the area holds (for outer space: the side of the tile it touches)
    cdef int i, part, area, cause, d, node
    a = read_object(value, where, ("cause", "area", "x", "y"), ("side",))
    cause = read_name(a["cause"], where + ".cause", CAUSE_IDS)
    area = read_name(a["area"], where + ".area", AREA_IDS)
    i = _tile_at(s, a, where)
    if area == 2 and "side" not in a or area == 0 and "side" in a:
        fail(where, "an outer-space area names a side, a nebula does not")
    if area == 2:
        d = read_name(a["side"], where + ".side", SIDE_IDS)
        if not _space_side(s, i, d):
            fail(where, "that side of the tile is not outer space")
        node = _node(i, _side_group(s, i, d))
    elif area == 0:
        if not FACE_HAS_NEB[s.placed[i].face]:
            fail(where, "the tile there has no nebula part")
        node = _node(i, K_NEBULA)
    elif "side" in a:
        d = read_name(a["side"], where + ".side", SIDE_IDS)
        if _path_part(s, i, d) < 0:
            fail(where, "that side of the tile is not a starlight path")
        node = _node(i, _path_part(s, i, d))
    else:
        if not FACE_HAS_SYS[s.placed[i].face]:
            fail(where, "the tile there has no planetary-system part")
        node = _node(i, K_SYSTEM)
    if cause == 1 and area == 2:
        fail(where, "an unblocking is fought over a nebula or a system")
    s.event_root[k] = <int16_t>_cfind(s, node)
    if s.area_open_borders[s.event_root[k]] != 0:
        fail(where, "that area is not closed")
    s.event_kind[k] = AREA_UNBLOCKED if cause == 1 else (AREA_NEBULA, AREA_SYSTEM, AREA_SPACE)[area]
    return 0


cdef int _load_battle(TrianState* s, object value) except -1:
    # the seats of a clash, attacker first; bonus, die and rerolls are the battle's per seat
    cdef int k, p
    if value is None:
        return 0
    d = read_object(value, "state.battle", ("seats", "acting"))
    seats = read_list(d["seats"], "state.battle.seats", 2, s.params.num_players)
    for k in range(len(seats)):
        where = f"state.battle.seats[{k}]"
        e = read_object(seats[k], where, _BATTLE_SEAT_KEYS)
        p = _seat(e["seat"], where + ".seat", s)
        if s.battle_size and p in [s.battle_order[j] for j in range(s.battle_size)]:
            fail(where + ".seat", f"seat {p} is in the battle twice")
        s.battle_order[k] = p
        s.battle_size = k + 1
        s.battle_bonus[p] = read_int(e["bonus"], where + ".bonus", 0, MAX_BATTLE_BONUS)
        s.battle_roll[p] = read_int(e["die"], where + ".die", 0, 6)
        s.battle_rerolls[p] = read_int(e["rerolls"], where + ".rerolls", 0, 3)
        if read_bool(e["warcry"], where + ".warcry"):
            s.battle_warcry |= <uint8_t>(1 << p)
    s.battle_turn = read_int(d["acting"], "state.battle.acting", 0, len(seats) - 1)
    s.battle_stage = 2 if s.mode == M_REROLL else (0 if s.mode == M_SEND_HOME else 1)
    return 0


cdef int _load_take_back(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = read_object(value, "state.take_back", ("after",))
    s.takeback_next = <uint8_t>(_cell_at(s, d["after"], "state.take_back.after") + 1)
    return 0


cdef int _load_send_home(TrianState* s, object value) except -1:
    # the seats named must fight the battle; the rest is checked with the state (_check_send_home)
    cdef int k, p
    if value is None:
        return 0
    d = read_object(value, "state.send_home", ("winner", "seats"))
    if d["winner"] is not None:
        s.send_home_winner = _seat(d["winner"], "state.send_home.winner", s)
    else:
        s.send_home_winner = -1
    seats = read_list(d["seats"], "state.send_home.seats", 1, s.params.num_players)
    for k in range(len(seats)):
        p = _seat(seats[k], f"state.send_home.seats[{k}]", s)
        if (s.send_home_seats >> p) & 1:
            fail(f"state.send_home.seats[{k}]", f"seat {p} is named twice")
        s.send_home_seats |= <uint8_t>(1 << p)
    return 0


cdef int _load_ship_battle(TrianState* s, object value) except -1:
    if value is None:
        return 0
    d = read_object(value, "state.ship_battle", ("attacker", "defender"))
    s.ship_battle_on = 1
    s.ship_battle_attacker = _cell_at(s, d["attacker"], "state.ship_battle.attacker")
    if (s.mode == M_SHIP_TARGET) != (d["defender"] is None):
        fail("state.ship_battle.defender", "a defender exactly while a clash is on")
    if d["defender"] is not None:
        s.ship_battle_target = _cell_at(s, d["defender"], "state.ship_battle.defender")
    return 0


cdef int _load_racial_step(TrianState* s, object value) except -1:
    cdef int step, picks
    if value is None:
        return 0
    d = read_object(value, "state.racial_step", ("step", "seat"), ("at", "nebula", "picks_left", "unit"))
    steps = tuple(STEP_IDS)
    step = steps[read_name(d["step"], "state.racial_step.step", tuple(STEP_IDS.values()))]
    s.race_step = step
    s.race_seat = _seat(d["seat"], "state.racial_step.seat", s)
    picks = 0
    if "picks_left" in d:
        picks = read_int(d["picks_left"], "state.racial_step.picks_left", 1, PRIESTESS_GAIN)
    if step == STEP_GATHER or (step == STEP_PR_GAIN and picks < PRIESTESS_GAIN):
        _step_fields(d, ("picks_left", "nebula"))
        s.race_arg = read_int(d["nebula"], "state.racial_step.nebula", 0, s.n_nebulas - 1)
        s.race_count = picks
    elif step == STEP_PR_GAIN:
        _step_fields(d, ("picks_left", "at"))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
        s.race_count = picks
    elif step == STEP_ADAPT:
        _step_fields(d, ("at", "unit"))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
        s.race_count = read_name(d["unit"], "state.racial_step.unit", ADAPTED_UNIT_IDS)
    else:
        _step_fields(d, ("at",))
        s.race_arg = _cell_at(s, d["at"], "state.racial_step.at")
    return 0


cdef int _step_fields(dict d, tuple wanted) except -1:
    given = sorted(key for key in d if key not in ("step", "seat"))
    if given != sorted(wanted):
        fail("state.racial_step",
             f"a {d['step']} step has the fields step, seat, {', '.join(sorted(wanted))}")
    return 0


cdef int _load_streams(TrianState* s, object value) except -1:
    d = read_object(value, "state.random_streams", STREAM_IDS)
    _load_stream(&s.rng_minerals, d["minerals"], "state.random_streams.minerals")
    _load_stream(&s.rng_tokens, d["tokens"], "state.random_streams.tokens")
    _load_stream(&s.rng_dice, d["dice"], "state.random_streams.dice")
    return 0


cdef int _load_stream(Rng* rng, object value, str where) except -1:
    cdef int w
    words = read_list(value, where, 4, 4)
    for w in range(4):
        word = words[w]
        if type(word) is not str or len(word) != 16 or word.strip("0123456789abcdef"):
            fail(f"{where}[{w}]", f"{show(word)} is not 16 lowercase hex digits")
        rng.s[w] = int(word, 16)
    return 0
