#!/bin/sh
# Print the path of a `redis-server` for the replica tests and the Redis benchmark, installing Debian's
# `redis-server` package where it is missing and we may. Exit 1 with a reason otherwise. REDIS_SERVER_BIN
# names another binary.
exec "$(dirname "$0")/lib/ensure-debian-package.sh" redis-server redis-server REDIS_SERVER_BIN "the replica tests"
