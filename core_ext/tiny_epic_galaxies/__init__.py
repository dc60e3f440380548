"""Tiny Epic Galaxies with Beyond the Black, one compiled core.

Where each rule lives (every .pxi is included by engine.pyx; docs/rules/tiny_epic_galaxies.md records
every decision the rulebook leaves open and every designed card):

- state.pxd: the state struct; catalogue.json: planets, missions and the expansion's cards
- engine.pyx: constants, the catalogue, small helpers, set-up, the dispatch by pending task, the GameOps
  table
- turn.pxi: the turn's flow (turns, rounds, settling automatic steps)
- dice.pxi: the active player's dice, resolving a face, following
- planets.pxi: the 40 planet actions
- rogue.pxi: the solo Rogue galaxy
- btb.pxi: Beyond the Black's rules (pilots, exploring, danger tracks, the harder Rogue galaxies)
- scoring.pxi: how the game is scored: points toward 21, the secret missions, Beyond the Black's
  badges, final scores, ranks with tie-breaks, returns
- hidden.pxi: hidden information (observe) and determinization, Beyond the Black's hidden cards
- heuristics.pxi: the evaluation and the default playout policy
- json_dump.pxi / json_load.pxi / json_checks.pxi: struct -> JSON, JSON -> struct field by field, the
  whole-state checks after loading; btb_json.pxi: Beyond the Black's part of the JSON
- describe.pxi: action structs and labels, ACTION_BLOCKS (the action-id table)
- render.pxi: the text picture
- registry.pxi: the Game subclass and its hooks, make_game, test-only hooks, the GameInfo registration
- tensor.py: the observation tensor
"""

from orrery.core_ext.tiny_epic_galaxies.engine import *  # noqa: F403 - the compiled core's public names
