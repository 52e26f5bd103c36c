#!/usr/bin/env bash
# The main job on the embedded default: set-up on first run, then `companion demo`.
# Extra arguments go to `companion demo` (see `companion demo --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export GPIOZERO_PIN_FACTORY=${GPIOZERO_PIN_FACTORY:-mock}
exec .venv/bin/companion demo "$@"
