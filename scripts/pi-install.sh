#!/usr/bin/env bash
# The companion on a Raspberry Pi, in one command (run it again at any time: it changes only what is not
# yet as it should be):
#
#   sudo bash scripts/pi-install.sh             apt packages, the dinotable user, the venv, the config,
#                                                the systemd unit (enabled and started), companion doctor
#   bash scripts/pi-install.sh --venv-only      only the venv in this checkout (laptops, tests); PYTHON=
#                                                picks the interpreter (default: the system's python3)
#   bash scripts/pi-install.sh --dry-run        print what the whole install would run, run nothing
#
# Raspberry Pi OS decides the versions: picamera2, lgpio and numpy come from its apt, so the venv is made
# with --system-site-packages and pip is held to the system's numpy (constraints/pi-os.txt), which the
# camera library was built against.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

say() { printf '[pi-install] %s\n' "$*" >&2; }
die() { printf 'pi-install: %s\n' "$*" >&2; exit 1; }

mode=full
case "${1:-}" in
  "") ;;
  --venv-only) mode=venv ;;
  --dry-run) mode=dry ;;
  -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option ${1} (use --venv-only, --dry-run or --help)" ;;
esac

service_user=dinotable
state_dir=/var/lib/dinotable
config_dir=/etc/dinotable
config=$config_dir/config.toml
unit=/etc/systemd/system/dinotable.service
apt_packages=(python3-venv python3-numpy python3-picamera2 python3-lgpio libzbar0 git espeak-ng)

if [ -n "${PYTHON:-}" ]; then python=$PYTHON
elif [ -x /usr/bin/python3 ]; then python=/usr/bin/python3   # the one apt's packages are built for
else python=python3; fi

run() {  # a step of the whole install: printed with --dry-run, run otherwise
  if [ "$mode" = dry ]; then printf '%s\n' "$*"; else "$@"; fi
}

check_python() {
  command -v "$python" >/dev/null 2>&1 || die "no Python at $python: install Raspberry Pi OS's python3"
  local found
  found=$("$python" -c 'import platform, struct, sys; print(struct.calcsize("P") * 8, platform.machine(), "%d.%d.%d" % sys.version_info[:3])')
  read -r bits machine version <<<"$found"
  if [ "$bits" -lt 64 ] || [ "$machine" = armv7l ] || [ "$machine" = armv6l ]; then
    die "a 32-bit system ($machine, $bits-bit Python): PyPI has no 32-bit wheels for numpy, OpenCV or zxing-cpp; install Raspberry Pi OS (64-bit) with Raspberry Pi Imager"
  fi
  "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || die "Python $version at $python is too old: 3.11 or newer is needed (Raspberry Pi OS bookworm has 3.11)"
  say "Python $version, $bits-bit $machine ($python)"
}

system_numpy() {  # the system site's numpy version, read from its metadata (not imported), or nothing
  "$python" - <<'PY'
import importlib.metadata, site, sys
dirs = [d for d in site.getsitepackages() if d.endswith(("site-packages", "dist-packages"))]
for d in dirs:
    for dist in importlib.metadata.distributions(name="numpy", path=[d]):
        print(dist.version)
        sys.exit(0)
PY
}

make_venv() {
  local venv=.venv
  if [ -f "$venv/pyvenv.cfg" ] && ! grep -q '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
    say "$venv does not see the system's packages: making it again with --system-site-packages"
    rm -rf "$venv"
  fi
  if [ -x "$venv/bin/python" ] && [ "$("$venv/bin/python" -c 'import sys; print(sys.base_prefix)')" != "$("$python" -c 'import sys; print(sys.base_prefix)')" ]; then
    say "$venv was made by another Python: making it again with $python"
    rm -rf "$venv"
  fi
  if [ ! -x "$venv/bin/python" ]; then
    say "creating $venv (--system-site-packages: it sees apt's picamera2, lgpio and numpy)"
    "$python" -m venv --system-site-packages "$venv" \
      || die "cannot make a venv with $python: sudo apt install python3-venv"
  fi
  local numpy held=$venv/pi-constraints.txt
  numpy=$(system_numpy)
  {
    echo "# made by scripts/pi-install.sh: the tested versions, numpy held to the system's"
    grep -v -i '^numpy==' constraints/tested.txt | grep -v '^#'
    [ -n "$numpy" ] && echo "numpy==$numpy"
  } > "$held"
  local pi_rules=constraints/pi-os.txt
  if [ -n "$numpy" ] && [ "${numpy%%.*}" -ge 2 ]; then
    grep -v 'numpy-1.x' constraints/pi-os.txt > "$venv/pi-os.txt"; pi_rules=$venv/pi-os.txt
  fi
  if [ -n "$numpy" ]; then say "numpy stays the system's: $numpy"
  else say "no numpy in the system's site: pip installs one (apt install python3-numpy on a Pi)"; fi
  local stamp=$venv/.installed-pi digest
  digest=$(cat pyproject.toml "$held" "$pi_rules" | sha256sum | cut -c1-16)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    say "Python packages already installed"
  else
    say "installing the companion and its packages (dinotable[pi])"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$pi_rules" -c "$held" -e ".[pi]" \
      || die "pip could not install the packages (see above); nothing else was changed"
    echo "$digest" > "$stamp"
  fi
  "$venv/bin/python" -m companion.translations compile >/dev/null \
    || say "the message catalogues were not compiled: the pages compile them in memory instead"
  local where
  where=$("$venv/bin/python" -c 'import numpy; print(numpy.__version__, numpy.__file__)')
  if [ -n "$numpy" ] && [ "${where%% *}" != "$numpy" ]; then
    die "the venv imports numpy ${where} instead of the system's $numpy: remove $venv and run this again"
  fi
  say "venv ready: $top/$venv (numpy ${where%% *})"
}

install_apt() {
  local missing=()
  for pkg in "${apt_packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing system packages: ${missing[*]}"
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    say "system packages present: ${apt_packages[*]}"
  fi
}

install_user() {
  say "the service user $service_user (groups gpio, video and audio) and $state_dir"
  run install -D -m 644 systemd/dinotable.sysusers.conf /etc/sysusers.d/dinotable.conf
  run systemd-sysusers /etc/sysusers.d/dinotable.conf
  run install -d -o "$service_user" -g "$service_user" -m 750 "$state_dir"
}

install_config() {
  run install -d -m 755 "$config_dir"
  if [ ! -f "$config" ]; then
    say "writing $config (edit the game, seats and pins, then: sudo systemctl restart dinotable)"
    run "$top/.venv/bin/companion" serve --write-config "$config" --state-dir "$state_dir"
  else
    say "keeping $config; making sure it names the service's state directory"
    run "$top/.venv/bin/python" -m companion.service_config "$config" "$state_dir"
  fi
  run chgrp "$service_user" "$config"
  run chmod 640 "$config"
}

install_unit() {
  say "installing $unit (for the checkout in $top) and enabling it"
  if [ "$mode" = dry ]; then
    printf 'sed s#/opt/dinotable#%s#g systemd/dinotable.service > %s\n' "$top" "$unit"
  else
    sed "s#/opt/dinotable#$top#g" systemd/dinotable.service > "$unit.new" && mv "$unit.new" "$unit"
  fi
  run systemctl daemon-reload
  run systemctl enable dinotable
}

run_doctor() {
  say "companion doctor, as the service sees it"
  run systemctl stop dinotable          # it holds the camera and the page's port while it runs
  # systemd removes the service's RuntimeDirectory (lgpio's LG_WD) when it stops: doctor needs it as the
  # service will have it
  run install -d -o "$service_user" -g "$service_user" -m 750 /run/dinotable
  set +e
  run runuser -u "$service_user" -- "$top/.venv/bin/companion" doctor --config "$config"
  local status=$?
  set -e
  run systemctl start dinotable
  return "$status"
}

check_python
if [ "$mode" = venv ]; then
  make_venv
  say "done: $top/.venv/bin/companion demo --headless --until-end plays a whole game"
  exit 0
fi
if [ "$mode" = full ]; then
  [ "$(id -u)" -eq 0 ] || die "run it as root: sudo bash scripts/pi-install.sh (or --venv-only for the venv alone)"
  grep -q "Raspberry Pi" /proc/device-tree/model 2>/dev/null \
    || die "this is not a Raspberry Pi: use --venv-only here (or bash scripts/demo.sh for the demo)"
fi
install_apt
if [ "$mode" = dry ]; then printf '%s\n' "make the venv: $python -m venv --system-site-packages .venv; pip -c constraints/pi-os.txt -e .[pi]"
else make_venv; fi
install_user
install_config
install_unit
if run_doctor; then
  say "the table is ready: open http://$(hostname).local:8080/ on a phone (sudo -u $service_user $top/.venv/bin/companion pair --config $config prints the PIN)"
else
  say "companion doctor found problems (above): fix them, then run this again"
  exit 1
fi
