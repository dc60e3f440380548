"""Counterfactual rule changes for Take The Galaxy's first-seat edge (issue 28, part 5): build a patched
copy of the compiled core in a temporary folder and run a tournament config against it, the working
tree untouched (the same loading trick as swap_card.py).

    python search/tournament/examples/ttg_seat_experiment.py list
    python search/tournament/examples/ttg_seat_experiment.py run EXPERIMENT CONFIG.toml --results R.jsonl
    python search/tournament/examples/ttg_seat_experiment.py analyse EXPERIMENT RESULTS.jsonl
    python search/tournament/examples/ttg_seat_experiment.py playouts EXPERIMENT PLAYERS[,PLAYERS...] GAMES
    TTG_ANALYSIS=summary python search/tournament/examples/ttg_seat_experiment.py run ...   # summary.py's

Each experiment is a list of exact text replacements in the engine's sources or its catalogue.json (a
replacement that does not match exactly once stops the script, so an experiment cannot silently do
nothing). `run` compiles the patched engine with Cython (a minute or two; a catalogue-only experiment
reuses the installed engine) into a temporary folder, runs `orrery tournament run CONFIG ...` with a
`sitecustomize` that makes every process, the tournament's workers too, load that build, then prints
ttg_first_seat.py's analysis of the results file (ttg_seat_order.py's for 3 and 4 players; `--results`
is required). `analyse` replays a results
file under the same build (a patched game replays only under its own rules) the same way. `playouts`
plays GAMES games at PLAYERS seats under the build with play that does not plan (ttg_seat_order.py
--playouts).
The patches apply to the working tree's sources, so a build is the tree's engine plus the experiment.
None of these is a rule of the game (the `no_first_claim` variant is the one that became one, section 4
of docs/rules/take_the_galaxy.md): they measure what changes the edge.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from patched_core import sitecustomize  # the sibling module: these scripts run from their folder

ROOT = Path(__file__).resolve().parents[3]
ENGINE = "orrery.core_ext.take_the_galaxy.engine"

Patch = tuple[str, str, str]  # (file under core_ext/take_the_galaxy, exact old text, new text)


def _seat1_tokens(k: int) -> list[Patch]:
    return [
        (
            "setup.pxi",
            "    pl.n_systems = 1\n",
            f"    pl.n_systems = 1\n    if seat == 1:\n        pl.tokens = {k}\n",
        )
    ]


EXPERIMENTS: dict[str, tuple[str, list[Patch]]] = {
    "no-opening-take": (
        "seat 0 may take no card from explored space in its first turn (turn 1)",
        [("turn.pxi", "    s.claimed = 0\n", "    s.claimed = 1 if s.turn == 1 else 0\n")],
    ),
    "seat1-extra-card": (
        "seat 1 starts with one more card in hand (the top card of its player deck)",
        [
            (
                "setup.pxi",
                "    _shuffle(pl.draw, pl.n_draw, &rng)\n",
                "    _shuffle(pl.draw, pl.n_draw, &rng)\n"
                "    if seat == 1:\n"
                "        pl.n_draw -= 1\n"
                "        pl.hand[pl.draw[pl.n_draw]] += 1\n"
                "        pl.draw[pl.n_draw] = 0\n"
                "        pl.hand_size += 1\n",
            )
        ],
    ),
    "seat0-no-first-draw": (
        "seat 0 draws no card in its first draw phase (turn 1)",
        [
            (
                "turn.pxi",
                "    _draw_card(s, s.current)\n",
                "    if s.turn != 1:\n        _draw_card(s, s.current)\n",
            )
        ],
    ),
    "attractor-science-4": (
        "The Great Attractor (Fringe anomaly) costs 4 science instead of 6, renown 8 unchanged",
        [
            (
                "catalogue.json",
                '"science": 6, "renown": 8, "text": "study with 6 science',
                '"science": 4, "renown": 8, "text": "study with 4 science',
            )
        ],
    ),
    "core-hazards-0": (
        "no hazard on the 2-player deck's Core systems (Proxima Drift, Lyra's Cradle, Cygnus Hollow: 1 -> 0)",
        [
            (
                "catalogue.json",
                f'"name": "{name}", "sector": "core", "players": {n}, "slots": "{slots}", "hazards": 1',
                f'"name": "{name}", "sector": "core", "players": {n}, "slots": "{slots}", "hazards": 0',
            )
            for name, n, slots in (
                ("Proxima Drift", 1, "BD"),
                ("Lyra's Cradle", 2, "BBD"),
                ("Cygnus Hollow", 2, "DDB"),
            )
        ],
    ),
    "one-slot-systems-2": (
        "the 2-player deck's one-slot systems get a second slot of the same type, renown and bounty "
        "unchanged (Arcturus Gate D -> DD, Sirius Verge B -> BB): relinquish cycling (section 13) without "
        "a system that one colony fills",
        [
            (
                "catalogue.json",
                f'"name": "{name}", "sector": "core", "players": {n}, "slots": "{slot}",',
                f'"name": "{name}", "sector": "core", "players": {n}, "slots": "{slot}{slot}",',
            )
            for name, n, slot in (("Arcturus Gate", 1, "D"), ("Sirius Verge", 2, "B"))
        ],
    ),
    "cheap-bounties-0": (
        "no bounty on the small bounty systems the relinquish plan cycles most (Tau Ceti Reach 2 M, Arcturus "
        "Gate 2 P, Sirius Verge 1 C, Magellan Shelf 2 P 1 C; section 13), renown unchanged",
        [
            (
                "catalogue.json",
                f'"name": "{name}", {middle}"bounty": {bounty},',
                f'"name": "{name}", {middle}"bounty": {{}},',
            )
            for name, middle, bounty in (
                (
                    "Tau Ceti Reach",
                    '"sector": "core", "players": 1, "slots": "BB", "hazards": 0, ',
                    '{"manpower": 2}',
                ),
                (
                    "Arcturus Gate",
                    '"sector": "core", "players": 1, "slots": "D", "hazards": 0, ',
                    '{"production": 2}',
                ),
                (
                    "Sirius Verge",
                    '"sector": "core", "players": 2, "slots": "B", "hazards": 0, ',
                    '{"credits": 1}',
                ),
                (
                    "Magellan Shelf",
                    '"sector": "expanse", "players": 2, "slots": "DD", "hazards": 1, ',
                    '{"production": 2, "credits": 1}',
                ),
            )
        ],
    ),
    "eval-relinquish-3": (
        "not content: every seat's evaluate() adds the relinquish plan's term at weight 3 (section 13), so "
        "the balanced bot values room to relinquish; a plan bot's own term comes on top",
        [
            (
                "heuristics.pxi",
                "    return _score(s, seat) + W_TURN * economy + W_CARD * (pl.hand_size + bounty + pool)\n",
                "    return _score(s, seat) + W_TURN * economy + W_CARD * (pl.hand_size + bounty + pool) \\\n"
                "        + 3.0 * _relinquish_progress(s, seat)\n",
            )
        ],
    ),
    "one-deck": (
        "the space deck is one shuffled pile: the sectors' cards of the numbered set-up are mixed instead of "
        "stacked Core over Expanse over Fringe (no sector boundary, no Fringe end)",
        [
            (
                "setup.pxi",
                "        _shuffle(&s.space[start], s.n_space - start, rng)\n",
                "        _shuffle(&s.space[start], s.n_space - start, rng)\n"
                "    _shuffle(s.space, s.n_space, rng)\n",
            )
        ],
    ),
    "sectors-reversed": (
        "the sectors are stacked the other way up: Fringe on top, then Expanse, Core at the bottom (the game "
        "opens with the dearest cards and ends with the cheapest)",
        [("setup.pxi", "    for sec in range(2, -1, -1):\n", "    for sec in range(3):\n")],
    ),
    **{
        f"seat1-tokens-{k}": (f"seat 1 starts with {k} renown tokens", _seat1_tokens(k))
        for k in (2, 3, 4, 6, 8)
    },
}


def _patched(name: str, text: str, file: str, patches: list[Patch]) -> str:
    for target, old, new in patches:
        if target != file:
            continue
        if text.count(old) != 1:
            raise SystemExit(f"{name}: {file}: the text to replace occurs {text.count(old)} times, not once")
        text = text.replace(old, new)
    return text


def build(name: str, out: Path) -> Path:
    """The patched engine (compiled into `out`, or the installed one when only the catalogue changes)
    beside its patched catalogue in `out`/core; the path of the extension module."""
    from orrery.core_ext.take_the_galaxy import engine

    _, patches = EXPERIMENTS[name]
    core = out / "core"
    core.mkdir()
    catalogue = ROOT / "core_ext" / "take_the_galaxy" / "catalogue.json"
    (core / "catalogue.json").write_text(_patched(name, catalogue.read_text(), "catalogue.json", patches))
    if all(file == "catalogue.json" for file, _, _ in patches):
        so = Path(engine.__file__)
        shutil.copy2(so, core / so.name)
        return core / so.name
    src = out / "src" / "orrery" / "core_ext"
    shutil.copytree(ROOT / "core_ext", src, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    (src.parent / "__init__.py").write_text("")  # Cython resolves cimports through packages
    for file in {file for file, _, _ in patches} - {"catalogue.json"}:
        path = src / "take_the_galaxy" / file
        path.write_text(_patched(name, path.read_text(), file, patches))
    setup = out / "setup_patched.py"
    setup.write_text(
        "from setuptools import Extension, setup\n"
        "from Cython.Build import cythonize\n"
        f"ext = Extension({ENGINE!r}, ['src/orrery/core_ext/take_the_galaxy/engine.pyx'],"
        " extra_compile_args=['-O3'])\n"
        "setup(ext_modules=cythonize([ext], include_path=['src'], quiet=True, compiler_directives={"
        "'language_level': '3', 'boundscheck': False, 'wraparound': False, 'cdivision': True, "
        "'initializedcheck': False}))\n"
    )
    subprocess.check_call(
        [
            sys.executable,
            str(setup),
            "build_ext",
            "--build-lib",
            str(out / "lib"),
            "--build-temp",
            str(out / "tmp"),
        ],
        cwd=out,
        stdout=subprocess.DEVNULL,
    )
    (so,) = (out / "lib").rglob("engine*.so")
    shutil.copy2(so, core / so.name)
    return core / so.name


@contextlib.contextmanager
def patched_env(name: str) -> Iterator[dict[str, str]]:
    """The environment under which every Python process loads the patched core."""
    if name not in EXPERIMENTS:
        raise SystemExit(f"no experiment {name!r}; experiments: {', '.join(EXPERIMENTS)}")
    with tempfile.TemporaryDirectory(prefix="orrery-ttg-seat-") as tmp:
        so = build(name, Path(tmp))
        (Path(tmp) / "sitecustomize.py").write_text(sitecustomize(ENGINE, str(so)))
        yield dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [tmp, os.environ.get("PYTHONPATH")])))


def _analysis(results: str) -> Path:
    """ttg_first_seat.py (the seats of a 2-player file), ttg_seat_order.py (3 or 4 players), or summary.py
    (the bots and their plans) with TTG_ANALYSIS=summary."""
    if os.environ.get("TTG_ANALYSIS") == "summary":
        return Path(__file__).with_name("summary.py")
    with open(results) as f:
        players = json.loads(f.readline())["config"]["players"]
    return Path(__file__).with_name("ttg_first_seat.py" if players == 2 else "ttg_seat_order.py")


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        for name, (what, _) in EXPERIMENTS.items():
            print(f"{name:22s} {what}")
        return 0
    if len(argv) >= 3 and argv[0] == "run":
        if "--results" not in argv:
            raise SystemExit("run: give --results (the analysis reads it)")
        results = argv[argv.index("--results") + 1]
        with patched_env(argv[1]) as env:
            orrery = Path(sys.executable).with_name("orrery")
            rc = subprocess.call([str(orrery), "tournament", "run", *argv[2:]], env=env)
            if rc == 0:
                rc = subprocess.call([sys.executable, str(_analysis(results)), results], env=env)
            return rc
    if len(argv) >= 3 and argv[0] == "analyse":
        with patched_env(argv[1]) as env:
            return subprocess.call([sys.executable, str(_analysis(argv[2])), *argv[2:]], env=env)
    if len(argv) == 4 and argv[0] == "playouts":
        script = Path(__file__).with_name("ttg_seat_order.py")
        with patched_env(argv[1]) as env:
            return subprocess.call([sys.executable, str(script), "--playouts", *argv[2:]], env=env)
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
