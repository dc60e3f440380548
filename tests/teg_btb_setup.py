"""Positions for the Beyond the Black scenario tests, built through the facts-only JSON format."""

from __future__ import annotations

import json
from typing import Any

from teg_setup import DEFAULT_ROW, SPARE_ROW

from orrery.core_ext import load_game

BTB = "beyond_the_black"
NO_HANGAR = {"Aurora": None, "Intrepid": None, "Ambition": None, "Nexus": None}
PILOTS = ["Bulwark", "Hesper Vale", "Grim Oduya", "Rook", "Tamsin Kael", "Hollis Gray"]


def game(players: int = 2, variant: str = BTB):
    return load_game("tiny_epic_galaxies", players=players, variant=variant)


def base_dict(players: int = 2, seed: int = 1, variant: str = BTB) -> dict[str, Any]:
    """Round 1, seat 0 to move, every seat having kept its first dealt mission."""
    st = game(players, variant).new_initial_state(seed=seed)
    while st.to_dict()["state"]["round"] == 0:
        st.apply(20)
    return st.to_dict()


def position(
    players: int = 2,
    *,
    variant: str = BTB,
    row: list[str] | None = None,
    gal: dict[int, dict[str, Any]] | None = None,
    dice: dict[str, int] | None = None,
    pending: list[dict[str, Any]] | None = None,
    pilot_row: list[str | None] | None = None,
    exploration_row: list[str] | None = None,
    seed: int = 1,
    **state_fields: Any,
):
    """A BtB position: planets from the base game's default row unless given, the pilot row `PILOTS`
    (the shielded and danger-runner pilots, who change nothing here) unless given; the other seats have
    no culture unless given, so nobody is asked to follow."""
    d = base_dict(players, seed, variant)
    s = d["state"]
    others = {g: {"culture": 0} for g in range(1, players)}
    gal = {g: {**others.get(g, {}), **fields} for g, fields in {**others, **(gal or {})}.items()}
    used = {p for g in (gal or {}).values() for p in g.get("colonies", [])}
    size = len(s["row"])
    if row is None:
        row = [p for p in DEFAULT_ROW + SPARE_ROW if p not in used][:size]
    s["row"] = list(row) + [p for p in SPARE_ROW if p not in used and p not in row][: size - len(row)]
    size = len(s["beyond_the_black"]["pilot_row"])
    taken = {
        n
        for g in (gal or {}).values()
        for n in [h["pilot"] for h in (g.get("hangar") or {}).values() if h] + g.get("retired_pilots", [])
    }
    if pilot_row is None:
        pilot_row = [p for p in PILOTS if p not in taken][:size]
    s["beyond_the_black"]["pilot_row"] = list(pilot_row) + [None] * (size - len(pilot_row))
    s["beyond_the_black"]["exploration_row"] = list(exploration_row or [])
    for g, fields in (gal or {}).items():
        if "hangar" in fields:
            fields = {**fields, "hangar": {**NO_HANGAR, **fields["hangar"]}}
        s["galaxies"][g].update(fields)
    if dice is not None:
        s["dice"]["inactive"] = dice
    if pending is not None:
        s["pending"] = pending
    s.update(state_fields)
    return game(players, variant).state_from_json(json.dumps(d))


ROUND_CAP = 60  # the engine's safety limit on rounds (docs/rules/tiny_epic_galaxies.md, section 4)


def finished(players: int = 2, **kwargs: Any):
    """A finished game (for scoring): over at the round cap, nothing pending. Not triggered: a trigger
    needs a galaxy with 21 points (issue 26), which would change the scores these tests look at."""
    return position(players, over=True, trigger=None, round=ROUND_CAP, pending=[], dice={}, **kwargs)


def orbit(planet: str, space: int = 0) -> dict[str, Any]:
    return {"planet": planet, "track": space}


def surface(planet: str) -> dict[str, Any]:
    return {"planet": planet, "surface": True}


def danger(card: str, space: int = 0) -> dict[str, Any]:
    return {"danger": card, "track": space}


def flying(ship_kind: str, pilot: str, ship: int = 0) -> dict[str, Any]:
    return {"hangar": {ship_kind: {"pilot": pilot, "ship": ship}}}
