#!/bin/sh
# Print the path of `wrk`, the load generator of `npm run bench` (C, one thread: it needs far less CPU per
# request than the servers it loads), installing Debian's `wrk` package where it is missing and we may (root,
# or passwordless sudo, with apt-get). Exit 1 with a reason otherwise. WRK_BIN names another binary.
set -eu

for candidate in "${WRK_BIN:-}" /usr/bin/wrk /usr/local/bin/wrk; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "wrk not found and apt-get is unavailable: install wrk (https://github.com/wg/wrk) or set WRK_BIN" >&2
  exit 1
fi
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "wrk not found and this user cannot run apt-get: run 'apt-get install -y wrk' as root or set WRK_BIN" >&2
  exit 1
fi

install() {
  # Another test file may be installing it right now: the first one installs, the others wait and find it.
  if [ -x /usr/bin/wrk ]; then return 0; fi
  echo "installing Debian's wrk package (needed by the benchmark and its smoke test)..." >&2
  # Other installs (redis-server, Chromium) may hold dpkg's lock: wait for it rather than fail.
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends wrk >&2
}
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/ensure-wrk.lock"
  flock 9
fi
install
if [ -x /usr/bin/wrk ]; then
  echo /usr/bin/wrk
  exit 0
fi
echo "apt-get finished but /usr/bin/wrk is missing" >&2
exit 1
