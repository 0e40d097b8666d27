"""A push service on 127.0.0.1 for the tests: a real HTTP server in a thread that keeps every request
it is sent and answers with the status the test sets. And a browser's side of a subscription: the key
pair and secret the browser would make, so the test can decrypt what the site sent."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives.asymmetric import ec

from games.webpush.keys import b64url, public_key_of


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    url: str
    status: int = 201
    received: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)


@contextmanager
def push_service():
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            service.arrived.set()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class Browser:
    """The browser's half of a subscription (what ``pushManager.subscribe`` makes)."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return public_key_of(self.private_key)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
