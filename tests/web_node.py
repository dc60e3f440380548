"""Runs a piece of the web client (service/web/*.js, ES modules) in Node.js for the browserless web tests:
one place for the Node call, so each test says only its script and input."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[1] / "service" / "web"


def run_web_script(script: str, payload: Any) -> Any:
    """Run `script` (an ES module importing from ./*.js) in service/web with `payload` as JSON in
    process.argv[1]; its stdout parsed as JSON. Skips the test where Node.js is not installed."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run(
        [
            node,
            "--experimental-default-type=module",
            "--input-type=module",
            "-e",
            script,
            json.dumps(payload),
        ],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
