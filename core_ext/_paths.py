"""Where the command line keeps what it writes when the user names no place: Orrery's data folder.

`$ORRERY_DATA_DIR` if set, else the platform's per-user data folder (platformdirs: ~/.local/share/orrery
on Linux, ~/Library/Application Support/orrery on macOS). Commands never write into the current
directory unless a path on their command line says so.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_VARIABLE = "ORRERY_DATA_DIR"


def data_dir(*parts: str) -> Path:
    """The data folder (or a folder inside it), created if missing."""
    from platformdirs import user_data_dir

    root = os.environ.get(DATA_DIR_VARIABLE) or user_data_dir("orrery", appauthor=False)
    folder = Path(root).expanduser().joinpath(*parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
