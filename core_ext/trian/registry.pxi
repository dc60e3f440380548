# Included by engine.pyx: the Game subclass with its hooks, make_game, the test-only hooks and the
# GameInfo registration.

cdef class TrianGame(Game):

    def _catalogue_revision(self):
        return f"{CATALOGUE['format']}@{CATALOGUE['revision']}"

    def __cinit__(self, int players, str variant):
        self.ops = &TRIAN_OPS
        self.params.num_players = players
        if variant not in VARIANT_IDS:
            raise ValueError(f"unknown Trian variant {variant!r}")
        self.params.variant = VARIANT_IDS[variant]
        self.params.options = 0
        self.name = "trian"
        self.variant = variant
        self.num_players = players

    def _format_version(self):
        return TRIAN_FORMAT_VERSION

    def _dump_payload(self, Position pos):
        # a full state carries the stacks and the streams; no observation does, the spectator's (observer
        # PUBLIC_VIEWER, -1 like a full state's) included
        return _dump(_cst(pos.ptr), not isinstance(pos, Observation))

    def _load_payload(self, Position pos, dict payload):
        cdef TrianState tmp
        cdef int observer = pos.observer
        memset(&tmp, 0, sizeof(TrianState))
        tmp.params = self.params
        _load(payload, &tmp, observer)
        err = _check_state(&tmp, observer)
        if err is None and observer >= 0:
            err = _check_observation(&tmp, observer)
        if err is not None:
            raise StateFormatError(f"inconsistent Trian state: {err}")
        memcpy(pos.ptr, &tmp, sizeof(TrianState))

    def _payload_from_v1(self, dict payload):
        from orrery.core_ext.trian.format_v1 import payload_from_v1

        return self._payload_from_older(2, payload_from_v1(payload, self.num_players))

    def _payload_from_older(self, int version, dict payload):
        # 2 -> 3 added only the send_home decision, which no version-2 state can be waiting for
        if version != 2:
            raise StateFormatError(f"orrery.trian.state/{version} cannot be upgraded; this server reads "
                                   f"orrery.trian.state/2 and /3")
        for key in ("send_home", "take_back"):
            if key in payload:
                raise StateFormatError(f"field 'state.{key}' is new in orrery.trian.state/3")
        return dict(payload, send_home=None, take_back=None)

    def _action_struct(self, Position pos, int action):
        return _describe(_cst(pos.ptr), action)

    def _move_label(self, Position view, int mover, int action):
        # another seat's or a spectator's label of the mover's move, from `view` alone (describe.pxi)
        return _viewer_label(_cst(view.ptr), mover, action)

    def _render(self, Position pos):
        return _render(_cst(pos.ptr), None if pos.observer < 0 else pos.observer)

    def _score_breakdown(self, Position pos):
        return _score_breakdown(pos)  # scoring.pxi


def make_game(int players, str variant):
    return TrianGame(players, variant)


# ---------------------------------------------------------------- test hooks (scenario tests only)

def _debug_stack_top(State st, int stack, list tiles):
    """Move `tiles` ([(tile id, side up), ...], the last on top) to the top of one stack.

    The other stack tiles keep their order and side; stack sizes stay as they are. Only for building
    scenario positions from a fresh deal: the tiles must still be in the stacks.
    """
    cdef TrianState* s = _st(st.ptr)
    pool = []
    for k in range(2):
        pool += [(s.stack_tile[k][i], s.stack_side_up[k][i]) for i in range(s.stack_len[k])]
    wanted = [t for t, _ in tiles]
    if len(set(wanted)) != len(wanted) or any(t not in [p[0] for p in pool] for t in wanted):
        raise ValueError("every tile must be in a stack, once")
    if len(tiles) > s.stack_len[stack]:
        raise ValueError("more tiles than the stack holds")
    rest = [p for p in pool if p[0] not in wanted]
    lengths = [s.stack_len[0], s.stack_len[1]]
    top_start = lengths[stack] - len(tiles)
    it = iter(rest)
    for k in range(2):
        for i in range(lengths[k]):
            if k == stack and i >= top_start:
                t, up = tiles[i - top_start]
            else:
                t, up = next(it)
            s.stack_tile[k][i] = t
            s.stack_side_up[k][i] = up
    _refresh_tops(s)


def _debug_dice(uint64_t seed, int count):
    """The first `count` dice a dice stream seeded with `seed` rolls."""
    cdef Rng rng
    rng_seed(&rng, seed)
    return [rng_die(&rng, 6) for _ in range(count)]


def _debug_seed_dice(State st, uint64_t seed):
    rng_seed(&_st(st.ptr).rng_dice, seed)


DETERMINIZE_METHODS = {"auto": DET_AUTO, "rejection": DET_BY_REJECTION, "counting": DET_BY_COUNTING,
                       "matching": DET_BY_MATCHING}


def _debug_determinize(Observation o, uint64_t seed, str method="auto"):
    """determinize() with the tile sampler forced to one method ("auto" is determinize() itself);
    returns the full state and the method that drew the tiles (a DETERMINIZE_METHODS key). For the
    statistical tests of each exact sampler and for measuring how often each is needed."""
    cdef State st
    cdef Rng rng
    cdef int how
    if o.game.name != "trian":
        raise ValueError("a Trian observation is needed")
    if method not in DETERMINIZE_METHODS:
        raise ValueError(f"method must be one of {sorted(DETERMINIZE_METHODS)}")
    st = new_state(o.game)
    memcpy(st.ptr, o.ptr, sizeof(TrianState))
    rng_seed(&rng, seed)
    how = _determinize_tiles(_st(st.ptr), &rng, DETERMINIZE_METHODS[method])
    _determinize_rest(_st(st.ptr), &rng)
    return st, next(k for k, v in DETERMINIZE_METHODS.items() if v == how)


def _debug_draw_mineral(State st):
    """Draw one mineral from the bag with the state's own mineral stream: its colour, or -1."""
    return _draw_mineral(_st(st.ptr))


def tiles_with_face(str name):
    """Catalogue ids of the tiles that have a face of this name, with the side it is on."""
    f = FACE_NAMES.index(name)
    return [(t, side) for t in range(TR_TILES) for side in range(2) if TILE_FACE[t][side] == f]


# The action-id table in words, written with the constants ACTION_BLOCKS is built from (describe.pxi);
# tests/test_trian_actions.py checks that it names the first id of every block.
ACTION_DESCRIPTION = (
    f"Phase 1: {A_END_PH1} end phase 1; {A_BUY_MINERAL}-{A_BUY_MINERAL + TR_COLORS - 1} buy a mineral "
    f"(red, blue, green, yellow); {A_BUY_TOKEN} buy a combat token; "
    f"{A_EXCHANGE} + pair*4 + colour exchange two minerals (pairs of colours a<=b in order) for one; "
    f"{A_GAIN} + nebula*4 + colour gain a mineral from a closed nebula. Phase 2: {A_DRAW}/{A_DRAW + 1} draw "
    f"from stack 0/1; {A_PLACE} + frontier*6 + side*3 + rotation place the tile; {A_DISCARD} set aside a "
    f"tile that fits nowhere. Phase 3: {A_PASS} end; {A_EVENTS_FIRST} resolve events first; {A_RESEARCH} "
    f"research; {A_EXPEDITION} expedition; {A_CONSTRUCT} + tile construct; {A_TELEPORT} + side*{TR_TILES} + "
    f"tile teleport. Events: {A_TAKEBACK_TILE} + tile take that emissary back, {A_TAKEBACK} keep the rest; "
    f"{A_DECLARE} + plus*4 + rerolls declare combat tokens; {A_REROLL} reroll; {A_STAND} keep the die; "
    f"{A_SEND_HOME} + tile send the emissary there home after an emissary clash. "
    f"Ships variant: {A_SHIP_EXPED}/{A_SHIP_EXPED + 1} Corvette/Rogue expedition; {A_SHIP_TARGET} + tile "
    f"clash with the ship there; {A_ROGUE} + tile*4 + colour Rogue mining; {A_SHIP_MOVE} + from*{TR_TILES} "
    f"+ to move a ship; {A_SHIP_TELE} + from*{TR_TILES} + to teleport a ship. Full variant: {A_UNLOCK} + "
    f"module*2 + side unlock a skill (side 0 universal, 1 racial); {A_MINERAL_SET} trade a set of 4 "
    f"minerals; {A_RACE} + race*{RACE_BLOCK} + n racial actions (see docs/rules/trian.md). "
    f"action_to_struct gives coordinates and a label for every id."
)

register(
    GameInfo(
        name="trian",
        title=(
            "Galaxy of Trian: New Order (beginner variant; ships variant with Corvettes and Rogues; "
            "full game with ships and race evolution)"
        ),
        module=__name__,
        variants=("beginner", "ships", "full"),
        player_counts=(2, 3, 4),
        action_description=ACTION_DESCRIPTION,
        # Tuned on 2-player Trian (docs/search.md): every leaf scored 48 moves after the searched position.
        default_search="ismcts-trian@1",  # search/_config.py; docs/search.md, "Per-game defaults"
        outcome="ranks",
        hidden_information=(
            "the order and undersides of both tile stacks, the tile in another seat's hand and the hidden "
            "side of tiles others placed, the types of other seats' combat tokens, future bag draws, "
            "token draws and dice"
        ),
        rules_doc="docs/rules/trian.md",
    )
)
