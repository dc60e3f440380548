"""Win rates with 95% intervals, first-seat advantage and game length from tournament results files.

    python search/tournament/examples/summary.py RESULTS.jsonl [RESULTS.jsonl ...]
    python search/tournament/examples/summary.py --pool BOT RESULTS.jsonl [RESULTS.jsonl ...]

For each bot against each other bot (2-player files): its win rate (a shared first place counts half),
with a 95% interval from the set scores (mean +- 1.96 standard errors over duplicate sets, the set being
the unit of independence, as in docs/tournaments.md) and a Wilson interval over games. Seat 0's win rate
with a Wilson interval is the first-seat advantage. Game length is replayed from the recorded actions:
Tiny Epic Galaxies counts rounds (a game ends at the end of a round, so player turns = rounds x players),
Take The Galaxy its `turn` counter. Only complete sets are counted.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict

from orrery.core_ext import load_game

SOURCES = ("planets", "empire", "pilots", "dwarf_planets", "bonus")


def point_sources(galaxy: dict, score: float) -> dict[str, float]:
    """A Beyond the Black galaxy's final points by source (tests/teg_btb_pilots.py's split): colonies'
    VP, the empire level's VP, 1 a pilot hired (replaced ones too), dwarf planets, and the rest, which
    is bonus (the secret mission and the badge majorities)."""
    from orrery.core_ext.tiny_epic_galaxies.engine import CATALOGUE

    btb = CATALOGUE["beyond_the_black"]
    planet_vp = {p["name"]: p["vp"] for p in CATALOGUE["planets"] + btb["planets"]}
    empire_vp = {lv["level"]: lv["vp"] for lv in CATALOGUE["empire"]}
    dwarf_vp = {c["name"]: c["dwarf_planet_vp"] for c in btb["exploration_cards"]}
    pilots = len([h for h in galaxy["hangar"].values() if h]) + len(galaxy["retired_pilots"])
    parts = {
        "planets": float(sum(planet_vp[name] for name in galaxy["colonies"])),
        "empire": float(empire_vp[galaxy["empire"]]),
        "pilots": float(pilots),
        "dwarf_planets": float(sum(dwarf_vp.get(name, 0) for name in galaxy["exploration_cards"])),
    }
    parts["bonus"] = score - sum(parts.values())
    return parts


Z = 1.959964


def wilson(score: float, n: int) -> tuple[float, float]:
    p = score / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def win_share(rec: dict, seat: int) -> float:
    firsts = [s for s, r in enumerate(rec["ranks"]) if r == 0]
    return 1.0 / len(firsts) if seat in firsts else 0.0


def turns(game_name: str, state) -> int:
    doc = json.loads(state.to_json())["state"]
    return doc["round"] if game_name == "tiny_epic_galaxies" else doc["turn"]


class BtbTally:
    """Tiny Epic Galaxies: Beyond the Black: how often each bot hires and explores (choices of kind
    `hire` and `explore`, followers' explores included), and each pilot's and exploration card's win
    rate when its galaxy ends the game holding it (hangar, retired pilots, cards taken), against the
    1/players of a seat that holds nothing in particular."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.actions: dict[tuple[str, str], int] = defaultdict(int)  # (bot, kind) -> choices
        self.seat_games: dict[str, int] = defaultdict(int)  # bot -> games played
        self.held: dict[tuple[str, str], list[float]] = defaultdict(list)  # (pilot|card, name) -> shares
        self.pilot_points: list[float] = []  # share of the winner's points that came from pilots
        # bot -> per seat-game: pilots hired, planets colonized, exploration cards taken
        self.holdings: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        self.winner_points: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self._seats: list[str] = []

    def count_action(self, state, action: int) -> None:
        kind = state.action_to_struct(action)["kind"]
        if kind in ("hire", "explore"):
            self.actions[(self._seats[state.current_player], kind)] += 1

    def start(self, record: dict) -> None:
        self._seats = record["seats"]

    def count_end(self, state, record: dict) -> None:
        galaxies = state.to_dict()["state"]["galaxies"]
        for seat, bot in enumerate(record["seats"]):
            self.seat_games[bot] += 1
            gal, share = galaxies[seat], win_share(record, seat)
            pilots = [h["pilot"] for h in gal["hangar"].values() if h] + gal["retired_pilots"]
            for pilot in pilots:
                self.held[("pilot", pilot)].append(share)
            for card in gal["exploration_cards"]:
                self.held[("card", card)].append(share)
            self.holdings[bot].append((len(pilots), len(gal["colonies"]), len(gal["exploration_cards"])))
            if record["ranks"][seat] == 0 and record["scores"][seat] > 0:
                self.pilot_points.append(len(pilots) / record["scores"][seat])
                for source, points in point_sources(gal, record["scores"][seat]).items():
                    self.winner_points["all"][source] += points
                    self.winner_points[bot][source] += points

    def report(self, n_games: int) -> None:
        for bot in sorted(self.seat_games):
            g = self.seat_games[bot]
            print(
                f"  {bot}: hires {self.actions[(bot, 'hire')] / g:.2f} a game, "
                f"explores {self.actions[(bot, 'explore')] / g:.2f} a game ({g} seat-games)"
            )
        for bot in sorted(self.holdings):
            held = self.holdings[bot]
            pilots, planets, cards = (statistics.mean(h[i] for h in held) for i in range(3))
            print(f"  {bot}: a seat-game holds {pilots:.2f} pilots, {planets:.2f} planets, {cards:.2f} cards")
        if self.pilot_points:
            print(f"  winners' points from pilots: {statistics.mean(self.pilot_points):.1%} on average")
        for who in ["all"] + sorted(b for b in self.winner_points if b != "all"):
            points = self.winner_points[who]
            total = sum(points.values()) or 1.0
            shares = ", ".join(f"{source} {points[source] / total:.3f}" for source in SOURCES)
            print(f"  winners' VP share by source ({who} winners): {shares}")
        fair = 1 / self.players
        for what in ("pilot", "card"):
            rows = [
                (sum(v) / len(v), len(v), name, *wilson(sum(v), len(v)))
                for (kind, name), v in self.held.items()
                if kind == what and len(v) >= 10
            ]
            rows.sort(reverse=True)
            above = [r for r in rows if r[3] > fair]
            print(
                f"  {what}s held at the end (>= 10 times): {len(rows)}; win rate when held, best: "
                + "; ".join(f"{n} {rate:.2f} [{lo:.2f}, {hi:.2f}] of {k}" for rate, k, n, lo, hi in rows[:5])
            )
            print("    worst: " + "; ".join(f"{n} {rate:.2f} of {k}" for rate, k, n, lo, hi in rows[-3:]))
            print(f"    Wilson interval wholly above {fair:.2f}: {', '.join(r[2] for r in above) or 'none'}")


class TtgTally:
    """Take The Galaxy: what each bot does toward the plans of docs/rules/take_the_galaxy.md section 13
    (per seat-game: science its colonies and ships made, anomalies studied, events solved,
    negative-renown colonies built or upgraded to, systems claimed and relinquished) and where the
    winners' renown came from (tokens, the renown pile split into relinquished systems, anomalies and
    events, systems held, colonies on top: scoring.pxi's four parts, the pile split by card kind)."""

    COUNTS = ("science", "anomalies", "events", "negative", "claimed", "relinquished", "relinquished_in_race")
    SOURCES = ("tokens", "relinquished", "anomalies", "events", "systems", "colonies")

    def __init__(self) -> None:
        from orrery.core_ext.take_the_galaxy.engine import CATALOGUE

        self.science = {c["name"]: c["out"].get("science", 0) for c in CATALOGUE["player_cards"]}
        self.negative = {c["name"] for c in CATALOGUE["player_cards"] if c["renown"] < 0}
        self.renown = {c["name"]: c["renown"] for c in CATALOGUE["player_cards"]}
        # a relinquished system, Haven too, is "relinquished" in the renown pile; the rest by kind
        self.pile_source = {x["name"]: k for k in ("anomalies", "events") for x in CATALOGUE[k]}
        space = [x for k in ("systems", "anomalies", "events") for x in CATALOGUE[k]]
        space.append(CATALOGUE["starting_system"])
        self.space_renown = {x["name"]: x["renown"] for x in space}
        self.counts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.seat_games: dict[str, int] = defaultdict(int)
        self.winner_points: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.studied: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # bot -> anomaly
        self.let_go: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # bot -> system
        self._seats: list[str] = []

    def start(self, record: dict) -> None:
        self._seats = record["seats"]

    def count_action(self, state, action: int) -> None:
        move = state.action_to_struct(action)
        kind, tally = move["kind"], self.counts[self._seats[state.current_player]]
        if kind in ("use_colony", "use_ship"):
            tally["science"] += self.science[move["card"]]
        elif kind == "study_anomaly":
            tally["anomalies"] += 1
            self.studied[self._seats[state.current_player]][move["card"]] += 1
        elif kind == "solve_event":
            tally["events"] += 1
        elif kind == "relinquish":
            tally["relinquished"] += 1
            self.let_go[self._seats[state.current_player]][move["card"]] += 1
            explored = state.to_dict()["state"]["explored"]
            tally["relinquished_in_race"] += any(e["card"] == "Space Race" for e in explored)
        if kind in ("build", "claim", "upgrade") and move["card"] in self.negative:
            tally["negative"] += 1
        if kind == "claim":
            tally["claimed"] += 1

    def count_end(self, state, record: dict) -> None:
        players = state.to_dict()["state"]["players"]
        for seat, bot in enumerate(record["seats"]):
            self.seat_games[bot] += 1
            if record["ranks"][seat] != 0:
                continue
            p = players[seat]
            parts = {source: 0.0 for source in self.SOURCES}
            parts["tokens"] = float(p["renown_tokens"])
            for card in p["renown_pile"]:
                parts[self.pile_source.get(card, "relinquished")] += self.space_renown[card]
            parts["systems"] = float(sum(self.space_renown[sy["card"]] for sy in p["systems"]))
            parts["colonies"] = float(
                sum(self.renown[slot[-1]] for sy in p["systems"] for slot in sy["slots"] if slot)
            )
            assert abs(sum(parts.values()) - record["scores"][seat]) < 1e-9, (parts, record["scores"][seat])
            for who in ("all", bot):
                for source, points in parts.items():
                    self.winner_points[who][source] += points

    def report(self) -> None:
        for bot in sorted(self.seat_games):
            g = self.seat_games[bot]
            per_game = ", ".join(f"{what} {self.counts[bot][what] / g:.2f}" for what in self.COUNTS)
            print(f"  {bot} a seat-game ({g}): {per_game}")
            studied = ", ".join(f"{card} {n / g:.2f}" for card, n in sorted(self.studied[bot].items()))
            print(f"    anomalies studied a seat-game: {studied or 'none'}")
            most = sorted(self.let_go[bot].items(), key=lambda item: -item[1])[:6]
            let_go = ", ".join(f"{card} {n / g:.2f}" for card, n in most)
            print(f"    most relinquished a seat-game: {let_go}")
        for who in ["all"] + sorted(b for b in self.winner_points if b != "all"):
            points = self.winner_points[who]
            total = sum(points.values()) or 1.0
            shares = ", ".join(f"{source} {points[source] / total:.3f}" for source in self.SOURCES)
            print(f"  winners' renown share by source ({who} winners): {shares}")


def set_interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean of per-set scores with mean +- 1.96 standard errors over sets (the set is the unit of
    independence: its games share one deal)."""
    mu = statistics.mean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else float("nan")
    return mu, mu - Z * se, mu + Z * se


class TrianRaces:
    """Galaxy of Trian, full variant: each race's win share over the seats it was dealt (races are
    dealt per seat by the deal seed, docs/rules/trian.md 14.2, so a duplicate set gives a race the same
    seat in every game and the set's mean is one observation), and how often it sat first, since the
    seat moves the share too."""

    def __init__(self) -> None:
        self.by_set: dict[str, list[float]] = defaultdict(list)  # race -> per-set mean win share
        self.first_seat: dict[str, int] = defaultdict(int)  # race -> sets in which it sat in seat 0
        self.scores: dict[str, list[float]] = defaultdict(list)  # race -> final scores (points)

    def count_set(self, game, records: list[dict]) -> None:
        state = game.new_initial_state(seed=records[0]["deal_seed"])
        races = [p.get("race") for p in state.to_dict()["state"]["players"]]
        for seat, race in enumerate(races):
            if race is None:
                continue
            self.by_set[race].append(statistics.mean(win_share(r, seat) for r in records))
            self.scores[race].extend(r["scores"][seat] for r in records)
            self.first_seat[race] += seat == 0

    def report(self, players: int) -> None:
        print(f"  races (win share over sets, 95% by sets; fair {1 / players:.3f}):")
        rows = sorted(self.by_set.items(), key=lambda item: -statistics.mean(item[1]))
        for race, shares in rows:
            mu, lo, hi = set_interval(shares)
            print(
                f"    {race:8s} {mu:.3f} [{max(0.0, lo):.3f}, {min(1.0, hi):.3f}] in {len(shares)} sets "
                f"({self.first_seat[race]} in seat 0); mean score {statistics.mean(self.scores[race]):.1f}"
            )


def table_shares(complete: list[list[dict]]) -> None:
    """3-5 players, two bots: each bot's share of the wins (first places of any of its seats). A set
    seats each bot equally often in every seat, so 0.5 is even; the Wilson interval treats games as
    independent, which they are not quite (one deal per set)."""
    shares: dict[tuple[str, ...], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[tuple[str, ...], int] = defaultdict(int)
    for rs in complete:
        for r in rs:
            bots = tuple(sorted(set(r["seats"])))
            if len(bots) != 2:
                continue
            counts[bots] += 1
            for seat, bot in enumerate(r["seats"]):
                shares[bots][bot] += win_share(r, seat)
    for bots, n in sorted(counts.items()):
        for bot in bots:
            won = shares[bots][bot]
            lo, hi = wilson(won, n)
            table = " vs ".join(bots)
            print(f"  {bot} in {table}: wins {won:g}/{n} = {won / n:.3f}, Wilson [{lo:.3f}, {hi:.3f}]")


def summarize(path: str) -> None:
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    config = lines[0]["config"]
    name, players = config["game"], config["players"]
    games = [r for r in lines[1:] if r.get("type") == "game"]
    by_set = defaultdict(list)
    for r in games:
        by_set[(r["pairing"], r["set"])].append(r)
    per_set = 2 if players == 2 else None
    complete = [rs for rs in by_set.values() if per_set is None or len(rs) == per_set]
    games = [r for rs in complete for r in rs]
    game = load_game(name, players=players, variant=config.get("variant"))
    expansion: BtbTally | TtgTally | None = None
    if (config.get("variant") or "").startswith("beyond_the_black"):
        expansion = BtbTally(players)
    elif name == "take_the_galaxy" and config.get("variant") != "team":
        expansion = TtgTally()
    lengths = []
    for r in games:
        state = game.new_initial_state(seed=r["deal_seed"])
        if expansion is not None:
            expansion.start(r)
        for action in r["actions"]:
            if expansion is not None:
                expansion.count_action(state, action)
            state.apply(action)
        assert state.is_terminal()
        lengths.append(turns(name, state))
        if expansion is not None:
            expansion.count_end(state, r)
    unit = "rounds" if name == "tiny_epic_galaxies" else "turns"
    seat0 = sum(win_share(r, 0) for r in games)
    lo, hi = wilson(seat0, len(games))
    print(f"{path}: {len(games)} games in {len(complete)} complete sets")
    print(
        f"  length: {unit} mean {statistics.mean(lengths):.1f} (sd {statistics.pstdev(lengths):.1f}, "
        f"min {min(lengths)}, max {max(lengths)}); "
        f"choices a game {statistics.mean(r['moves'] for r in games):.0f}"
    )
    print(f"  seat 0 wins {seat0 / len(games):.3f} [{lo:.3f}, {hi:.3f}] of {len(games)} games")
    mu, set_lo, set_hi = set_interval([statistics.mean(win_share(r, 0) for r in rs) for rs in complete])
    print(f"  seat 0 by sets: {mu:.3f}, 95% [{set_lo:.3f}, {set_hi:.3f}] over {len(complete)} sets")
    for seat in range(1, players):
        share = sum(win_share(r, seat) for r in games)
        lo, hi = wilson(share, len(games))
        print(f"  seat {seat} wins {share / len(games):.3f} [{lo:.3f}, {hi:.3f}]")
    if isinstance(expansion, BtbTally):
        expansion.report(len(games))
    elif expansion is not None:
        expansion.report()
    if name == "trian" and config.get("variant") == "full":
        races = TrianRaces()
        for rs in complete:
            races.count_set(game, rs)
        races.report(players)
    if players != 2:
        table_shares(complete)
        return
    pairs = defaultdict(list)  # (bot, opponent) -> per-set scores of bot
    race_pairs = defaultdict(list)  # the same, split by whether the set's space deck holds Space Race
    for rs in complete:
        bots = sorted(set(rs[0]["seats"]))
        if len(bots) != 2:
            continue
        race = name == "take_the_galaxy" and has_space_race(game, rs[0]["deal_seed"])
        for bot in bots:
            other = bots[1 - bots.index(bot)]
            pairs[(bot, other)].append(statistics.mean(win_share(r, r["seats"].index(bot)) for r in rs))
            if name == "take_the_galaxy":
                race_pairs[(bot, other, race)].append(pairs[(bot, other)][-1])
    for (bot, other), scores in sorted(pairs.items()):
        n = len(scores)
        mu = statistics.mean(scores)
        se = statistics.stdev(scores) / math.sqrt(n) if n > 1 else float("nan")
        wins = sum(
            win_share(r, r["seats"].index(bot))
            for rs in complete
            for r in rs
            if set(r["seats"]) == {bot, other}
        )
        lo, hi = wilson(wins, 2 * n)
        mean_score = statistics.mean(
            r["scores"][r["seats"].index(bot)]
            for rs in complete
            for r in rs
            if set(r["seats"]) == {bot, other}
        )
        print(
            f"  {bot} vs {other}: wins {wins:g}/{2 * n} = {mu:.3f}, 95% [{max(0, mu - Z * se):.3f}, "
            f"{min(1, mu + Z * se):.3f}] by sets, Wilson [{lo:.3f}, {hi:.3f}]; mean score {mean_score:.1f}"
        )
    for (bot, other, race), scores in sorted(race_pairs.items()):
        if not any(key[2] for key in race_pairs):
            break  # no deal held Space Race (the numbered set-up below 4 players)
        mu, lo, hi = set_interval(scores)
        holds = "holds" if race else "lacks"
        print(
            f"  {bot} vs {other}, the {len(scores)} sets whose deck {holds} Space Race: {mu:.3f}, "
            f"95% [{max(0.0, lo):.3f}, {min(1.0, hi):.3f}] by sets"
        )


def has_space_race(game, deal_seed: int) -> bool:
    """Take The Galaxy: whether the deal's space deck or explored space holds Space Race (in the numbered
    set-up only at 4 players; in `random` at 2 players about half the deals)."""
    doc = game.new_initial_state(seed=deal_seed).to_dict()["state"]
    return "Space Race" in doc["space_deck"] or any(e["card"] == "Space Race" for e in doc["explored"])


def pooled(bot: str, paths: list[str]) -> None:
    """`bot`'s win share against whichever bot it met, over the complete 2-player duplicate sets of
    several results files together (their deals differ when their seeds do), 95% by sets."""
    scores = []
    for path in paths:
        with open(path) as f:
            games = [r for r in map(json.loads, filter(str.strip, f)) if r.get("type") == "game"]
        by_set = defaultdict(list)
        for r in games:
            if bot in r["seats"]:
                by_set[(r["pairing"], r["set"])].append(r)
        scores += [
            statistics.mean(win_share(r, r["seats"].index(bot)) for r in rs)
            for rs in by_set.values()
            if len(rs) == 2
        ]
    mu, lo, hi = set_interval(scores)
    print(
        f"{bot} pooled over {len(paths)} files: {mu:.3f}, 95% [{lo:.3f}, {hi:.3f}] by sets "
        f"over {len(scores)} sets"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pool"]:
        pooled(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    for p in sys.argv[1:]:
        summarize(p)
