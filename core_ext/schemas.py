"""JSON Schemas of the public state and observation formats, one file per game (<game>/state.schema.json).

Each schema describes orrery.<game>.state/N and orrery.<game>.observation/N; the game's rules doc
(docs/rules/<game>.md) explains every field, and the game's loader checks what a schema cannot (that
tiles, pieces and tokens add up, that a pending decision fits the board).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from orrery.core_ext._registry import game_info


def load_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of one game's documents, e.g. load_schema("trian")."""
    package = game_info(game).module.rpartition(".")[0]  # each game's folder holds its schema
    text = resources.files(package).joinpath("state.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
