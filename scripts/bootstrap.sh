#!/usr/bin/env bash
# Set up everything the companion needs on a fresh machine, idempotently:
#   bash scripts/bootstrap.sh            Python venv with the runtime packages
#   bash scripts/bootstrap.sh --dev      ... plus test tools and the system packages the tests use
# Re-running is cheap: pip runs again only when pyproject.toml or the tested versions change, apt only for
# missing packages. pip installs exactly the versions the tests passed with (constraints/tested.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

want_dev=0
[ "${1:-}" = "--dev" ] && want_dev=1

say() { printf '[bootstrap] %s\n' "$*" >&2; }

python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null; then
  say "python3 is required (3.11 or newer)"; exit 1
fi
"$python" - <<'PY' || { say "Python 3.11 or newer is required"; exit 1; }
import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)
PY

# System packages: libzbar0 for the pyzbar decoder backend, Debian's chromium for the browser test,
# fonts for the rendered pictures, openssl (the HTTPS certificate), iproute2 and util-linux (the LAN attack
# test in a network namespace of its own), mosquitto and its clients (the café tests run a real broker),
# python3-venv and python3-numpy (Debian's own Python with apt's numpy 1.24: the Pi OS-like site test),
# poppler-utils (pdftoppm rasterises the printed sheets: their margins, and frames made from them),
# espeak-ng (the companion's moves said aloud, written to WAV files in the tests).
# Only the test set-up needs them; the demo runs on zxing-cpp alone.
if [ "$want_dev" = 1 ]; then
  missing=()
  for pkg in libzbar0 chromium fonts-dejavu-core openssl iproute2 util-linux mosquitto mosquitto-clients \
      python3-venv python3-numpy poppler-utils espeak-ng; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
    if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
      say "installing system packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      $sudo apt-get update -qq
      $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      say "missing system packages (install them as root): ${missing[*]}"
    fi
  fi
fi

venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  say "creating virtualenv $venv"
  "$python" -m venv "$venv"
fi
extras=""
stamp="$venv/.installed"
if [ "$want_dev" = 1 ]; then
  extras="[dev]"
  stamp="$venv/.installed-dev"
fi
digest=$(cat pyproject.toml constraints/tested.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
  say "installing Python packages (dinotable$extras)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -c constraints/tested.txt -e ".$extras"
  echo "$digest" > "$stamp"
fi
# the message catalogues the pages read (a missing .mo is compiled in memory, but a Pi should not have to)
"$venv/bin/python" -m companion.translations compile >/dev/null
