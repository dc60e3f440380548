"""Take The Galaxy (standard, team and solo variants), one compiled core.

Where each rule lives (every .pxi is included by engine.pyx; docs/rules/take_the_galaxy.md records every
decision the rulebook leaves open and every designed card):

- state.pxd: the state struct; catalogue.json / catalogue.pxi: the designed catalogue as C arrays
- rules.pxi: set-up, the five phases, every action-phase choice, and scoring
- search.pxi: hidden information (observe, determinize) and search support (evaluate, playout policy)
- codec.pxi: the Python side: JSON, action structs and labels, text render, registration
- tensor.py: the observation tensor
"""

from orrery.core_ext.take_the_galaxy.engine import *  # noqa: F403 - the compiled core's public names
