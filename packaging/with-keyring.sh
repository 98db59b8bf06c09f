#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring Secret Service,
# so integration tests use a real OS keyring without touching the user's own keyrings.
# Without dbus-run-session or gnome-keyring-daemon it runs the command as it is (tests that
# need the keyring then skip locally; in CI .ci/run installs both, and they must not skip).
set -euo pipefail
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
    keyring_home=$(mktemp -d)
    trap 'rm -rf "$keyring_home"' EXIT
    export KEYRING_TEST_HOME="$keyring_home"
    exec dbus-run-session -- bash -c '
        export XDG_DATA_HOME="$KEYRING_TEST_HOME/data" XDG_RUNTIME_DIR="$KEYRING_TEST_HOME/run"
        mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
        eval "$(printf "test-keyring-password" | gnome-keyring-daemon --unlock --components=secrets)"
        export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
        "$@"' with-keyring "$@"
fi
exec "$@"
