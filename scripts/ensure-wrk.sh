#!/bin/sh
# Print the path of `wrk`, the load generator of `npm run bench` (C, one thread: it needs far less CPU per
# request than the servers it loads), installing Debian's `wrk` package where it is missing and we may.
# Exit 1 with a reason otherwise. WRK_BIN names another binary.
exec "$(dirname "$0")/lib/ensure-debian-package.sh" wrk wrk WRK_BIN "the benchmark and its smoke test"
