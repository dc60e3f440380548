# Included by engine.pyx: the Python side (the JSON format, action structs and labels, render).
#
# The JSON payload holds facts only: cards by name and where they lie, counters, the pending payment.
# Loading range-checks every value before it indexes anything, then checks the whole position (every
# player's 31 cards accounted for, every space card in one place and the set the set-up allows, slot
# stacks legal upgrades, the phase and its pending decision consistent), so bad input raises
# StateFormatError and never reaches the engine.

PAYLOAD_VERSION = "take_the_galaxy/1"
PHASE_NAMES = {PH_FRONTIER: "frontier", PH_ACTION: "action", PH_PAY: "payment", PH_OVER: "over"}
PHASE_IDS = {v: k for k, v in PHASE_NAMES.items()}
SLOT_LETTERS = ("B", "D")


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


cdef class TakeTheGalaxyGame(Game):

    def __cinit__(self, int players, str variant):
        if variant not in VARIANT_IDS:
            raise ValueError(f"take_the_galaxy: unknown variant {variant!r}")
        self.ops = &TTG_OPS
        self.params.num_players = players
        self.params.variant = VARIANT_IDS[variant]
        self.params.options = 0
        self.name = "take_the_galaxy"
        self.variant = variant
        self.num_players = players

    # ------------------------------------------------------------ dump

    def _dump_payload(self, Position pos):
        cdef const TgState* k = _cst(pos.ptr)
        out = {
            "version": PAYLOAD_VERSION,
            "turn": k.turn,
            "phase": PHASE_NAMES[k.phase],
            "current": None if k.phase == PH_OVER else k.current,
            "turn_steps": k.turn_steps,
            "claimed_this_turn": bool(k.claimed),
            "relinquished_this_turn": bool(k.relinquished),
            "pool": {RESOURCE_NAMES[r]: k.pool[r] for r in range(TG_RES) if k.pool[r]},
            "payment": None if k.phase != PH_PAY else {
                "cards_left": k.pay_left, "reason": "space pirates" if k.pay_then_draw else "build"},
            "space_deck": [_space_name(k.space[i]) for i in range(k.n_space - 1, -1, -1)],
            "explored": [{"card": SPACE_NAMES[k.explored[j]], "used": bool(k.explored_used[j])}
                         for j in range(k.n_explored)],
            "space_discard": [SPACE_NAMES[k.space_discard[i]] for i in range(k.n_space_discard)],
            "players": [_dump_player(&k.players[p]) for p in range(k.params.num_players)],
        }
        if pos.observer < 0:
            out["shuffle_streams"] = [[k.shuffle[p].s[i] for i in range(4)]
                                      for p in range(k.params.num_players)]
        return out

    # ------------------------------------------------------------ load

    def _load_payload(self, Position pos, dict payload):
        cdef TgState tmp
        memset(&tmp, 0, sizeof(TgState))
        tmp.params = self.params
        observer = pos.observer
        _load_into(&tmp, payload, observer)
        _check_position(&tmp, observer)
        memcpy(pos.ptr, &tmp, sizeof(TgState))

    # ------------------------------------------------------------ actions

    def _action_struct(self, Position pos, int action):
        return _action_struct(_cst(pos.ptr), action)

    def _render(self, Position pos):
        viewer = pos.observer
        return _render(_cst(pos.ptr), self.variant, viewer)


def _space_name(int card):
    return None if card == TG_UNKNOWN else SPACE_NAMES[card]


cdef dict _dump_player(const TgPlayer* pl):
    hidden = pl.hand[0] == TG_UNKNOWN
    return {
        "frontier": None if pl.frontier == 0 else CARD_NAMES[CARD_FRONTIER[pl.frontier - 1]],
        "hand": None if hidden else {CARD_NAMES[t]: pl.hand[t] for t in range(N_TYPES) if pl.hand[t]},
        "hand_size": pl.hand_size,
        "draw_pile": [None if pl.draw[i] == TG_UNKNOWN else CARD_NAMES[pl.draw[i]]
                      for i in range(pl.n_draw - 1, -1, -1)],
        "discard": [CARD_NAMES[pl.discard[i]] for i in range(pl.n_discard)],
        "systems": [_dump_system(&pl.systems[i]) for i in range(pl.n_systems)],
        "ships": [{"card": CARD_NAMES[pl.ships[i]], "used": bool(pl.ship_used[i])}
                  for i in range(pl.n_ships)],
        "sold_ships": [CARD_NAMES[pl.sold[i]] for i in range(pl.n_sold)],
        "renown_pile": [SPACE_NAMES[pl.renown_pile[i]] for i in range(pl.n_renown)],
        "renown_tokens": pl.tokens,
    }


cdef dict _dump_system(const TgSystem* sy):
    n = SYS_NSLOTS[sy.card]
    return {
        "card": SPACE_NAMES[sy.card],
        "slots": [[CARD_NAMES[sy.stack[k][d]] for d in range(sy.depth[k])] for k in range(n)],
        "used": [bool(sy.used[k]) for k in range(n)],
        "bounty": {RESOURCE_NAMES[r]: sy.bounty[r] for r in range(4) if sy.bounty[r]},
    }


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


cdef _check_stack(const TgSystem* sy, int k, str w):
    # The bottom colony fits the slot; every upgrade is the same kind at a higher printed cost.
    cdef int d, card, below
    for d in range(sy.depth[k]):
        card = sy.stack[k][d]
        if d == 0:
            if not _fits(card, SYS_SLOT[sy.card][k]):
                fail(w, f"{CARD_NAMES[card]} cannot be built on a {SLOT_LETTERS[SYS_SLOT[sy.card][k]]} slot")
        else:
            below = sy.stack[k][d - 1]
            if CARD_KIND[card] != CARD_KIND[below] or CARD_COST[card] <= CARD_COST[below]:
                fail(w, f"{CARD_NAMES[card]} is not an upgrade of {CARD_NAMES[below]}")


cdef _check_position(TgState* s, int observer):
    _check_phase(s, observer)
    for p in range(s.params.num_players):
        _check_player_cards(s, p, f"state.players[{p}]")
    _check_space_cards(s, observer)


cdef _check_phase(TgState* s, int observer):
    cdef int n = s.params.num_players, p
    cdef const TgPlayer* cur = &s.players[s.current]
    for p in range(n):
        chosen = s.players[p].frontier != 0
        if s.phase == PH_FRONTIER and chosen != (p < s.current):
            fail(f"state.players[{p}].frontier", "seats before the current one have chosen, the others not")
        if s.phase != PH_FRONTIER and not chosen:
            fail(f"state.players[{p}].frontier", "every seat has chosen once the set-up is over")
    if s.phase == PH_FRONTIER:
        if s.turn != 0 or s.claimed or s.relinquished or any(s.pool[r] for r in range(TG_RES)):
            fail("state.turn", "nothing happens before the set-up is over")
        if cur.hand[0] == TG_UNKNOWN or not cur.hand[CARD_FRONTIER[0]] or not cur.hand[CARD_FRONTIER[1]]:
            fail("state.players", "the seat choosing holds both frontier colonies")
    elif s.turn < 1:
        fail("state.turn", "turns begin at 1 after the set-up")
    if s.phase == PH_PAY and s.pay_left > s.players[s.current].hand_size:
        fail("state.payment.cards_left", "more cards to discard than the hand holds")
    if s.phase == PH_OVER and s.n_space != 0:
        fail("state.phase", "the game ends only when the space deck is empty")
    for j in range(s.n_explored):
        if s.explored_used[j] and not (SPACE_KIND[s.explored[j]] == SK_EVENT
                                       and EVENT_OPPORTUNITY[s.explored[j]]):
            fail(f"state.explored[{j}].used", "only opportunities are used")


cdef _check_player_cards(TgState* s, int p, str w):
    # Every card of the player's deck is in exactly one place (unknown places hold the rest).
    cdef TgPlayer* pl = &s.players[p]
    cdef int counts[TG_TYPES]
    cdef int t, unknown = pl.n_draw, missing = 0
    _known_counts(s, p, counts)
    if pl.hand[0] == TG_UNKNOWN:
        unknown += pl.hand_size
    for t in range(N_TYPES):
        if counts[t] > CARD_COPIES[t]:
            fail(w, f"more than {CARD_COPIES[t]} {CARD_NAMES[t]} cards")
        missing += CARD_COPIES[t] - counts[t]
    for t in range(pl.n_draw):
        if pl.draw[t] != TG_UNKNOWN:
            counts[pl.draw[t]] += 1
            if counts[pl.draw[t]] > CARD_COPIES[pl.draw[t]]:
                fail(w + ".draw_pile", f"more than {CARD_COPIES[pl.draw[t]]} {CARD_NAMES[pl.draw[t]]} cards")
    if missing != unknown:
        fail(w, f"{missing} cards of the deck are not in known places but {unknown} places are unknown")
    haven = sum(1 for i in range(pl.n_systems) if pl.systems[i].card == TG_HAVEN) + \
        sum(1 for i in range(pl.n_renown) if pl.renown_pile[i] == TG_HAVEN)
    if haven != 1:
        fail(w, "the starting system is either under control or in the renown pile, once")
    if pl.frontier == 0 and (pl.n_systems != 1 or any(pl.systems[0].depth[k] for k in range(TG_SLOTS))):
        fail(w + ".systems", "before the frontier choice only the empty starting system is on the table")


cdef _check_space_cards(TgState* s, int observer):
    # Each space card in one place at most; the cards in play are the set-up's (numbered: exactly
    # the cards for this player count; random: the "Random Play" counts per sector and kind); the
    # space deck is ordered Core on top of Expanse on top of Fringe.
    cdef int n = s.params.num_players, i, p, sec, kind
    where = {}

    def place(card, label):
        if card == TG_HAVEN:
            fail("state." + label, "a starting system never leaves its owner")
        if card in where:
            fail("state." + label, f"{SPACE_NAMES[card]} is also in {where[card]}")
        where[card] = label
    for i in range(s.n_space):
        if s.space[i] != TG_UNKNOWN:
            place(s.space[i], f"space_deck[{s.n_space - 1 - i}]")
    for j in range(s.n_explored):
        place(s.explored[j], f"explored[{j}]")
    for i in range(s.n_space_discard):
        place(s.space_discard[i], f"space_discard[{i}]")
    for p in range(n):
        pl = &s.players[p]
        for i in range(pl.n_systems):
            if pl.systems[i].card != TG_HAVEN:
                place(pl.systems[i].card, f"players[{p}].systems[{i}]")
        for i in range(pl.n_renown):
            if pl.renown_pile[i] != TG_HAVEN:
                place(pl.renown_pile[i], f"players[{p}].renown_pile[{i}]")
    counts = [[0, 0, 0] for _ in range(3)]
    for card in where:
        counts[SPACE_SECTOR[card]][SPACE_KIND[card]] += 1
        if s.params.variant != V_RANDOM and SPACE_PLAYERS[card] > n:
            fail("state." + where[card], f"{SPACE_NAMES[card]} is not used with {n} players")
    hidden = sum(1 for i in range(s.n_space) if s.space[i] == TG_UNKNOWN)
    total = 0
    for sec in range(3):
        for kind in range(3):
            allowed = SETUP_COUNT[n][sec][kind]
            if n == 1 and sec == SEC_FRINGE and kind != SK_SYSTEM and s.params.variant == V_RANDOM:
                allowed = 1 - counts[sec][SK_ANOMALY + SK_EVENT - kind]
            if counts[sec][kind] > allowed:
                fail("state.space_deck", f"too many {SECTOR_NAMES[sec]} {SPACE_KIND_NAMES[kind]}s")
            total += SETUP_COUNT[n][sec][kind]
    if len(where) + hidden != total:
        fail("state.space_deck",
             f"the set-up uses {total} space cards, {len(where) + hidden} are accounted for")
    last = -1
    for i in range(s.n_space):              # bottom to top: sectors never increase
        if s.space[i] != TG_UNKNOWN:
            if last >= 0 and SPACE_SECTOR[s.space[i]] > last:
                fail("state.space_deck", "Core cards lie on Expanse cards, Expanse on Fringe")
            last = SPACE_SECTOR[s.space[i]]
    if observer >= 0:
        _check_hidden_sectors(s)


cdef _check_hidden_sectors(TgState* s):
    # An observation's hidden deck must be refillable sector by sector from the unseen cards.
    cdef TgState probe
    cdef Rng rng
    memcpy(&probe, s, sizeof(TgState))
    rng_seed(&rng, 1)
    _determinize_space(&probe, &rng)
    if probe.n_space != s.n_space:
        fail("state.space_deck", "its size does not match the cards still unseen")


# ---------------------------------------------------------------- action structs and labels

def _res_text(vec):
    parts = [f"{v} {RESOURCE_NAMES[r]}" for r, v in enumerate(vec) if v]
    return " + ".join(parts) if parts else "nothing"


cdef dict _action_struct(const TgState* k, int a):
    cdef const TgPlayer* pl = &k.players[k.current]
    cdef const TgSystem* sy
    cdef int x, target, slot, card, owner_rel, seat
    if k.phase == PH_FRONTIER:
        card = CARD_FRONTIER[a - A_FRONTIER]
        return {"id": a, "kind": "choose_frontier", "card": CARD_NAMES[card],
                "label": f"choose {CARD_NAMES[card]} for Haven"}
    if k.phase == PH_PAY:
        card = a - A_DISCARD
        why = "to the space pirates" if k.pay_then_draw else f"to pay ({k.pay_left} left)"
        return {"id": a, "kind": "discard", "card": CARD_NAMES[card],
                "label": f"discard {CARD_NAMES[card]} {why}"}
    if a == A_END:
        return {"id": a, "kind": "end_turn", "label": "end the turn"}
    if A_RETRIEVE <= a < A_DRAW_M:
        card = a - A_RETRIEVE
        return {"id": a, "kind": "retrieve", "card": CARD_NAMES[card],
                "label": f"spend 1 science: take {CARD_NAMES[card]} from the discard pile"}
    if a == A_DRAW_M:
        return {"id": a, "kind": "draw", "resource": "manpower", "label": "spend 3 manpower: draw a card"}
    if a == A_DRAW_P:
        return {"id": a, "kind": "draw", "resource": "production", "label": "spend 2 production: draw a card"}
    if A_SOLVE <= a < A_OPPORT:
        card = k.explored[a - A_SOLVE]
        if SPACE_KIND[card] == SK_ANOMALY:
            return {"id": a, "kind": "study_anomaly", "card": SPACE_NAMES[card], "position": a - A_SOLVE,
                    "label": f"study {SPACE_NAMES[card]} for {ANOM_SCIENCE[card]} science "
                             f"(+{SPACE_RENOWN[card]} renown)"}
        return {"id": a, "kind": "solve_event", "card": SPACE_NAMES[card], "position": a - A_SOLVE,
                "label": f"solve {SPACE_NAMES[card]} for {_res_text(list(EVENT_SOLVE[card][:3]))} "
                         f"(+{SPACE_RENOWN[card]} renown)"}
    if A_OPPORT <= a < A_SELL:
        card = k.explored[a - A_OPPORT]
        return {"id": a, "kind": "opportunity", "card": SPACE_NAMES[card], "position": a - A_OPPORT,
                "label": f"use the opportunity {SPACE_NAMES[card]}"}
    if A_SELL <= a < A_RELINQ:
        card = pl.ships[a - A_SELL]
        return {"id": a, "kind": "sell_ship", "ship": a - A_SELL, "card": CARD_NAMES[card],
                "label": f"exchange {CARD_NAMES[card]} (ship {a - A_SELL + 1}) at The Next Step for "
                         f"{NEXT_RP} renown"}
    if A_RELINQ <= a < A_USE_SHIP:
        card = pl.systems[a - A_RELINQ].card
        return {"id": a, "kind": "relinquish", "system": a - A_RELINQ, "card": SPACE_NAMES[card],
                "label": f"relinquish {SPACE_NAMES[card]}"}
    if A_USE_SHIP <= a < A_USE_COLONY:
        x = a - A_USE_SHIP
        owner_rel = x // TG_MAX_SHIPS
        seat = _owner(k, owner_rel)
        card = k.players[seat].ships[x % TG_MAX_SHIPS]
        return {"id": a, "kind": "use_ship", "owner": seat, "ship": x % TG_MAX_SHIPS,
                "card": CARD_NAMES[card],
                "label": f"use {_whose(owner_rel)}{CARD_NAMES[card]} (ship {x % TG_MAX_SHIPS + 1}): "
                         f"{_effect_text(card)}"}
    if A_USE_COLONY <= a < A_BOUNTY:
        x = a - A_USE_COLONY
        owner_rel = x // 16
        seat = _owner(k, owner_rel)
        sy = &k.players[seat].systems[(x % 16) // 4]
        slot = x % 4
        card = sy.stack[slot][sy.depth[slot] - 1]
        return {"id": a, "kind": "use_colony", "owner": seat, "system": (x % 16) // 4, "slot": slot,
                "card": CARD_NAMES[card],
                "label": f"use {_whose(owner_rel)}{CARD_NAMES[card]} on {SPACE_NAMES[sy.card]} "
                         f"slot {slot + 1}: "
                         f"{_effect_text(card)}"}
    if A_BOUNTY <= a < A_BUILD_SHIP:
        x = a - A_BOUNTY
        owner_rel = x // 16
        seat = _owner(k, owner_rel)
        sy = &k.players[seat].systems[(x % 16) // 4]
        return {"id": a, "kind": "take_bounty", "owner": seat, "system": (x % 16) // 4,
                "resource": RESOURCE_NAMES[x % 4],
                "label": f"take 1 {RESOURCE_NAMES[x % 4]} from {_whose(owner_rel)}{SPACE_NAMES[sy.card]}"}
    if A_BUILD_SHIP <= a < A_UPGRADE:
        card = a - A_BUILD_SHIP
        cost = _build_cost(card, _effects(k))
        return {"id": a, "kind": "build_ship", "card": CARD_NAMES[card], "discard": cost,
                "label": f"build {CARD_NAMES[card]}, discarding {cost}"}
    if A_UPGRADE <= a < A_BUILD:
        x = a - A_UPGRADE
        sy = &pl.systems[x // (4 * TG_TYPES)]
        slot = (x // TG_TYPES) % 4
        card = x % TG_TYPES
        old = sy.stack[slot][sy.depth[slot] - 1]
        cost = _upgrade_cost(old, card, _effects(k))
        return {"id": a, "kind": "upgrade", "system": x // (4 * TG_TYPES), "slot": slot,
                "card": CARD_NAMES[card],
                "discard": cost,
                "label": f"upgrade {CARD_NAMES[old]} on {SPACE_NAMES[sy.card]} slot {slot + 1} to "
                         f"{CARD_NAMES[card]}, discarding {cost}"}
    x = a - A_BUILD
    target = x // (4 * TG_TYPES)
    slot = (x // TG_TYPES) % 4
    card = x % TG_TYPES
    cost = _build_cost(card, _effects(k))
    if target < TG_MAX_SYSTEMS:
        return {"id": a, "kind": "build", "system": target, "slot": slot, "card": CARD_NAMES[card],
                "discard": cost,
                "label": f"build {CARD_NAMES[card]} on {SPACE_NAMES[pl.systems[target].card]} "
                         f"slot {slot + 1}, "
                         f"discarding {cost}"}
    space_card = k.explored[target - TG_MAX_SYSTEMS]
    hz = _hazards(k, space_card, _effects(k))
    hz_text = f", paying {hz} {RESOURCE_NAMES[HAZARD_RESOURCE]} for hazards" if hz else ""
    return {"id": a, "kind": "claim", "position": target - TG_MAX_SYSTEMS,
            "system_card": SPACE_NAMES[space_card],
            "slot": slot, "card": CARD_NAMES[card], "discard": cost, "hazards": hz,
            "label": f"claim {SPACE_NAMES[space_card]}: build {CARD_NAMES[card]} on slot {slot + 1}, "
                     f"discarding {cost}{hz_text}"}


def _whose(int owner_rel):
    return "your mate's " if owner_rel else ""


def _effect_text(int card):
    vin = [CARD_IN[card][r] for r in range(TG_RES)]
    vout = [CARD_OUT[card][r] for r in range(4)]
    text = _res_text(vout)
    if CARD_OUT_RENOWN[card]:
        gain = f"{CARD_OUT_RENOWN[card]} renown"
        text = gain if text == "nothing" else f"{text} + {gain}"
    return f"{_res_text(vin)} -> {text}" if any(vin) else f"+ {text}"


# ---------------------------------------------------------------- render

cdef str _render(const TgState* k, str variant, int viewer):
    cdef int n = k.params.num_players, p, i
    lines = []
    head = f"Take The Galaxy ({n} player{'s' if n > 1 else ''}, {variant})"
    if k.phase == PH_OVER:
        head += " - game over"
    elif k.phase == PH_FRONTIER:
        head += f" - set-up: seat {k.current} chooses a frontier colony"
    else:
        head += f" - turn {k.turn}, seat {k.current} to play ({PHASE_NAMES[k.phase]})"
    lines.append(head)
    lines.append(f"space deck: {k.n_space} cards left")
    explored = []
    for j in range(k.n_explored):
        explored.append(_space_card_text(k.explored[j]) + (" [used]" if k.explored_used[j] else ""))
    lines.append("explored space (oldest first): " + ("; ".join(explored) if explored else "empty"))
    if k.phase in (PH_ACTION, PH_PAY):
        pool = ", ".join(f"{k.pool[r]} {RESOURCE_NAMES[r]}" for r in range(TG_RES))
        flags = []
        if k.claimed:
            flags.append("a card was taken this turn")
        if k.relinquished:
            flags.append("a system was relinquished this turn")
        lines.append(f"pool: {pool}" + (f" ({'; '.join(flags)})" if flags else ""))
        if k.phase == PH_PAY:
            why = " (space pirates)" if k.pay_then_draw else ""
            lines.append(f"to discard: {k.pay_left} card(s){why}")
    scores = [_score(k, p) for p in range(n)]
    for p in range(n):
        lines.extend(_render_player(k, p, scores[p], viewer))
    return "\n".join(lines)


def _space_card_text(int card):
    kind = SPACE_KIND[card]
    name = f"{SPACE_NAMES[card]} ({SECTOR_NAMES[SPACE_SECTOR[card]]} {SPACE_KIND_NAMES[kind]}"
    if kind == SK_SYSTEM:
        slots = "".join(SLOT_LETTERS[SYS_SLOT[card][s]] for s in range(SYS_NSLOTS[card]))
        extra = f", slots {slots}, hazards {SYS_HAZARDS[card]}"
        bounty = _res_text([SYS_BOUNTY[card][r] for r in range(4)])
        if bounty != "nothing":
            extra += f", bounty {bounty}"
        return f"{name}{extra}, renown {SPACE_RENOWN[card]})"
    if kind == SK_ANOMALY:
        return f"{name}, {ANOM_SCIENCE[card]} science, renown {SPACE_RENOWN[card]})"
    return f"{name}, solve {_res_text(list(EVENT_SOLVE[card][:3]))}, renown {SPACE_RENOWN[card]})"


cdef list _render_player(const TgState* k, int p, int score, int viewer):
    cdef const TgPlayer* pl = &k.players[p]
    cdef const TgSystem* sy
    cdef int i, slot
    marker = "*" if k.phase != PH_OVER and k.current == p else " "
    team = ""
    if k.params.variant == V_TEAM:
        team = f" (team {'A' if p % 2 == 0 else 'B'})"
    out = [f"{marker} seat {p}{team}: renown {score} (tokens {pl.tokens}), hand {pl.hand_size}, "
           f"deck {pl.n_draw}, discard {pl.n_discard}"]
    if pl.hand[0] != TG_UNKNOWN:
        hand = ", ".join(f"{pl.hand[t]}x {CARD_NAMES[t]}" if pl.hand[t] > 1 else CARD_NAMES[t]
                         for t in range(N_TYPES) if pl.hand[t])
        out.append(f"    hand: {hand or 'empty'}")
    for i in range(pl.n_systems):
        sy = &pl.systems[i]
        cells = []
        for slot in range(SYS_NSLOTS[sy.card]):
            letter = SLOT_LETTERS[SYS_SLOT[sy.card][slot]]
            if sy.depth[slot] == 0:
                cells.append(f"{slot + 1}:{letter} empty")
            else:
                top = CARD_NAMES[sy.stack[slot][sy.depth[slot] - 1]]
                under = f" over {sy.depth[slot] - 1}" if sy.depth[slot] > 1 else ""
                cells.append(f"{slot + 1}:{letter} {top}{under}{' (used)' if sy.used[slot] else ''}")
        bounty = _res_text([sy.bounty[r] for r in range(4)])
        extra = f", bounty {bounty}" if bounty != "nothing" else ""
        out.append(f"    system {i + 1} {SPACE_NAMES[sy.card]} (renown {SPACE_RENOWN[sy.card]}{extra}): "
                   + "; ".join(cells))
    if pl.n_ships:
        ships = [CARD_NAMES[pl.ships[i]] + (" (used)" if pl.ship_used[i] else "") for i in range(pl.n_ships)]
        out.append("    ships: " + ", ".join(ships))
    if pl.n_renown:
        pile = [SPACE_NAMES[pl.renown_pile[i]] for i in range(pl.n_renown)]
        out.append("    renown pile: " + ", ".join(pile))
    return out
