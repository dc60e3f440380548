# Included by engine.pyx: the Game subclass and its hooks (JSON, action structs, render), make_game and
# the registry entry.

cdef class TakeTheGalaxyGame(Game):

    def _catalogue_revision(self):
        return f"{CATALOGUE['format']}@{CATALOGUE['revision']}"

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

    def seat_teams(self):
        # "Alternative game modes": team mates sit across, seats 0 and 2 against 1 and 3 (rules.pxi, _mate);
        # scoring.pxi gives both members the team's outcome.
        if self.params.variant == V_TEAM:
            return tuple(seat % 2 for seat in range(self.num_players))
        return tuple(range(self.num_players))

    # ------------------------------------------------------------ dump

    def _dump_payload(self, Position pos):
        # A spectator's view (observer -1, like a full state) is an observation: no shuffle streams.
        return _dump_state(_cst(pos.ptr), pos.observer if isinstance(pos, State) else max(pos.observer, 0))

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
        return _action_struct(_cst(pos.ptr), action, _cst(pos.ptr).current)

    def _move_label(self, Position view, int mover, int action):
        # Another seat's or a spectator's label of the mover's move, from that viewer's observation only
        # (describe.pxi, _viewer_label); the default (the kind alone) when the view cannot describe it.
        cdef const TgState* k = _cst(view.ptr)
        label = _viewer_label(k, view.observer, action) if mover == k.current else ""
        return label or Game._move_label(self, view, mover, action)

    def _render(self, Position pos):
        return _render(_cst(pos.ptr), self.variant, pos.observer)

    def _score_breakdown(self, Position pos):
        # Every part is public (scoring.pxi), so every viewer gets the same breakdown.
        return [_score_breakdown(_cst(pos.ptr), seat) for seat in range(self.num_players)]


def make_game(int players, str variant):
    return TakeTheGalaxyGame(players, variant)


from orrery.core_ext._registry import GameInfo, register  # noqa: E402  (registration at import, contract v2)

register(
    GameInfo(
        name="take_the_galaxy",
        title=(
            "Take The Galaxy (solo to 4 players; numbered, random and 2-against-2 team set-ups; "
            "a 2-player catch-up variant)"
        ),
        module=__name__,
        variants=("standard", "random", "team", "no_first_claim"),
        player_counts=(1, 2, 3, 4),
        variant_player_counts=(("team", (4,)), ("no_first_claim", (2,))),
        action_description=(
            "0 end the turn; 1/2 choose Frontier Settlement/Mine (set-up); 3 + type discard a card "
            "(paying, or to Space Pirates); 27 + type 1 science: a card from the discard pile; 51/52 draw "
            "with 3 manpower/2 production; 53 + position study an anomaly or solve an event; 58 + position "
            "use an opportunity; 63 + ship sell a ship at The Next Step; 71 + system relinquish; "
            "75 + owner*8 + ship use a ship; 91 + owner*16 + system*4 + slot use a colony; "
            "123 + owner*16 + system*4 + resource take a bounty resource (owner 1 = team mate); "
            "155 + type build a ship; 179 + (system*4 + slot)*24 + type upgrade; "
            "563 + (target*4 + slot)*24 + type build a colony (target 0-3 own system, 4-8 explored "
            "position: claim). Card types are catalogue indexes; action_to_struct gives names and a label."
        ),
        default_search="ismcts-ttg@2",  # search/_config.py; docs/search.md, "Per-game defaults", "Tree reuse"
        outcome="team",
        hidden_information=(
            "the order of the space deck (in the random set-up also which cards it holds), the order of "
            "every player deck including the observer's own, and the other players' hands (sizes public)"
        ),
        rules_doc="docs/rules/take_the_galaxy.md",
    )
)
