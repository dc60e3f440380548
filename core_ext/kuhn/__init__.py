"""Kuhn poker for 2 to 5 players: the small game that tests search and the service.

- state.pxd: the state struct
- engine.pyx: rules, scoring, hidden information, JSON and registration in one small file
- tensor.py: the observation tensor
"""

from orrery.core_ext.kuhn.engine import *  # noqa: F403 - the compiled core's public names
