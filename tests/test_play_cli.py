"""`orrery play` driven with scripted input: bad arguments (one line, exit 2, no traceback), resign, quit
and resume by match id, input running out, stable option numbers and single legal moves played at once."""

from __future__ import annotations

import argparse
import io
import json
from types import SimpleNamespace

import pytest

from orrery.service._play import LOCAL, OptionNumbers, SavedSeats, _Turns, play_in_terminal
from orrery.service._spawn import start_server
from orrery.service.cli import main

KUHN_SEED = 4


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ORRERY_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--game", "chess"], "orrery play: unknown game 'chess'; games: "),
        (["--game", "kuhn", "--players", "9"], "orrery play: kuhn is played by 2, 3, 4, 5 players, not 9"),
        (["--game", "kuhn", "--variant", "solo"], "orrery play: kuhn has no variant 'solo'; variants: "),
        (["--game", "kuhn", "--seat", "2"], "orrery play: --seat must be in 0..1"),
        (
            ["--resume", "nosuchmatch"],
            "orrery play: no saved seat for match nosuchmatch; give --seat and --token",
        ),
    ],
)
def test_bad_arguments_print_one_line_and_exit_2(argv, message, data_folder, capsys):
    assert main(["play", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1


def test_one_local_play_at_a_time_on_the_same_store(data_folder, capsys):
    from orrery.service._play import store_lock

    data_folder.mkdir(parents=True)
    db = str(data_folder / "play.sqlite3")
    with store_lock(db) as mine:  # another `orrery play` holds the store
        assert mine
        assert main(["play", "--game", "kuhn"]) == 2
    err = capsys.readouterr().err
    assert err == f"orrery play: another orrery play is using {db}; finish or quit it first (or give --db)\n"


def test_option_numbers_stay_put_within_a_decision():
    def actions(*pairs):
        return [SimpleNamespace(id=i, label=label) for i, label in pairs]

    numbers = OptionNumbers()
    first = numbers.number(actions((5, "a"), (6, "b"), (7, "c")))
    assert [(n, a.label) for n, a in first] == [(0, "a"), (1, "b"), (2, "c")]
    # A step of the same decision: "a" is gone, "d" is new; "b" and "c" keep their numbers.
    second = numbers.number(actions((7, "c"), (6, "b"), (8, "d")))
    assert [(n, a.label) for n, a in second] == [(1, "b"), (2, "c"), (3, "d")]
    # Nothing in common: a new decision (a payment, say), numbered from 0.
    third = numbers.number(actions((1, "x"), (2, "y")))
    assert [(n, a.label) for n, a in third] == [(0, "x"), (1, "y")]
    # Back to the first decision: its numbers come back ("b" is gone now).
    fourth = numbers.number(actions((7, "c"), (8, "d"), (9, "e")))
    assert [(n, a.label) for n, a in fourth] == [(2, "c"), (3, "d"), (4, "e")]
    # Another seat moved: everything starts from 0 again.
    numbers.reset()
    assert [n for n, _ in numbers.number(actions((7, "c"), (8, "d")))] == [0, 1]


class _OneMoveClient:
    """Answers GetObservation with one legal move and records what is applied."""

    def __init__(self):
        self.applied = []

    def observation(self, match_id, seat, *, token=None):
        only = SimpleNamespace(id=42, label="pass")
        return SimpleNamespace(
            game_over=False, your_turn=True, legal_actions=[only], move_number=3, rendered="BOARD"
        )

    def apply(self, match_id, seat, *, action_id, expected_move_number, token):
        self.applied.append((action_id, expected_move_number))


@pytest.mark.parametrize("auto_single", [True, False])
def test_a_single_legal_move_is_played_at_once_and_logged_unless_turned_off(auto_single):
    from orrery.service._play import Seat

    client, out = _OneMoveClient(), io.StringIO()
    turns = _Turns(client, Seat("m", 0, "t"), auto_single, io.StringIO("0\n"), out, OptionNumbers())
    turns.play_one()
    assert client.applied == [(42, 3)]
    if auto_single:
        assert out.getvalue() == "you play pass (the only legal move)\n"
    else:
        assert "BOARD" in out.getvalue() and "[0] pass" in out.getvalue()
        assert out.getvalue().endswith("you play pass\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("play")
    args = ["--backend", "in-process", "--workers", "1", "--db", str(folder / "matches.sqlite3")]
    spawned = start_server([*args, "--config", "test-fast"], cwd=str(folder), same_imports=True)
    yield spawned
    spawned.terminate()


def _args(**overrides) -> argparse.Namespace:
    settings = dict(game="kuhn", players=2, variant="", seat=0, level="easy", seed=KUHN_SEED, resume=None)
    settings.update(auto_single=True, resume_seat=0, resume_token=None)
    settings.update(overrides)
    return argparse.Namespace(**settings)


def _play(server, saved, script, **overrides):
    out = io.StringIO()
    code = play_in_terminal(
        server.target, _args(**overrides), saved=saved, stdin=io.StringIO(script), stdout=out
    )
    return code, out.getvalue()


@pytest.mark.slow
def test_resign_asks_first_then_ends_the_match_with_the_person_last(server, tmp_path):
    saved = SavedSeats(tmp_path / "seats.json")
    code, out = _play(server, saved, "resign\nn\nresign\ny\n")
    assert code == 0
    assert out.count("resign? the match ends now with you in last place [y/N]") == 2
    assert "you resigned" in out
    # the points when the seat resigned (Kuhn: both antes in), the resigner last
    assert "seat 0 (you): score -1, place 2" in out and "seat 1 (AI): score -1, place 1" in out
    assert saved.all() == {}  # a finished match is not kept for resuming


@pytest.mark.slow
def test_score_shows_where_each_seats_points_come_from_and_so_does_the_end(server, tmp_path):
    saved = SavedSeats(tmp_path / "seats.json")
    script = "help\nscore\nresign\ny\n"
    code, out = _play(server, saved, script, game="tiny_epic_galaxies", variant="base", seed=5)
    assert code == 0 and "'score': where each seat's points come from" in out
    during, end = out.split("you resigned")
    for text in (during, end):  # the score command, then the game-over lines (each galaxy at level 1)
        assert "  seat 0 (you): 0 in all\n      colonies (0): 0\n      empire level 1: 0\n" in text
        assert "  seat 1 (AI): 0 in all\n" in text
    assert "where the points come from:" in end and "where the points come from:" not in during


@pytest.mark.slow
def test_quit_keeps_the_match_and_resume_by_id_plays_it_to_the_end(server, tmp_path):
    saved = SavedSeats(tmp_path / "seats.json")
    code, out = _play(server, saved, "help\nquit\n")
    assert code == 0 and "'resign': give up (asks first)" in out
    [(match_id, entry)] = saved.all().items()
    resume = f"orrery play --target {server.target} --resume {match_id}"
    assert f"left match {match_id} as it is; resume with: {resume}" in out
    assert entry["seat"] == 0 and entry["target"] == server.target and entry["token"]
    assert oct((tmp_path / "seats.json").stat().st_mode & 0o777) == "0o600"

    code, out = _play(server, saved, "0\n" * 6, resume=match_id, resume_seat=0, resume_token=entry["token"])
    assert code == 0
    assert out.startswith(f"match {match_id}: resumed at move 0, you are seat 0\n")
    assert "game over after" in out and "seat 0 (you): score" in out
    assert saved.all() == {}


@pytest.mark.slow
def test_resume_with_a_wrong_token_is_one_line_and_exit_2(server, tmp_path, capsys):
    saved = SavedSeats(tmp_path / "seats.json")
    code, _ = _play(server, saved, "quit\n")
    [match_id] = saved.all()
    code, out = _play(server, saved, "", resume=match_id, resume_seat=0, resume_token="not-the-token")
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert err.startswith("orrery play: ") and err.count("\n") == 1


@pytest.mark.slow
def test_input_running_out_leaves_the_match_resumable(server, tmp_path):
    saved = SavedSeats(tmp_path / "seats.json")
    code, out = _play(server, saved, "")
    [match_id] = saved.all()
    assert code == 1 and f"leaving match {match_id} unfinished; resume with: orrery play --target" in out


def test_the_saved_seats_file_is_json_in_the_data_folder(data_folder, capsys):
    from orrery.service._play import Seat

    saved = SavedSeats(data_folder / "play-seats.json")
    saved.put(Seat("abc", 1, "secret"), LOCAL)
    assert json.loads((data_folder / "play-seats.json").read_text()) == {
        "abc": {"seat": 1, "target": "local", "token": "secret"}
    }
    assert main(["play", "--list"]) == 0
    assert capsys.readouterr().out == "abc  seat 1: orrery play --resume abc\n"


def _move(seat, number, label, current, events=(), changes=None, by_ai=True):
    from orrery.v1 import orrery_pb2 as pb

    return pb.MatchEvent(
        kind=pb.MATCH_EVENT_MOVE,
        move_number=number,
        seat=seat,
        action=pb.Action(id=number, label=label),
        by_ai=by_ai,
        current_player=current,
        events=list(events),
        changes_json=json.dumps(changes) if changes is not None else "",
    )


def test_another_seats_turn_prints_as_one_summary_line_with_its_moves_under_it():
    from orrery.service._play import TurnFeed

    out = io.StringIO()
    feed = TurnFeed(0, out)
    feed.add(_move(0, 1, "buy a red mineral", 0, changes={"0": {"credits": -6, "red": 1}}, by_ai=False))
    feed.add(_move(0, 2, "end phase 3", 1, events=["stack 0: a tile is drawn; 40 left"], by_ai=False))
    feed.add(_move(1, 3, "draw from stack 0", 1, events=["stack 0: a tile is drawn; 39 left"]))
    feed.add(
        _move(1, 4, "place the tile at (1, 0)", 1, ["tile p1 placed at (1, 0)", "system at (1, 1) closed"])
    )
    feed.add(
        _move(1, 5, "expedition", 0, ["seat 0 is paid 4 credits"], {"0": {"credits": 4}, "1": {"credits": 3}})
    )
    assert out.getvalue().splitlines() == [
        "    stack 0: a tile is drawn; 40 left",  # what the person's own move set off
        "seat 1 (AI): 3 moves — +3 credits; seat 0 +4 credits",
        "    draw from stack 0",
        "      stack 0: a tile is drawn; 39 left",
        "    place the tile at (1, 0)",
        "      tile p1 placed at (1, 0)",
        "      system at (1, 1) closed",
        "    expedition",
        "      seat 0 is paid 4 credits",
    ]
    feed.add(_move(1, 6, "pass", 0))
    assert out.getvalue().splitlines()[-1] == "seat 1 (AI): pass"  # one move, nothing set off: one line


@pytest.mark.slow
def test_a_trian_match_in_the_terminal_summarises_the_ais_turns(server, tmp_path):
    saved = SavedSeats(tmp_path / "seats.json")
    code, out = _play(server, saved, "0\n" * 30 + "quit\n", game="trian", variant="beginner", seed=3)
    assert code == 0
    summaries = [line for line in out.splitlines() if line.startswith("seat 1 (AI): ")]
    assert summaries and any("moves" in line for line in summaries), out[-3000:]
    assert any(line.startswith("      stack ") and "a tile is drawn" in line for line in out.splitlines())
