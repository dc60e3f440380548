# Included by engine.pyx: the JSON dump (struct -> payload), facts only: cards by name and where they
# lie, counters, the pending payment (docs/rules/take_the_galaxy.md, section 9; state.schema.json).

PAYLOAD_VERSION = "take_the_galaxy/1"
PHASE_NAMES = {PH_FRONTIER: "frontier", PH_ACTION: "action", PH_PAY: "payment", PH_OVER: "over"}
PHASE_IDS = {v: k for k, v in PHASE_NAMES.items()}
SLOT_LETTERS = ("B", "D")


cdef dict _dump_state(const TgState* k, int observer):
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
    if observer < 0:
        out["shuffle_streams"] = [[k.shuffle[p].s[i] for i in range(4)]
                                  for p in range(k.params.num_players)]
    return out


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
