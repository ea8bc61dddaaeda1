"""Schemathesis hooks for scripts/fuzz-api.sh (loaded through SCHEMATHESIS_HOOKS).

Live state a schema cannot give: PUT /workflows/{id} and POST /workflow-versions check their
body only once the workflow is found and the caller may change it, so with random ids every
well-formed body is 404 and the rules that depend on the body's own content (edge ends naming
nodes of the same definition, unique ids, code that compiles) are all the fuzzer ever sees
refused. Their well-formed ids are pointed at a workflow of the fuzz user's (FUZZ_WORKFLOW_ID);
ids that are not UUIDs (the negative cases) are left as generated. Schemathesis reuses ids it
saw in answers, so a DELETE aimed at that workflow is sent to an unknown id instead.

POST /workflows/{workflow_id}/run needs a published workflow in a team of the caller's, which
the fuzz user gets only from scripts/fuzz-workflow.mjs (FUZZ_RUN_WORKFLOW_ID): well-formed ids
are pointed at it, and no other change (PUT, POST, DELETE) reaches it or its team
(FUZZ_RUN_TEAM_ID), so it stays runnable.
"""

import json
import os
import re
import sys
import uuid

import schemathesis
from schemathesis import GenerationMode

from fuzz_live.suppliers import SUPPLIERS

FUZZ_TOKEN = os.environ.get("FUZZ_TOKEN", "")
WORKFLOW_ID = os.environ.get("FUZZ_WORKFLOW_ID", "")
RUN_WORKFLOW_ID = os.environ.get("FUZZ_RUN_WORKFLOW_ID", "")
RUN_TEAM_ID = os.environ.get("FUZZ_RUN_TEAM_ID", "")
RUN_STATE = {value for value in (RUN_WORKFLOW_ID, RUN_TEAM_ID) if value}
UUID = re.compile(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


def _is_uuid(value):
    return isinstance(value, str) and UUID.match(value) is not None


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if FUZZ_TOKEN:
        # As --header would: the fuzz user's token replaces any the generator put there.
        headers = {name: value for name, value in (case.headers or {}).items() if name.lower() != "authorization"}
        case.headers = {**headers, "Authorization": f"Bearer {FUZZ_TOKEN}"}
    supply_live_state(case)
    if not WORKFLOW_ID:
        return
    route = (case.method.upper(), case.operation.path)
    if route[0] != "GET" and route != ("POST", "/api/v1/workflows/{workflow_id}/run"):
        parameters = case.path_parameters or {}
        for name, value in parameters.items():
            if value in RUN_STATE:
                parameters[name] = str(uuid.uuid4())
    if route[0] == "DELETE":
        parameters = case.path_parameters or {}
        for name, value in parameters.items():
            if value in (WORKFLOW_ID, RUN_WORKFLOW_ID):
                parameters[name] = str(uuid.uuid4())
    elif route == ("POST", "/api/v1/workflows/{workflow_id}/run") and RUN_WORKFLOW_ID:
        parameters = case.path_parameters or {}
        if _is_uuid(parameters.get("workflow_id")):
            parameters["workflow_id"] = RUN_WORKFLOW_ID
    elif route == ("PUT", "/api/v1/workflows/{id}"):
        parameters = case.path_parameters or {}
        if _is_uuid(parameters.get("id")):
            parameters["id"] = WORKFLOW_ID
    elif route == ("POST", "/api/v1/workflow-versions"):
        if isinstance(case.body, dict) and _is_uuid(case.body.get("workflow_id")):
            case.body["workflow_id"] = WORKFLOW_ID



# ---- live state for the operations no schema can make succeed (fuzz_live/suppliers.py) ----------

LIVE_STATE = {"run_team_id": RUN_TEAM_ID}
# (method, path, phase) that served a positive case: the supplier rests there.
SERVED = set()
# case id -> what to do once that case is served.
ON_SERVED = {}
CALL_LOG = os.environ.get("FUZZ_CALL_LOG", "")


def _route(case):
    return (case.method.upper(), case.operation.path)


def _phase(case):
    return case.meta.phase.name.value if case.meta is not None else "?"


def _is_positive(case):
    return case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE


def supply_live_state(case):
    supplier = SUPPLIERS.get(_route(case))
    if supplier is None or not _is_positive(case) or (*_route(case), _phase(case)) in SERVED:
        return
    try:
        on_served = supplier(case, LIVE_STATE)
    except Exception as failed:  # the case then goes out as generated; the run says why
        print(f"fuzz live state for {' '.join(_route(case))}: {failed!r}", file=sys.stderr)
        return
    if on_served is not None:
        ON_SERVED[case.id] = on_served


@schemathesis.hook
def after_call(ctx, case, response):
    on_served = ON_SERVED.pop(case.id, None)
    if 200 <= response.status_code < 400 and _is_positive(case):
        SERVED.add((*_route(case), _phase(case)))
        if on_served is not None:
            on_served(response)
    if CALL_LOG:
        _log_call(case, response)


def _log_call(case, response):
    """FUZZ_CALL_LOG: one JSON line per call (route, phase, mode, status, envelope code, and for a
    refused positive case what was sent and the answer)."""
    try:
        code = response.json().get("code")
    except Exception:
        code = None
    mode = case.meta.generation.mode.value if case.meta is not None else "?"
    line = [*_route(case), _phase(case), mode, response.status_code, code]
    if mode == "positive" and response.status_code in (400, 422):
        # A refused schema-valid case: what was sent and why, for the schema-mismatch warning.
        line.append({"path": case.path_parameters, "query": case.query, "body": case.body, "answer": response.text[:2000]})
    with open(CALL_LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps(line, default=repr) + "\n")
