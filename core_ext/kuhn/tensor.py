"""Kuhn poker's observation tensor (layout: docs/rules/kuhn.md, "Observation tensor")."""

from orrery.core_ext._tensor import OBSERVER, Obj, OneHot, Seq, TensorSpec

MAX_CARDS = 6  # cards 0..players with at most 5 players
MAX_HISTORY = 8  # the longest history (docs/rules/kuhn.md)

SPEC = TensorSpec(
    global_part=Obj(
        OBSERVER, ("history", Seq(MAX_HISTORY, OneHot((0, 1), label="0 check/fold, 1 bet/call")))
    ),
    seats_key="cards",
    seat_block=OneHot(range(MAX_CARDS), label="cards 0..5 (null where hidden)"),
)
