"""Scenario helpers shared by the race tests of MAEPHOS, ORVIN, SYLPHEX and XEMH (variant "full")."""

from __future__ import annotations

from test_trian import Scenario, cell_of, set_minerals, set_skills, tile_index

MAEPHOS, ORVIN, SYLPHEX, XEMH = 4, 5, 6, 7
STARTING = 0b11  # racial skills 0 and 1


def full(faces: list[str], **kw) -> Scenario:
    return Scenario(faces, variant="full", **kw)


def set_race(sc: Scenario, seat: int, race: int, *modules: int, other: int | None = None) -> None:
    """Give `seat` the race with its 2 starting skills plus the racial skills `modules` (2, 3, 4); the
    other seat of a 2-player game gets `other` (default: another race of this file's four)."""
    rest = other if other is not None else next(r for r in (MAEPHOS, ORVIN, SYLPHEX, XEMH) if r != race)

    def change(d: dict) -> None:
        set_skills(d["players"][seat], race, STARTING | sum(1 << k for k in modules))
        set_skills(d["players"][1 - seat], rest, STARTING)

    sc.edit(change)


def set_tokens(sc: Scenario, seat: int, **tokens: int) -> None:
    """Put special tokens on the galaxy's tiles by number: set_tokens(sc, A, tok_at_0=3) puts slot 0 on
    the fourth tile placed."""

    def change(d: dict) -> None:
        placed = {t["slot"]: t for t in d["players"][seat]["special_tokens"]}
        for name, tile in tokens.items():
            slot = int(name.removeprefix("tok_at_"))
            placed[slot] = dict(cell_of(d, tile), slot=slot)
        d["players"][seat]["special_tokens"] = [placed[k] for k in sorted(placed)]

    sc.edit(change)


def give_minerals(sc: Scenario, seat: int, **counts: int) -> None:
    """Set a seat's minerals of the named colours, taking them from (or returning them to) the bag."""
    sc.edit(lambda d: set_minerals(d, seat, **counts))


def mineral(sc: Scenario, seat: int, color: str) -> int:
    return sc.player(seat)["minerals"][color]


def token(sc: Scenario, seat: int, k: int) -> int:
    """The number of the galaxy tile holding special token `k` of `seat`, 255 while in the supply."""
    d = sc.data()
    placed = [t for t in d["players"][seat]["special_tokens"] if t["slot"] == k]
    return tile_index(d, placed[0]) if placed else 255


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
