"""Positions for the Tiny Epic Galaxies scenario tests, built through the facts-only JSON format."""

from __future__ import annotations

import json
from typing import Any

from orrery.core_ext import load_game

DEFAULT_ROW = ["Jakks", "Vici-KS156", "Drewkaiden", "Leandra", "Tifnod", "Vizcarra"]
SPARE_ROW = ["MJ-120210", "Hoefker", "Mared", "Zalax", "Helios", "Lureena", "Jorg", "Gort"]


def game(players: int = 2):
    return load_game("tiny_epic_galaxies", players=players)


def base_dict(players: int = 2, seed: int = 1) -> dict[str, Any]:
    """Round 1, seat 0 to move, every seat having kept its first dealt mission."""
    st = game(players).new_initial_state(seed=seed)
    while st.to_dict()["state"]["round"] == 0:
        st.apply(20)
    return st.to_dict()


def position(
    players: int = 2,
    *,
    row: list[str] | None = None,
    gal: dict[int, dict[str, Any]] | None = None,
    dice: dict[str, int] | None = None,
    pending: list[dict[str, Any]] | None = None,
    seed: int = 1,
    **state_fields: Any,
):
    d = base_dict(players, seed)
    s = d["state"]
    used = {p for g in (gal or {}).values() for p in g.get("colonies", [])}
    size = len(s["row"])
    if row is None:
        row = [p for p in DEFAULT_ROW + SPARE_ROW if p not in used][:size]
    s["row"] = list(row) + [p for p in SPARE_ROW if p not in used and p not in row][: size - len(row)]
    for g, fields in (gal or {}).items():
        s["galaxies"][g].update(fields)
    if dice is not None:
        s["dice"]["inactive"] = dice
    if pending is not None:
        s["pending"] = pending
    s.update(state_fields)
    return game(players).state_from_json(json.dumps(d))


def do(st, kind: str, **fields: Any) -> int:
    """Apply the legal action with this kind and these fields (exactly one must match)."""
    want = {"kind": kind, **fields}
    matches = [a for a in st.legal_actions() if _matches(st.action_to_struct(a), want)]
    assert len(matches) == 1, (
        f"{want} matches {matches} among {[st.action_label(a) for a in st.legal_actions()]}"
    )
    st.apply(matches[0])
    return matches[0]


def can(st, kind: str, **fields: Any) -> bool:
    want = {"kind": kind, **fields}
    return any(_matches(st.action_to_struct(a), want) for a in st.legal_actions())


def _matches(have: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(have.get(k) == v for k, v in want.items())


def st_of(st) -> dict[str, Any]:
    return st.to_dict()["state"]


def galaxy(st, g: int) -> dict[str, Any]:
    return st_of(st)["galaxies"][g]


def decision(st) -> str:
    return st_of(st)["pending"][-1]["decision"]
