# Included by engine.pyx: whole-state consistency checks after loading: every player's 31 cards accounted
# for, every space card in one place and the set the set-up allows, slot stacks legal upgrades, the phase
# and its pending decision consistent, an observation's hidden deck refillable.

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
    _check_payment(s)
    _check_turn_facts(s)
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
        if s.turn != 0:
            fail("state.turn", "no turn begins before the set-up is over")
        if s.turn_steps != 0:
            fail("state.turn_steps", "no choice of a turn is made before the set-up is over")
        if s.n_explored != n or s.n_space_discard != 0:
            fail("state.explored", f"the set-up turns over {n} cards, one per seat, and discards none")
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


# Derived values and pending decisions (issue 26): what the rules make of the turn so far is compared
# with the recomputation, and every pending decision must be one that play could have produced here.

cdef int _turn_done(const TgState* s) except -1:
    # A lower bound on the choices made this turn: each once-per-turn flag of the seat to move (its own
    # cards are reset at the start of its turn), each used opportunity, the claim, the relinquish and
    # the build a payment is pending for (the same choice as the claim when the build claimed a system).
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int i, k, done = 0
    for i in range(pl.n_systems):
        for k in range(TG_SLOTS):
            done += pl.systems[i].used[k]
    for i in range(pl.n_ships):
        done += pl.ship_used[i]
    for i in range(s.n_explored):
        done += s.explored_used[i]
    done += s.relinquished
    if s.claimed or (s.phase == PH_PAY and not s.pay_then_draw):
        done += 1
    return done


cdef _check_turn_facts(TgState* s):
    cdef int n = s.params.num_players, p, i, k, turns
    cdef TgPlayer* pl
    # Each turn reveals one space card after the set-up's one per seat, and the seats take turns in
    # order from seat 0: the turn number and the seat to move follow from the space deck's size.
    turns = sum(SETUP_COUNT[n][sec][kind] for sec in range(3) for kind in range(3)) - n - s.n_space
    if s.phase == PH_FRONTIER:
        if turns != 0:
            fail("state.space_deck", f"the set-up leaves {s.n_space + turns} cards in the space deck")
    elif s.turn != turns:
        fail("state.turn", f"{turns} turns have begun (one space card revealed each), not {s.turn}")
    elif s.phase != PH_OVER and s.current != (turns - 1) % n:
        fail("state.current", f"seat {(turns - 1) % n} moves in turn {turns}, not seat {s.current}")
    # The pool, the claim and the relinquish are what this turn's choices made; before the first choice
    # of a turn (and after the end phase emptied it) there is none.
    fresh = s.phase == PH_FRONTIER or (s.phase == PH_PAY and s.pay_then_draw) or \
        (s.phase == PH_ACTION and s.turn_steps == 0)
    if (fresh or s.phase == PH_OVER) and any(s.pool[r] for r in range(TG_RES)):
        fail("state.pool", "the pool holds only what this turn's choices made" if fresh
             else "the end phase empties the pool")
    if fresh and s.claimed:
        fail("state.claimed_this_turn", "no card was taken before the turn's first choice")
    if fresh and s.relinquished:
        fail("state.relinquished_this_turn", "no system was relinquished before the turn's first choice")
    if s.phase == PH_FRONTIER:
        for p in range(n):
            pl = &s.players[p]
            if any(pl.systems[i].used[k] for i in range(pl.n_systems) for k in range(TG_SLOTS)):
                fail(f"state.players[{p}].systems", "no colony is used before the first turn")
        if any(s.explored_used[j] for j in range(s.n_explored)):
            fail("state.explored", "no opportunity is used before the first turn")
        for p in range(n):
            pl = &s.players[p]
            w = f"state.players[{p}]"
            if pl.n_systems != 1 or pl.n_renown or pl.n_sold or pl.tokens:
                fail(w, "the set-up gives the starting system only, no renown")
            if pl.n_ships or pl.n_discard:
                fail(w + (".ships" if pl.n_ships else ".discard"), "nothing but the frontier colony leaves "
                     "the hand before the first turn")
            if pl.hand[0] != TG_UNKNOWN:
                for i in range(N_TYPES):
                    chosen = pl.frontier != 0 and i == CARD_FRONTIER[pl.frontier - 1]
                    if pl.hand[i] != CARD_SETUP[i] - chosen:
                        fail(f"{w}.hand", "the set-up hand, less the frontier colony chosen")
    if s.phase == PH_ACTION or (s.phase == PH_PAY and not s.pay_then_draw):
        if _turn_done(s) > s.turn_steps:
            fail("state.turn_steps", f"{s.turn_steps} choices this turn, but its used cards, claim, "
                 f"relinquish and build took {_turn_done(s)}")
        for i in range(s.n_explored):
            if s.explored_used[i] and EVENT_EFFECT[s.explored[i]] == EF_NEXT and \
                    not s.players[s.current].n_sold:
                fail(f"state.explored[{i}].used", "The Next Step is used only by selling a ship")
        if s.relinquished:
            pl = &s.players[s.current]
            if not any(pl.renown_pile[i] == TG_HAVEN or SPACE_KIND[pl.renown_pile[i]] == SK_SYSTEM
                       for i in range(pl.n_renown)):
                fail("state.relinquished_this_turn", "no system is in the renown pile of the seat to move")


cdef _check_payment(TgState* s):
    # A payment is pending only right after something asked for it: the Space Pirates' one card at the
    # start of a turn, or the cost of the colony or ship just built, which is still unused on the table.
    cdef const TgPlayer* pl = &s.players[s.current]
    cdef int effects = _effects(s), i, k, most = 0
    if s.phase != PH_PAY:
        return
    if s.pay_then_draw:
        if not effects & EF_PIRATES:
            fail("state.payment.reason", "Space Pirates are not in explored space")
        if s.turn_steps != 0:
            fail("state.payment.reason", "Space Pirates take their card before the turn's first choice")
        if s.pay_left != 1:
            fail("state.payment.cards_left", "Space Pirates take one card")
        return
    if s.turn_steps == 0:
        fail("state.payment.reason", "nothing was built before the turn's first choice")
    for i in range(pl.n_ships):
        if not pl.ship_used[i]:
            most = max(most, _build_cost(pl.ships[i], effects))
    for i in range(pl.n_systems):
        for k in range(SYS_NSLOTS[pl.systems[i].card]):
            if pl.systems[i].depth[k] and not pl.systems[i].used[k]:
                most = max(most, _build_cost(pl.systems[i].stack[k][pl.systems[i].depth[k] - 1], effects))
    if s.pay_left > most:
        fail("state.payment.cards_left", f"{s.pay_left} cards, but no unused colony or ship of the seat to "
             f"move costs more than {most}")
