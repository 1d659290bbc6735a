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

# Two environments. The app's (.venv) has everything, the learned extra included (torch,
# transformers: COMET, BERTScore and MetricX computed natively, with numpy 2 and the newest
# Streamlit). The oracle environment (.venv-oracle) holds the reference libraries that pin old
# packages (unbabel-comet 2.2.7: numpy < 2, protobuf < 5; bert-score): the parity tests send it
# their tiny models and inputs (tests/metrics/learned/oracle.py) and compare, and the tests of
# the models still computed through unbabel-comet (xCOMET, CometKiwi: marked ``unified``) run
# in it. torch goes in first, pinned: this machine's pip takes 2.13.0's CPU build from a local
# file, where an unpinned torch would fetch a CUDA build of several GB.
for venv in .venv .venv-oracle; do
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q -U pip
    "$venv/bin/python" -m pip install -q "torch==2.13.0"
done
.venv/bin/python -m pip install -q -e ".[test,learned]"
.venv-oracle/bin/python -m pip install -q -e ".[learned-unified]" "pytest>=8" "hypothesis>=6.100"

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
# the parity tests fail (rather than skip) if the oracle environment is missing
BLEU_REQUIRE_ORACLE=1 .venv/bin/python -m pytest "${parallel[@]}" -m "not unified${selection}" "$@"
# exit status 5: none of the given tests needs unbabel-comet itself
.venv-oracle/bin/python -m pytest -m "unified${selection}" -p no:cacheprovider tests/metrics/learned \
    tests/app/test_learned_app.py "$@" || [ $? -eq 5 ]
