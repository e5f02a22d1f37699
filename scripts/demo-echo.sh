#!/usr/bin/env bash
# `make demo-echo`: the echo walkthrough of "Try it". Five messages through
# `stretto-proxy --record` in front of `stretto-mcp-demo`, into a temporary folder,
# then the host's view and the session log.
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d "${TMPDIR:-/tmp}/stretto-demo.XXXXXX")"

echo "# The host's side: what the proxy answered on stdout"
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"shell","version":"0"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"text":"hello"}}}' \
  '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"update","arguments":{"text":"hi","fail":true}}}' \
  | node dist/lib/cli/stretto-proxy.js --record "$logs" --domain demo -- node dist/lib/cli/stretto-mcp-demo.js

echo
echo "# The session log ($logs)"
cat "$logs"/*.jsonl
