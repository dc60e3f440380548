"""Take The Galaxy: one scenario per rule, built from positions (docs/rules/take_the_galaxy.md).

Section names in the test docstrings are the rulebook's headings.
"""

import json

import pytest
from ttg_positions import find, game, has, pay, payload, player, position, started, system

from orrery.core_ext import StateFormatError

# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("players,cards", [(1, 12), (2, 24), (3, 36), (4, 48)])
def test_setup_space_deck_and_explored_space(players, cards):
    """ "Prepare the Space Deck" and "Explored Space": the numbered cards, as many explored as players."""
    s = game(players).new_initial_state(seed=3).to_dict()["state"]
    assert len(s["explored"]) == players
    assert len(s["space_deck"]) + len(s["explored"]) == cards
    sectors = [name_sector(n) for n in s["space_deck"]]  # top first: Core, then Expanse, then Fringe
    assert sectors == sorted(sectors, key=("core", "expanse", "fringe").index)


def name_sector(name):
    from ttg_positions import SPACE

    return SPACE[name]["sector"]


def test_setup_marked_cards_and_frontier_choice():
    """ "B Player Deck": 8 marked cards in hand; the chosen frontier colony goes on Haven, 7 stay."""
    state = game(2).new_initial_state(seed=1)
    p = payload(state)["players"][0]
    assert p["hand_size"] == 8 and p["systems"][0]["card"] == "Haven" and len(p["draw_pile"]) == 23
    assert [state.action_label(a) for a in state.legal_actions()] == [
        "choose Frontier Settlement for Haven",
        "choose Frontier Mine for Haven",
    ]
    state.apply(2)  # Frontier Mine: on the first deposit slot
    p = payload(state)["players"][0]
    assert p["systems"][0]["slots"] == [[], ["Frontier Mine"], []]
    assert p["hand_size"] == 7 and p["hand"]["Frontier Settlement"] == 1
    assert state.current_player == 1


def test_first_turn_explores_and_draws():
    """ "Exploration Phase" and "Draw Phase" of the first turn after the set-up."""
    g, state = started(2)
    s = payload(state)
    assert len(s["explored"]) == 3 and s["turn"] == 1
    assert s["players"][0]["hand_size"] == 8 and s["players"][1]["hand_size"] == 7


def test_random_setup_counts():
    """ "Random Play": the rulebook's counts per sector and kind, drawn from all cards of the sector."""
    from ttg_positions import SPACE

    seen = set()
    for seed in range(20):
        s = game(2, "random").new_initial_state(seed=seed).to_dict()["state"]
        cards = s["space_deck"] + [e["card"] for e in s["explored"]]
        assert len(cards) == 24
        seen |= set(cards)
        fringe = [c for c in cards if SPACE[c]["sector"] == "fringe"]
        assert len(fringe) == 4
    assert any(SPACE[c]["players"] > 2 for c in seen), "random set-ups use cards numbered for more players"


# ---------------------------------------------------------------- turn phases


def test_exploration_slides_and_drops_the_oldest():
    """ "Exploration Phase": at players + 1 cards the oldest drops to the space discard pile."""
    state = position(2, explored=["Kepler-7", "Singing Comet", "Vega Shoals"])
    top = payload(state)["space_deck"][0]
    state.apply(find(state, kind="end_turn"))
    s = payload(state)
    assert [e["card"] for e in s["explored"]] == ["Singing Comet", "Vega Shoals", top]
    assert s["space_discard"] == ["Kepler-7"] and s["current"] == 1


def test_draw_reshuffles_the_discard_pile_when_the_deck_is_empty():
    """ "B Player Deck": an empty deck is made anew from the discard pile when a card is needed."""
    all_but = ["Settlement"] * 3
    state = position(2, explored=["Kepler-7"], pool={"manpower": 3})
    d = state.to_dict()
    p = d["state"]["players"][0]
    p["discard"] = p["draw_pile"]
    p["draw_pile"] = []
    state = game(2).state_from_json(json.dumps(d))
    n_discard = len(p["discard"])
    state.apply(find(state, kind="draw", resource="manpower"))
    p = payload(state)["players"][0]
    assert p["discard"] == [] and len(p["draw_pile"]) == n_discard - 1 and p["hand_size"] == 4
    assert all_but


def test_reset_phase_and_end_phase():
    """ "Reset Phase" (own cards and opportunities unused) and "Resource pool" (emptied at the end)."""
    haven = system("Haven", [["Frontier Settlement"], [], []], used=[True, False, False])
    state = position(
        2,
        seats={1: player(hand=["Settlement"], systems=[haven])},
        explored=["Intergalactic Migration"],
        explored_used=[True],
        pool={"manpower": 2, "science": 1},
    )
    state.apply(find(state, kind="end_turn"))
    s = payload(state)
    assert s["pool"] == {}
    assert s["players"][1]["systems"][0]["used"] == [False, False, False]
    assert s["explored"][0]["used"] is False


def test_game_ends_after_the_turn_that_reveals_the_last_card():
    """ "End the game": the player who revealed the last card finishes the turn, then it is over."""
    from ttg_positions import SPACE

    rest = [n for n, x in SPACE.items() if x["players"] <= 2 and n not in ("Kepler-7", "Vega Shoals")]
    state = position(2, explored=["Kepler-7"], space_deck=["Vega Shoals"], space_discard=rest)
    state.apply(find(state, kind="end_turn"))
    assert not state.is_terminal() and state.current_player == 1
    assert payload(state)["space_deck"] == [] and payload(state)["explored"][-1]["card"] == "Vega Shoals"
    state.apply(find(state, kind="end_turn"))
    assert state.is_terminal() and state.legal_actions() == []


def test_end_and_scoring_with_shared_ties():
    """ "End the game": renown from every source; ties are shared wins."""
    from ttg_positions import SPACE

    cards = [n for n, x in SPACE.items() if x["players"] <= 2]
    explored = ["Kepler-7", "Vega Shoals"]
    rest = [c for c in cards if c not in explored and c not in ("Singing Comet", "Andromeda Rim")]
    seats = {
        0: player(renown_pile=["Singing Comet"], tokens=1),  # Haven 1 + comet 2 + 1 token = 4
        1: player(
            systems=[system("Haven", [["Frontier Settlement"], [], []]), system("Andromeda Rim")],
            tokens=-1,
        ),  # Haven 1 + Andromeda 4 - 1 = 4
    }
    state = position(2, seats=seats, explored=explored, space_deck=[], space_discard=rest, current=1)
    state.apply(find(state, kind="end_turn"))
    assert state.is_terminal()
    assert state.scores() == [4.0, 4.0] and state.ranks() == [0, 0] and state.returns() == [0.5, 0.5]


# ---------------------------------------------------------------- taking cards from explored space


def test_claim_a_system_by_building_on_it_and_only_one_card_per_turn():
    """ "Systems" and "Taking a card": claiming is building a colony; one card a turn."""
    state = position(
        2,
        explored=["Kepler-7", "Singing Comet"],
        pool={"science": 2},
        seats={0: player(hand=["Mining Outpost", "Settlement", "Scout"])},
    )
    a = find(state, kind="claim", system_card="Kepler-7", slot=1, card="Mining Outpost")
    assert state.action_label(a) == "claim Kepler-7: build Mining Outpost on slot 2, discarding 1"
    state.apply(a)
    pay(state, "Scout")
    p = payload(state)["players"][0]
    assert [sy["card"] for sy in p["systems"]] == ["Haven", "Kepler-7"]
    assert p["systems"][1]["slots"] == [[], ["Mining Outpost"], []]
    assert p["discard"] == ["Scout"]
    assert not has(state, kind="study_anomaly"), "one card from explored space per turn"


def test_no_claim_with_four_systems():
    """ "Systems": at most 4 systems under control."""
    systems = [
        system("Haven", [["Frontier Settlement"], [], []]),
        system("Tau Ceti Reach"),
        system("Arcturus Gate"),
        system("Proxima Drift"),
    ]
    state = position(
        2, explored=["Kepler-7"], seats={0: player(hand=["Mining Outpost", "Scout"], systems=systems)}
    )
    assert not has(state, kind="claim")
    assert has(state, kind="build", system=1, card="Mining Outpost") is False  # Tau Ceti has B slots only
    assert has(state, kind="build", system=2, card="Mining Outpost")


def test_hazards_are_paid_in_production_and_cosmic_burst_adds_one():
    """ "Hazards" (1 production each) and "Cosmic Burst" (+1 on every explored system)."""
    hand = ["Settlement", "Scout"]
    state = position(2, explored=["Proxima Drift"], seats={0: player(hand=hand)})
    assert not has(state, kind="claim")
    state = position(2, explored=["Proxima Drift"], seats={0: player(hand=hand)}, pool={"production": 1})
    state.apply(find(state, kind="claim", card="Settlement"))
    assert payload(state)["pool"] == {}
    state = position(
        3, explored=["Proxima Drift", "Cosmic Burst"], seats={0: player(hand=hand)}, pool={"production": 1}
    )
    assert not has(state, kind="claim")
    state = position(
        3, explored=["Proxima Drift", "Cosmic Burst"], seats={0: player(hand=hand)}, pool={"production": 2}
    )
    assert find(state, kind="claim", card="Settlement")


def test_bounty_resources_stay_and_are_used_one_at_a_time():
    """ "Bounty Systems": the resources come with the system and are used when the owner wants."""
    state = position(2, explored=["Arcturus Gate"], seats={0: player(hand=["Mining Outpost", "Scout"])})
    state.apply(find(state, kind="claim", card="Mining Outpost"))
    pay(state, "Scout")
    assert payload(state)["players"][0]["systems"][1]["bounty"] == {"production": 2}
    state.apply(find(state, kind="take_bounty", resource="production"))
    assert payload(state)["pool"] == {"production": 1}
    assert payload(state)["players"][0]["systems"][1]["bounty"] == {"production": 1}


def test_study_an_anomaly_and_solve_an_event():
    """ "Anomaly" (science) and "Events" (the printed cost): to the renown pile, the effect stops."""
    state = position(2, explored=["Singing Comet", "Space Pirates"], pool={"science": 2})
    state.apply(find(state, kind="study_anomaly"))
    p = payload(state)
    assert p["players"][0]["renown_pile"] == ["Singing Comet"] and p["pool"] == {}
    assert state.scores()[0] == 1 + 2
    state = position(2, explored=["Singing Comet", "Space Pirates"], pool={"manpower": 2, "production": 2})
    state.apply(find(state, kind="solve_event", card="Space Pirates"))
    assert payload(state)["players"][0]["renown_pile"] == ["Space Pirates"]
    state.apply(find(state, kind="end_turn"))
    assert payload(state)["phase"] == "action", "the pirates are gone"


# ---------------------------------------------------------------- events


def test_space_pirates_take_one_card_in_the_exploration_phase():
    """ "Space Pirates": discard 1 card at the end of the exploration phase (a choice), then draw."""
    state = position(2, explored=["Space Pirates"], seats={1: player(hand=["Settlement", "Scout"])})
    state.apply(find(state, kind="end_turn"))
    assert payload(state)["phase"] == "payment" and state.current_player == 1
    assert state.action_label(find(state, card="Scout")) == "discard Scout to the space pirates"
    pay(state, "Scout")
    p = payload(state)["players"][1]
    assert p["discard"] == ["Scout"] and p["hand_size"] == 2 and payload(state)["phase"] == "action"


def test_space_pirates_ignore_an_empty_hand():
    state = position(2, explored=["Space Pirates"], seats={1: player(hand=[])})
    state.apply(find(state, kind="end_turn"))
    assert payload(state)["phase"] == "action" and payload(state)["players"][1]["hand_size"] == 1


def test_intergalactic_migration_once_per_turn():
    """ "Opportunities": once per turn each."""
    state = position(2, explored=["Intergalactic Migration"])
    state.apply(find(state, kind="opportunity"))
    assert payload(state)["pool"] == {"manpower": 1}
    assert not has(state, kind="opportunity")


def test_galactic_investors_need_banked_renown():
    """ "Galactic Investors": 1 renown for 2 credits (2 cards); needs a token or a card to trade in."""
    state = position(3, explored=["Galactic Investors"])
    assert not has(state, kind="opportunity")
    state = position(3, explored=["Galactic Investors"], seats={0: player(renown_pile=["Singing Comet"])})
    before = state.scores()[0]
    state.apply(find(state, kind="opportunity"))
    p = payload(state)["players"][0]
    assert p["renown_tokens"] == -1 and p["hand_size"] == 2 and state.scores()[0] == before - 1


def test_nomad_guildship_trades_production_for_science():
    state = position(4, explored=["Nomad Guildship"], pool={"production": 2})
    state.apply(find(state, kind="opportunity"))
    assert payload(state)["pool"] == {"science": 2}


def test_space_race_adds_renown_to_a_relinquish():
    """ "Space Race": relinquishing earns 2 extra renown."""
    full = system("Haven", [["Frontier Settlement"], ["Mining Outpost"], ["Strip Mine"]])
    seats = {0: player(systems=[full, system("Vega Shoals")])}
    state = position(4, explored=["Space Race"], seats=seats)  # a 4-player card since revision 3
    state.apply(find(state, kind="relinquish"))
    p = payload(state)["players"][0]
    assert p["renown_tokens"] == 0 + 0 - 2 + 2  # Strip Mine -2, Space Race +2


def test_ai_strike_forbids_upgrades():
    seats = {0: player(hand=["Township", "Scout"])}
    assert has(position(2, explored=["Kepler-7"], seats=seats), kind="upgrade")
    # in the 2-player deck since catalogue revision 3 (docs section 3, issue 28)
    assert not has(position(2, explored=["A.I. Strike"], seats=seats), kind="upgrade")


def test_stellar_crackdown_forbids_negative_colonies():
    haven = system("Haven", [["Penal Colony"], ["Mining Outpost"], []])
    p = player(systems=[haven])
    p["frontier"] = "Frontier Settlement"
    state = position(2, explored=["Stellar Crackdown"], seats={0: p})  # every count since revision 3
    assert not has(state, kind="use_colony", card="Penal Colony")
    assert has(state, kind="use_colony", card="Mining Outpost")


def test_mech_revolution_discounts_mining_and_utility():
    seats = {0: player(hand=["Mining Outpost", "Research Station", "Settlement"])}
    state = position(2, explored=["Mech Revolution"], seats=seats)
    assert state.action_to_struct(find(state, kind="build", slot=1, card="Mining Outpost"))["discard"] == 0
    assert state.action_to_struct(find(state, kind="build", slot=1, card="Research Station"))["discard"] == 1
    state.apply(find(state, kind="build", slot=1, card="Mining Outpost"))
    assert payload(state)["phase"] == "action"


def test_the_next_step_sells_a_ship():
    state = position(3, explored=["The Next Step"], seats={0: player(ships=["Scout", "Freighter"])})
    state.apply(find(state, kind="sell_ship", card="Freighter"))
    p = payload(state)["players"][0]
    assert p["ships"] == [{"card": "Scout", "used": False}] and p["sold_ships"] == ["Freighter"]
    assert p["renown_tokens"] == 2 and not has(state, kind="sell_ship")


def test_ion_storm_grounds_ships():
    state = position(4, explored=["Ion Storm"], seats={0: player(ships=["Mining Barge"])})
    assert not has(state, kind="use_ship")


# ---------------------------------------------------------------- building, using, upgrading


def test_slot_types():
    """ "Civilization Colonies" on biosphere, "Mining Colonies" on deposit, utility on any slot."""
    state = position(2, seats={0: player(hand=["Settlement", "Mining Outpost", "Research Station", "Scout"])})
    builds = {
        (a["card"], a["slot"])
        for a in map(state.action_to_struct, state.legal_actions())
        if a["kind"] == "build"
    }
    assert builds == {
        ("Mining Outpost", 1),
        ("Mining Outpost", 2),
        ("Research Station", 1),
        ("Research Station", 2),
    }


def test_build_needs_the_cost_in_other_cards_and_pays_by_discards():
    """ "Building Colonies": discard the cost from the hand (a choice per card)."""
    state = position(2, seats={0: player(hand=["Deep Core Mine", "Scout", "Settlement"])})
    assert not has(state, card="Deep Core Mine")
    state = position(2, seats={0: player(hand=["Deep Core Mine", "Scout", "Settlement", "Township"])})
    a = find(state, kind="build", slot=1, card="Deep Core Mine")
    assert state.action_label(a) == "build Deep Core Mine on Haven slot 2, discarding 3"
    state.apply(a)
    assert payload(state)["payment"] == {"cards_left": 3, "reason": "build"}
    pay(state, "Scout", "Settlement", "Township")
    assert payload(state)["phase"] == "action" and payload(state)["players"][0]["hand_size"] == 0


def test_build_a_ship_and_use_it_at_once():
    """ "Building Ships" and "Using ships and colonies": usable immediately, once per turn."""
    state = position(2, seats={0: player(hand=["Mining Barge", "Scout", "Settlement"])})
    state.apply(find(state, kind="build_ship", card="Mining Barge"))
    pay(state, "Scout", "Settlement")
    state.apply(find(state, kind="use_ship"))
    assert payload(state)["pool"] == {"production": 2}
    assert not has(state, kind="use_ship")


def test_transforming_effects_need_their_input():
    seats = {0: player(ships=["Freighter"])}
    assert not has(position(2, seats=seats, pool={"production": 1}), kind="use_ship")
    state = position(2, seats=seats, pool={"production": 2})
    state.apply(find(state, kind="use_ship"))
    assert (
        payload(state)["pool"] == {} and payload(state)["players"][0]["hand_size"] == 2
    )  # 2 credits: 2 cards


def test_upgrade_rules():
    """ "Upgrading Colonies": same kind, higher cost, pay the difference, the old one's renown stops."""
    haven = system("Haven", [["Settlement"], ["Strip Mine"], []])
    p = player(
        hand=["Township", "Deep Core Mine", "Trade City", "Frontier Settlement", "Scout"], systems=[haven]
    )
    state = position(2, seats={0: p})
    ups = {
        (a["slot"], a["card"])
        for a in map(state.action_to_struct, state.legal_actions())
        if a["kind"] == "upgrade"
    }
    assert ups == {(0, "Township"), (0, "Trade City"), (1, "Deep Core Mine")}
    before = state.scores()[0]
    a = find(state, kind="upgrade", slot=1, card="Deep Core Mine")
    assert state.action_label(a) == "upgrade Strip Mine on Haven slot 2 to Deep Core Mine, discarding 1"
    state.apply(a)
    pay(state, "Scout")
    assert state.scores()[0] == before + 2 + 1  # Strip Mine's -2 stops, Deep Core Mine's +1 counts
    assert payload(state)["players"][0]["systems"][0]["slots"][1] == ["Strip Mine", "Deep Core Mine"]


def test_relinquish_rules():
    """ "Relinquishing a system": not the newest, all slots filled, once a turn; renown and discards."""
    full = system("Haven", [["Township"], ["Mining Outpost"], ["Strip Mine", "Deep Core Mine"]])
    kepler = system("Kepler-7", [["Settlement"], [], []])
    vega = system("Vega Shoals", [["Mining Outpost"], ["Mining Outpost"]])
    state = position(2, seats={0: player(systems=[full, kepler, vega])})
    rel = [
        state.action_to_struct(a)["card"]
        for a in state.legal_actions()
        if state.action_to_struct(a)["kind"] == "relinquish"
    ]
    assert rel == ["Haven"], "Kepler-7 is not full and Vega Shoals is the newest"
    before = state.scores()[0]
    state.apply(find(state, kind="relinquish"))
    p = payload(state)["players"][0]
    assert [sy["card"] for sy in p["systems"]] == ["Kepler-7", "Vega Shoals"]
    assert p["renown_pile"] == ["Haven"] and p["renown_tokens"] == 1 + 0 + 1
    assert p["discard"] == ["Township", "Mining Outpost", "Strip Mine", "Deep Core Mine"]
    assert state.scores()[0] == before
    assert not has(state, kind="relinquish")


def test_relinquish_loses_the_bounty():
    full = system("Haven", [["Frontier Settlement"], ["Mining Outpost"], ["Mining Outpost"]])
    arcturus = system("Arcturus Gate", [["Mining Outpost"]])
    state = position(2, seats={0: player(systems=[arcturus, full])})
    state.apply(find(state, kind="relinquish"))
    assert payload(state)["pool"] == {}


def test_resource_uses():
    """ "The Resources": 3 manpower or 2 production draw a card; 1 science takes one from the discard."""
    state = position(
        2, pool={"manpower": 3, "production": 2, "science": 1}, seats={0: player(discard=["Metropolis"])}
    )
    labels = {state.action_label(a) for a in state.legal_actions()}
    assert {
        "spend 3 manpower: draw a card",
        "spend 2 production: draw a card",
        "spend 1 science: take Metropolis from the discard pile",
    } <= labels
    state.apply(find(state, kind="retrieve", card="Metropolis"))
    p = payload(state)["players"][0]
    assert p["hand"]["Metropolis"] == 1 and p["discard"] == []


def test_monument_turns_production_into_renown():
    haven = system("Haven", [["Frontier Settlement"], ["Monument"], []])
    state = position(2, seats={0: player(systems=[haven])}, pool={"production": 3})
    before = state.scores()[0]
    state.apply(find(state, kind="use_colony", card="Monument"))
    assert state.scores()[0] == before + 1


# ---------------------------------------------------------------- modes


def test_team_mates_use_each_others_cards_and_share_the_outcome():
    """ "Alternative game modes": a mate's unused colonies and ships; the team's combined score."""
    mate = player(
        ships=["Mining Barge"], systems=[system("Haven", [["Frontier Settlement"], ["Mining Outpost"], []])]
    )
    state = position(4, "team", seats={2: mate})
    a = find(state, kind="use_ship", owner=2)
    assert state.action_label(a) == "use your mate's Mining Barge (ship 1): + 2 production"
    state.apply(a)
    assert payload(state)["players"][2]["ships"][0]["used"] is True
    assert has(state, kind="use_colony", owner=2, card="Mining Outpost")
    assert not has(state, owner=1)
    clone = state.clone()
    clone.playout(seed=1)
    r = clone.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] + r[1] == 1.0


def test_team_variant_only_for_four_players():
    from orrery.core_ext import UnknownGameError, load_game

    with pytest.raises(UnknownGameError):
        load_game("take_the_galaxy", players=2, variant="team")


TAKES = ("claim", "study_anomaly", "solve_event")


def _takes(state):
    return [a for a in state.legal_actions() if state.action_to_struct(a)["kind"] in TAKES]


def test_no_first_claim_variant_bars_only_the_first_players_first_turn():
    """The no_first_claim variant (Orrery's catch-up rule, docs section 4): the same deal as `standard`,
    but seat 0 takes no card from explored space in its first turn; from turn 2 on the rules are equal."""
    import random

    _, standard = started(2, "standard", seed=0)
    _, variant = started(2, "no_first_claim", seed=0)
    assert payload(standard) == payload(variant), "the same set-up and deal"
    assert _takes(standard), "seed 0 lets the first player claim in its first turn in `standard`"
    rng = random.Random(5)
    while payload(variant)["turn"] == 1:  # a whole first turn: using colonies adds no card to take
        assert not _takes(variant), [variant.action_label(a) for a in _takes(variant)]
        actions = [a for a in variant.legal_actions() if a != 0] or [0]
        variant.apply(rng.choice(actions))
        if payload(variant)["turn_steps"] > 30:
            variant.apply(0)
    assert variant.current_player == 1 and payload(variant)["turn"] == 2
    # Seat 1's turns and every later one follow `standard`: the same history gives the same choices.
    mirror = game(2, "standard").state_from_json(variant.to_json().replace('"no_first_claim"', '"standard"'))
    took = 0
    while not variant.is_terminal():
        assert variant.legal_actions() == mirror.legal_actions()
        a = rng.choice(_takes(variant) or variant.legal_actions())  # take whenever allowed
        took += a in _takes(variant)
        variant.apply(a)
        mirror.apply(a)
    assert took > 0 and payload(variant) == payload(mirror)


def test_no_first_claim_variant_only_for_two_players_and_round_trips():
    from orrery.core_ext import UnknownGameError, load_game

    for players in (1, 3, 4):
        with pytest.raises(UnknownGameError):
            load_game("take_the_galaxy", players=players, variant="no_first_claim")
    g, state = started(2, "no_first_claim", seed=0)
    again = g.state_from_json(state.to_json())
    assert again.to_json() == state.to_json() and again.legal_actions() == state.legal_actions()
    assert not _takes(again), "a loaded first turn keeps the rule"


def test_solo_returns_follow_the_renown_goal():
    """Solo (docs, "Solo"): the value is min(1, renown / scale)."""
    g = game(1)
    state = g.new_initial_state(seed=2)
    state.playout(seed=2, use_policy=True)
    score = state.scores()[0]
    assert state.returns() == [min(1.0, max(0.0, score / 100))]


# ---------------------------------------------------------------- hidden information


def test_observation_hides_decks_and_other_hands():
    g, state = started(2)
    obs = state.observation(1).to_dict()["state"]
    assert obs["players"][0]["hand"] is None and obs["players"][0]["hand_size"] == 8
    assert obs["players"][1]["hand"] is not None
    assert set(obs["players"][1]["draw_pile"]) == {None} and set(obs["space_deck"]) == {None}
    assert "shuffle_streams" not in obs


def test_determinize_reshuffles_the_observers_own_deck():
    g, state = started(2)
    piles = {tuple(payload(state.determinize(0, seed=k))["players"][0]["draw_pile"]) for k in range(5)}
    assert len(piles) > 1
    sample = state.determinize(0, seed=9)
    assert sample.observation(0) == state.observation(0)


def test_golden_policy_game():
    """A fixed-seed policy game: pins the whole engine (update only with a reasoned rules change)."""
    g = game(2)
    state = g.new_initial_state(seed=42)
    moves = state.playout(seed=42, use_policy=True)
    assert (moves, state.scores()) == GOLDEN


GOLDEN = (501, [39.0, 68.0])  # catalogue revision 3: the 2-player deck has A.I. Strike and Stellar Crackdown


# ---------------------------------------------------------------- the loader


def test_loader_rejects_inconsistent_positions():
    g, state = started(2)
    good = state.to_dict()

    def bad(edit):
        d = json.loads(json.dumps(good))
        edit(d["state"])
        with pytest.raises(StateFormatError):
            g.state_from_json(json.dumps(d))

    bad(lambda s: s["players"][0]["draw_pile"].append("Metropolis"))  # a 32nd card
    bad(lambda s: s["space_discard"].append(s["explored"][0]["card"]))  # a space card twice
    bad(lambda s: s["players"][0]["systems"][0]["slots"].__setitem__(1, ["Settlement"]))  # civ on deposit
    bad(lambda s: s.update(phase="payment"))  # a payment phase without a payment
    bad(lambda s: s.update(current=2))
    bad(lambda s: s["space_deck"].reverse())  # Fringe on top
    bad(lambda s: s["pool"].update(credits=1))
    bad(lambda s: s["explored"].append({"card": "Dyson Remnant", "used": False}))  # a 4-player card


def test_team_mates_share_bounties_and_banked_renown():
    """ "Alternative game modes": "This includes resources from bounty worlds and even RP points for the
    intergalactic investors event"."""
    haven = system("Haven", [["Frontier Settlement"], [], []])
    mate = player(
        systems=[haven, system("Arcturus Gate", [["Mining Outpost"]])], renown_pile=["Singing Comet"]
    )
    state = position(4, "team", seats={0: player(), 2: mate}, explored=["Galactic Investors"])
    state.apply(find(state, kind="take_bounty", owner=2, resource="production"))
    assert payload(state)["players"][2]["systems"][1]["bounty"] == {"production": 1}
    assert payload(state)["pool"] == {"production": 1}
    state.apply(find(state, kind="opportunity"))
    s = payload(state)
    assert s["players"][2]["renown_tokens"] == -1 and s["players"][0]["hand_size"] == 2
    opponents = position(4, "team", seats={0: player(), 1: mate}, explored=["Galactic Investors"])
    assert not has(opponents, kind="opportunity"), "an opponent's renown is not the team's"
    assert not has(opponents, kind="take_bounty")
