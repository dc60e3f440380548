"""The search commands: selfplay with any bot per seat, bench search and bench strength."""

import json

from orrery.service.cli import main


def test_selfplay_accepts_any_bot_per_seat(capsys):
    args = ["selfplay", "--game", "kuhn", "--players", "4", "--seed", "2", "--iterations", "200"]
    assert main([*args, "--bots", "random", "greedy", "ismcts", "pimc"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "seat 3 (pimc)" in out


def test_bench_search_reports_rates_and_scaling(capsys):
    argv = ["bench", "search", "--game", "kuhn", "--workers", "1", "2", "--seconds", "0.2", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["iterations_per_second"] > 0 and result["raw_playouts_per_second"] > 0
    assert result["playout_ratio"] > 0
    assert [r["workers"] for r in result["runs"]] == [1, 2]
    assert "2_vs_1" in result["scaling"]


def test_bench_strength_reports_a_win_rate_with_an_interval(capsys):
    argv = [
        "bench",
        "strength",
        "--game",
        "kuhn",
        "--bot",
        "ismcts",
        "--baseline",
        "random",
        "--games",
        "8",
        "--iterations",
        "200",
        "--json",
    ]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 8 and result["wins"] + result["draws"] + result["losses"] == 8
    low, high = result["ci95"]
    assert 0.0 <= low <= result["win_rate"] <= high <= 1.0
