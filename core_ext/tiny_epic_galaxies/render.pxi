# Included by engine.pyx: the text picture of a state (Game._render).


cdef str _render_state(const TegState* s):
    cdef const TegGalaxy* gal
    cdef int g, k, i, p
    lines = [f"Tiny Epic Galaxies, round {s.round}" + (" (over)" if s.over else "") +
             (f", end triggered by {_galaxy_name(s, s.trigger)}" if s.trigger >= 0 else "")]
    for i in range(s.row_size):
        p = s.row[i]
        if p == TEG_NONE:
            lines.append(f"  row {i}: (empty)")
            continue
        here = []
        for g in range(s.n_gal):
            for k in range(TEG_SHIPS):
                if s.gal[g].ship_at[k] == p:
                    who = "R" if s.solo and g == ROGUE else str(g)
                    spot = f"t{s.gal[g].ship_space[k]}" if s.gal[g].ship_orbit[k] else "land"
                    here.append(f"{who}:{spot}")
        res = ("energy", "culture", "energy+culture")[P_RES[p]]
        lines.append(f"  row {i}: {PLANET_NAMES[p]} ({res}, {FACE_NAMES[P_TRACK[p]]} "
                     f"track 1..{P_N[p]}, {P_VP[p]} VP) ships {' '.join(here) or '-'}")
    for g in range(s.n_gal):
        gal = &s.gal[g]
        name = "Rogue" if s.solo and g == ROGUE else f"seat {g}"
        marker = "*" if not s.over and teg_current_player(s) == g and not (s.solo and g == ROGUE) else " "
        cols = ", ".join(PLANET_NAMES[p] for p in range(N_PLANETS) if s.where[p] == W_COLONY + g) or "-"
        mission = "" if s.solo and g == ROGUE else f", mission {_mission_json(gal.mission)}"
        lines.append(f"{marker} {name}: {_points(s, g)} VP, energy {gal.energy}, culture {gal.culture}, "
                     f"empire {gal.empire}{mission}; colonies {cols}")
        lines.append("      ships: " + "; ".join(_ship_where(s, g, k) for k in range(TEG_SHIPS)))
        if s.btb.on:
            lines.extend(_render_btb_galaxy(s, g))
    if s.btb.on:
        lines[1:1] = _render_btb_table(s)
    if s.depth:
        lines.append(f"dice: inactive {_counts_dict(s.pool) or '-'}, activated {_counts_dict(s.bay) or '-'}"
                     + (f", hiring {_counts_dict(s.hire_bay)}" if _counts_dict(s.hire_bay) else ""))
        lines.append("pending: " + " > ".join(TASK_NAMES[s.stack[i].kind] for i in range(s.depth)))
    return "\n".join(lines)


cdef list _render_btb_table(const TegState* s):
    pilots = ", ".join("-" if s.btb.pilot_row[i] == TEG_NONE else PILOT_NAMES[s.btb.pilot_row[i]]
                       for i in range(s.btb.pilot_row_size))
    face_up = ", ".join(f"{CARD_NAMES[s.btb.xrow[i]]} [{BADGE_NAMES[X_BADGE[s.btb.xrow[i]]]}]"
                        for i in range(TEG_XROW) if s.btb.xrow[i] != TEG_NONE) or "-"
    lines = [f"  pilots for hire: {pilots}",
             f"  exploration: {_deck_left(s)} in the deck; face up: {face_up}"]
    if s.btb.rogue_level:
        level = s.btb.rogue_level
        lines.append(f"  Rogue galaxy: {ROGUE_GALAXY_NAMES[level - 1]} (level {level})")
    return lines


cdef list _render_btb_galaxy(const TegState* s, int g):
    cdef const TegGalaxy* gal = &s.gal[g]
    cdef int t, k
    parts = []
    for t in range(TEG_ADV):
        if gal.pilot[t] != TEG_NONE:
            ship = [k for k in range(TEG_SHIPS) if gal.adv[k] == t]
            where = ship[0] if ship else "-"
            parts.append(f"{SHIP_KIND_NAMES[t]}={PILOT_NAMES[gal.pilot[t]]} (ship {where})")
    badges = " ".join(f"{BADGE_NAMES[b]} {_badges(s, g, b)}" for b in range(TEG_BADGES))
    hidden = _hidden_total(s, g, 0)
    lines = [f"      hangar: {'; '.join(parts) or '-'}; pilots hired {_pilots_hired(s, g)}",
             f"      exploration cards {_cards_taken(s, g, 0)}" +
             (f" ({hidden} face down)" if hidden else "") +
             f", dwarf planets {_cards_taken(s, g, 1)}; badges: {badges}"]
    return lines
