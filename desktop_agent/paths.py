"""Where everything lives on disk.

platformdirs picks the OS conventions; ``DESKTOP_AGENT_HOME`` puts data, config, cache and
models under one folder (every test sets it to a temp dir, so no test touches real data).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "desktop-agent"
HOME_ENV = "DESKTOP_AGENT_HOME"


@dataclass(frozen=True, slots=True)
class AppPaths:
    data_dir: Path
    config_dir: Path
    cache_dir: Path
    models_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.toml"

    @property
    def vault_dir(self) -> Path:
        return self.data_dir / "vault"

    @property
    def log_dir(self) -> Path:
        return self.data_dir / "logs"

    def ensure(self) -> AppPaths:
        for directory in (self.data_dir, self.config_dir, self.cache_dir, self.models_dir):
            directory.mkdir(parents=True, exist_ok=True)
            # The user's alone: an older version created these 0755.
            if directory.stat().st_mode & 0o077:
                directory.chmod(0o700)
        return self

    @property
    def home_override(self) -> bool:
        return bool(os.environ.get(HOME_ENV))


def app_paths() -> AppPaths:
    """The paths for this process, honouring ``DESKTOP_AGENT_HOME``."""
    home = os.environ.get(HOME_ENV)
    if home:
        root = Path(home).expanduser().resolve()
        return AppPaths(
            data_dir=root / "data",
            config_dir=root / "config",
            cache_dir=root / "cache",
            models_dir=root / "models",
        )
    data = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return AppPaths(
        data_dir=data,
        config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        cache_dir=Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
        models_dir=data / "models",
    )
