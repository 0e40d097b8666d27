"""VAPID key pairs in the form browsers and pywebpush read: base64url without padding, the private
key as its 32 raw bytes and the public key as the uncompressed P-256 point (65 bytes)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    """
    >>> b64url(b"\\xfb\\xff")
    '-_8'
    """
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_key_of(private: ec.EllipticCurvePrivateKey) -> str:
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def new_key_pair() -> tuple[str, str]:
    """``(public, private)``: a new P-256 pair for ``VAPID_PUBLIC_KEY`` and ``VAPID_PRIVATE_KEY``."""
    private = ec.generate_private_key(ec.SECP256R1())
    return public_key_of(private), b64url(private.private_numbers().private_value.to_bytes(32, "big"))
