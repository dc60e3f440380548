# Included by engine.pyx: the checks of a loaded state as a whole (json_load.pxi reads it field by field):
# conservation of tiles, pieces, minerals and combat tokens, every pending decision against the board, and
# an observation hiding exactly what observe() hides and admitting a determinization.
#
#
# Each check returns an error message, or None. They run on a state every index of which was built in
# range by the loader, so they may follow any index.


cdef object _check_state(const TrianState* s, int observer):
    # observer -1: a full state
    return (_check_phase(s) or _check_tiles(s, observer) or _check_units(s) or _check_pieces(s)
            or _check_tokens(s, observer) or _check_minerals(s) or _check_nebulas(s) or _check_this_turn(s)
            or _check_events(s) or _check_battle(s) or _check_battle_seats(s) or _check_take_back(s)
            or _check_area_value(s) or _check_send_home(s) or _check_ship_battle(s) or _check_races(s))


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
    # the turn's facts agree with its phase: before phase 3 no tile is added, no action taken, no teleport
    # used; from phase 3 on, the actions are 1 plus 2 per bonus; a Space Modulator marked used this turn is
    # on the board
    cdef int k, actions, p = s.turn_player
    if s.new_tile != TR_UNKNOWN and s.new_tile != s.n_placed - 1:
        return "this_turn.tile_added: the tile added this turn is the last one of the galaxy"
    # VANTH's Minerals gatherer step follows a phase 1 gain and returns to phase 1 (race_vanth.pxi): its
    # turn is still before phase 3 (a fuzzed count there was accepted, then lost when the step ended)
    if s.mode == M_PH1 or s.mode == M_DRAW or s.mode == M_PLACE or \
            (s.mode == M_RACE and s.race_step == STEP_GATHER):
        if s.new_tile != TR_UNKNOWN:
            return "this_turn.tile_added: no tile is added before phase 3"
        if s.actions_left or s.actions_taken:
            return "this_turn.actions_left: no phase 3 action before phase 3"
        if s.teleport_used:
            return "this_turn.teleport_used: no teleport is used before phase 3"
    actions = s.actions_left + s.actions_taken
    if actions % 2 == 0 and (actions or s.mode == M_PH3):
        # phase 3 begins with 1 action and every outpost bonus adds 2 (sections IX, XI)
        return "this_turn.actions_left: from phase 3 on, actions_left + actions_taken is 1 + 2 per bonus"
    if s.players[p].race == R_SYLPHEX:
        for k in range(2):
            if (s.race_used >> (1 + k)) & 1 and s.players[p].special_tile[1 + k] == TR_UNKNOWN:
                return f"this_turn.racial_uses: space_modulator_{k + 1} is not on the board"
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


cdef object _check_battle_seats(const TrianState* s):
    # what each seat may have done in the clash so far: 0-3 tokens declared, in turn (the seats after the
    # acting one declared nothing yet); the seats before the acting one reroll no more; after the clash
    # (send_home) the declared tokens went back to the bag. In an emissary battle the seats are every seat
    # with an emissary in the area, clockwise from the closer, and each bonus (its emissaries there at the
    # start) is at least its emissaries there now, the emissaries sent home since being ones the clashes
    # so far can have sent: each clash sends home one emissary of every clashing seat but at most one
    cdef int k, p, tiles, ext, st, n = s.params.num_players, most = 0, kept = 0
    cdef int units[MAX_PLAYERS]
    cdef int lost[MAX_PLAYERS]
    if s.battle_size == 0:
        return None
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if s.players[p].declared_tokens > 3:
            return f"battle.seats[{k}]: declared_tokens: at most 3 combat tokens are declared in a clash"
        if s.mode == M_DECLARE and k > s.battle_turn and s.players[p].declared_tokens:
            return f"battle.seats[{k}]: declared_tokens: a seat after the acting one has declared nothing yet"
        if s.mode == M_SEND_HOME and s.players[p].declared_tokens:
            return f"battle.seats[{k}]: declared_tokens: they go back to the bag when the clash ends"
        if s.mode == M_REROLL and k < s.battle_turn and s.battle_rerolls[p]:
            return f"battle.seats[{k}].rerolls: a seat before the acting one rerolls no more"
    if s.ship_battle_on:
        return None       # _check_ship_battle: the attacker's owner, then the defender's
    for k in range(1, s.battle_size):
        if (s.battle_order[k - 1] - s.turn_player + n) % n >= (s.battle_order[k] - s.turn_player + n) % n:
            return f"battle.seats[{k}].seat: the seats of the battle go clockwise from the turn player"
    _area_census(s, s.event_root[s.events_next], &tiles, &ext, units, &st)
    seats = {s.battle_order[k] for k in range(s.battle_size)}
    for p in range(n):
        if units[p] and p not in seats and s.mode != M_SEND_HOME:
            return f"battle.seats: seat {p} has an emissary in the area fought over and is not in the battle"
    for k in range(s.battle_size):
        p = s.battle_order[k]
        if s.battle_bonus[p] < units[p] or s.battle_bonus[p] == 0:
            return (f"battle.seats[{k}].bonus: {s.battle_bonus[p]} is not the seat's emissaries in the area "
                    f"at the start of the battle ({units[p]} there now)")
        # the clash being ended (send_home) counts as fought
        lost[k] = s.battle_bonus[p] - units[p] + ((s.send_home_seats >> p) & 1)
        # the emissaries sent home went back to the supply (a racial unit off the board)
        if s.battle_bonus[p] - units[p] > s.players[p].emissaries + (2 if s.params.variant >= V_FULL else 0):
            return (f"battle.seats[{k}].bonus: {s.battle_bonus[p]} is more than the seat's emissaries in the "
                    f"area and those sent home can make")
        if lost[k] > most:
            most = lost[k]
    for k in range(s.battle_size):
        kept += most - lost[k]
    if kept > most:
        for k in range(s.battle_size):
            if lost[k] < most:
                return (f"battle.seats[{k}].bonus: {s.battle_bonus[s.battle_order[k]]} is not the seat's "
                        f"emissaries in the area at the start of the battle (the clashes so far cannot "
                        f"have sent home the others' emissaries and none of its)")
    return None


cdef object _check_area_value(const TrianState* s):
    # events.value is the closed area's value (section X) when its resolution started: at least what its
    # tiles and the emissaries there now make, at most what its tiles and every emissary that can have been
    # there then make (those there now, those in supplies, and the racial units); 0 for an unblocking
    cdef int p, kind, tiles, ext, st, now = 0, most = 0, low, high, raw = 0, i
    cdef int units[MAX_PLAYERS]
    if not _resolving_area(s):
        return None
    kind = s.event_kind[s.events_next]
    if kind == AREA_UNBLOCKED:
        if s.event_credits:
            return "events.value: a battle for an unblocked area pays nothing (0)"
        return None
    _area_census(s, s.event_root[s.events_next], &tiles, &ext, units, &st)
    for p in range(s.params.num_players):
        now += units[p]
        most += units[p] + s.players[p].emissaries + (2 if s.params.variant >= V_FULL else 0)
    for i in range(s.n_placed):
        if kind == AREA_SYSTEM and _tile_in_system(s, i, s.event_root[s.events_next]):
            raw += 1
    if kind != AREA_SYSTEM:
        raw = tiles
    low = _closed_area_value(kind, tiles, now, ext)
    high = _closed_area_value(kind, raw, most, ext)
    if not low <= s.event_credits <= high:
        return (f"events.value: {s.event_credits} is not what the area's {tiles} tiles and the emissaries "
                f"there make ({low} to {high})")
    return None


cdef object _check_take_back(const TrianState* s):
    # the closer takes back after it alone had emissaries in the area (or won its battle): it still has
    # one there, and before its first pick nobody else has
    cdef int p, tiles, ext, st
    cdef int units[MAX_PLAYERS]
    if s.mode != M_TAKEBACK:
        return None
    _area_census(s, s.event_root[s.events_next], &tiles, &ext, units, &st)
    if units[s.turn_player] == 0:
        return "phase: take_back needs an emissary of the turn player in the area (events)"
    for p in range(s.params.num_players):
        if p != s.turn_player and units[p] and not s.takeback_next:
            return f"phase: take_back: seat {p} also has an emissary in the area, which is fought over first"
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
