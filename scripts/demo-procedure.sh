#!/usr/bin/env bash
# The published telecom procedure, run with no model on one ticket against the demo's
# telecom world: the customer's phone is in airplane mode. Prints the run (JSON) and the
# one-line summary. The procedure is the repository's byte-for-byte copy of
# ../shared/fixtures/procedures/telecom-workflow-2026-09-26.procedure.json.
set -euo pipefail
cd "$(dirname "$0")/.."

PROCEDURE=fixtures/procedures/telecom-workflow-2026-09-26.procedure.json
TICKET="The customer's phone has no service. Their number is 555-123-2002 and they will consider the issue resolved when the status bar shows that they have signal."

echo "ticket: $TICKET"
echo
echo "\$ stretto-procedure --procedure $PROCEDURE --ticket \"…\" -- stretto-mcp-demo --world telecom"
node dist/lib/cli/stretto-procedure.js --procedure "$PROCEDURE" --ticket "$TICKET" \
  -- node dist/lib/cli/stretto-mcp-demo.js --world telecom
