#!/usr/bin/env bash
# Installs everything the tests need from this repository's own files, then runs them.
# Used by the README's test command and by .ci/run. Needs python3 (>= 3.11); as root it
# installs the Debian packages below when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Debian's Chromium for the browser tests, PostgreSQL's server binaries for the
# workspace-store tests (a throwaway server on 127.0.0.1), WordNet 3.0 for METEOR's synonyms,
# nginx for the replica tests (their own nginx on a free port; where systemd runs, Debian's
# package also starts its default site on port 80), systemd-analyze for the unit in deploy/.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium chromium-driver)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
    || missing+=(postgresql)
[ -f /usr/share/wordnet/data.noun ] || missing+=(wordnet-base)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    else
        echo "Missing system packages: run 'sudo apt-get install -y ${missing[*]}' first." >&2
        exit 1
    fi
fi

# Two environments. The learned extra (COMET, BERTScore) holds numpy < 2, protobuf < 5 and so
# Streamlit <= 1.60 (unbabel-comet 2.2's pins), so the main suite runs where everything else is
# as new as it installs, and the learned-metric tests (marked ``learned``) in a second
# environment that has the extra. torch goes in first, pinned: this machine's pip takes
# 2.13.0's CPU build from a local file, where an unpinned torch would fetch a CUDA build of
# several GB. The second environment adds about 2 minutes and 2.3 GB (measured on this VM).
for venv in .venv .venv-learned; do
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q -U pip
done
.venv/bin/python -m pip install -q -e ".[test]"
.venv-learned/bin/python -m pip install -q "torch==2.13.0"
.venv-learned/bin/python -m pip install -q -e ".[test,learned]"

# --quick (first argument): the tests a developer runs between changes, in a few minutes:
# everything but the ``slow`` ones (browsers, servers, deployments, the whole test sets, long
# sweeps), which the full command and CI run.
selection=""
if [ "${1:-}" = "--quick" ]; then
    selection=" and not slow"
    shift
fi
# Every core (pytest-xdist); a test file stays on one worker, so module fixtures are built once.
parallel=(-n auto --dist loadfile)

.venv/bin/python -m ruff check .
.venv/bin/lint-imports --no-cache  # the architecture's contracts (pyproject.toml)
.venv/bin/python -m pytest "${parallel[@]}" -m "not learned${selection}" "$@"
# exit status 5: none of the given tests needs the extra
.venv-learned/bin/python -m pytest "${parallel[@]}" -m "learned${selection}" "$@" \
    || [ $? -eq 5 ]
