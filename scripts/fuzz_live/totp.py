"""RFC 6238 codes (SHA-1, 6 digits, 30 s), as an authenticator app computes them."""

import base64
import hashlib
import hmac
import struct
import time

STEP_SECONDS = 30


def current_step():
    return int(time.time()) // STEP_SECONDS


def code_at(secret_base32, step):
    key = base64.b32decode(secret_base32.upper() + "=" * (-len(secret_base32) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"
