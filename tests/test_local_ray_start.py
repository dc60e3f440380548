"""Starting the local Ray of `orrery serve`: any start-up failure is retried a bounded number of times,
with a clean-up between tries, and the last failure ends the server with one clear line and exit code 2.
No Ray is started here (the start function is a stand-in); test_service_ray_owned.py starts the real one.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from orrery.service import _server
from orrery.service._ray_head import READY, _without_api_server
from orrery.service._server import LocalRayError, start_with_retries
from orrery.service.cli import build_parser


def flaky(*failures: BaseException, result: object = "up"):  # type: ignore[no-untyped-def]
    """A start that raises each of `failures` in turn, then returns `result`."""
    left = list(failures)
    calls: list[int] = []

    def start() -> object:
        calls.append(1)
        if left:
            raise left.pop(0)
        return result

    return start, calls


def test_any_start_up_failure_is_retried_with_a_cleanup_in_between():
    start, calls = flaky(
        Exception("Timed out waiting for file /tmp/x/gcs_server_port_1"),
        RuntimeError("the local Ray head exited (code -6) before it was up"),
    )
    cleanups: list[int] = []
    assert start_with_retries(start, lambda: cleanups.append(1), attempts=3) == "up"
    assert len(calls) == 3
    assert len(cleanups) == 2


def test_when_every_attempt_fails_the_error_is_one_line_naming_the_attempts_and_the_last_error():
    start, calls = flaky(
        ValueError("first"), OSError("second"), Exception("The current node timed out\nduring startup.")
    )
    cleanups: list[int] = []
    with pytest.raises(LocalRayError) as failed:
        start_with_retries(start, lambda: cleanups.append(1), attempts=3)
    message = str(failed.value)
    assert "\n" not in message
    assert message == (
        "local Ray did not start after 3 attempts; last error: The current node timed out during startup."
    )
    assert len(calls) == 3 and len(cleanups) == 3


def test_a_failing_cleanup_does_not_stop_the_next_attempt():
    start, calls = flaky(ValueError("first"))

    def cleanup() -> None:
        raise OSError("cleanup failed")

    assert start_with_retries(start, cleanup, attempts=2) == "up"
    assert len(calls) == 2


def test_keyboard_interrupt_is_not_retried():
    start, calls = flaky(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        start_with_retries(start, lambda: None, attempts=3)
    assert len(calls) == 1


def test_orrery_serve_prints_one_line_and_exits_2_when_the_local_ray_never_starts(monkeypatch, capsys):
    async def serve(config, *, on_ready=None):  # type: ignore[no-untyped-def]
        raise LocalRayError("local Ray did not start after 3 attempts; last error: boom")

    monkeypatch.setattr("orrery.service._cli.serve", serve)
    args = build_parser().parse_args(["serve", "--port", "0", "--no-metrics"])
    assert args.func(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "orrery serve: local Ray did not start after 3 attempts; last error: boom"


def test_the_head_address_is_read_from_its_ready_line_and_an_early_exit_is_an_error():
    def child(code: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    head = child(f"import sys; print('{READY} 127.0.0.1:6379', flush=True); sys.stdin.read()")
    try:
        assert _server._head_address(head, 30) == "127.0.0.1:6379"
    finally:
        head.stdin.close()  # type: ignore[union-attr]
        head.wait()
        head.stdout.close()  # type: ignore[union-attr]
    head = child("raise SystemExit(3)")
    with pytest.raises(RuntimeError, match=r"exited \(code 3\) before it was up"):
        _server._head_address(head, 30)
    head.stdout.close()  # type: ignore[union-attr]


def test_without_a_dashboard_the_head_starts_no_api_server():
    class Node:
        _webui_url = "http://127.0.0.1:8265"

        def start_api_server(self, *, include_dashboard, raise_on_failure):  # type: ignore[no-untyped-def]
            raise AssertionError("a dashboard process would start")

    _without_api_server(Node)
    node = Node()
    node.start_api_server(include_dashboard=False, raise_on_failure=False)
    assert node._webui_url is None
