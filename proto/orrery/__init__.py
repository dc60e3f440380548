"""Orrery: game-tree search AI for space board games, served over gRPC.

One import namespace for the whole product. The repository keeps the folders of the design card, and the
build maps each under this package (setup.py's PACKAGE_DIRS):

    orrery.core_ext  <- core_ext/   the Cython game cores and the game registry
    orrery.search    <- search/     information-set MCTS, bots, Ray backends, tournaments
    orrery.service   <- service/    the gRPC service, its metrics and the `orrery` command line
    orrery.openspiel <- openspiel/  the OpenSpiel bridge (optional extra `openspiel`)
    orrery.v1        <- proto/orrery/v1/   code generated from the wire contract at build time

This file lives beside the .proto files because the proto package `orrery.v1` is the Python package
`orrery.v1`: the proto path is the import path.
"""
