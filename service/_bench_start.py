"""`orrery bench serve-start`: N consecutive starts of `orrery serve` with a local Ray.

Each start runs `python -m orrery.service.cli serve --host 127.0.0.1 --port 0 --metrics-port 0` (with
no RAY_ADDRESS, so the server starts its own Ray) and times it from launch until the
"orrery serving on" line. A start that exits, or does not print that line within --timeout seconds,
counts as failed; its last log lines are kept. While a server is up, the processes of its Ray (those
naming its Ray temp dir) are listed, to count dashboard processes. Then it is stopped (SIGTERM) and
the next start begins.
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from collections import Counter
from typing import Any

from orrery.service._bench import _load_average, _percentile

# Log lines that name a known way a start goes wrong, counted over all starts.
SIGNS = {
    "dashboard aborted": "Failed to start the dashboard",
    "gcs port file timeout": "Timed out waiting for file",
    "node start timeout": "timed out during startup",
    "grpc fork handlers skipped": "skipping fork() handlers",
    "retried": "did not start (attempt",
}


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def ray_processes(server_pid: int) -> list[str]:
    """Command lines of the processes of this server's local Ray (found through its temp dir)."""
    from orrery.service._reaper import naming

    if not os.path.isdir("/proc/self"):
        return []
    temp = tempfile.gettempdir()
    found = []
    for name in os.listdir(temp):
        if name.startswith(f"orrery-ray-{server_pid}-"):
            found += [_cmdline(p) for p in naming(os.path.join(temp, name))]
    return [c for c in found if c]


def _kind(cmdline: str) -> str:
    """The program (gcs_server, raylet, ...) or, for Python, the script's name (dashboard.py, ...)."""
    words = cmdline.split()
    program = words[0].rsplit("/", 1)[-1] if words else "?"
    if program.startswith("python") and len(words) > 1:
        script = next((w for w in words[1:] if not w.startswith("-")), "")
        return script.rsplit("/", 1)[-1] or program
    return program


def run_start_bench(*, starts: int, timeout: float, workers: int | None) -> dict[str, Any]:
    from orrery.service._spawn import start_server

    times: list[float] = []
    failures: list[dict[str, Any]] = []
    signs: Counter[str] = Counter()
    processes: Counter[str] = Counter()
    dashboards = 0
    load_before = _load_average()
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    with tempfile.TemporaryDirectory(prefix="orrery-start-bench-") as folder:
        for i in range(starts):
            args = ["--backend", "ray", "--db", os.path.join(folder, f"m{i}.sqlite3")]
            if workers:
                args += ["--workers", str(workers)]
            began = time.monotonic()
            try:
                server = start_server(args, ready_timeout=timeout, env=env, cwd=folder, same_imports=True)
            except RuntimeError as exc:
                text = str(exc)
                failures.append(
                    {"start": i, "after_s": round(time.monotonic() - began, 2), "log": text[-2000:]}
                )
                signs.update(k for k, sign in SIGNS.items() if sign in text)
                continue
            times.append(time.monotonic() - began)
            kinds = [_kind(c) for c in ray_processes(server.process.pid)]
            processes.update(set(kinds))
            dashboards += kinds.count("dashboard.py") > 0
            server.terminate()
            signs.update(k for k, sign in SIGNS.items() if sign in "".join(server.log))
    ordered = sorted(times)
    return {
        "bench": "serve-start",
        "starts": starts,
        "served": len(times),
        "failed": len(failures),
        "timeout_s": timeout,
        "workers": workers,
        "start_s": {
            "min": round(ordered[0], 2) if ordered else None,
            "median": round(_percentile(ordered, 0.5), 2) if ordered else None,
            "p90": round(_percentile(ordered, 0.9), 2) if ordered else None,
            "max": round(ordered[-1], 2) if ordered else None,
        },
        "starts_with_a_dashboard_process": dashboards,
        "ray_process_kinds": dict(processes),  # in how many served starts each kind of Ray process ran
        "signs": dict(signs),
        "failures": failures,
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "machine": platform.platform(),
    }
