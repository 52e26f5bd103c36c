#!/usr/bin/env bash
# The Pi install on arm64, without a Pi (outside CI: it takes many minutes): a debootstrapped arm64 Debian
# bookworm (Raspberry Pi OS's base: Python 3.11.2, apt's numpy 1.24.2) run under qemu-user through
# binfmt_misc, the Pi OS-like site of the tests (simplejpeg's aarch64 numpy-1.x wheel, the stand-in
# picamera2), then `scripts/pi-install.sh --venv-only` in a fresh copy of this checkout, a demo game and a
# decode, each compared line for line with this machine's. Run as root:
#
#   sudo bash scripts/check-pi-arm64.sh           (ARM64_ROOT=/var/tmp/dinotable-arm64 is kept for reruns)
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
root=${ARM64_ROOT:-/var/tmp/dinotable-arm64}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { printf '[arm64] %s\n' "$*" >&2; }
die() { printf 'check-pi-arm64: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run it as root (debootstrap, binfmt_misc and chroot need it)"
[ -x .venv/bin/companion ] || die "no .venv here: bash scripts/bootstrap.sh first (the x86 side to compare with)"

started=$(date +%s)
need=()
for pkg in debootstrap qemu-user-static; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  say "registering qemu-aarch64 with binfmt_misc (F: usable inside the chroot)"
  cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
fi

if [ ! -x "$root/usr/bin/python3" ]; then
  say "debootstrap arm64 bookworm into $root (minutes: the second stage runs under qemu)"
  debootstrap --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,python3-numpy,libzbar0,ca-certificates,git bookworm "$root" "$mirror" >/dev/null
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
# this machine's certificate authorities (a proxy of its own may sign what PyPI sends) and pip's index
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-bundle.crt"
carried=(PIP_CERT=/etc/ssl/certs/host-ca-bundle.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca-bundle.crt)
for name in PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_DEFAULT_TIMEOUT HTTP_PROXY HTTPS_PROXY http_proxy https_proxy NO_PROXY no_proxy; do
  [ -n "${!name:-}" ] && carried+=("$name=${!name}")
done
mounted=()
cleanup() { for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc sys dev; do
  mountpoint -q "$root/$m" || { mount --bind "/$m" "$root/$m"; mounted+=("$root/$m"); }
done

say "the Pi OS-like site in the arm64 root: simplejpeg's aarch64 wheel and the stand-in picamera2"
.venv/bin/python tests/helpers/pi_site.py place "$root" --arm64
rm -rf "$root/opt/dinotable"
.venv/bin/python tests/helpers/pi_site.py copy "$root/opt/dinotable"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root GPIOZERO_PIN_FACTORY=mock "${carried[@]}" "$@"; }
in_root /usr/bin/python3 -c 'import platform, numpy; print("arm64 root:", platform.machine(), platform.python_version(), "numpy", numpy.__version__)'

say "scripts/pi-install.sh --venv-only in the arm64 root"
t0=$(date +%s)
in_root /bin/bash -c 'cd /opt/dinotable && PYTHON=/usr/bin/python3 bash scripts/pi-install.sh --venv-only'
install_s=$(( $(date +%s) - t0 ))
in_root /opt/dinotable/.venv/bin/python -c 'import numpy, cv2, zxingcpp, picamera2; print("venv: numpy", numpy.__version__, numpy.__file__, "| opencv", cv2.__version__, "| picamera2 imports")'

demo=(demo --headless --until-end --game jurassik --seed 3 --verbose)
image=docs/images/jp-midgame-tilt15-hand.png
work=$(mktemp -d)
say "the demo and a decode, arm64 (emulated) and this machine"
t0=$(date +%s)
in_root /bin/bash -c "cd /opt/dinotable && .venv/bin/companion ${demo[*]}" > "$work/demo-arm64.txt"
arm_demo_s=$(( $(date +%s) - t0 ))
t0=$(date +%s)
GPIOZERO_PIN_FACTORY=mock .venv/bin/companion "${demo[@]}" > "$work/demo-x86.txt"
x86_demo_s=$(( $(date +%s) - t0 ))
in_root /bin/bash -c "cd /opt/dinotable && .venv/bin/companion decode $image" > "$work/decode-arm64.json"
GPIOZERO_PIN_FACTORY=mock .venv/bin/companion decode "$image" > "$work/decode-x86.json"

untimed() { sed -E 's/ in [0-9.]+ s//' "$1"; }
same_demo=no; same_decode=no
cmp -s <(untimed "$work/demo-arm64.txt") <(untimed "$work/demo-x86.txt") && same_demo=yes
cmp -s "$work/decode-arm64.json" "$work/decode-x86.json" && same_decode=yes
moves=$(grep -c '^ *#' "$work/demo-arm64.txt" || true)
tags=$(.venv/bin/python -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$work/decode-arm64.json")
echo "arm64 check: pi-install --venv-only ${install_s} s; demo (jurassik, seed 3, $(tail -n 1 "$work/demo-arm64.txt")) arm64 ${arm_demo_s} s vs x86 ${x86_demo_s} s, same moves and scores: ${same_demo}; decode ${tags} tags, byte for byte: ${same_decode}; ${moves} move lines; whole check $(( $(date +%s) - started )) s"
[ "$same_demo" = yes ] && [ "$same_decode" = yes ] || { diff <(untimed "$work/demo-arm64.txt") <(untimed "$work/demo-x86.txt") | head -20; exit 1; }
