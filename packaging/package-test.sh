#!/usr/bin/env bash
# `make package-test`: the bundle in dist/desktop-agent/ runs with no .venv to lean on.
#
# .venv is put out of sight first. Where the kernel allows it (root here and in CI), an empty
# tmpfs is mounted over it in a private mount namespace: only this test stops seeing it, so a
# test suite running from the same checkout meanwhile is untouched, and nothing needs putting
# back even if the test is killed. Elsewhere .venv is renamed to .venv.away and a trap renames
# it back however the test ends. PACKAGE_TEST_HIDE=rename forces the rename.
#
# Then, with DESKTOP_AGENT_HOME in a temp dir and a private unlocked keyring (with-keyring.sh,
# which uses only system programs): --version; doctor with every required check passing; a chat
# turn with the bundled model that learns a fact (spaCy, the ONNX embedder, the vault) and
# `memory list` finding it; no error in the app's log; each main view rendered offscreen. It ends
# with the bundle's size and the median start time of --version and doctor over 3 runs.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
BUNDLE=${BUNDLE:-dist/desktop-agent}
EXE="$BUNDLE/desktop-agent"
LIMIT=300  # seconds for any one run of the bundle

say() { printf 'package-test: %s\n' "$*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}

median_ms() {
    local runs=() start end
    for _ in 1 2 3; do
        start=$(date +%s%N)
        timeout "$LIMIT" "$@" >/dev/null 2>&1 || fail "$* exited non-zero"
        end=$(date +%s%N)
        runs+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}

checks() {
    [ ! -e "$VENV/bin/python" ] || fail "$VENV is still in sight"
    home=$(mktemp -d)
    trap 'rm -rf "$home"' EXIT
    export DESKTOP_AGENT_HOME="$home"

    version=$(timeout "$LIMIT" "$EXE" --version) || fail "--version exited non-zero"
    [[ $version == "desktop-agent "* ]] || fail "--version printed: $version"
    say "$version"

    timeout "$LIMIT" "$EXE" doctor >"$home/doctor.txt" 2>&1 || {
        cat "$home/doctor.txt" >&2
        fail "doctor found a required part missing"
    }
    sed 's/^/    /' "$home/doctor.txt" >&2
    grep -q "^\[ok  \] embedder: .* via ONNX Runtime" "$home/doctor.txt" ||
        fail "the bundle does not embed through ONNX Runtime"

    reply=$(timeout "$LIMIT" "$EXE" chat --once "Hello! I live in Porto.") ||
        fail "chat --once exited non-zero"
    [ -n "$reply" ] || fail "chat --once replied nothing"
    say "chat --once replied ${#reply} characters"
    timeout "$LIMIT" "$EXE" memory list --json >"$home/memories.json" ||
        fail "memory list exited non-zero"
    grep -q '"text": "User lives in Porto"' "$home/memories.json" ||
        fail "the turn learned nothing (memory list has no 'User lives in Porto')"

    QT_QPA_PLATFORM=offscreen timeout "$LIMIT" "$EXE" gui --screenshot "$home/shots" \
        >"$home/gui.txt" 2>&1 || {
        cat "$home/gui.txt" >&2
        fail "the window could not render its views"
    }
    [ -s "$home/shots/chat.png" ] || fail "the window rendered no chat.png"
    say "the window rendered $(find "$home/shots" -name '*.png' | wc -l) views offscreen"

    # The parser falls back to patterns with only a warning: that must not happen here.
    if grep -E " (ERROR|CRITICAL) |unavailable" "$home"/data/logs/*.log >&2; then
        fail "the app's log has the errors above"
    fi

    local version_ms doctor_ms
    version_ms=$(median_ms "$EXE" --version)
    doctor_ms=$(median_ms "$EXE" doctor)
    say "bundle size $(du -sh "$BUNDLE" | cut -f1); start, median of 3: --version ${version_ms} ms," \
        "doctor ${doctor_ms} ms"
}

if [ "${1:-}" = --checks ]; then
    checks
    exit 0
fi

[ -x "$EXE" ] || fail "no bundle at $BUNDLE: run \`make package\`"
[ -d "$VENV" ] || fail "no $VENV: this test checks the bundle runs without it, so it needs one"
inner=(bash packaging/with-keyring.sh bash packaging/package-test.sh --checks)
mode=${PACKAGE_TEST_HIDE:-auto}
if [ "$mode" = auto ]; then
    mode=rename
    if unshare --mount --propagation private true 2>/dev/null; then mode=namespace; fi
fi
case $mode in
namespace)
    say "hiding $VENV behind an empty tmpfs in a private mount namespace"
    # shellcheck disable=SC2016
    unshare --mount --propagation private \
        bash -c 'mount -t tmpfs -o size=1m none "$1" && shift && exec "$@"' hide "$VENV" "${inner[@]}"
    ;;
rename)
    [ ! -e "$VENV.away" ] || fail "$VENV.away exists (from a killed run?): move it back to $VENV"
    say "moving $VENV to $VENV.away"
    mv "$VENV" "$VENV.away"
    trap 'mv "$VENV.away" "$VENV" && say "moved $VENV back"' EXIT
    # In the background, in a process group of its own, so that a signal runs the traps at once
    # and ends every process of the checks (dbus-run-session does not pass signals on).
    setsid "${inner[@]}" &
    checks_pid=$!
    trap 'kill -- -"$checks_pid" 2>/dev/null; exit 130' INT
    trap 'kill -- -"$checks_pid" 2>/dev/null; exit 143' TERM
    wait "$checks_pid"
    ;;
*) fail "PACKAGE_TEST_HIDE must be auto, namespace or rename (got $mode)" ;;
esac
say "passed"
