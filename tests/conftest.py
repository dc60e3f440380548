import sys
from pathlib import Path

import pytest

# Test helpers (conformance.py) import as plain modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def ray_session():
    """One small local Ray for the whole test session (Ray's local mode is gone)."""
    ray = pytest.importorskip("ray")
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    if started_here:
        ray.shutdown()
