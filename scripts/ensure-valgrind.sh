#!/bin/sh
# Print the path of `valgrind`, whose callgrind counts the instructions per request of `npm run bench --
# --instructions` (counts do not spread with the machine's load as times do), installing Debian's `valgrind`
# package where it is missing and we may. Exit 1 with a reason otherwise. VALGRIND_BIN names another binary.
exec "$(dirname "$0")/lib/ensure-debian-package.sh" valgrind valgrind VALGRIND_BIN "the benchmark's instruction counts"
