"""Every `orrery` command and bench prints its help (argparse formats help strings with %, so a stray
percent sign breaks a command's --help only when someone asks for it)."""

import argparse

import pytest

from orrery.service.cli import build_parser


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                yield from ((f"{name} {n}", s) for n, s in _subparsers(sub))


def test_every_command_formats_its_help():
    commands = dict(_subparsers(build_parser()))
    assert {"serve", "games", "bench", "bench strength"} <= set(commands)
    for name, sub in commands.items():
        assert sub.format_help(), name


def test_top_level_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["bench", "--help"])
    assert done.value.code == 0
    assert "strength" in capsys.readouterr().out


def test_orrery_games_prints_the_action_range_and_game_length(capsys):
    from orrery.core_ext import game_bounds, registered_games

    args = build_parser().parse_args(["games"])  # every game, kuhn (a test game) included
    assert args.func(args) == 0
    out = capsys.readouterr().out
    for info in registered_games():
        actions, length = game_bounds(info.name)
        assert f"num_distinct_actions: {actions} " in out and f"max_game_length: {length}" in out
    assert "num_distinct_actions: 210000 " in out


def test_every_command_in_the_readme_using_it_section_parses_and_serve_comes_before_its_clients():
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("## Using it", 1)[1].split("\n## ", 1)[0]
    commands = [
        shlex.split(line.split("  #", 1)[0]) for line in section.splitlines() if line.startswith("orrery ")
    ]
    assert len(commands) >= 15
    for argv in commands:
        args = build_parser().parse_args(argv[1:])
        assert callable(args.func), argv
    order = [argv[1] for argv in commands]
    assert order.index("serve") < order.index("suggest") and order.index("serve") < order.index("gateway")
