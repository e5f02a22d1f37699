#!/usr/bin/env bash
# The specs (`make test`), with a temporary folder of their own: whatever a spec, or a process
# it starts, leaves behind there fails the run, by name. The proxy and the offline tools touch
# only the files they write, and the specs hold themselves to the same.
set -uo pipefail
scratch=$(mktemp -d "${TMPDIR:-/tmp}/stretto-specs-XXXXXX")
TMPDIR=$scratch npx mocha "$@"
status=$?
left=$(cd "$scratch" && ls -A | tr '\n' ' ')
rm -rf "$scratch"
if [ -n "$left" ]; then
  echo "make test: the specs left these in their temporary folder: $left" >&2
  [ "$status" -eq 0 ] && status=1
fi
exit "$status"
