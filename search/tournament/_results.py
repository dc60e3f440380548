"""The append-only results file: one JSON header line, then one line per finished game."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import IO, Any

from orrery.search.tournament._config import ConfigError, TournamentConfig, config_from_json

FORMAT = "orrery.tournament/1"


class ResultsError(ValueError):
    """A results file that cannot be read or does not belong to this tournament."""


def read_results(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, game records) from a results file; a torn last line (a run killed mid-write) is skipped."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such results file") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        lines.pop()  # no newline at the end: the last record was never completely written
    header: dict[str, Any] | None = None
    records = []
    for number, line in enumerate(lines, 1):
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{path}:{number}: not JSON ({exc.msg})") from None
        kind = item.get("type")
        if kind == "tournament":
            if header is None:
                header = item
        elif kind == "game":
            records.append(item)
    if header is None or header.get("format") != FORMAT:
        raise ResultsError(f"{path}: not an orrery tournament results file (no {FORMAT} header)")
    return header, records


def header_config(header: dict[str, Any]) -> TournamentConfig:
    try:
        return config_from_json(header["config"])
    except (KeyError, TypeError, ConfigError) as exc:
        raise ResultsError(f"results header holds no valid tournament config: {exc}") from None


class ResultsWriter:
    """Appends game records; on an existing file checks it belongs to the same tournament first."""

    def __init__(self, path: str | Path, config: TournamentConfig) -> None:
        self.path = Path(path)
        self.records: list[dict[str, Any]] = []
        if self.path.exists() and self.path.stat().st_size > 0:
            header, self.records = read_results(self.path)
            if header.get("fingerprint") != config.fingerprint():
                raise ResultsError(
                    f"{self.path} holds results of a different tournament (fingerprint "
                    f"{header.get('fingerprint')}, this config {config.fingerprint()}); "
                    "choose another results path or restore the original config"
                )
            self._drop_torn_tail()
            self._file: IO[str] = self.path.open("a")
            self._write({"type": "resume", "at": _now(), "games_done": len(self.records)})
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w")
            self._write(
                {
                    "type": "tournament",
                    "format": FORMAT,
                    "fingerprint": config.fingerprint(),
                    "started": _now(),
                    "config": config.to_dict(),
                }
            )

    def _drop_torn_tail(self) -> None:
        # A record cut off by a kill has no newline; appending after it would corrupt the next one.
        with self.path.open("rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                f.truncate(end)

    def _write(self, item: dict[str, Any]) -> None:
        self._file.write(json.dumps(item, separators=(",", ":")) + "\n")
        self._file.flush()

    def append(self, record: dict[str, Any]) -> None:
        self._write(record)
        self.records.append(record)

    def close(self) -> None:
        if not self._file.closed:
            os.fsync(self._file.fileno())
            self._file.close()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
