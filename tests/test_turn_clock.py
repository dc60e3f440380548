"""The turn clock (search/_clock.py): how a turn's budget is shared over its decisions, and LevelBot
playing whole turns with it. Deterministic: iteration budgets and seeds, no timing assertions."""

from __future__ import annotations

import pytest

from orrery.core_ext import load_game
from orrery.search import (
    LEVELS,
    Budget,
    InProcessBackend,
    Level,
    LevelBot,
    TurnBudget,
    TurnClock,
    default_config,
    expected_decisions,
    first_decision_budget,
    forced_result,
    get_config,
)
from orrery.search._clock import FLOOR_SHARE, OVERRUN_SHARE, TAIL_SHARE


def play_turn(clock: TurnClock, decisions: int, legal: int = 5) -> list[int]:
    """Allot `decisions` decisions, each search spending exactly its allotment; the iterations searched."""
    spent = []
    for _ in range(decisions):
        allotted = clock.allot(legal).budget
        if allotted is None:
            spent.append(0)
            continue
        assert allotted.iterations is not None and allotted.milliseconds is None
        clock.charge(iterations=allotted.iterations, elapsed_s=0.5)  # elapsed is not what is counted
        spent.append(allotted.iterations)
    return spent


def test_a_forced_decision_costs_nothing_and_does_not_count_as_searched():
    clock = TurnClock(TurnBudget(iterations=1000), expected=4)
    allotment = clock.allot(1)
    assert allotment.budget is None and allotment.reason == "one legal action"
    assert clock.spent == 0 and clock.searched == 0 and clock.decisions == 1
    assert clock.allot(3).budget.iterations == 250  # the first searched decision: 1000 / 4


@pytest.mark.parametrize("decisions", [1, 2, 4, 8, 20, 60, 200])
def test_a_turn_never_spends_more_than_its_budget_and_allowance(decisions):
    clock = TurnClock(TurnBudget(iterations=1000), expected=4)
    spent = play_turn(clock, decisions)
    assert sum(spent) <= (1 + OVERRUN_SHARE) * 1000
    if decisions <= 4:  # a turn no longer than expected stays within the budget itself
        assert sum(spent) <= 1000


def test_late_decisions_get_the_floor_until_the_allowance_is_spent_then_none():
    clock = TurnClock(TurnBudget(iterations=2400), expected=24)
    floor = FLOOR_SHARE * 2400 / 24
    assert clock.floor == floor == 10
    spent = play_turn(clock, 120)
    searched = [s for s in spent if s > 0]
    assert all(s >= floor for s in searched[:-1])  # the last may be what is left of the allowance
    assert spent[-1] == 0 and clock.allot(5).reason == "turn budget spent"
    assert sum(spent) == int((1 + OVERRUN_SHARE) * 2400)  # every iteration of the allowance was used
    assert len(searched) > 24  # a long turn keeps searching past the expected decisions


def test_shares_follow_the_expected_decisions_then_keep_a_reserve_for_the_tail():
    clock = TurnClock(TurnBudget(iterations=1200), expected=12)
    spent = play_turn(clock, 12)
    # An even share while more than TAIL_SHARE * 12 = 3 decisions are expected to go ...
    assert spent[:10] == [100] * 10
    # ... then what is left is shared over 3 to go, so that a longer turn still has some.
    assert TAIL_SHARE * 12 == 3 and spent[10:] == [200 // 3, (200 - 66) // 3]
    assert sum(spent) < 1200
    # A game of short turns still keeps half of what is left for the next decision (MIN_MOVES_TO_GO).
    clock = TurnClock(TurnBudget(iterations=1600), expected=2)
    assert play_turn(clock, 4) == [800, 400, 200, 100]
    # A game of one-decision turns (Kuhn) gives that decision the whole budget.
    assert TurnClock(TurnBudget(iterations=1600), expected=1).allot(2).budget.iterations == 1600


def test_a_search_that_overran_leaves_less_to_the_next_decisions():
    clock = TurnClock(TurnBudget(milliseconds=1000.0), expected=4)
    first = clock.allot(4).budget
    assert first.milliseconds == 250.0 and first.iterations is None
    clock.charge(iterations=12345, elapsed_s=0.4)  # ms budgets count elapsed time, not iterations
    assert clock.allot(4).budget.milliseconds == pytest.approx(600.0 / 3)
    clock.charge(iterations=0, elapsed_s=0.2)
    clock.allot(1)  # a forced move: no search, but its wall time counts against a millisecond budget
    clock.charge(iterations=0, elapsed_s=0.1)
    assert clock.spent == pytest.approx(700.0)


def test_turn_budgets_are_checked():
    with pytest.raises(ValueError, match="exactly one"):
        TurnBudget()
    with pytest.raises(ValueError, match="exactly one"):
        TurnBudget(iterations=1, milliseconds=1.0)
    with pytest.raises(ValueError, match="> 0"):
        TurnBudget(iterations=0)


def test_expected_decisions_by_game_and_variant_and_the_first_decision():
    assert expected_decisions("take_the_galaxy") > 10 > expected_decisions("trian")
    assert expected_decisions("tiny_epic_galaxies", "beyond_the_black") != expected_decisions(
        "tiny_epic_galaxies", "base"
    )
    assert expected_decisions("no_such_game") > 0
    assert first_decision_budget(TurnBudget(iterations=900), expected=3).iterations == 300


def test_levels_are_per_turn_budgets_in_increasing_order():
    budgets = [LEVELS[name] for name in ("easy", "medium", "hard")]
    assert [lv.iterations for lv in budgets] == sorted(lv.iterations for lv in budgets)
    assert LEVELS["expert"].milliseconds and LEVELS["expert"].tolerance == 0.0
    assert LEVELS["medium"].turn_budget.label.endswith("/turn")


def test_forced_result_names_the_only_action():
    game = load_game("kuhn", players=2)
    state = game.new_initial_state(seed=1)
    observation = state.observation(state.current_player)
    with pytest.raises(ValueError, match="exactly one legal action"):
        forced_result(observation, seed=1)


class RecordingBackend(InProcessBackend):
    def __init__(self) -> None:
        super().__init__(1)
        self.iterations: list[int] = []

    def search(self, observation, config, budget, *, seed, tree=None):  # the game's default reuses trees
        result = super().search(observation, config, budget, seed=seed, tree=tree)
        self.iterations.append(result.iterations)
        return result


def play_turns(seed: int, turn_iterations: int, turns: int):
    """The first `turns` whole turns of a 2-player Take The Galaxy game between LevelBots: per turn, per
    decision (legal actions, iterations searched, whether the bot's clock goes on after it)."""
    game = load_game("take_the_galaxy", players=2, variant="standard")
    state = game.new_initial_state(seed=seed)
    backend = RecordingBackend()
    level = Level(name="test", iterations=turn_iterations, milliseconds=None, tolerance=0.05)
    bots = [LevelBot(level, default_config("ismcts", "take_the_galaxy"), backend) for _ in range(2)]
    played: list[list[tuple[int, int, bool]]] = []
    seat = -1
    while not state.is_terminal() and len(played) <= turns:
        if state.current_player != seat:
            seat = state.current_player
            played.append([])
        observation = state.observation(seat)
        searches = len(backend.iterations)
        action = bots[seat].select_action(observation, seed=seed * 1000 + len(played))
        searched = backend.iterations[-1] if len(backend.iterations) > searches else 0
        going_on = bots[seat].turn_clock("take_the_galaxy", seat) is not None
        played[-1].append((len(observation.legal_actions()), searched, going_on))
        state.apply(action)
    return played[:turns]


def test_a_level_bot_shares_its_turn_budget_over_the_whole_turn():
    turns = play_turns(seed=5, turn_iterations=300, turns=8)
    assert max(len(turn) for turn in turns) > 5  # Take The Galaxy turns are many decisions
    for turn in turns:
        assert sum(searched for _, searched, _ in turn) <= (1 + OVERRUN_SHARE) * 300  # one budget a turn
        assert all(searched == 0 for legal, searched, _ in turn if legal == 1)  # forced: no search
        assert all(going_on for _, _, going_on in turn[:-1])  # the bot knew its turn went on
        assert not turn[-1][2]  # and that its last move ended it
    long_turn = max(turns, key=len)
    assert sum(1 for _, searched, _ in long_turn if searched) > 1  # shared, not spent on one decision
    assert play_turns(seed=5, turn_iterations=300, turns=8) == turns  # reproducible


def test_bench_turn_time_reports_the_distribution():
    from orrery.search._bench_turns import bench_turn_time, percentile

    result = bench_turn_time("trian", 2, level="easy", turns=6, seed=3, variant="full")
    assert (
        result["turns"] == 6
        and result["variant"] == "full"
        and result["turn_budget"] == f"{LEVELS['easy'].iterations}it/turn"
    )
    assert 0 <= result["p50_s"] <= result["p95_s"] <= result["max_s"]
    assert result["mean_searched_per_turn"] <= result["mean_decisions_per_turn"]
    again = bench_turn_time("trian", 2, level="easy", turns=6, seed=3, variant="full")
    assert again["mean_decisions_per_turn"] == result["mean_decisions_per_turn"]  # the same games
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0 and percentile([1.0, 2.0], 0.95) == 2.0
    with pytest.raises(ValueError, match="unknown level"):
        bench_turn_time("trian", 2, level="grandmaster", turns=1)


def test_a_level_scales_its_iterations_by_the_game_and_never_its_milliseconds():
    from orrery.search import LEVEL_ITERATION_SCALE

    easy, expert = LEVELS["easy"], LEVELS["expert"]
    assert easy.turn_budget_for("trian").iterations == easy.iterations == easy.turn_budget.iterations
    scale = LEVEL_ITERATION_SCALE["take_the_galaxy"]["easy"]
    assert scale > 1 and easy.turn_budget_for("take_the_galaxy").iterations == easy.iterations * scale
    assert expert.turn_budget_for("take_the_galaxy").milliseconds == expert.milliseconds
    assert "(take_the_galaxy x10)" in LevelBot(easy, get_config("ismcts-ttg@1")).version
    # Each level has its own factor: medium's x30 is what lets it beat the greedy bot (docs/strength.md)
    assert LEVELS["medium"].turn_budget_for("take_the_galaxy").iterations == 90_000
    assert "(take_the_galaxy x30)" in LevelBot(LEVELS["medium"], get_config("ismcts-ttg@2")).version
    unscaled = Level(name="turn", iterations=300, milliseconds=None, tolerance=0.0)  # e.g. a tournament's
    assert unscaled.turn_budget_for("take_the_galaxy").iterations == 300


def test_take_the_galaxys_medium_at_three_players_plays_the_most_visited_move():
    from orrery.search import level_in
    from orrery.search.tournament._config import BotSpec, BudgetSpec
    from orrery.search.tournament._play import build_bot

    # At 3 players medium plays its most-visited move, which beat greedy at least as well as tolerance 0.05
    # at the same time (docs/strength.md, session 6); easy plays tolerance 0.15 there (session 9); its
    # budget, easy's and hard's, and every level at 2 players, are the levels' own
    three = level_in("medium", "take_the_galaxy", "standard", 3)
    assert three.tolerance == 0.0 and three.turn_budget_for("take_the_galaxy").iterations == 90_000
    assert level_in("medium", "take_the_galaxy", "standard", 2) is LEVELS["medium"]
    easy = level_in("easy", "take_the_galaxy", "standard", 3)
    assert easy.tolerance == 0.15 and easy.turn_budget_for("take_the_galaxy").iterations == 3_000
    assert level_in("easy", "take_the_galaxy", "standard", 2) is LEVELS["easy"]
    for name in ("hard", "expert"):
        assert level_in(name, "take_the_galaxy", "standard", 3) is LEVELS[name]
    spec = BotSpec(name="medium", kind="level", level="medium")
    bot = build_bot(spec, BudgetSpec(iterations=1), "take_the_galaxy", setting=("standard", 3))
    assert bot.version.endswith("+tolerance=0") and "(take_the_galaxy x30)" in bot.version


def test_a_levels_tolerance_covers_the_whole_turn():
    clock = TurnClock(TurnBudget(iterations=3000), expected=19)
    assert clock.tolerance_left(0.05) == 0.05
    clock.spend_tolerance(0.03)
    assert clock.tolerance_left(0.05) == pytest.approx(0.02)
    clock.spend_tolerance(0.04)  # a move may use all that is left, never more
    assert clock.tolerance_left(0.05) == 0.0
    clock.spend_tolerance(-1.0)  # a gap is never negative
    assert clock.tolerance_left(0.05) == 0.0


def test_value_gap_is_measured_against_the_best_trusted_value():
    from orrery.search import value_gap

    state = load_game("tiny_epic_galaxies", players=2).new_initial_state(seed=0)
    observation = state.observation(state.current_player)
    result = InProcessBackend(1).search(
        observation, get_config("ismcts-teg@2"), Budget(iterations=4000), seed=3
    )
    trusted = [a for a in result.actions if a.visits >= 100 and a.visits >= 0.1 * result.actions[0].visits]
    best = max(a.mean_reward for a in trusted)
    assert len(trusted) >= 2  # two moves compared: the second one's gap is not 0
    for a in trusted:
        assert value_gap(result, a.action, 0.05) == pytest.approx(best - a.mean_reward)
    assert max(value_gap(result, a.action, 0.05) for a in trusted) > 0
    assert value_gap(result, result.actions[0].action, 0.0) == 0.0  # nothing compared at tolerance 0
