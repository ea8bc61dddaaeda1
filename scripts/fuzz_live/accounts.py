"""The accounts scripts/fuzz-live-state.mjs signed up, one per use, as the hooks drive them."""

import functools
import time

from . import totp
from .gateway import api_data, live_state


class Account:
    """A signed-in account the hooks act as, with its TOTP state when they turn TOTP on."""

    def __init__(self, user_id, username, email, password):
        self.id = user_id
        self.username = username
        self.email = email
        self.password = password
        self._token = None
        self.totp_secret = None
        self.backup_codes = []
        self.last_totp_step = 0

    def token(self):
        if self._token is None:
            self._token = self.sign_in()
        return self._token

    def sign_in(self):
        answer = api_data("POST", "/login/access-token", form={"username": self.username, "password": self.password})
        if answer.get("requires_totp"):
            finished = api_data(
                "POST",
                "/login/verify-totp",
                form={"temp_token": answer["temp_token"], "code": self.backup_codes.pop(), "is_backup_code": "true"},
            )
            return finished["access_token"]
        return answer["access_token"]

    def forget_token(self):
        self._token = None

    def next_totp_code(self):
        """A code of a step not used yet: the server takes each step once and ±1 step around now."""
        step = max(totp.current_step() - 1, self.last_totp_step + 1)
        while step > totp.current_step() + 1:
            time.sleep(1)
        self.last_totp_step = step
        return totp.code_at(self.totp_secret, step)

    def totp_enabled(self):
        return bool(api_data("GET", "/totp/status", token=self.token())["enabled"])

    def set_up_totp(self):
        """Setup only (a secret waiting for its first code): what POST /totp/enable needs."""
        self.totp_secret = api_data("POST", "/totp/setup", token=self.token())["secret"]

    def ensure_totp(self, enabled):
        if self.totp_enabled() == enabled:
            return
        if enabled:
            self.set_up_totp()
            answer = api_data("POST", "/totp/enable", token=self.token(), json_body={"code": self.next_totp_code()})
            self.backup_codes = list(answer["backup_codes"])
        else:
            api_data("POST", "/totp/disable", token=self.token(), json_body={"code": self.backup_codes.pop()})

    def backup_code(self):
        return self.backup_codes.pop()


@functools.cache
def sidecar_state():
    """What the sidecar set up for this pass (accounts, SSO provider, origin); it does not change."""
    return live_state("/state")


@functools.cache
def account(role):
    """The account of a role scripts/fuzz-live-state.mjs signed up (`login`, `totp_enable`, `operator` …)."""
    fields = sidecar_state()["accounts"][role]
    return Account(fields["id"], fields["username"], fields["email"], fields["password"])

