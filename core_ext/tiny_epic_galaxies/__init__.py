"""Tiny Epic Galaxies with Beyond the Black, one compiled core.

Where each rule lives (every .pxi is included by engine.pyx; docs/rules/tiny_epic_galaxies.md records
every decision the rulebook leaves open and every designed card):

- state.pxd: the state struct; catalogue.json: planets, missions and the expansion's cards
- engine.pyx: set-up, the turn's flow, hidden information and determinization
- dice.pxi: the active player's dice, resolving a face, following
- planets.pxi: the 40 planet actions
- missions.pxi: points, secret missions, ranks with tie-breaks, the evaluation and playout policy
- rogue.pxi: the solo Rogue galaxy
- btb.pxi / btb_codec.pxi: Beyond the Black's rules / its part of the JSON
- codec.pxi: the Python side: JSON, action structs and labels, text render, registration
- tensor.py: the observation tensor
"""

from orrery.core_ext.tiny_epic_galaxies.engine import *  # noqa: F403 - the compiled core's public names
