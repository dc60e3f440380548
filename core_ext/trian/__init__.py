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
- codec.pxi: the Python side: JSON, action structs and labels, text render, registration
- tensor.py: the observation tensor; format_v1.py: the retired orrery.state/1 payload
"""

from orrery.core_ext.trian.engine import *  # noqa: F403 - the compiled core's public names
