#!/usr/bin/env bash
# Property-based API fuzzing driven by the gateway's own OpenAPI document (Schemathesis).
#   source deploy/local/env.sh && bash scripts/fuzz-api.sh
# Runs against GATEWAY_URL (default http://127.0.0.1:8080) as a fresh, ordinary signed-in user
# (scripts/fuzz-user.mjs; FUZZ_AS_SUPERUSER=1: a superuser, for the admin routes), with a fixed seed and a bounded number of examples per operation, and
# fails when any response is a 5xx, has a status the document does not declare for that operation,
# or does not match the declared schema. Tunables: FUZZ_MAX_EXAMPLES, FUZZ_SEED, FUZZ_WORKERS,
# FUZZ_REPORT_NAME (the JUnit file); extra arguments go to `schemathesis run`.
# Schemathesis is installed once into a venv under ~/.cache/agent-platform/ (pinned version).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCHEMATHESIS_VERSION=4.32.5
HYPOTHESIS_VERSION=6.170.17
VENV="${HOME}/.cache/agent-platform/schemathesis-${SCHEMATHESIS_VERSION}-hypothesis-${HYPOTHESIS_VERSION}"
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-12}"
SEED="${FUZZ_SEED:-20261123}"
# One worker: Hypothesis' recursive strategies (the "any JSON" values in our schemas) are not
# thread-safe, and with two worker threads a CI run died inside Hypothesis while validating one
# (LimitedStrategy.__repr__ in recursive.py) — an error of the fuzzer, not of the API.
WORKERS="${FUZZ_WORKERS:-1}"
REPORT_DIR="${FUZZ_REPORT_DIR:-$ROOT/.stack/test-results}"
REPORT_NAME="${FUZZ_REPORT_NAME:-fuzz-junit.xml}"

if [ ! -x "$VENV/bin/schemathesis" ]; then
  echo "installing schemathesis ${SCHEMATHESIS_VERSION} into ${VENV}" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==${SCHEMATHESIS_VERSION}" "hypothesis==${HYPOTHESIS_VERSION}"
fi

TOKEN="$(GATEWAY_URL="$GATEWAY_URL" node "$ROOT/scripts/fuzz-user.mjs")"
# Live state the document cannot give (scripts/fuzz_hooks.py): a workflow of the fuzz user's to
# edit, and a published one in a team of theirs to run.
{ read -r FUZZ_WORKFLOW_ID && read -r FUZZ_RUN_WORKFLOW_ID && read -r FUZZ_RUN_TEAM_ID; } < <(GATEWAY_URL="$GATEWAY_URL" FUZZ_TOKEN="$TOKEN" node "$ROOT/scripts/fuzz-workflow.mjs")
mkdir -p "$REPORT_DIR" "$ROOT/.stack/fuzz"
# The rest of the live state (accounts, mail from an SMTP sink, captcha targets) comes from a
# sidecar for this pass (scripts/fuzz-live-state.mjs); it restores the SMTP settings when stopped.
LIVE_STATE_PORT_FILE="$ROOT/.stack/fuzz/live-state.port"
rm -f "$LIVE_STATE_PORT_FILE"
GATEWAY_URL="$GATEWAY_URL" node "$ROOT/scripts/fuzz-live-state.mjs" >"$LIVE_STATE_PORT_FILE" &
LIVE_STATE_PID=$!
trap 'kill "$LIVE_STATE_PID" 2>/dev/null && wait "$LIVE_STATE_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  [ -s "$LIVE_STATE_PORT_FILE" ] && break
  kill -0 "$LIVE_STATE_PID" 2>/dev/null || { echo "fuzz live-state sidecar failed to start" >&2; exit 1; }
  sleep 0.5
done
[ -s "$LIVE_STATE_PORT_FILE" ] || { echo "fuzz live-state sidecar not ready after 60 s" >&2; exit 1; }
FUZZ_LIVE_STATE_URL="http://127.0.0.1:$(head -n1 "$LIVE_STATE_PORT_FILE")"
# The fuzz user's token goes on every request from the hooks (not --header, which would override
# the accounts some hooks act as).
FUZZ_TOKEN="$TOKEN"
export GATEWAY_URL FUZZ_LIVE_STATE_URL FUZZ_TOKEN FUZZ_WORKFLOW_ID FUZZ_RUN_WORKFLOW_ID FUZZ_RUN_TEAM_ID \
  SCHEMATHESIS_HOOKS=fuzz_hooks PYTHONPATH="$ROOT/scripts${PYTHONPATH:+:$PYTHONPATH}"
# Schemathesis keeps a crash cache in its working directory: keep it out of the source tree.
cd "$ROOT/.stack/fuzz"

# Excluded: POST /logout would revoke the fuzz user's own token and leave the rest of the run
# unauthenticated. Stateful testing is off to keep the run bounded.
started=$SECONDS
"$VENV/bin/schemathesis" run "${GATEWAY_URL}/api/v1/openapi.json" \
  --url "$GATEWAY_URL" \
  --checks not_a_server_error,status_code_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --generation-database none \
  --workers "$WORKERS" \
  --max-redirects 0 \
  --request-timeout 20 \
  --exclude-path /api/v1/logout \
  --no-color \
  --report junit --report-junit-path "$REPORT_DIR/$REPORT_NAME" \
  "$@" 2>&1 | sed -E 's/^=+ (.*) =+$/-- \1 --/'
# Schemathesis closes with a pytest-style "=== N warnings in Xs ===" banner that a CI log reader
# takes for pytest reporting no test; the sed above rewrites it and pipefail keeps the exit code.
echo "api fuzzing finished in $((SECONDS - started))s" >&2
