"""Take The Galaxy's observation tensor (layout: docs/rules/take_the_galaxy.md, "Observation tensor")."""

from orrery.core_ext._tensor import OBSERVER, Counts, Flag, Length, Obj, OneHot, Scalar, Seat, Seq, TensorSpec
from orrery.core_ext.take_the_galaxy.engine import CARD_NAMES, RESOURCE_NAMES, SPACE_NAMES

# The engine's bounds (core_ext/take_the_galaxy/state.pxd): explored cards, systems, slots, ships.
EXPLORED, SYSTEMS, SLOTS, SHIPS = 5, 4, 4, 8
DECK = 31  # cards in each player deck
SPACE_DECK = 48
POOLED = RESOURCE_NAMES[:3]  # manpower, production, science (credits are cards)
PLAYER_CARDS = OneHot(CARD_NAMES, label=f"the {len(CARD_NAMES)} player cards in catalogue order")
SPACE_CARD = OneHot(SPACE_NAMES, label=f"the {len(SPACE_NAMES)} space cards in catalogue order (Haven last)")


def _card_counts(cap: int) -> Counts:
    return Counts(CARD_NAMES, cap=cap, label="the player cards in catalogue order")


GLOBAL = Obj(
    OBSERVER,
    ("turn", Scalar(100)),
    ("phase", OneHot(("frontier", "action", "payment", "over"))),
    ("current", Seat()),
    ("turn_steps", Scalar(50)),
    ("claimed_this_turn", Flag()),
    ("relinquished_this_turn", Flag()),
    ("pool", Counts(POOLED, cap=20)),
    (
        "payment",
        Obj(("cards_left", Scalar(10)), ("reason", OneHot(("build", "space pirates"))), present=True),
    ),
    ("space_deck", Length(SPACE_DECK)),
    ("explored", Seq(EXPLORED, Obj(("card", SPACE_CARD), ("used", Flag())))),
    ("space_discard", Counts(SPACE_NAMES, cap=1, label="the space cards")),
)

SYSTEM = Obj(
    ("card", SPACE_CARD),
    # a slot's stack (bottom first) as the set of its colonies: upgrades only rise, so the set gives the order
    ("slots", Seq(SLOTS, Counts(CARD_NAMES, cap=1, label="the player cards"))),
    ("used", Seq(SLOTS, Flag())),
    ("bounty", Counts(RESOURCE_NAMES, cap=3)),
)

PLAYER = Obj(
    ("frontier", OneHot(("Frontier Settlement", "Frontier Mine"))),
    ("hand", _card_counts(3)),  # null (another seat's hand): all 0; hand_size still says how many
    ("hand_size", Scalar(DECK)),
    ("draw_pile", Length(DECK)),
    ("discard", _card_counts(3)),
    ("systems", Seq(SYSTEMS, SYSTEM)),
    ("ships", Seq(SHIPS, Obj(("card", PLAYER_CARDS), ("used", Flag())))),
    ("sold_ships", _card_counts(4)),
    ("renown_pile", Counts(SPACE_NAMES, cap=1, label="the space cards")),
    ("renown_tokens", Scalar(30, low=-10)),
)

SPEC = TensorSpec(global_part=GLOBAL, seats_key="players", seat_block=PLAYER, not_encoded=("version",))
