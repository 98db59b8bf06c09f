"""The vault's files are the user's alone: folders 0700, files 0600.

New files get those modes from the process umask (``private_umask``, set when a vault opens);
a wider mode found at open (a copy restored by another tool, an older version that created
0755 folders and 0644 key files) is narrowed, and the vault's audit log notes it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

PRIVATE_UMASK: Final = 0o077
DIR_MODE: Final = 0o700
FILE_MODE: Final = 0o600


def private_umask() -> None:
    """Mask group and other permission bits for every file this process creates from now on
    (process-wide on purpose: LanceDB, the key files and exports all hold private data)."""
    current = os.umask(PRIVATE_UMASK)
    os.umask(current | PRIVATE_UMASK)


def narrow(root: Path) -> list[Path]:
    """Make ``root`` and everything under it private; returns what had a wider mode."""
    narrowed: list[Path] = []
    for path in [root, *root.rglob("*")]:
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue  # removed while we walked
        if stat.S_ISLNK(info.st_mode):
            continue
        wanted = DIR_MODE if stat.S_ISDIR(info.st_mode) else FILE_MODE
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077 | (wanted & 0o700))
            narrowed.append(path)
    return narrowed
