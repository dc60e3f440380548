"""Scenario helpers shared by the race tests of MAEPHOS, ORVIN, SYLPHEX and XEMH (variant "full")."""

from __future__ import annotations

from test_trian import Scenario

MAEPHOS, ORVIN, SYLPHEX, XEMH = 4, 5, 6, 7
STARTING = 0b11  # racial skills 0 and 1


def full(faces: list[str], **kw) -> Scenario:
    return Scenario(faces, variant="full", **kw)


def set_race(sc: Scenario, seat: int, race: int, *modules: int, other: int | None = None) -> None:
    """Give `seat` the race with its 2 starting skills plus the racial skills `modules` (2, 3, 4); the
    other seat of a 2-player game gets `other` (default: another race of this file's four)."""
    d = sc.data()
    races, skills = d["player_race"], d["player_skills"]
    rest = other if other is not None else next(r for r in (MAEPHOS, ORVIN, SYLPHEX, XEMH) if r != race)
    races[seat], races[1 - seat] = race, rest
    skills[seat] = STARTING | sum(1 << k for k in modules)
    skills[1 - seat] = STARTING
    sc.edit(player_race=races, player_skills=skills)


def set_tokens(sc: Scenario, seat: int, **tokens: int) -> None:
    """Put special tokens on placed tiles: set_tokens(sc, A, tok_at_0=3)."""
    d = sc.data()
    fields = {}
    for name, tile in tokens.items():
        key = f"player_{name}"
        d[key][seat] = tile
        fields[key] = d[key]
    sc.edit(**fields)


def give_minerals(sc: Scenario, seat: int, **counts: int) -> None:
    """Set a seat's minerals of the named colours, taking them from (or returning them to) the bag."""
    d = sc.data()
    fields = {"bag": d["bag"]}
    for i, color in enumerate(("red", "blue", "green", "yellow")):
        if color in counts:
            key = f"player_minerals_{color}"
            d["bag"][i] -= counts[color] - d[key][seat]
            d[key][seat] = counts[color]
            fields[key] = d[key]
    sc.edit(**fields)


def mineral(sc: Scenario, seat: int, color: str) -> int:
    return sc.data()[f"player_minerals_{color}"][seat]


def token(sc: Scenario, seat: int, k: int) -> int:
    return sc.data()[f"player_tok_at_{k}"][seat]


def kinds(sc: Scenario) -> list[dict]:
    return [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]


def attack_along_the_row(sc: Scenario, dice: list[int] | None = None, *, declare: bool = True) -> None:
    """The ship clash the race tests share: A places tile 4 of a row of space tiles, moves its ship
    from x=0 to x=1 next to B's ship at x=2 and attacks it. With `dice` they are fixed first and, if
    `declare`, both sides then declare no combat tokens (the clash is rolled)."""
    sc.place(4, 0, "space")
    sc.act("ship_move", to={"x": 1, "y": 0})
    if dice is not None:
        sc.fix_dice(dice)
    sc.act("ship_target", x=2)
    if dice is not None and declare:
        sc.act("declare", plus=0, rerolls=0)
        sc.act("declare", plus=0, rerolls=0)
