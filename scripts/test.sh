#!/usr/bin/env bash
# Installs everything the tests need from this repository's own files, then runs them.
# Used by the README's test command and by .ci/run. Needs python3 (>= 3.10); as root it
# installs Debian's Chromium for the browser tests when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
    else
        echo "Chromium is missing: run 'sudo apt-get install -y chromium chromium-driver' first." >&2
        exit 1
    fi
fi

# PostgreSQL's server binaries: the workspace-store tests start a throwaway server on 127.0.0.1.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
    else
        echo "PostgreSQL is missing: run 'sudo apt-get install -y postgresql' first." >&2
        exit 1
    fi
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q -U pip
.venv/bin/python -m pip install -q -e ".[test]"

.venv/bin/python -m ruff check .
.venv/bin/python -m pytest "$@"
