#!/bin/sh
# Print the path of a headless-capable Chromium for the docs test, installing Debian's `chromium` package
# where it is missing and we may (root, or passwordless sudo, with apt-get). Exit 1 with a reason otherwise.
set -eu

for candidate in "${CHROMIUM_BIN:-}" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "$candidate"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium not found and apt-get is unavailable: install Chromium or set CHROMIUM_BIN" >&2
  exit 1
fi
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "chromium not found and this user cannot run apt-get: run 'apt-get install -y chromium' as root or set CHROMIUM_BIN" >&2
  exit 1
fi

echo "installing Debian's chromium package (needed by the docs test)..." >&2
$SUDO apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium >&2
if [ -x /usr/bin/chromium ]; then
  echo /usr/bin/chromium
  exit 0
fi
echo "apt-get finished but /usr/bin/chromium is missing" >&2
exit 1
