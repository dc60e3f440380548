# Included by engine.pyx: the JSON load (payload -> struct), field by field with the shared readers
# (json_fields.pxd): every value is type- and range-checked before it indexes anything, unknown keys are
# refused (as the schema does), and bad input raises StateFormatError naming the field. The whole
# position is checked afterwards (json_checks.pxi) before it reaches the engine.

PHASE_LIST = tuple(PHASE_IDS)                  # the phase names in id order, for read_name
PAYMENT_REASONS = ("build", "space pirates")  # payment.reason; index 1 is the pirates' draw-after
STATE_KEYS = ("version", "turn", "phase", "current", "turn_steps", "claimed_this_turn",
              "relinquished_this_turn", "pool", "payment", "space_deck", "explored", "space_discard",
              "players")
PLAYER_KEYS = ("frontier", "hand", "hand_size", "draw_pile", "discard", "systems", "ships", "sold_ships",
               "renown_pile", "renown_tokens")


# Game helpers over the shared readers (json_fields): a value that names a card must be one.

cdef int _card_id(object value, str where) except -1:
    t = CARD_IDS.get(value) if type(value) is str else None
    if t is None:
        fail(where, f"{show(value)} is not a player card name")
    return t


cdef int _space_id(object value, str where) except -1:
    i = SPACE_IDS.get(value) if type(value) is str else None
    if i is None:
        fail(where, f"{show(value)} is not a space card name")
    return i


cdef list _resources(object value, str where, tuple names, int hi):
    # an object of resource name -> amount (zero entries may be left out)
    d = read_object(value, where, (), names)
    return [read_int(d.get(name, 0), f"{where}.{name}", 0, hi) for name in names]


cdef _load_into(TgState* s, object d, int observer):
    cdef int n = s.params.num_players, i, p
    read_object(d, "state", STATE_KEYS + (("shuffle_streams",) if observer < 0 else ()), ("shuffle_streams",))
    read_name(d["version"], "state.version", (PAYLOAD_VERSION,))
    s.phase = PHASE_IDS[PHASE_LIST[read_name(d["phase"], "state.phase", PHASE_LIST)]]
    s.turn = read_int(d["turn"], "state.turn", 0, 1000)
    current = d["current"]
    if current is None and s.phase == PH_OVER:
        s.current = 0
    else:
        s.current = read_int(current, "state.current", 0, n - 1)
    s.turn_steps = read_int(d["turn_steps"], "state.turn_steps", 0, TURN_STEP_CAP)
    s.claimed = read_bool(d["claimed_this_turn"], "state.claimed_this_turn")
    s.relinquished = read_bool(d["relinquished_this_turn"], "state.relinquished_this_turn")
    pool = _resources(d["pool"], "state.pool", RESOURCE_NAMES[:3], POOL_CAP)
    for i in range(TG_RES):
        s.pool[i] = pool[i]
    payment = d["payment"]
    if (payment is None) != (s.phase != PH_PAY):
        fail("state.payment", "a payment is pending exactly in the payment phase")
    if payment is not None:
        read_object(payment, "state.payment", ("cards_left", "reason"))
        s.pay_left = read_int(payment["cards_left"], "state.payment.cards_left", 1, 9)
        s.pay_then_draw = read_name(payment["reason"], "state.payment.reason", PAYMENT_REASONS) == 1
    deck = read_list(d["space_deck"], "state.space_deck", 0, N_SPACE)
    s.n_space = len(deck)
    for i, name in enumerate(deck):            # listed top first, stored top last
        where = f"state.space_deck[{i}]"
        if name is None:
            if observer < 0:
                fail(where, "a full state knows every card")
            s.space[s.n_space - 1 - i] = TG_UNKNOWN
        else:
            if observer >= 0:
                fail(where, "no seat can see the space deck")
            s.space[s.n_space - 1 - i] = _space_id(name, where)
            if s.space[s.n_space - 1 - i] == TG_HAVEN:
                fail(where, "a starting system is never in the space deck")
    explored = read_list(d["explored"], "state.explored", 0, n + 1)
    s.n_explored = len(explored)
    for j, entry in enumerate(explored):
        where = f"state.explored[{j}]"
        read_object(entry, where, ("card", "used"))
        s.explored[j] = _space_id(entry["card"], where + ".card")
        s.explored_used[j] = read_bool(entry["used"], where + ".used")
    discard = read_list(d["space_discard"], "state.space_discard", 0, N_SPACE)
    s.n_space_discard = len(discard)
    for i, name in enumerate(discard):
        s.space_discard[i] = _space_id(name, f"state.space_discard[{i}]")
    players = read_list(d["players"], "state.players", n, n)
    for p in range(n):
        _load_player(&s.players[p], players[p], f"state.players[{p}]", observer)
    if observer < 0:
        streams = read_list(d["shuffle_streams"], "state.shuffle_streams", n, n)
        for p in range(n):
            read_list(streams[p], f"state.shuffle_streams[{p}]", 4, 4)
            for i in range(4):
                where = f"state.shuffle_streams[{p}][{i}]"
                s.shuffle[p].s[i] = read_int(streams[p][i], where, 0, 2 ** 64 - 1)
            if not any(streams[p]):
                fail(f"state.shuffle_streams[{p}]", "expected 4 integers, not all zero")
    elif "shuffle_streams" in d:
        fail("state.shuffle_streams", "an observation carries no shuffle streams")


cdef _load_player(TgPlayer* pl, object d, str w, int observer):
    cdef int i, t
    read_object(d, w, PLAYER_KEYS)
    frontier = d["frontier"]
    if frontier is None:
        pl.frontier = 0
    else:
        t = _card_id(frontier, w + ".frontier")
        if t != CARD_FRONTIER[0] and t != CARD_FRONTIER[1]:
            fail(w + ".frontier", f"{show(frontier)} is not a frontier colony")
        pl.frontier = 1 if t == CARD_FRONTIER[0] else 2
    pl.hand_size = read_int(d["hand_size"], w + ".hand_size", 0, TG_DECK)
    hand = d["hand"]
    if hand is None:
        if observer < 0:
            fail(w + ".hand", "a full state knows every hand")
        for t in range(TG_TYPES):
            pl.hand[t] = TG_UNKNOWN
    else:
        read_object(hand, w + ".hand", (), CARD_NAMES)
        for name, count in hand.items():
            t = _card_id(name, w + ".hand")
            pl.hand[t] = read_int(count, f"{w}.hand.{name}", 0, CARD_COPIES[t])
        if sum(pl.hand[t] for t in range(N_TYPES)) != pl.hand_size:
            fail(w + ".hand_size", "differs from the cards in the hand")
    draw = read_list(d["draw_pile"], w + ".draw_pile", 0, TG_DECK)
    pl.n_draw = len(draw)
    for i, name in enumerate(draw):
        where = f"{w}.draw_pile[{i}]"
        if name is None:
            if observer < 0:
                fail(where, "a full state knows every card")
            pl.draw[pl.n_draw - 1 - i] = TG_UNKNOWN
        else:
            if observer >= 0:
                fail(where, "no seat knows the order of a player deck")
            pl.draw[pl.n_draw - 1 - i] = _card_id(name, where)
    discard = read_list(d["discard"], w + ".discard", 0, TG_DECK)
    pl.n_discard = len(discard)
    for i, name in enumerate(discard):
        pl.discard[i] = _card_id(name, f"{w}.discard[{i}]")
    systems = read_list(d["systems"], w + ".systems", 0, MAX_SYSTEMS_RULE)
    pl.n_systems = len(systems)
    for i, sy in enumerate(systems):
        _load_system(&pl.systems[i], sy, f"{w}.systems[{i}]")
    ships = read_list(d["ships"], w + ".ships", 0, TG_MAX_SHIPS)
    pl.n_ships = len(ships)
    for i, ship in enumerate(ships):
        where = f"{w}.ships[{i}]"
        read_object(ship, where, ("card", "used"))
        pl.ships[i] = _ship_id(ship["card"], where + ".card")
        pl.ship_used[i] = read_bool(ship["used"], where + ".used")
    sold = read_list(d["sold_ships"], w + ".sold_ships", 0, TG_MAX_SHIPS)
    pl.n_sold = len(sold)
    for i, name in enumerate(sold):
        pl.sold[i] = _ship_id(name, f"{w}.sold_ships[{i}]")
    pile = read_list(d["renown_pile"], w + ".renown_pile", 0, TG_RENOWN_PILE)
    pl.n_renown = len(pile)
    for i, name in enumerate(pile):
        pl.renown_pile[i] = _space_id(name, f"{w}.renown_pile[{i}]")
    pl.tokens = read_int(d["renown_tokens"], w + ".renown_tokens", -1000, 1000)


cdef int _ship_id(object name, str where) except -1:
    cdef int t = _card_id(name, where)
    if CARD_KIND[t] != KIND_SHIP:
        fail(where, f"{show(name)} is not a ship")
    return t


cdef _load_system(TgSystem* sy, object d, str w):
    cdef int k, depth, card
    read_object(d, w, ("card", "slots", "used", "bounty"))
    card = _space_id(d["card"], w + ".card")
    if SPACE_KIND[card] != SK_SYSTEM:
        fail(w + ".card", f"{SPACE_NAMES[card]!r} is not a system")
    _system_init(sy, card)
    slots = read_list(d["slots"], w + ".slots", SYS_NSLOTS[card], SYS_NSLOTS[card])
    used = read_list(d["used"], w + ".used", SYS_NSLOTS[card], SYS_NSLOTS[card])
    for k in range(SYS_NSLOTS[card]):
        stack = read_list(slots[k], f"{w}.slots[{k}]", 0, TG_STACK)
        for depth, name in enumerate(stack):
            sy.stack[k][depth] = _card_id(name, f"{w}.slots[{k}][{depth}]")
        sy.depth[k] = len(stack)
        _check_stack(sy, k, f"{w}.slots[{k}]")
        sy.used[k] = read_bool(used[k], f"{w}.used[{k}]")
        if sy.used[k] and sy.depth[k] == 0:
            fail(f"{w}.used[{k}]", "an empty slot cannot be used")
    bounty = _resources(d["bounty"], w + ".bounty", RESOURCE_NAMES, 9)
    for k in range(4):
        if bounty[k] > SYS_BOUNTY[card][k]:
            fail(w + ".bounty", f"more {RESOURCE_NAMES[k]} than {SPACE_NAMES[card]} brings")
        sy.bounty[k] = bounty[k]
