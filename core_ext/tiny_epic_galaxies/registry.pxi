# Included by engine.pyx: the Game subclass with its hooks, make_game, test-only hooks and the
# GameInfo registration.


VARIANTS = ("base", "beyond_the_black") + tuple(f"beyond_the_black_rogue_{i}" for i in range(1, 6))


cdef class TinyEpicGalaxiesGame(Game):

    def _catalogue_revision(self):
        return f"{CATALOGUE['format']}@{CATALOGUE['revision']}"

    def __cinit__(self, int players, str variant):
        self.ops = &TEG_OPS
        self.params.num_players = players
        self.params.variant = VARIANTS.index(variant)
        self.params.options = 0
        self.name = "tiny_epic_galaxies"
        self.variant = variant
        self.num_players = players

    def _dump_payload(self, Position pos):
        # the chance streams belong to a full state only (a spectator's view has observer -1 too)
        return _dump(_cst(pos.ptr), isinstance(pos, State))

    def _load_payload(self, Position pos, dict payload):
        cdef TegState tmp
        cdef int g, k
        teg_init(&tmp, &self.params, 0)
        memset(tmp.where, 0, sizeof(tmp.where))
        memset(tmp.stack, 0, sizeof(tmp.stack))
        tmp.depth = 0
        for g in range(tmp.n_gal):
            memset(&tmp.gal[g], 0, sizeof(TegGalaxy))
        for g in range(TEG_GALAXIES):
            tmp.gal[g].dealt[0] = tmp.gal[g].dealt[1] = tmp.gal[g].mission = TEG_NONE
            for k in range(TEG_SHIPS):
                tmp.gal[g].ship_at[k] = TEG_NONE
        memset(&tmp.rng_dice, 0, sizeof(Rng))
        memset(&tmp.rng_deck, 0, sizeof(Rng))
        memset(&tmp.rng_explore, 0, sizeof(Rng))
        memset(&tmp.rng_pilots, 0, sizeof(Rng))
        _btb_setup_flags(&tmp)
        if tmp.btb.on:
            _btb_clear(&tmp)
        _load(&tmp, payload, pos.observer)
        memcpy(pos.ptr, &tmp, sizeof(TegState))

    def _action_struct(self, Position pos, int action):
        return _describe(_cst(pos.ptr), action)

    def _move_label(self, Position view, int mover, int action):
        # Built from `view` only (another seat's observation or the public one): the id must be one of
        # the mover's legal actions there (legality never depends on what a view hides, docs 13.5), so
        # no table is indexed with a stale task argument; anything else gets the id's kind alone.
        cdef const TegState* v = _cst(view.ptr)
        cdef action_t buf[MAX_ACTIONS]
        cdef int i, n
        if mover != teg_current_player(v) or not 0 <= action < A_LIMIT:
            return Game._move_label(self, view, mover, action)
        n = teg_legal_actions(v, buf)
        for i in range(n):
            if buf[i] == action:
                return _describe_for_other(v, action)
        return Game._move_label(self, view, mover, action)

    def _render(self, Position pos):
        return _render_state(_cst(pos.ptr))

    def _score_breakdown(self, Position pos):
        # Every seat's, then the solo Rogue's (seat -1), from pos's viewer only (scoring.pxi).
        cdef const TegState* s = _cst(pos.ptr)
        return [_score_breakdown(s, g) for g in range(s.n_gal)]


def make_game(int players, str variant):
    return TinyEpicGalaxiesGame(players, variant)


# ---------------------------------------------------------------- test helpers

def _debug_set_dice(State st, list faces):
    """Replace the active player's inactive dice (tests build positions with them)."""
    cdef TegState* s = _st(st.ptr)
    memset(s.pool, 0, sizeof(s.pool))
    for f in faces:
        s.pool[FACE_NAMES.index(f)] += 1


def _debug_seed_dice(State st, uint64_t seed):
    rng_seed(&_st(st.ptr).rng_dice, seed)


from orrery.core_ext._registry import GameInfo, register  # noqa: E402

register(
    GameInfo(
        name="tiny_epic_galaxies",
        title=(
            "Tiny Epic Galaxies (base game and Beyond the Black, 1 to 5 players; solo against the Rogue "
            "galaxy or the five harder Rogue galaxies)"
        ),
        module=__name__,
        variants=VARIANTS,
        player_counts=(1, 2, 3, 4, 5),
        action_description=(
            "0-5 activate a die (move, energy, culture, diplomacy, economy, colony); 6 end turn; 7 reroll "
            "(then 10-15 pick a die of each face to reroll, 9 roll); 8 converter (10-15 two spent dice, the "
            "die to set, its new face); 9 done/decline; 16 follow; 17 use the landed planet; 18 force the "
            "Rogue to reroll; 20-21 keep mission; 24/25 upgrade paying energy/culture; 26/27 the Rogue takes "
            "energy/culture; 30+k amount; 40+g a player; 48+slot a row planet; 56+k own ship; 60+g*4+k an "
            "enemy ship; 80+p a colony (planet id); 128+ship*13+dest move (dest 0 galaxy, 1+2*slot surface, "
            "2+2*slot orbit). Beyond the Black: 180+k explore with ship k; 184+slot hire a pilot, 190+t the "
            "advanced ship (Aurora, Intrepid, Ambition, Nexus), 10-15 the dice, 56+k the ship it replaces; "
            "194+k pay for / 198+k ship action on a danger track; 202+i take face-up card i, 205 reveal, 206 "
            "take the revealed discovery, 207 leave it; 208+p-40 a Beyond the Black colony. See "
            "docs/rules/tiny_epic_galaxies.md."
        ),
        default_search="ismcts-teg@3",  # search/_config.py; docs/search.md, "Per-game defaults", "Tree reuse"
        outcome="solo",
        hidden_information=(
            "the other seats' dealt and kept secret missions (kept ones are shown at the end), the planet "
            "deck's order and future dice; Beyond the Black: the pilot and exploration decks' order and "
            "which exploration cards each other seat keeps face down (their count, badges and dwarf planet "
            "points are public)"
        ),
        variant_player_counts=tuple((f"beyond_the_black_rogue_{i}", (1,)) for i in range(1, 6)),
        rules_doc="docs/rules/tiny_epic_galaxies.md",
    )
)
