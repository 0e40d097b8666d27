"""The signed token in every email's unsubscribe link: who, and from what. It names no game and
never expires (an old email's link still works); the signature keeps anyone else from forging one."""

from __future__ import annotations

from django.core import signing

SALT = "games.correspondence.unsubscribe"
KINDS = ("turn", "digest")


def make(user_id: int, kind: str) -> str:
    """
    >>> read(make(7, "turn"))
    (7, 'turn')
    >>> read(make(7, "turn") + "x") is None
    True
    """
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def read(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["k"]
