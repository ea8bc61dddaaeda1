"""The few HTTP calls the hooks make themselves: to the gateway and to scripts/fuzz-live-state.mjs."""

import json
import os
import urllib.error
import urllib.parse
import urllib.request

GATEWAY_URL = os.environ.get("GATEWAY_URL", "http://127.0.0.1:8080").rstrip("/")
LIVE_STATE_URL = os.environ.get("FUZZ_LIVE_STATE_URL", "")


def _send(url, method, headers, data, timeout):
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as refused:
        body = refused.read()
        try:
            return refused.status, json.loads(body or b"null")
        except ValueError:
            return refused.status, None


def api(method, path, token=None, json_body=None, form=None, timeout=20):
    """A gateway call: (HTTP status, the envelope)."""
    headers = {}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if json_body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(json_body).encode()
    elif form is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        data = urllib.parse.urlencode(form).encode()
    return _send(f"{GATEWAY_URL}/api/v1{path}", method, headers, data, timeout)


def api_data(method, path, **kwargs):
    """A gateway call that must succeed: its `data`."""
    status, envelope = api(method, path, **kwargs)
    if status != 200 or not isinstance(envelope, dict) or envelope.get("code") != 0:
        raise RuntimeError(f"{method} {path}: {status} {envelope}")
    return envelope.get("data")


def live_state(path, **query):
    """An answer of the live-state sidecar (accounts, mail, captcha targets)."""
    if not LIVE_STATE_URL:
        raise RuntimeError("FUZZ_LIVE_STATE_URL is not set (scripts/fuzz-api.sh starts the sidecar)")
    suffix = f"?{urllib.parse.urlencode(query)}" if query else ""
    status, body = _send(f"{LIVE_STATE_URL}{path}{suffix}", "GET", {}, None, 30)
    if status != 200:
        raise RuntimeError(f"live state {path}: {status} {body}")
    return body
