# Included by engine.pyx: action structs and labels (what TrianGame._action_struct returns for an id), and
# ACTION_BLOCKS, the action-id table built from the core's own constants (docs/rules/trian.md, section 10).
# Ids are decoded with actions.pxi's helpers; racial actions (A_RACE and above) by races.pxi.

# ---------------------------------------------------------------- the action-id table

# (first id, end id, kind) per block of ids, ascending; an id in no block names no action. Built from the
# constants the rules use, so this is the one table: describe_action's id-only kinds read it
# (_action_kinds.py); the registration's action_description and docs/rules/trian.md (sections 10 and
# 14.6) are checked against it (tests/test_trian_actions.py). Two blocks run up to the next one although
# their last ids are never legal: gain_mineral (46 + nebula * 4 + colour for TR_NEBULAS nebulas ends at
# 238) and unlock (3 modules * 2 sides end at 40006).
ACTION_BLOCKS = (
    (A_END_PH1, A_END_PH1 + 1, "end_phase1"),
    (A_BUY_MINERAL, A_BUY_MINERAL + TR_COLORS, "buy_mineral"),
    (A_BUY_TOKEN, A_BUY_TOKEN + 1, "buy_token"),
    (A_EXCHANGE, A_EXCHANGE + N_PAIRS * 4, "exchange"),
    (A_GAIN, A_DRAW, "gain_mineral"),
    (A_DRAW, A_DRAW + 2, "draw"),
    (A_DISCARD, A_DISCARD + 1, "discard"),
    (A_PASS, A_PASS + 1, "pass"),
    (A_EVENTS_FIRST, A_EVENTS_FIRST + 1, "events_first"),
    (A_RESEARCH, A_RESEARCH + 1, "research"),
    (A_EXPEDITION, A_EXPEDITION + 1, "expedition"),
    (A_CONSTRUCT, A_CONSTRUCT + TR_TILES, "construct"),
    (A_TELEPORT, A_TELEPORT + 3 * TR_TILES, "teleport"),
    (A_TAKEBACK, A_TAKEBACK + 1, "take_back_done"),
    (A_DECLARE, A_DECLARE + 16, "declare"),
    (A_REROLL, A_REROLL + 1, "reroll"),
    (A_STAND, A_STAND + 1, "stand"),
    (A_SHIP_EXPED, A_SHIP_EXPED + 2, "ship_expedition"),
    (A_SHIP_TARGET, A_SHIP_TARGET + TR_TILES, "ship_target"),
    (A_SEND_HOME, A_SEND_HOME + TR_TILES, "send_home"),
    (A_TAKEBACK_TILE, A_TAKEBACK_TILE + TR_TILES, "take_back"),
    (A_PLACE, A_PLACE + TR_FRONT * 6, "place"),
    (A_ROGUE, A_ROGUE + TR_TILES * 4, "rogue_mine"),
    (A_SHIP_MOVE, A_SHIP_MOVE + TR_TILES * TR_TILES, "ship_move"),
    (A_SHIP_TELE, A_SHIP_TELE + TR_TILES * TR_TILES, "ship_teleport"),
    (A_UNLOCK, A_MINERAL_SET, "unlock"),
    (A_MINERAL_SET, A_MINERAL_SET + 1, "mineral_set"),
    *((A_RACE + r * RACE_BLOCK, A_RACE + (r + 1) * RACE_BLOCK,
       f"racial action ({RACE_NAMES[r].capitalize()})") for r in range(N_RACES)),
)

# Per variant that stops below GameOps.num_distinct_actions (the end of the last block): the end of its ids.
# The beginner game has no ship ids (618 and above besides placing), the ships variant no skill or racial
# ids (40000 and above). Game.num_distinct_actions reads it (tests/test_trian_actions.py).
VARIANT_ACTION_RANGE = {"beginner": A_PLACE + TR_FRONT * 6, "ships": A_SHIP_TELE + TR_TILES * TR_TILES}


# ---------------------------------------------------------------- action structs and labels

def _face_label(int f):
    return FACE_NAMES[f] if f < N_FACES else "?"


cdef dict _describe(const TrianState* s, int a):
    cdef int k, c, fi, side, rot, d, i, j, src
    me = trian_current_player(s)
    if a == A_END_PH1:
        return {"id": a, "kind": "end_phase1", "label": "end phase 1"}
    if _in_block(a, A_BUY_MINERAL, TR_COLORS):
        c = a - A_BUY_MINERAL
        return {"id": a, "kind": "buy_mineral", "color": COLOR_NAMES[c],
                "label": f"buy a {COLOR_NAMES[c]} mineral ({PRICE_MINERAL - _discount(s, me)} credits)"}
    if a == A_BUY_TOKEN:
        return {"id": a, "kind": "buy_token",
                "label": f"buy a combat token ({PRICE_TOKEN - _discount(s, me)} credits)"}
    if _in_block(a, A_EXCHANGE, N_PAIRS * 4):
        _decode_colour_action(a, A_EXCHANGE, &k, &c)
        give = [COLOR_NAMES[PAIR_A[k]], COLOR_NAMES[PAIR_B[k]]]
        return {"id": a, "kind": "exchange", "give": give, "take": COLOR_NAMES[c],
                "label": f"exchange {give[0]} + {give[1]} for {COLOR_NAMES[c]}"}
    if _in_block(a, A_GAIN, TR_NEBULAS * 4):
        _decode_colour_action(a, A_GAIN, &k, &c)
        return {"id": a, "kind": "gain_mineral", "nebula": k, "color": COLOR_NAMES[c],
                "label": f"gain a {COLOR_NAMES[c]} mineral from nebula #{k}"}
    if _in_block(a, A_DRAW, 2):
        k = a - A_DRAW
        return {"id": a, "kind": "draw", "stack": k,
                "label": f"draw from stack {k} ({_face_label(s.stack_top_face[k])} face up)"}
    if a == A_DISCARD:
        return {"id": a, "kind": "discard", "label": "set aside the tile (it fits nowhere)"}
    if _in_block(a, A_PLACE, TR_FRONT * 6):
        _decode_place(a, &fi, &side, &rot)
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
    if _in_block(a, A_CONSTRUCT, TR_TILES):
        i = a - A_CONSTRUCT
        what = "research station" if s.placed[i].station == 0 else "space station"
        return dict(_cell(s, i), id=a, kind="construct", station=what.split()[0],
                    label=f"construct a {what} at ({s.placed[i].x}, {s.placed[i].y})")
    if _in_block(a, A_TELEPORT, 3 * TR_TILES):
        _decode_tile_pair(a, A_TELEPORT, &d, &j)
        src = _nb_placed(s, s.new_tile, d) if s.new_tile != TR_UNKNOWN else -1
        fx, fy = (s.placed[src].x, s.placed[src].y) if src >= 0 else (None, None)
        return {"id": a, "kind": "teleport", "from": {"x": fx, "y": fy}, "to": _cell(s, j),
                "label": f"teleport the emissary at ({fx}, {fy}) to ({s.placed[j].x}, {s.placed[j].y})"}
    if a == A_TAKEBACK:
        return {"id": a, "kind": "take_back_done", "label": "keep the other emissaries in the closed area"}
    if _in_block(a, A_TAKEBACK_TILE, TR_TILES):
        j = a - A_TAKEBACK_TILE
        return dict(_cell(s, j), id=a, kind="take_back",
                    label=f"take the emissary at ({s.placed[j].x}, {s.placed[j].y}) back")
    if _in_block(a, A_DECLARE, 16):
        _decode_declare(a, &k, &c)
        return {"id": a, "kind": "declare", "plus": k, "rerolls": c,
                "label": f"declare {k} +1 and {c} reroll tokens"}
    if a == A_REROLL:
        return {"id": a, "kind": "reroll", "label": f"reroll the die (showing {s.battle_roll[me]})"}
    if a == A_STAND:
        return {"id": a, "kind": "stand", "label": f"keep the die at {s.battle_roll[me]}"}
    if _in_block(a, A_SHIP_EXPED, 2):
        i = s.new_tile
        kind = SHIP_NAMES[a - A_SHIP_EXPED + 1]
        return dict(_cell(s, i), id=a, kind="ship_expedition", ship=kind,
                    label=f"expedition: {kind} to ({s.placed[i].x}, {s.placed[i].y})")
    if _in_block(a, A_SEND_HOME, TR_TILES):
        j = a - A_SEND_HOME
        unit = UNIT_IDS[s.placed[j].unit].replace("_", " ")
        return dict(_cell(s, j), id=a, kind="send_home", seat=s.placed[j].emissary,
                    label=f"send seat {s.placed[j].emissary}'s {unit} at "
                          f"({s.placed[j].x}, {s.placed[j].y}) home")
    if _in_block(a, A_SHIP_TARGET, TR_TILES):
        j = a - A_SHIP_TARGET
        return dict(_cell(s, j), id=a, kind="ship_target", seat=s.placed[j].ship_owner,
                    label=f"clash with seat {s.placed[j].ship_owner}'s {SHIP_NAMES[s.placed[j].ship_kind]} "
                          f"at ({s.placed[j].x}, {s.placed[j].y})")
    if _in_block(a, A_ROGUE, TR_TILES * 4):
        _decode_colour_action(a, A_ROGUE, &i, &c)
        return dict(_cell(s, i), id=a, kind="rogue_mine", color=COLOR_NAMES[c],
                    label=f"mine a {COLOR_NAMES[c]} mineral with the Rogue at "
                          f"({s.placed[i].x}, {s.placed[i].y})")
    if _in_block(a, A_UNLOCK, 6):
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
    if _in_block(a, A_SHIP_MOVE, TR_TILES * TR_TILES) or _in_block(a, A_SHIP_TELE, TR_TILES * TR_TILES):
        tele = a >= A_SHIP_TELE
        _decode_tile_pair(a, A_SHIP_TELE if tele else A_SHIP_MOVE, &i, &j)
        verb = "teleport" if tele else "move"
        return {"id": a, "kind": "ship_teleport" if tele else "ship_move", "from": _cell(s, i),
                "to": _cell(s, j),
                "label": f"{verb} the {SHIP_NAMES[s.placed[i].ship_kind]} at "
                         f"({s.placed[i].x}, {s.placed[i].y}) "
                         f"to ({s.placed[j].x}, {s.placed[j].y})"}
    return {"id": a, "kind": "unknown", "label": f"action {a}"}


SHIP_NAMES = ("none", "Corvette", "Rogue", "Supreme Priestess")


# ---------------------------------------------------------------- labels for other viewers

# What another seat or a spectator reads of a move (TrianGame._move_label, issue 26): the mover's label,
# built from the viewer's own observation `v` of the position before the move, except for the three
# kinds whose mover's label names something that observation hides (docs/rules/trian.md, section 9 and
# "What other seats and spectators read of a move"): which side of the tile in hand is placed (the hand's
# tile and its sides), the types of the tokens declared in a clash, and the type of a combat token sold
# with Priceless technology. Those name only what the id and the public fields fix: the cell, the
# rotation and the face the tile showed on the stack; how many tokens are declared; that a token is sold.

cdef str _viewer_label(const TrianState* v, int mover, int a):
    cdef int fi, side, rot, k, c
    if _in_block(a, A_PLACE, TR_FRONT * 6):
        _decode_place(a, &fi, &side, &rot)
        return (f"place the drawn tile ({_face_label(v.drawn_face)} up on the stack) at "
                f"({v.front_x[fi]}, {v.front_y[fi]}) rotation {rot}")
    if _in_block(a, A_DECLARE, 16):
        _decode_declare(a, &k, &c)
        return "declare " + _token_count(k + c)
    if a == A_RACE + R_QELLIA * RACE_BLOCK + QE_SELL or a == A_RACE + R_QELLIA * RACE_BLOCK + QE_SELL + 1:
        return "Priceless technology: sell a combat token for 2 credits"
    if trian_current_player(v) != mover:
        return f"action {a}"          # not a view of the mover's turn: nothing to describe it from
    return _describe(v, a)["label"]


def _token_count(int n):
    return "no combat tokens" if n == 0 else ("1 combat token" if n == 1 else f"{n} combat tokens")
