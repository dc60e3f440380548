"""The layers import downward only: core_ext at the bottom, search above it (render beside search, below
service), service and openspiel on top. Search reaches the kinds of bot those two provide through its
registry (search/tournament/_kinds.py), never by importing them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# folder -> the orrery packages its modules must not import (statically, or by name in import_module)
FORBIDDEN = {
    "search": ("orrery.service", "orrery.openspiel"),
    "core_ext": ("orrery.search", "orrery.service", "orrery.openspiel", "orrery.render"),
    "render": ("orrery.search", "orrery.service", "orrery.openspiel"),
}


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            # `from orrery import service` names the package in the alias
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_no_upward_imports(folder):
    bad = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, name in _imports(tree):
            if any(_under(name, p) for p in FORBIDDEN[folder]):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_the_check_sees_an_upward_import():
    tree = ast.parse(
        "import orrery.service.client\n"
        "def f():\n"
        "    from orrery.openspiel._bots import OpenSpielBot\n"
        "    from orrery import service\n"
        "    importlib.import_module('orrery.service.remote_bot')\n"
    )
    flagged = {line for line, n in _imports(tree) if any(_under(n, p) for p in FORBIDDEN["search"])}
    assert flagged == {1, 3, 4, 5}
