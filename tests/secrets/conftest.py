"""Secret Service fixtures: the real gnome-keyring under dbus when it is reachable.

In CI (CI=true) the integration tests must run, so an unreachable Secret Service fails them
instead of skipping; elsewhere they skip with the command that runs them.
"""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from tests.conftest import in_ci

HOW_TO_RUN = (
    "no Secret Service reachable; run under dbus: dbus-run-session -- bash -c "
    "'echo -n PASS | gnome-keyring-daemon --unlock --components=secrets >/dev/null; .venv/bin/pytest -m keyring'"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "keyring: needs a real Secret Service (gnome-keyring); runs in CI"
    )


def reachable_secret_service() -> tuple[KeyringBackend | None, str]:
    try:
        from keyring.backends import SecretService

        backend = SecretService.Keyring()
        if backend.priority < 1:  # raises when D-Bus or the service is missing
            return None, "Secret Service backend not usable"
        backend.get_password("desktop-agent-test", "probe")
        return backend, ""
    except Exception as exc:  # any failure means: not reachable here
        return None, f"{type(exc).__name__}: {exc}"


@pytest.fixture
def secret_service() -> Iterator[KeyringBackend]:
    backend, why = reachable_secret_service()
    if backend is None:
        if in_ci():
            pytest.fail(f"CI must run the Secret Service tests, but: {why}")
        pytest.skip(f"{HOW_TO_RUN} ({why})")
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
