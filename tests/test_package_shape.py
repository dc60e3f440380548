"""src/orrery/ is the committed tree of relative links that gives the repository the installed package shape
(setup.py): one link per package folder of PACKAGE_DIRS, so tools read `orrery.*` without a build step."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_dirs() -> dict[str, str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PACKAGE_DIRS":
            return ast.literal_eval(node.value)  # type: ignore[no-any-return]
    raise AssertionError("setup.py defines no PACKAGE_DIRS")


def test_the_link_tree_mirrors_the_installed_packages() -> None:
    links = ROOT / "src" / "orrery"
    expected = {"__init__.py": "proto/orrery/__init__.py", "v1": "proto/orrery/v1"}
    for package, folder in package_dirs().items():
        if package != "orrery":
            expected[package.split(".", 1)[1]] = folder
    assert {p.name for p in links.iterdir() if p.name != "__pycache__"} == set(expected)
    for name, target in expected.items():
        link = links / name
        assert link.is_symlink(), f"src/orrery/{name} must be a link"
        assert not Path(link.readlink()).is_absolute(), f"src/orrery/{name} must be a relative link"
        assert link.resolve() == (ROOT / target).resolve(), f"src/orrery/{name} must point at {target}"
