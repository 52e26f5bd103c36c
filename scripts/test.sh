#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, lint (ruff), types (mypy), then pytest.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k split -x`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --dev
venv=.venv/bin
export GPIOZERO_PIN_FACTORY=mock
export PYTHONHASHSEED=0

echo "== ruff"
"$venv/ruff" check .
echo "== mypy"
"$venv/mypy" engines vision hw sim companion
echo "== pytest"
set +e
"$venv/pytest" -q -p no:cacheprovider --timeout=900 "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here" >&2
  exit 1
fi
exit "$status"
