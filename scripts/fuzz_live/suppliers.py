"""Well-formed requests made to succeed with live state that no schema can state.

Each supplier turns one positive (schema-valid) case of its operation into a request the API
serves: the right password, a code from the mail just sent, a captcha answered as a person would,
a name no one has taken. scripts/fuzz_hooks.py applies a supplier to the positive cases of an
operation until one of them is served in the current phase; every other case goes out as
generated. A supplier may return a function that the hook calls with the answer once the request
was served (to remember a changed password or new backup codes).
"""

import re
import time
import uuid

from .accounts import account, sidecar_state
from .gateway import api, api_data, live_state

MAILED_CODE = re.compile(r"code:\s*(\d{6})")
MAILED_TOKEN = re.compile(r"[?&]token=([A-Za-z0-9_-]+)")


def _unique(prefix, limit=50):
    return f"{prefix}{uuid.uuid4().hex}"[:limit]


def _strong_password():
    return f"Fz-{uuid.uuid4()}-9"


def _unknown_email():
    return f"{_unique('nobody_', 40)}@fuzz.example.test"


def _act_as(case, token):
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


def _anonymous(case):
    """No bearer token: where one is read as the temp token of a login (verify-totp)."""
    case.headers = {name: value for name, value in (case.headers or {}).items() if name.lower() != "authorization"}


def _fresh_sign_up():
    """A new, unverified account (registration mails its verification code)."""
    username = _unique("fz_new_", 40)
    email = f"{username}@fuzz.example.test"
    api_data("POST", "/register", json_body={"username": username, "email": email, "password": _strong_password(), "terms_accepted": True})
    return email


def _mail_about(email, topic):
    """The first mail to `email` whose subject names `topic` (a fresh address gets few)."""
    after = 0
    while True:
        mail = live_state("/mail", to=email, after=after)
        if topic in mail["subject"]:
            return mail["text"]
        after = mail["index"] + 1


def _registration_mail(email):
    """Asks for the verification mail (5008: registration already sent one) and reads it."""
    status, envelope = api("POST", "/send-verification", json_body={"email": email, "purpose": "register"})
    if envelope is None or envelope.get("code") not in (0, 5008):
        raise RuntimeError(f"send-verification {email}: {status} {envelope}")
    return _mail_about(email, "verify")


# ---- sign-up, sign-in, passwords ----------------------------------------------------------------


def register(case, state):
    username = _unique("fz_reg_", 40)
    case.body = {"username": username, "email": f"{username}@fuzz.example.test", "password": _strong_password(), "terms_accepted": True}


def login(case, state):
    signer = account("login")
    case.body = {"username": signer.username, "password": signer.password}


def change_password(case, state):
    owner = account("password")
    new_password = _strong_password()
    _act_as(case, owner.token())
    case.body = {"current_password": owner.password, "new_password": new_password}

    def served(_response):
        owner.password = new_password
        owner.forget_token()

    return served


def forgot_password(case, state):
    case.body = {"email": _unknown_email()}


def resend_verification(case, state):
    case.body = {"email": _unknown_email()}


def send_verification(case, state):
    case.body = {"email": _unknown_email(), "purpose": "reset_password"}


def verify_email(case, state):
    email = _fresh_sign_up()
    code = MAILED_CODE.search(_registration_mail(email)).group(1)
    case.body = {"email": email, "code": code, "purpose": "register"}


def verify_link(case, state):
    email = _fresh_sign_up()
    token = MAILED_TOKEN.search(_registration_mail(email)).group(1)
    case.query = {"token": token}


def reset_password(case, state):
    email = _fresh_sign_up()
    api_data("POST", "/forgot-password", json_body={"email": email})
    code = MAILED_CODE.search(_mail_about(email, "reset")).group(1)
    case.body = {"email": email, "code": code, "new_password": _strong_password()}


# ---- TOTP ---------------------------------------------------------------------------------------


def totp_enable(case, state):
    owner = account("totp_enable")
    owner.ensure_totp(False)
    owner.set_up_totp()
    _act_as(case, owner.token())
    case.body = {"code": owner.next_totp_code()}

    def served(response):
        owner.backup_codes = list(response.json()["data"]["backup_codes"])

    return served


def totp_disable(case, state):
    owner = account("totp_disable")
    owner.ensure_totp(True)
    _act_as(case, owner.token())
    case.body = {"code": owner.backup_code()}


def totp_regenerate(case, state):
    owner = account("totp_regenerate")
    owner.ensure_totp(True)
    _act_as(case, owner.token())
    case.body = {"code": owner.backup_code()}

    def served(response):
        owner.backup_codes = list(response.json()["data"]["backup_codes"])

    return served


def totp_login(case, state):
    owner = account("totp_login")
    owner.ensure_totp(True)
    challenge = api_data("POST", "/login/access-token", form={"username": owner.username, "password": owner.password})
    _anonymous(case)
    # An authenticator code: a backup code needs `is_backup_code`, a form boolean the schema types
    # as a JSON boolean, so a case carrying it would no longer count as schema-valid.
    case.body = {"temp_token": challenge["temp_token"], "code": owner.next_totp_code()}


# ---- captcha, teams, admin lists ----------------------------------------------------------------


def captcha_click(case, state):
    issued = api_data("GET", "/captcha")
    kept = live_state(f"/captcha/{issued['captcha_id']}")
    box = kept["targetBox"]
    # A person reads the prompt, finds the option and moves there: a curved path at an uneven pace.
    x1, y1 = (box["x0"] + box["x1"]) / 2, (box["y0"] + box["y1"]) / 2
    path = [(x1 - 60, y1 + 30), (x1 - 41, y1 + 14), (x1 - 25, y1 + 9), (x1 - 12, y1 + 1), (x1 - 4, y1 - 1), (x1, y1)]
    times = [0, 45, 110, 190, 260, 330]
    time.sleep(0.6)
    case.body = {
        "captcha_id": issued["captcha_id"],
        "challenge": issued["challenge"],
        "clicked_option": kept["target"],
        "elapsed_ms": 500,
        "pointer": [{"x": x, "y": y, "t": t, "event": "move"} for (x, y), t in zip(path, times)],
    }


def create_team(case, state):
    body = case.body if isinstance(case.body, dict) else {}
    case.body = {**body, "name": _unique("fz-team-", 100)}


def admin_notifications_of_my_team(case, state):
    case.query = {"team_id": state["run_team_id"]}


def sso_login(case, state):
    case.path_parameters = {"provider_name": sidecar_state()["sso_provider"]}


# ---- the superuser pass (/admin/) ----------------------------------------------------------------


def discover_models(case, state):
    """The sidecar answers GET /v1/models on an origin the operator added to the allowlist."""
    case.body = {"provider": "openai", "base_url": f"{sidecar_state()['origin']}/v1", "api_key": "fuzz-key"}


def admin_notification(case, state):
    case.body = {"type": "test.fuzz", "title": "fuzz", "content": "fuzz", "scope": "global"}


def create_role(case, state):
    case.body = {"name": _unique("fz-role-", 100), "permissions": []}


def create_sso_provider(case, state):
    case.body = {
        "name": _unique("fz-sso-", 64),
        "display_name": "Fuzz issuer",
        "issuer": sidecar_state()["origin"],
        "client_id": "fuzz-client",
        "client_secret": "fuzz-client-secret",
    }


def send_email(case, state):
    case.body = {"user_ids": [account("login").id], "subject": "fuzz", "content": "fuzz"}


def _set_active(user_id, active):
    """Puts a target account in the state the case changes; 5212 / 5213 say it already is."""
    status, envelope = api("POST", f"/admin/users/{user_id}/{'activate' if active else 'deactivate'}", token=account("operator").token())
    if status != 200 and (envelope or {}).get("code") not in (5212, 5213):
        raise RuntimeError(f"set active={active} on {user_id}: {status} {envelope}")


def activate_user(case, state):
    target = account("activate_target").id
    _set_active(target, False)
    case.path_parameters = {"id": target}


def deactivate_user(case, state):
    target = account("deactivate_target").id
    _set_active(target, True)
    case.path_parameters = {"id": target}


SUPPLIERS = {
    ("POST", "/api/v1/register"): register,
    ("POST", "/api/v1/login/access-token"): login,
    ("POST", "/api/v1/users/me/change-password"): change_password,
    ("POST", "/api/v1/forgot-password"): forgot_password,
    ("POST", "/api/v1/resend-verification"): resend_verification,
    ("POST", "/api/v1/send-verification"): send_verification,
    ("POST", "/api/v1/verify-email"): verify_email,
    ("GET", "/api/v1/verify"): verify_link,
    ("POST", "/api/v1/reset-password"): reset_password,
    ("POST", "/api/v1/totp/enable"): totp_enable,
    ("POST", "/api/v1/totp/disable"): totp_disable,
    ("POST", "/api/v1/totp/regenerate-backup-codes"): totp_regenerate,
    ("POST", "/api/v1/login/verify-totp"): totp_login,
    ("POST", "/api/v1/captcha/click"): captcha_click,
    ("POST", "/api/v1/teams"): create_team,
    ("GET", "/api/v1/admin/notifications"): admin_notifications_of_my_team,
    ("GET", "/api/v1/sso/login/{provider_name}"): sso_login,
    ("POST", "/api/v1/admin/models/discover"): discover_models,
    ("POST", "/api/v1/admin/notifications"): admin_notification,
    ("POST", "/api/v1/admin/roles"): create_role,
    ("POST", "/api/v1/admin/sso/providers"): create_sso_provider,
    ("POST", "/api/v1/admin/users/send-email"): send_email,
    ("POST", "/api/v1/admin/users/{id}/activate"): activate_user,
    ("POST", "/api/v1/admin/users/{id}/deactivate"): deactivate_user,
}
