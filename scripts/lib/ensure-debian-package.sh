#!/bin/sh
# Print the path of a program the tests or benchmarks need, installing its Debian package where it is missing and
# we may (root, or passwordless sudo, with apt-get). Exit 1 with a reason otherwise. The one installer behind
# scripts/ensure-redis.sh, ensure-chromium.sh and ensure-wrk.sh:
#
#   ensure-debian-package.sh PACKAGE BINARY VARIABLE PURPOSE [OTHER_PATH...]
#
# The environment variable VARIABLE names another binary (tried first); then /usr/bin/BINARY, each OTHER_PATH and
# /usr/local/bin/BINARY. Installs of several packages (test files started together) take turns: a lock per
# package, and dpkg's own lock waited for (up to 10 minutes) rather than failed on.
set -eu

if [ "$#" -lt 4 ]; then
  echo "usage: ensure-debian-package.sh PACKAGE BINARY VARIABLE PURPOSE [OTHER_PATH...]" >&2
  exit 2
fi
PACKAGE=$1
BINARY=$2
VARIABLE=$3
PURPOSE=$4
shift 4
case "$VARIABLE" in
  *[!A-Z0-9_]* | "") echo "ensure-debian-package.sh: not a variable name: $VARIABLE" >&2; exit 2 ;;
esac
eval "NAMED=\${$VARIABLE:-}"

for candidate in "$NAMED" "/usr/bin/$BINARY" "$@" "/usr/local/bin/$BINARY"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$BINARY not found and apt-get is unavailable: install Debian's $PACKAGE package or set $VARIABLE" >&2
  exit 1
fi
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "$BINARY not found and this user cannot run apt-get: run 'apt-get install -y $PACKAGE' as root or set $VARIABLE" >&2
  exit 1
fi

install() {
  # Another test file may be installing it right now: the first one installs, the others wait and find it.
  if [ -x "/usr/bin/$BINARY" ]; then return 0; fi
  echo "installing Debian's $PACKAGE package (needed by $PURPOSE)..." >&2
  # Other installs (another package of this script's) may hold dpkg's lock: wait for it rather than fail.
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$PACKAGE" >&2
}
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/ensure-$PACKAGE.lock"
  flock 9
fi
install
if [ -x "/usr/bin/$BINARY" ]; then
  echo "/usr/bin/$BINARY"
  exit 0
fi
echo "apt-get finished but /usr/bin/$BINARY is missing" >&2
exit 1
