#!/bin/sh
# Print the path of a headless-capable Chromium for the docs test and the browser example, installing Debian's
# `chromium` package where it is missing and we may. Exit 1 with a reason otherwise. CHROMIUM_BIN names another
# binary.
exec "$(dirname "$0")/lib/ensure-debian-package.sh" chromium chromium CHROMIUM_BIN "the docs test and the browser example" \
  /usr/bin/chromium-browser /usr/bin/google-chrome
