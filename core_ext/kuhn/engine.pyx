# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""N-player Kuhn poker: the smallest game with hidden information and a known correct play.

Variant "teams" (4 players): seats 0 and 2 play against seats 1 and 3, and each team's net chips
decide its outcome, which both members get (the contract's team returns, tested on a small game).

Each seat antes 1 and gets one card from a deck of N+1 (higher wins). In seat order each seat checks
or bets 1; after a bet every other seat, in order, calls or folds once. With the highest card, calling
a bet always wins; with the lowest card in a 2-player game, calling a bet always loses more than
folding. The search tests rely on those two facts.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed2, rng_below
from orrery.core_ext.game cimport GameOps, GameParams, Game, Position, rank_returns
from orrery.core_ext.json_fields cimport show, fail, read_object, read_int, read_list
from orrery.core_ext.kuhn.state cimport KuhnState, KUHN_MAX_HISTORY, KUHN_UNKNOWN

from orrery.core_ext._registry import GameInfo, register

cdef enum:
    PASS = 0
    BET = 1
    STREAM_DEAL = 1
    VARIANT_STANDARD = 0
    VARIANT_TEAMS = 1
    TEAM_PLAYERS = 4

VARIANTS = ("standard", "teams")


cdef inline KuhnState* _st(void* p) noexcept nogil:
    return <KuhnState*>p


cdef inline const KuhnState* _cst(const void* p) noexcept nogil:
    return <const KuhnState*>p


cdef void _shuffle_deal(KuhnState* s, Rng* rng, int keep) noexcept nogil:
    # Deal the cards not in use to every seat whose card is unknown (keep = seat whose card stays).
    cdef int n = s.params.num_players, i, j, k, count = 0
    cdef int8_t deck[MAX_PLAYERS + 1]
    cdef bint used
    cdef int8_t tmp
    for k in range(n + 1):
        used = False
        for i in range(n):
            if s.cards[i] == k:
                used = True
        if not used:
            deck[count] = <int8_t>k
            count += 1
    for i in range(count - 1, 0, -1):
        j = <int>rng_below(rng, <unsigned int>(i + 1))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    j = 0
    for i in range(n):
        if s.cards[i] == KUHN_UNKNOWN:
            s.cards[i] = deck[j]
            j += 1


cdef int kuhn_init(void* p, const GameParams* params, uint64_t seed) noexcept nogil:
    cdef KuhnState* s = _st(p)
    cdef Rng rng
    cdef int i
    if params.num_players < 2 or params.num_players > MAX_PLAYERS:
        return -1
    if params.variant == VARIANT_TEAMS and params.num_players != TEAM_PLAYERS:
        return -1
    memset(s, 0, sizeof(KuhnState))   # zero padding too: equal states have equal bytes
    s.params = params[0]
    for i in range(MAX_PLAYERS):
        s.cards[i] = KUHN_UNKNOWN if i < params.num_players else 0
        s.bets[i] = 0
        s.folded[i] = 0
    s.history_len = 0
    s.to_move = 0
    s.bettor = -1
    s.responses = 0
    s.terminal = 0
    rng_seed2(&rng, seed, STREAM_DEAL)
    _shuffle_deal(s, &rng, -1)
    return 0


cdef int kuhn_current_player(const void* p) noexcept nogil:
    return TERMINAL_PLAYER if _cst(p).terminal else _cst(p).to_move


cdef int kuhn_legal_actions(const void* p, action_t* out) noexcept nogil:
    if _cst(p).terminal:
        return 0
    out[0] = PASS
    out[1] = BET
    return 2


cdef int kuhn_apply(void* p, action_t action) noexcept nogil:
    cdef KuhnState* s = _st(p)
    cdef int n = s.params.num_players
    cdef int seat = s.to_move
    if s.terminal or (action != PASS and action != BET) or s.history_len >= KUHN_MAX_HISTORY:
        return -1
    s.history[s.history_len] = <int8_t>action
    s.history_len += 1
    if s.bettor < 0:
        if action == BET:
            s.bettor = <int8_t>seat
            s.bets[seat] = 1
        if action == PASS and seat == n - 1:
            s.terminal = 1   # everyone checked: showdown
            return 0
    else:
        s.responses += 1
        if action == BET:
            s.bets[seat] = 1
        else:
            s.folded[seat] = 1
        if s.responses == n - 1:
            s.terminal = 1
            return 0
    s.to_move = <int8_t>((seat + 1) % n)
    return 0


cdef bint kuhn_is_terminal(const void* p) noexcept nogil:
    return _cst(p).terminal != 0


cdef int _winner(const KuhnState* s) noexcept nogil:
    cdef int best = -1, i
    for i in range(s.params.num_players):
        if not s.folded[i] and (best < 0 or s.cards[i] > s.cards[best]):
            best = i
    return best


cdef void kuhn_scores(const void* p, double* out) noexcept nogil:
    # Net chips. Before the end, each seat's score is what it has put in (a loss so far).
    cdef const KuhnState* s = _cst(p)
    cdef int n = s.params.num_players, i, pot = 0, w
    for i in range(n):
        out[i] = -(1.0 + s.bets[i])
        pot += 1 + s.bets[i]
    if s.terminal:
        w = _winner(s)
        if w >= 0 and s.cards[w] != KUHN_UNKNOWN:
            out[w] += pot


cdef void _team_chips(const void* p, double* team) noexcept nogil:
    # Teams play across the table: seat i is on team i % 2.
    cdef double sc[MAX_PLAYERS]
    cdef int i
    kuhn_scores(p, sc)
    team[0] = 0.0
    team[1] = 0.0
    for i in range(_cst(p).params.num_players):
        team[i % 2] += sc[i]


cdef void kuhn_ranks(const void* p, int* out) noexcept nogil:
    cdef double sc[MAX_PLAYERS]
    cdef double team[2]
    cdef int n = _cst(p).params.num_players, i, j
    if _cst(p).params.variant == VARIANT_TEAMS:   # teammates share their team's rank
        _team_chips(p, team)
        for i in range(n):
            out[i] = 1 if team[1 - i % 2] > team[i % 2] else 0
        return
    kuhn_scores(p, sc)
    for i in range(n):
        out[i] = 0
        for j in range(n):
            if sc[j] > sc[i]:
                out[i] += 1


cdef void kuhn_returns(const void* p, double* out) noexcept nogil:
    # Teams: each member gets the team's outcome (1 more chips, 1/2 even, 0 fewer); else rank returns.
    cdef double team[2]
    cdef int i
    if _cst(p).params.variant != VARIANT_TEAMS:
        rank_returns(&KUHN_OPS, p, out)
        return
    _team_chips(p, team)
    for i in range(_cst(p).params.num_players):
        out[i] = 1.0 if team[i % 2] > team[1 - i % 2] else (0.5 if team[0] == team[1] else 0.0)


cdef void kuhn_observe(const void* p, int player, void* out) noexcept nogil:
    cdef KuhnState* o = _st(out)
    cdef int i
    memcpy(out, p, sizeof(KuhnState))
    for i in range(o.params.num_players):
        # Cards are shown at a showdown; folded cards and unseen cards stay hidden.
        if i != player and not (o.terminal and not o.folded[i] and _showdown(o)):
            o.cards[i] = KUHN_UNKNOWN


cdef inline bint _showdown(const KuhnState* s) noexcept nogil:
    cdef int i, live = 0
    for i in range(s.params.num_players):
        live += not s.folded[i]
    return live > 1


cdef void kuhn_determinize(void* p, int observer, Rng* rng) noexcept nogil:
    _shuffle_deal(_st(p), rng, observer)


cdef void kuhn_evaluate(const void* p, double* out) noexcept nogil:
    # Without search, a seat's chances are its card's rank in the deck.
    cdef const KuhnState* s = _cst(p)
    cdef int n = s.params.num_players, i
    for i in range(n):
        out[i] = 0.5 if s.cards[i] == KUHN_UNKNOWN else s.cards[i] / <double>n


cdef GameOps KUHN_OPS
KUHN_OPS.name = "kuhn"
KUHN_OPS.state_size = sizeof(KuhnState)
KUHN_OPS.max_legal_actions = 2
KUHN_OPS.max_game_length = KUHN_MAX_HISTORY
KUHN_OPS.num_distinct_actions = 2  # PASS, BET
KUHN_OPS.init = kuhn_init
KUHN_OPS.current_player = kuhn_current_player
KUHN_OPS.legal_actions = kuhn_legal_actions
KUHN_OPS.apply = kuhn_apply
KUHN_OPS.is_terminal = kuhn_is_terminal
KUHN_OPS.scores = kuhn_scores
KUHN_OPS.ranks = kuhn_ranks
KUHN_OPS.observe = kuhn_observe
KUHN_OPS.determinize = kuhn_determinize
KUHN_OPS.playout = NULL
KUHN_OPS.evaluate = kuhn_evaluate
KUHN_OPS.policy_action = NULL
KUHN_OPS.returns = kuhn_returns


cdef class KuhnGame(Game):

    def __cinit__(self, int players, str variant):
        self.ops = &KUHN_OPS
        self.params.num_players = players
        if variant not in VARIANTS:
            raise ValueError(f"unknown Kuhn variant {variant!r}")
        self.params.variant = VARIANTS.index(variant)
        self.params.options = 0
        self.name = "kuhn"
        self.variant = variant
        self.num_players = players

    def _format_version(self):
        # 1 was the shared "orrery.state/1"; the payload itself has not changed since
        return 2

    def seat_teams(self):
        if self.params.variant == VARIANT_TEAMS:
            return tuple(i % 2 for i in range(self.num_players))
        return tuple(range(self.num_players))

    def _dump_payload(self, Position pos):
        cdef const KuhnState* k = _cst(pos.ptr)
        n = k.params.num_players
        return {
            "cards": [None if k.cards[i] == KUHN_UNKNOWN else k.cards[i] for i in range(n)],
            "history": [k.history[i] for i in range(k.history_len)],
        }

    def _load_payload(self, Position pos, dict payload):
        # Rebuild by replaying the history on the given cards, so any loaded state is reachable.
        cdef KuhnState tmp
        n = self.num_players
        read_object(payload, "state", ("cards", "history"))
        cards = read_list(payload["cards"], "state.cards", n, n)
        history = read_list(payload["history"], "state.history", 0, KUHN_MAX_HISTORY)
        seen = set()
        for i, c in enumerate(cards):
            if c is None:
                if pos.observer < 0 or i == pos.observer:
                    fail(f"state.cards[{i}]", "this card must be known")
                continue
            read_int(c, f"state.cards[{i}]", 0, n)
            if c in seen:
                fail(f"state.cards[{i}]", f"card {c} is dealt twice")
            seen.add(c)
        kuhn_init(&tmp, &self.params, 0)
        for i in range(n):
            tmp.cards[i] = KUHN_UNKNOWN if cards[i] is None else cards[i]
        for step, a in enumerate(history):
            if type(a) is not int or a not in (PASS, BET) or tmp.terminal:
                fail(f"state.history[{step}]", f"{show(a)} is not a legal action here")
            kuhn_apply(&tmp, a)
        if pos.observer >= 0:
            for i in range(n):
                visible = i == pos.observer or (tmp.terminal and not tmp.folded[i] and _showdown(&tmp))
                if visible != (cards[i] is not None):
                    seen_or_not = "sees" if visible else "cannot see"
                    fail(f"state.cards[{i}]", f"seat {pos.observer} {seen_or_not} this card")
        memcpy(pos.ptr, &tmp, sizeof(KuhnState))

    def _action_struct(self, Position pos, int action):
        cdef const KuhnState* k = _cst(pos.ptr)
        facing = k.bettor >= 0
        kind = ("call" if facing else "bet") if action == BET else ("fold" if facing else "check")
        return {"id": action, "kind": kind, "label": kind}

    def _move_label(self, Position view, int mover, int action):
        # every Kuhn move is public: check or bet, fold or call against the public bet
        return self._action_struct(view, action)["label"]

    def _render(self, Position pos):
        cdef const KuhnState* k = _cst(pos.ptr)
        n = k.params.num_players
        lines = []
        for i in range(n):
            card = "?" if k.cards[i] == KUHN_UNKNOWN else str(k.cards[i])
            state = "folded" if k.folded[i] else ("in for 2" if k.bets[i] else "in for 1")
            marker = "*" if not k.terminal and k.to_move == i else " "
            lines.append(f"{marker} seat {i}: card {card}, {state}")
        lines.append("history: "
                     + (" ".join("b" if k.history[i] else "p" for i in range(k.history_len)) or "-"))
        return "\n".join(lines)


# The action-id table (docs/rules/kuhn.md): (first id, end id, kind) blocks, ascending.
ACTION_BLOCKS = ((PASS, PASS + 1, "check or fold"), (BET, BET + 1, "bet or call"))


def make_game(int players, str variant):
    return KuhnGame(players, variant)


register(
    GameInfo(
        name="kuhn",
        title="Kuhn poker (N players, N+1 cards): a tiny hidden-information test game",
        module=__name__,
        variants=VARIANTS,
        player_counts=(2, 3, 4, 5),
        variant_player_counts=(("teams", (TEAM_PLAYERS,)),),
        action_description="0 = pass (check, or fold when facing a bet); 1 = bet (bet, or call a bet)",
        # Full random playouts: a game of at most 9 moves has nothing for a truncating evaluation to save.
        default_search="ismcts@1",
        outcome="team",
        hidden_information="the other seats' cards until a showdown",
        rules_doc="docs/rules/kuhn.md",
        testing_only=True,
    )
)
