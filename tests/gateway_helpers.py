"""Helpers for tests that run `orrery serve` and `orrery gateway` (Envoy) and talk HTTP to them."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def envoy_available() -> str | None:
    """None if Envoy can run here, else the reason."""
    try:
        from orrery.service._gateway import descriptor_path, envoy_binary

        envoy_binary()
    except FileNotFoundError as exc:
        return str(exc)
    if not descriptor_path().is_file():
        return f"{descriptor_path()} missing: reinstall (pip install -e .)"
    return None


@contextlib.contextmanager
def running_gateway(upstream: str, port: int | None = None) -> Iterator[str]:
    """`orrery gateway` in front of `upstream` (on `port`, default a free one); yields its base URL once
    /healthz answers."""
    port = port or free_port()
    command = [
        sys.executable,
        "-m",
        "orrery.service.cli",
        "gateway",
        "--port",
        str(port),
        "--upstream",
        upstream,
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(os.path.abspath(p) for p in sys.path if p)}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60  # start-up only; no assertion depends on timing
            while True:
                if proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"orrery gateway exited: {log.read().decode()[-3000:]}")
                try:
                    with urllib.request.urlopen(base + "/healthz", timeout=5) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("orrery gateway did not answer /healthz")
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def post_json(base: str, method: str, body: dict, headers: dict | None = None) -> tuple[int, dict, Any]:
    """JSON transcoding: POST /orrery.v1.Orrery/<method>; (HTTP status, headers, decoded body)."""
    request = urllib.request.Request(
        f"{base}/orrery.v1.Orrery/{method}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, dict(r.headers), json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read() or b"null")


def grpc_web_frames(data: bytes) -> tuple[list[bytes], dict[str, str]]:
    """Split a gRPC-Web (binary) body into its message frames and its trailers."""
    messages, trailers, at = [], {}, 0
    while at < len(data):
        flag, length = struct.unpack(">BI", data[at : at + 5])
        payload = data[at + 5 : at + 5 + length]
        at += 5 + length
        if flag & 0x80:
            for line in payload.decode().split("\r\n"):
                if ":" in line:
                    k, v = line.split(":", 1)
                    trailers[k.strip().lower()] = v.strip()
        else:
            messages.append(payload)
    return messages, trailers


def grpc_web_call(
    base: str, method: str, request: Any, headers: dict | None = None
) -> tuple[dict, list[bytes], dict]:
    """A gRPC-Web call over HTTP/1.1, as a browser makes it: (response headers, messages, trailers)."""
    payload = request.SerializeToString()
    http = urllib.request.Request(
        f"{base}/orrery.v1.Orrery/{method}",
        data=struct.pack(">BI", 0, len(payload)) + payload,
        headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1", **(headers or {})},
        method="POST",
    )
    with urllib.request.urlopen(http, timeout=60) as r:
        messages, trailers = grpc_web_frames(r.read())
        return dict(r.headers), messages, trailers


WEB_ROOT = Path(__file__).resolve().parents[1] / "service" / "web"
