#!/bin/sh
# Print the path of a `redis-server` for the replica tests and the Redis benchmark, installing Debian's
# `redis-server` package where it is missing and we may (root, or passwordless sudo, with apt-get).
# Exit 1 with a reason otherwise. REDIS_SERVER_BIN names another binary.
set -eu

for candidate in "${REDIS_SERVER_BIN:-}" /usr/bin/redis-server /usr/local/bin/redis-server; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "redis-server not found and apt-get is unavailable: install Redis or set REDIS_SERVER_BIN" >&2
  exit 1
fi
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "redis-server not found and this user cannot run apt-get: run 'apt-get install -y redis-server' as root or set REDIS_SERVER_BIN" >&2
  exit 1
fi

install() {
  # Another test file may be installing it right now: the first one installs, the others wait and find it.
  if [ -x /usr/bin/redis-server ]; then return 0; fi
  echo "installing Debian's redis-server package (needed by the replica tests)..." >&2
  # Other installs (the docs test's Chromium) may hold dpkg's lock: wait for it rather than fail.
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends redis-server >&2
}
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/ensure-redis.lock"
  flock 9
fi
install
if [ -x /usr/bin/redis-server ]; then
  echo /usr/bin/redis-server
  exit 0
fi
echo "apt-get finished but /usr/bin/redis-server is missing" >&2
exit 1
