"""A controlled measure of one Beyond the Black pilot (issue 28): play a tournament config with that pilot
made neutral, then compare its holders' results with the same deals played with the real pilot.

    python search/tournament/examples/swap_card.py run "Vola Quen" CONFIG.toml [tournament run options]
    python search/tournament/examples/swap_card.py compare "Vola Quen" REAL.jsonl SWAPPED.jsonl

`run` copies the compiled Tiny Epic Galaxies core and its catalogue.json into a temporary folder, gives
the pilot no ability there (`colonize_gain` of 0 energy and 0 culture: it keeps its 1 VP, its trained
ships and its badges, so only the ability is taken away), and runs `orrery tournament run CONFIG` with
a `sitecustomize` that makes every process (the tournament's workers too) load that copy of the core.
The working tree and its catalogue are not touched.

`compare` replays both results files and, set by set (the same deal seeds and bot seeds in both, so a
set in which nobody hires the pilot plays the same games), takes the holder's win share of the games in
which the pilot (or its neutral stand-in) ended in a galaxy (flying or retired). The difference is the
ability's effect on its holder with the bots' choices held as equal as the games allow; a per-card
"win rate when held" from one run mixes the card's effect with the positions in which it gets hired.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from patched_core import sitecustomize  # the sibling module: these scripts run from their folder

from orrery.core_ext import load_game

Z = 1.959964
ENGINE = "orrery.core_ext.tiny_epic_galaxies.engine"


@contextlib.contextmanager
def swapped_env(pilot: str) -> Iterator[dict[str, str]]:
    """The environment under which every Python process loads the core with the pilot made neutral."""
    from orrery.core_ext.tiny_epic_galaxies import engine

    source = Path(engine.__file__)
    catalogue = json.loads(engine.CATALOGUE_PATH.read_text())
    found = [p for p in catalogue["beyond_the_black"]["pilots"] if p["name"] == pilot]
    if not found:
        raise SystemExit(f"no pilot named {pilot!r}")
    found[0].update(ability="colonize_gain", params={"energy": 0, "culture": 0}, text="(neutral: no ability)")
    with tempfile.TemporaryDirectory(prefix="orrery-swap-") as tmp:
        core = Path(tmp) / "core"
        core.mkdir()
        shutil.copy2(source, core / source.name)
        (core / "catalogue.json").write_text(json.dumps(catalogue))
        hook = sitecustomize(ENGINE, str(core / source.name))
        (Path(tmp) / "sitecustomize.py").write_text(hook)
        yield dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [tmp, os.environ.get("PYTHONPATH")])))


def run(pilot: str, args: list[str]) -> int:
    with swapped_env(pilot) as env:
        orrery = Path(sys.executable).with_name("orrery")
        return subprocess.call([str(orrery), "tournament", "run", *args], env=env)


def holder_shares(path: str, pilot: str) -> dict[tuple[int, int], list[float]]:
    """(pairing, set) -> the win shares of the galaxies that ended the game holding the pilot."""
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    game = load_game(config["game"], players=config["players"], variant=config.get("variant"))
    shares: dict[tuple[int, int], list[float]] = {}
    for r in lines[1:]:
        if r.get("type") != "game":
            continue
        state = game.new_initial_state(seed=r["deal_seed"])
        for action in r["actions"]:
            state.apply(action)
        galaxies = state.to_dict()["state"]["galaxies"]
        firsts = [s for s, rank in enumerate(r["ranks"]) if rank == 0]
        held = shares.setdefault((r["pairing"], r["set"]), [])
        for seat, gal in enumerate(galaxies):
            pilots = [h["pilot"] for h in gal["hangar"].values() if h] + gal["retired_pilots"]
            if pilot in pilots:
                held.append(1.0 / len(firsts) if seat in firsts else 0.0)
    return shares


def compare(pilot: str, real: str, swapped: str) -> None:
    a = holder_shares(real, pilot)
    with swapped_env(pilot) as env:  # the swapped games replay only under the swapped core
        out = subprocess.check_output([sys.executable, __file__, "holders", pilot, swapped], env=env)
    b = {(k[0], k[1]): v for k, v in json.loads(out)}
    sets = sorted(set(a) & set(b))
    for label, shares in (("real", a), ("neutral", b)):
        flat = [s for key in sets for s in shares[key]]
        mean = statistics.mean(flat)
        print(f"{label:8s}: held in {len(flat)} seat-games of {len(sets)} sets, holder wins {mean:.3f}")
    # Per set: holder's mean win share with the real pilot minus with the neutral one, over the sets in
    # which it was held in both runs (the paired difference; the set is the unit of independence).
    diffs = [statistics.mean(a[k]) - statistics.mean(b[k]) for k in sets if a[k] and b[k]]
    mu = statistics.mean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    only = sum(bool(a[k]) != bool(b[k]) for k in sets)
    print(
        f"paired by set ({len(diffs)} sets held in both runs, {only} in one run only): real - neutral = "
        f"{mu:+.3f}, 95% [{mu - Z * se:+.3f}, {mu + Z * se:+.3f}]"
    )


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) == 4 and sys.argv[1] == "holders":
        print(json.dumps([[list(k), v] for k, v in holder_shares(sys.argv[3], sys.argv[2]).items()]))
    elif len(sys.argv) == 5 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        raise SystemExit(__doc__)
