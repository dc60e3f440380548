# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Take The Galaxy: the standard, random-set-up and 2-against-2 team games, solo to 4 players, as a
compiled core.

Rules: ../shared/rules/take_the_galaxy.md. The card catalogue is designed by us (the rulebook's pictures
did not survive) and lives in core_ext/take_the_galaxy/catalogue.json; docs/rules/take_the_galaxy.md lists
every card with the reasoning for its numbers and every rules decision with the section it rests on.

Parts (the file map: __init__.py): catalogue.pxi; the rules in rules.pxi (shared helpers), setup.pxi,
turn.pxi, actions.pxi and scoring.pxi; hidden.pxi (observe, determinize); heuristics.pxi (evaluate, the
playout policy); the Python side in json_dump.pxi, json_load.pxi, json_checks.pxi, describe.pxi (the
action table ACTION_BLOCKS, structs and labels), render.pxi and registry.pxi (the Game class, make_game,
registration).
"""
import json
from pathlib import Path

from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, uint64_t

from orrery.core_ext.types cimport action_t, MAX_PLAYERS, TERMINAL_PLAYER
from orrery.core_ext.rng cimport Rng, rng_seed, rng_seed2, rng_below, rng_next, rng_uniform
from orrery.core_ext.game cimport GameOps, GameParams, Game, Position, State, rank_returns
from orrery.core_ext.json_fields cimport show, fail, read_object, read_int, read_bool, read_name, read_list
from orrery.core_ext.take_the_galaxy.state cimport (
    TgState, TgPlayer, TgSystem, TG_TYPES, TG_DECK, TG_SPACE, TG_HAVEN, TG_EXPLORED, TG_MAX_SYSTEMS,
    TG_SLOTS, TG_STACK, TG_MAX_SHIPS, TG_RENOWN_PILE, TG_RES, TG_UNKNOWN, TG_NONE,
)


# ---------------------------------------------------------------- constants

cdef enum:
    # phases
    PH_FRONTIER = 1          # set-up: the current seat picks its frontier colony
    PH_ACTION = 2
    PH_PAY = 3               # the current seat discards pay_left cards, one decision each
    PH_OVER = 4
    # resources (pool indexes; credits are index 3 in effects and bounties only)
    R_M = 0
    R_P = 1
    R_S = 2
    R_C = 3
    # colony kinds
    KIND_CIV = 0
    KIND_MINING = 1
    KIND_UTILITY = 2
    KIND_SHIP = 3
    # slot types
    SLOT_B = 0
    SLOT_D = 1
    # space card kinds and sectors
    SK_SYSTEM = 0
    SK_ANOMALY = 1
    SK_EVENT = 2
    SEC_CORE = 0
    SEC_EXPANSE = 1
    SEC_FRINGE = 2
    # event effects (bits)
    EF_MIGRATION = 1
    EF_PIRATES = 2
    EF_INVESTORS = 4
    EF_GUILDSHIP = 8
    EF_BURST = 16
    EF_RACE = 32
    EF_STRIKE = 64
    EF_CRACKDOWN = 128
    EF_MECH = 256
    EF_NEXT = 512
    EF_ION = 1024
    # variants
    V_STANDARD = 0
    V_TEAM = 1
    V_RANDOM = 2
    V_NO_FIRST_CLAIM = 3     # standard set-up, 2 players, the first player's first turn takes no card
    # action ids (docs/rules/take_the_galaxy.md, "Action encoding")
    A_END = 0
    A_FRONTIER = 1           # + 0 Frontier Settlement, 1 Frontier Mine
    A_DISCARD = 3            # + card type (a payment micro-step)
    A_RETRIEVE = 27          # + card type: 1 science, the card from the discard pile to the hand
    A_DRAW_M = 51            # 3 manpower: draw 1
    A_DRAW_P = 52            # 2 production: draw 1
    A_SOLVE = 53             # + explored position: study an anomaly or solve an event
    A_OPPORT = 58            # + explored position: use an opportunity
    A_SELL = 63              # + own ship index: The Next Step
    A_RELINQ = 71            # + system index
    A_USE_SHIP = 75          # + owner (0 self, 1 team mate) * 8 + ship index
    A_USE_COLONY = 91        # + owner * 16 + system * 4 + slot
    A_BOUNTY = 123           # + owner * 16 + system * 4 + resource (M, P, S, C)
    A_BUILD_SHIP = 155       # + card type
    A_UPGRADE = 179          # + (system * 4 + slot) * 24 + card type
    A_BUILD = 563            # + (target * 4 + slot) * 24 + card type; target 0-3 own system, 4-8 explored
    MAX_ACTIONS = 1427
    TURN_STEP_CAP = 400      # choices per turn before only "end turn" is left (random-playout safety)
    MAX_GAME_LENGTH = 20000
    POOL_CAP = 200
    # random streams
    STREAM_SPACE = 1
    STREAM_DECK = 10         # + seat: the initial shuffle of each player deck
    STREAM_SHUFFLE = 20      # + seat: later reshuffles of the discard pile

VARIANT_IDS = {"standard": V_STANDARD, "team": V_TEAM, "random": V_RANDOM, "no_first_claim": V_NO_FIRST_CLAIM}
RESOURCE_NAMES = ("manpower", "production", "science", "credits")
KIND_NAMES = ("civilization", "mining", "utility", "ship")
SECTOR_NAMES = ("core", "expanse", "fringe")
SPACE_KIND_NAMES = ("system", "anomaly", "event")
_EFFECTS = {"migration": EF_MIGRATION, "pirates": EF_PIRATES, "investors": EF_INVESTORS,
            "guildship": EF_GUILDSHIP, "burst": EF_BURST, "race": EF_RACE, "strike": EF_STRIKE,
            "crackdown": EF_CRACKDOWN, "mech": EF_MECH, "next_step": EF_NEXT, "ion_storm": EF_ION}

include "catalogue.pxi"
include "rules.pxi"
include "setup.pxi"
include "turn.pxi"
include "actions.pxi"
include "scoring.pxi"
include "hidden.pxi"
include "heuristics.pxi"


cdef GameOps TTG_OPS
TTG_OPS.name = "take_the_galaxy"
TTG_OPS.state_size = sizeof(TgState)
TTG_OPS.max_legal_actions = MAX_ACTIONS
TTG_OPS.max_game_length = MAX_GAME_LENGTH
TTG_OPS.num_distinct_actions = MAX_ACTIONS  # ids are < MAX_ACTIONS (A_BUILD block last: ACTION_BLOCKS)
TTG_OPS.init = ttg_init
TTG_OPS.current_player = ttg_current_player
TTG_OPS.legal_actions = ttg_legal_actions
TTG_OPS.apply = ttg_apply
TTG_OPS.is_terminal = ttg_is_terminal
TTG_OPS.scores = ttg_scores
TTG_OPS.ranks = ttg_ranks
TTG_OPS.observe = ttg_observe
TTG_OPS.determinize = ttg_determinize
TTG_OPS.playout = NULL
TTG_OPS.evaluate = ttg_evaluate
TTG_OPS.policy_action = ttg_policy_action
TTG_OPS.returns = ttg_returns
TTG_OPS.plan_names = TTG_PLAN_NAMES
TTG_OPS.plan_evaluate = ttg_plan_evaluate

include "json_dump.pxi"
include "json_load.pxi"
include "json_checks.pxi"
include "describe.pxi"
include "render.pxi"
include "registry.pxi"
