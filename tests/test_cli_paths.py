"""Commands run from any directory and write nothing into it unless told to: the README's tournament
example from outside the repository, its results and reports in the data folder ($ORRERY_DATA_DIR, set
for the whole suite by conftest.py), and `orrery bench service` with its match store in a temporary
folder."""

from __future__ import annotations

import json
import os

import pytest

from orrery.service.cli import main

README_EXAMPLE = "search/tournament/examples/kuhn3-ismcts-budgets.toml"


def test_the_tournament_example_runs_outside_the_repository_and_reports_into_the_data_folder(
    tmp_path, monkeypatch, capsys
):
    data = tmp_path / "data"
    monkeypatch.setenv("ORRERY_DATA_DIR", str(data))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    argv = ["tournament", "run", README_EXAMPLE, "--max-games", "6", "--backend", "inline", "--quiet"]
    assert main([*argv, "--report"]) == 0
    out = capsys.readouterr().out
    folder = data / "tournaments"
    assert f"6/12000 games in {folder / 'kuhn3-ismcts-300-vs-10.jsonl'}" in out
    assert f"report: {folder / 'kuhn3-ismcts-300-vs-10.md'}, {folder / 'kuhn3-ismcts-300-vs-10.html'}" in out
    assert list(elsewhere.iterdir()) == []
    # --results is the user's own path: relative to the current directory.
    assert (
        main(
            [
                "tournament",
                "run",
                "kuhn3-ismcts-budgets",
                "--max-games",
                "6",
                "--quiet",
                "--results",
                "mine.jsonl",
                "--backend",
                "inline",
            ]
        )
        == 0
    )
    assert [p.name for p in elsewhere.iterdir()] == ["mine.jsonl"]


def test_a_results_path_with_a_folder_of_the_current_directory_stays_there(tmp_path, monkeypatch):
    from orrery.search.tournament._cli import results_file

    monkeypatch.setenv("ORRERY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    # balance-results/ is here (the repository root): the committed results file resumes in place.
    (tmp_path / "balance-results").mkdir()
    assert results_file("balance-results/x.jsonl", "x", None) == "balance-results/x.jsonl"
    # Elsewhere, or a bare name: the data folder.
    data = tmp_path / "data" / "tournaments"
    assert results_file("other/x.jsonl", "x", None) == str(data / "other" / "x.jsonl")
    assert results_file("x.jsonl", "x", None) == str(data / "x.jsonl")
    assert results_file(None, "name", None) == str(data / "name.jsonl")
    assert results_file("x.jsonl", "x", "mine.jsonl") == "mine.jsonl"


def test_a_missing_tournament_config_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "run", "no-such.toml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("orrery tournament: no-such.toml: no such file, and no bundled example")
    assert err.count("\n") == 1


@pytest.mark.slow
def test_bench_service_leaves_no_match_store_in_the_current_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["bench", "service", "--backend", "in-process", "--workers", "1", "--seconds", "0.5"]
    assert main([*argv, "--game", "kuhn", "--budget-ms", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["server"].startswith("orrery serve --backend in-process --db ")
    assert os.listdir(tmp_path) == []
