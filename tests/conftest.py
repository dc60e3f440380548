import sys
from pathlib import Path

import pytest

# Test helpers (conformance.py) import as plain modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session", autouse=True)
def orrery_data_dir(tmp_path_factory):
    """What commands write when no path is given (orrery play's saved seats, tournament results) goes to
    a temporary data folder, never the user's (core_ext/_paths.py); servers and CLIs started by the tests
    inherit it through the environment."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("orrery-data")
        patch.setenv("ORRERY_DATA_DIR", str(folder))
        yield folder


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


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL server on loopback for the whole session (tests/postgres_server.py);
    tests take a fresh database each with postgres_server.new_database(). Skipped, with the reason,
    where the server binaries or the driver are missing."""
    import postgres_server as pg

    reason = pg.why_unavailable()
    if reason:
        pytest.skip(reason)
    with pg.running_postgres() as server:
        yield server


# ---------------------------------------------------------------- the fast lane
# `pytest -m "not slow"` must start no server and no Ray. A test that starts a gRPC server, an
# `orrery serve` process or Ray is marked slow (and ray for Ray); this guard stops an unmarked one the
# moment it tries, naming the marks to add.

LANE_RULE = (
    "mark it `pytest.mark.slow` (and `pytest.mark.ray` for Ray) so that the fast lane, "
    '`pytest -m "not slow"`, starts no server and no Ray'
)
_unmarked_test: list[str] = []  # the node id of the unmarked test now running, if any


def _is_slow(item: pytest.Item) -> bool:
    return item.get_closest_marker("slow") is not None


def _what_it_starts(argv: object) -> str | None:
    args = [str(a) for a in argv] if isinstance(argv, (list, tuple)) else str(argv).split()
    program = Path(args[0]).name if args else ""
    if program in ("raylet", "gcs_server") or (program == "ray" and "start" in args):
        return "Ray"
    if "serve" in args and any(Path(a).name == "orrery" or a.startswith("orrery.") for a in args[:3]):
        return "an `orrery serve` process"
    return None


def _refuse(what: str) -> None:
    if _unmarked_test:
        pytest.fail(f"{_unmarked_test[0]} starts {what} but is not marked slow: {LANE_RULE}", pytrace=False)


def pytest_configure(config: pytest.Config) -> None:
    import subprocess

    import grpc

    popen_init = subprocess.Popen.__init__

    def guarded_popen_init(self, args, *rest, **kwargs):  # type: ignore[no-untyped-def]
        what = _what_it_starts(args)
        if what:
            _refuse(what)
        popen_init(self, args, *rest, **kwargs)

    def guarded(factory, what):  # type: ignore[no-untyped-def]
        def make(*args, **kwargs):  # type: ignore[no-untyped-def]
            _refuse(what)
            return factory(*args, **kwargs)

        return make

    subprocess.Popen.__init__ = guarded_popen_init  # type: ignore[method-assign]
    grpc.server = guarded(grpc.server, "a gRPC server")
    grpc.aio.server = guarded(grpc.aio.server, "a gRPC server")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    if not _is_slow(item):
        _unmarked_test.append(item.nodeid)
    try:
        yield
    finally:
        _unmarked_test.clear()


def pytest_runtest_setup(item: pytest.Item) -> None:
    if "ray_session" in getattr(item, "fixturenames", ()) and not (
        _is_slow(item) and item.get_closest_marker("ray") is not None
    ):
        pytest.fail(
            f"{item.nodeid} uses Ray (the ray_session fixture) but is not marked ray and slow: {LANE_RULE}",
            pytrace=False,
        )
