"""Galaxy of Trian: New Order (variants beginner, ships, full), one compiled core.

Where each rule lives (every .pxi is included by engine.pyx, in this order; docs/rules/trian.md records
every decision the rulebook leaves open):

- state.pxd: the state struct; catalogue.json / catalogue.pxi: the tile catalogue as C tables
- races.pxi and race_<name>.pxi: race evolution (variant full), one file per race
- actions.pxi: action ids, encoded and decoded in one place
- board.pxi, pieces.pxi: geometry, cell index, frontier, union-find; where the pieces stand
- bags.pxi, areas.pxi, ships.pxi, battles.pxi, events.pxi: minerals and combat tokens, closed areas,
  ships, battles, the events a placement sets off
- turn.pxi, phase1.pxi, phase2.pxi, phase3.pxi: set-up, the turn and its three phases
- scoring.pxi: the end of the game: plundering, scores and ranks
- heuristics.pxi: the evaluation, the default policy and the fast playout
- hidden.pxi: what a seat observes, and determinization
- json_dump.pxi: the struct as JSON facts (the public format's names); json_load.pxi: JSON read back into
  a struct, field by field, with the shared readers (core_ext/json_fields.pxd); json_checks.pxi: the
  loaded state checked as a whole (conservation, pending decisions, what an observation may show)
- describe.pxi: ACTION_BLOCKS (the action-id table, from the constants) and the action structs and labels
- render.pxi: the text picture; registry.pxi: TrianGame and its hooks, make_game, the test-only hooks and
  the GameInfo registration
- tensor.py: the observation tensor; format_v1.py: the retired orrery.state/1 payload
"""

from orrery.core_ext.trian.engine import *  # noqa: F403 - the compiled core's public names
