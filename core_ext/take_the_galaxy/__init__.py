"""Take The Galaxy (standard, team and solo variants), one compiled core.

Where each rule lives (every .pxi is included by engine.pyx; docs/rules/take_the_galaxy.md records every
decision the rulebook leaves open and every designed card):

- state.pxd: the state struct; engine.pyx: constants (phases, action ids), the includes, the GameOps table
- catalogue.json / catalogue.pxi: the designed catalogue as C arrays
- rules.pxi: helpers every phase uses (team mates, events in force, cards moving, costs and conditions)
- setup.pxi: the set-up and the frontier choice; turn.pxi: exploration, draw, reset and end phases
- actions.pxi: the action phase and payments: every choice's legal ids and its effect
- scoring.pxi: the end of the game: renown, scores, ranks and returns (solo goal, team outcome)
- hidden.pxi: hidden information (observe, determinize)
- heuristics.pxi: search support (evaluate, the playout policy)
- json_dump.pxi / json_load.pxi / json_checks.pxi: the JSON format (struct -> JSON, JSON -> struct field
  by field with the shared readers of json_fields.pxd, whole-state checks after loading)
- describe.pxi: the action table ACTION_BLOCKS, action structs and labels
- render.pxi: the text picture; registry.pxi: the Game class and its hooks, make_game, registration
- tensor.py: the observation tensor
"""

from orrery.core_ext.take_the_galaxy.engine import *  # noqa: F403 - the compiled core's public names
