"""A throwaway PostgreSQL server on loopback for the tests: Debian's postgresql package (initdb and
pg_ctl from /usr/lib/postgresql/<version>/bin), a temp data directory, a free port. PostgreSQL refuses
to run as root, so as root it runs as the package's `postgres` user (runuser)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

USER = "orrery"  # the database superuser initdb creates (trust authentication on loopback only)


@dataclass(frozen=True)
class PostgresServer:
    port: int
    pg_ctl: tuple[str, ...] = ()  # pg_ctl -D DATA, as the user that runs the server
    options: str = ""  # its -o options (port, socket folder, listen address)
    log: str = ""
    data: str = ""  # the data directory

    def stop(self) -> None:
        """Stop the server (fast shutdown: sessions are ended, as in a restart or failover)."""
        _run([*self.pg_ctl, "-m", "fast", "-w", "stop"])

    def start(self) -> None:
        """Start it again after stop(), on the same port and data; returns once it accepts connections."""
        _run([*self.pg_ctl, "-o", self.options, "-l", self.log, "-w", "start"])

    def require_password(self, role: str, password: str) -> None:
        """Make `role` log in with `password` (SCRAM) over TCP; every other role keeps trust."""
        self.psql(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        hba = os.path.join(self.data, "pg_hba.conf")
        with open(hba, encoding="utf-8") as f:
            rules = f.read()
        with open(hba, "w", encoding="utf-8") as f:
            f.write(f"host all {role} 127.0.0.1/32 scram-sha-256\n{rules}")
        _run([*self.pg_ctl, "reload"])

    def psql(self, sql: str, database: str = "postgres") -> None:
        """Run statements as the superuser (role and grant set-ups)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(sql)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def find_bin() -> str | None:
    """The newest installed server's bin directory, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def why_unavailable() -> str | None:
    if find_bin() is None:
        return "no PostgreSQL server binaries (apt-get install postgresql; .ci/run does)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(command: list[str]) -> None:
    result = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120
    )
    if result.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()}")


@contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    bin_dir = find_bin()
    assert bin_dir is not None
    folder = tempfile.mkdtemp(prefix="orrery-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:
        account = pwd.getpwnam("postgres")
        os.chown(folder, account.pw_uid, account.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")
    port = _free_port()
    _run([*as_user, f"{bin_dir}/initdb", "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"])
    # Durability settings off: these tests kill the service, never the database.
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    pg_ctl = [*as_user, f"{bin_dir}/pg_ctl", "-D", data]
    server = PostgresServer(port, tuple(pg_ctl), options, os.path.join(folder, "log"), data)
    server.start()
    try:
        yield server
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
