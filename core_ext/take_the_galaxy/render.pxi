# Included by engine.pyx: the text picture of a state or an observation (Game.render).

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
