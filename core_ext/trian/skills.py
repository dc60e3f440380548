"""Galaxy of Trian's races and skills in words: what each skill does, for pictures and players.

`core_ext/trian/skills.json` holds one entry per skill (rulebook section VIII, shortened, with the
engine's rulings of docs/rules/trian.md section 14): its `name` (as the state's `racial_skills` and
`universal_skills` spell it), a `short` effect for a board picture and the full `text`. The names are
the engine's (`RACE_NAMES`, `SKILL_NAMES`, `UNIVERSAL_NAMES`); tests/test_trian_board.py checks they
match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

SKILLS_PATH = Path(__file__).resolve().parent / "skills.json"


@dataclass(frozen=True)
class Skill:
    name: str
    race: str  # the race whose skill it is; "" for a universal skill
    kind: str  # "starting" (active from the start), "module" (unlocked for 10 credits), "universal" (5)
    short: str  # a few words for a picture
    text: str  # what it does, in full


def _load() -> dict[str, Skill]:
    data = json.loads(SKILLS_PATH.read_text(encoding="utf-8"))
    skills = {s["name"]: Skill(s["name"], "", "universal", s["short"], s["text"]) for s in data["universal"]}
    for race in data["races"]:
        for k, s in enumerate(race["skills"]):
            kind = "starting" if k < 2 else "module"
            skills[s["name"]] = Skill(s["name"], race["name"], kind, s["short"], s["text"])
    return skills


SKILLS: dict[str, Skill] = _load()
RACES: tuple[str, ...] = tuple(
    r["name"] for r in json.loads(SKILLS_PATH.read_text(encoding="utf-8"))["races"]
)


def skill(name: str) -> Skill:
    """The skill called `name`; KeyError for a name the catalogue does not have."""
    return SKILLS[name]


def tooltip(name: str) -> str:
    """One line saying what the skill is and does: "Harvester (MAEPHOS, starting skill): ..."."""
    s = SKILLS[name]
    whose = f"{s.race}, {s.kind} skill" if s.race else "universal skill"
    return f"{s.name} ({whose}): {s.text}"
