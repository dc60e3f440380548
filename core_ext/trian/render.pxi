# Included by engine.pyx: the text picture of a position (TrianGame._render).

MODE_NAMES = {M_PH1: "phase 1 (extraction)", M_DRAW: "phase 2 (draw)", M_PLACE: "phase 2 (place)",
              M_PH3: "phase 3 (exploration)", M_TAKEBACK: "events (take emissaries back)",
              M_DECLARE: "emissary battle (declare tokens)", M_REROLL: "emissary battle (rerolls)",
              M_END: "game over", M_SHIP_TARGET: "ship battle (the attacker picks a ship)",
              M_RACE: "racial skill (a decision)",
              M_SEND_HOME: "emissary battle (choose the emissary that goes home)"}

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
    if s.mode == M_END:  # nobody is to play any more
        lines.append(f"turn {s.turn}, game over")
    else:
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
                     f", score {_score(pl)}")
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
        lines.append("final scores: " + ", ".join(f"seat {p}: {_score(&s.players[p])}" for p in range(n)))
    return "\n".join(lines)
