"""The server owns its local Ray: with a loopback --host every process of it listens on loopback
only, it has no dashboard process, and kill -9 of the server leaves no process of it behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess

import pytest

from orrery.service._reaper import descendants, naming
from orrery.service._spawn import start_server, wait_until

pytestmark = [
    pytest.mark.ray,
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.isdir("/proc/self") or shutil.which("ss") is None, reason="needs /proc and ss"
    ),
]


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def listening(pids: set[int]) -> list[str]:
    lines = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout.splitlines()
    return [line.split()[3] for line in lines if any(f"pid={p}," in line for p in pids)]


def test_local_ray_binds_loopback_and_dies_with_the_server_on_kill_9(tmp_path):
    server = start_server(
        [
            "--backend",
            "ray",
            "--workers",
            "1",
            "--threads-up-to-ms",
            "0",
            "--db",
            str(tmp_path / "m.sqlite3"),
        ],
        cwd=str(tmp_path),
        same_imports=True,
        ready_timeout=240,
    )
    pid = server.process.pid
    try:
        family = descendants(pid) | {pid}
        temp_dirs = [d for d in os.listdir("/tmp") if d.startswith(f"orrery-ray-{pid}-")]
        assert len(temp_dirs) == 1
        marker = f"/tmp/{temp_dirs[0]}"
        ray_processes = naming(marker)
        assert ray_processes, "no process names the server's Ray temp dir"
        addresses = listening(family | ray_processes)
        loopback = ("127.0.0.1", "[::ffff:127.0.0.1]", "[::1]")
        assert addresses and all(a.rsplit(":", 1)[0] in loopback for a in addresses), addresses
        # Ray's head starts a (reduced) dashboard process even with include_dashboard=False; the
        # server's head (service/_ray_head.py) starts none without --ray-dashboard.
        dashboards = [cmdline(p) for p in ray_processes if "dashboard/dashboard.py" in cmdline(p)]
        assert not dashboards, dashboards
        heads = [p for p in ray_processes if "orrery.service._ray_head" in cmdline(p)]
        assert len(heads) == 1 and heads[0] in family, "the Ray head runs in a child of the server"
    finally:
        os.kill(pid, signal.SIGKILL)
        server.process.wait()

    def left() -> set[int]:
        return {p for p in family | ray_processes | naming(marker) if alive(p)}

    assert wait_until(lambda: not left(), timeout=60, interval=0.5), [cmdline(p) for p in left()]
    assert wait_until(lambda: not os.path.exists(marker), timeout=10)
