"""The Node.js example client (examples/node, @grpc/grpc-js + @grpc/proto-loader from npm) plays a
full hosted match against an AI seat through WatchMatch, against a real server process."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from orrery.service._spawn import start_server

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "node"


@pytest.fixture(scope="module")
def node_example(tmp_path_factory):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node.js (node and npm) is not installed")
    folder = tmp_path_factory.mktemp("node")
    for name in ("package.json", "package-lock.json", "play.js"):
        shutil.copy(EXAMPLE / name, folder / name)
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        pytest.skip(f"npm ci failed (no registry?): {done.stderr.strip()[-300:]}")
    return folder


def test_node_client_plays_a_match_against_an_ai_seat(node_example, tmp_path):
    args = ["--backend", "in-process", "--workers", "2", "--config", "test-fast"]
    server = start_server([*args, "--db", str(tmp_path / "m.sqlite3")], cwd=str(tmp_path), same_imports=True)
    try:
        env = {**os.environ, "ORRERY_PROTO": str(ROOT / "proto" / "orrery" / "v1" / "orrery.proto")}
        for players in (2, 3):
            done = subprocess.run(
                ["node", "play.js", server.target, "kuhn", str(players)],
                cwd=node_example,
                capture_output=True,
                text=True,
                timeout=120,
                env=env,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            out = done.stdout
            assert "(AI) plays" in out and "I play" in out, out
            assert "end (MATCH_STATUS_FINISHED)" in out and "game over: true" in out, out
    finally:
        assert server.terminate() == 0
