"""Golden playthroughs: one seeded game per registered game, variant and player count.

    python -m tests.playthroughs.generate            # rewrite every file (and delete stale ones)
    python -m tests.playthroughs.generate --check    # exit 1 if any file is missing, stale or different
    python -m tests.playthroughs.generate trian-full-3p kuhn   # only these (a name or a name prefix)

Each file records, for one seeded game played by a fixed random policy: the seat to move, the number of
legal actions, the chosen action id and its label at every step; every seat's observation (its text
render, never JSON) at the start, at the middle step and at the end; and the final scores, ranks and
returns. tests/test_playthroughs.py regenerates each file in memory and compares, so a change to the
rules, the action encoding or the renders shows up as a readable diff. Games are found through
registered_games(), so a newly registered game only needs its files generated once.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from orrery.core_ext import load_game, registered_games

FOLDER = Path(__file__).resolve().parent
SUFFIX = ".txt"
SEED = 1  # the game's seed (new_initial_state) and the action policy's seed (random.Random)
MAX_STEPS = 100_000  # a game that runs longer than this is a bug, not a playthrough
REGENERATE = "python -m tests.playthroughs.generate"
INDENT = "    "


@dataclass(frozen=True)
class Spec:
    game: str
    variant: str
    players: int
    seed: int = SEED

    @property
    def name(self) -> str:
        return f"{self.game}-{self.variant}-{self.players}p"

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}{SUFFIX}"


def specs() -> list[Spec]:
    """Every registered game (testing games included), every variant, every player count it supports."""
    return [
        Spec(info.name, variant, players)
        for info in registered_games(include_testing=True)
        for variant in info.variants
        for players in info.players_for(variant)
    ]


def choose_actions(spec: Spec) -> list[int]:
    """The fixed policy: a uniformly random legal action, drawn from random.Random(seed)."""
    state = load_game(spec.game, players=spec.players, variant=spec.variant).new_initial_state(spec.seed)
    rng = random.Random(spec.seed)
    actions: list[int] = []
    while not state.is_terminal():
        if len(actions) >= MAX_STEPS:
            raise RuntimeError(f"{spec.name}: no end after {MAX_STEPS} steps")
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state.apply(action)
    return actions


def number(x: float) -> str:
    return f"{x:.6g}"


def _observations(state, players: int, heading: str) -> Iterator[str]:  # type: ignore[no-untyped-def]
    yield ""
    yield f"== {heading}: every seat's observation.render() =="
    for seat in range(players):
        yield f"-- seat {seat} --"
        for line in state.observation(seat).render().splitlines():
            yield (INDENT + line).rstrip()
    yield ""


def render_playthrough(spec: Spec) -> str:
    """The file's text: deterministic for a given build of the game cores."""
    actions = choose_actions(spec)
    game = load_game(spec.game, players=spec.players, variant=spec.variant)
    state = game.new_initial_state(spec.seed)
    middle = len(actions) // 2
    lines = [
        f"# Golden playthrough. Regenerate with: {REGENERATE} {spec.name}",
        f"game: {spec.game}",
        f"variant: {spec.variant}",
        f"players: {spec.players}",
        f"seed: {spec.seed} (new_initial_state({spec.seed}); each action drawn uniformly from "
        f"legal_actions() by random.Random({spec.seed}))",
        f"steps: {len(actions)}",
    ]
    lines += _observations(state, spec.players, "start (step 0)")
    lines.append(f"{'step':>5} {'seat':>4} {'legal':>5} {'action':>6}  label")
    for step, action in enumerate(actions):
        if step == middle and step > 0:
            lines += _observations(state, spec.players, f"middle (before step {step})")
            lines.append(f"{'step':>5} {'seat':>4} {'legal':>5} {'action':>6}  label")
        legal = state.legal_actions()
        label = state.action_to_struct(action)["label"]
        lines.append(f"{step:>5} {state.current_player:>4} {len(legal):>5} {action:>6}  {label}")
        state.apply(action)
    if not state.is_terminal():
        raise RuntimeError(f"{spec.name}: the replay of its own actions did not end the game")
    lines += _observations(state, spec.players, f"end (after step {len(actions) - 1})")
    lines.append(f"== outcome, by seat 0..{spec.players - 1} ==")
    lines.append("scores:  " + " ".join(number(x) for x in state.scores()))
    lines.append("ranks:   " + " ".join(str(x) for x in state.ranks()))
    lines.append("returns: " + " ".join(number(x) for x in state.returns()))
    return "\n".join(lines) + "\n"


def stale_files(wanted: Sequence[Spec]) -> list[Path]:
    """Playthrough files that no registered game, variant and player count produces any more."""
    names = {spec.path.name for spec in wanted}
    return sorted(p for p in FOLDER.glob(f"*{SUFFIX}") if p.name not in names)


def _selected(all_specs: list[Spec], names: Sequence[str]) -> list[Spec]:
    if not names:
        return all_specs
    chosen = [s for s in all_specs if any(s.name == n or s.name.startswith(n + "-") for n in names)]
    unknown = [n for n in names if not any(s.name == n or s.name.startswith(n + "-") for s in all_specs)]
    if unknown:
        known = ", ".join(s.name for s in all_specs)
        raise SystemExit(f"no playthrough named {', '.join(unknown)}; known: {known}")
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=REGENERATE, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "names", nargs="*", help="playthroughs to write (a file name without .txt, or a prefix)"
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on any difference")
    args = parser.parse_args(argv)
    all_specs = specs()
    chosen = _selected(all_specs, args.names)
    bad = 0
    for spec in chosen:
        text = render_playthrough(spec)
        old = spec.path.read_text() if spec.path.exists() else None
        if old == text:
            continue
        bad += 1
        if args.check:
            print(f"{spec.path.name}: {'missing' if old is None else 'differs'}")
        else:
            spec.path.write_text(text)
            print(f"wrote {spec.path.relative_to(FOLDER.parent.parent)}")
    if not args.names:
        for path in stale_files(all_specs):
            bad += 1
            if args.check:
                print(f"{path.name}: stale (no registered game, variant and player count)")
            else:
                path.unlink()
                print(f"deleted stale {path.relative_to(FOLDER.parent.parent)}")
    if args.check:
        print(f"{len(chosen)} playthroughs checked, {bad} to regenerate" + (f": {REGENERATE}" if bad else ""))
        return 1 if bad else 0
    print(f"{len(chosen)} playthroughs, {bad} written or deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
