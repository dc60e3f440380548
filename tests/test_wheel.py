"""The package as a user installs it (not editable): build a wheel from the repository's files with pip
(isolated build, as `pip install .` does), install it with its dependencies into a fresh venv, then,
from the repository root, run `orrery games` and a short `orrery serve` on the default Ray backend:
the standard gRPC health service answers SERVING, a suggestion is searched by the Ray workers (which
must import the installed compiled modules, not the repository's source folders), and SIGTERM stops
the server cleanly.

The fresh venv is made by this venv's `python -m venv` (no --system-site-packages, which could hide a
missing dependency) and filled by its own pip from the package registries pip is configured with.
Building and installing take about two minutes on two cores; the venv (~700 MB) is deleted afterwards.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from orrery.core_ext import load_game
from orrery.service._spawn import READY_LINE
from orrery.service.client import OrreryClient

ROOT = Path(__file__).resolve().parent.parent
STEP_TIMEOUT_S = 600  # a generous ceiling for one build or install step on a busy machine, not a check
SERVE_READY_TIMEOUT_S = 300
# Files that the build generates and that must never be committed: Cython's C beside its .pyx, the
# gRPC code generated from proto/, compiled modules.
GENERATED_CODE = re.compile(r"(_pb2\.pyi?|_pb2_grpc\.py|\.so|\.pyd)$")


def _run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT_S, check=False
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(command)} failed ({result.returncode}):\n{output[-4000:]}"
    return output


def _repository_files() -> list[str]:
    """What `pip install .` sees of the working tree: tracked files and untracked ones git does not ignore."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout of the repository (git ls-files)")
    listing = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT)
    names = [name for name in listing.split("\0") if name]
    return [name for name in names if (ROOT / name).is_file() or (ROOT / name).is_symlink()]


def _user_env(venv: Path) -> dict[str, str]:
    """A user's shell with the fresh venv activated: nothing of this test session's import path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["RAY_ADDRESS"] = ""  # start a local Ray, never join another session's cluster
    return env


@dataclass
class Installed:
    wheel: Path
    venv: Path
    env: dict[str, str]
    tmp: Path


@pytest.fixture(scope="module")
def installed() -> Iterator[Installed]:
    with tempfile.TemporaryDirectory(prefix="orrery-wheel-") as folder:
        tmp = Path(folder)
        # Build from a copy of the repository's files, so that no generated file already in the
        # working tree (C, _pb2, .so, build/) can stand in for one the build fails to make.
        source = tmp / "source"
        for name in _repository_files():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / name).is_symlink():  # src/orrery/: the links with the installed shape (setup.py)
                (source / name).symlink_to(os.readlink(ROOT / name))
            else:
                shutil.copy2(ROOT / name, source / name)
        _run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(source)],
            cwd=tmp,
        )
        wheels = sorted((tmp / "dist").glob("*.whl"))
        assert len(wheels) == 1, wheels
        venv = tmp / "venv"
        _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp)
        env = _user_env(venv)
        _run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile", str(wheels[0])],
            cwd=tmp,
            env=env,
        )
        yield Installed(wheels[0], venv, env, tmp)


def test_no_generated_code_is_committed() -> None:
    tracked = _run(["git", "ls-files", "-z"], cwd=ROOT) if (ROOT / ".git").exists() else ""
    names = [n for n in tracked.split("\0") if n]
    if not names:
        pytest.skip("needs a git checkout of the repository (git ls-files)")
    pyx = {str(Path(n).with_suffix("")) for n in names if n.endswith(".pyx")}
    cython_c = [n for n in names if n.endswith((".c", ".cpp")) and str(Path(n).with_suffix("")) in pyx]
    generated = [n for n in names if GENERATED_CODE.search(n)]
    assert not cython_c + generated, f"generated at build time, never committed: {cython_c + generated}"


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_wheel_holds_one_top_level_package(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    top = {name.split("/", 1)[0] for name in names}
    dist_info = [t for t in top if t.endswith(".dist-info")]
    assert len(dist_info) == 1 and dist_info[0].startswith("orrery-"), top
    assert top == {"orrery", dist_info[0]}, f"site-packages would gain more than `orrery`: {sorted(top)}"
    # generated at build time, and shipped
    for module in ("orrery/core_ext/game", "orrery/core_ext/trian/engine", "orrery/search/_kernel"):
        assert any(n.startswith(module + ".") and n.endswith(".so") for n in names), f"{module} not compiled"
    assert {"orrery/v1/orrery_pb2.py", "orrery/v1/orrery_pb2_grpc.py"} <= set(names)
    assert not [n for n in names if n.endswith((".c", ".cpp", ".pyx"))], "sources of compiled modules shipped"


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_orrery_games_from_the_repository_root_uses_the_installed_package(installed: Installed) -> None:
    python = str(installed.venv / "bin" / "python")
    where = _run(
        [
            python,
            "-c",
            "import orrery, orrery.search._kernel as k; print(orrery.__file__); print(k.__file__)",
        ],
        cwd=ROOT,
        env=installed.env,
    )
    for line in where.splitlines():
        assert Path(line).is_relative_to(installed.venv), f"imported from outside the fresh venv: {line}"
    games = _run([str(installed.venv / "bin" / "orrery"), "games"], cwd=ROOT, env=installed.env)
    assert "trian" in games, games
    # the model files are package data: the installed package finds and lists the shipped one (issue 31)
    assert "learned models: full 2p (trian-full-2p.orrnet" in games, games


def _wait_ready(process: subprocess.Popen[str]) -> re.Match[str] | None:
    """The server's "orrery serving on" line, or None if its stdout ends (or the ceiling passes) first."""
    found: list[re.Match[str]] = []
    done = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        try:
            for line in process.stdout:  # drains to the end, so the server never blocks on a full pipe
                m = READY_LINE.search(line)
                if m and not found:
                    found.append(m)
                    done.set()
        finally:
            done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(SERVE_READY_TIMEOUT_S)
    return found[0] if found else None


@pytest.mark.ray
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_orrery_serve_from_the_repository_root_on_ray(installed: Installed) -> None:
    log = installed.tmp / "serve.log"
    command = [str(installed.venv / "bin" / "orrery"), "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--metrics-port", "0", "--workers", "2", "--config", "test-fast"]
    command += ["--db", str(installed.tmp / "matches.sqlite3")]
    with open(log, "w") as stderr:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=installed.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            start_new_session=True,  # its own process group, so a failed run can be cleaned up
        )
    try:
        ready = _wait_ready(process)
        assert ready, f"`orrery serve` never printed 'orrery serving on':\n{log.read_text()[-4000:]}"
        target = f"127.0.0.1:{ready['port']}"
        with grpc.insecure_channel(target) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", "orrery.v1.Orrery"):
                status = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=30).status
                assert status == health_pb2.HealthCheckResponse.SERVING, (service, status)
        state = load_game("kuhn", players=2).new_initial_state(1)
        with OrreryClient(target, timeout=120) as client:
            assert client.version().backend == "ray"
            observation = state.observation(state.current_player).to_json()
            answer = client.suggest(game="kuhn", observation_json=observation, iterations=200, seed=1)
            assert answer.stats.iterations == 200 and answer.stats.workers >= 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=STEP_TIMEOUT_S) == 0, log.read_text()[-4000:]
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
