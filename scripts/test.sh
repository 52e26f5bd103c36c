#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, lint (ruff), types (mypy), then pytest.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k split -x`).
#   bash scripts/test.sh --fast    the development lane: no browser, no fault injection, no whole games, on
#                                  both cores (a few minutes); CI runs the complete suite
set -euo pipefail
cd "$(dirname "$0")/.."
lane=()
if [ "${1:-}" = "--fast" ]; then
  shift
  lane=(-n 2 -m "not slow and not browser" --ignore=tests/e2e)
fi
bash scripts/bootstrap.sh --dev
venv=.venv/bin
export GPIOZERO_PIN_FACTORY=mock
export PYTHONHASHSEED=0

echo "== ruff"
"$venv/ruff" check .
echo "== mypy"
"$venv/mypy" engines vision hw sim companion wire lan cafe
echo "== pytest"
set +e
"$venv/pytest" -q -p no:cacheprovider --timeout=900 --durations=20 "${lane[@]}" "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit "$status"
