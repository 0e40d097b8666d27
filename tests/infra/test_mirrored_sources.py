"""The library code that games/infra re-implements, pinned by a hash of its source.

A re-implementation keeps what the original did as of one version. When an upgrade changes the
original, this fails: read the new source beside the piece named here, carry the change over (or
drop the piece), and only then put the new hash in.
"""

from __future__ import annotations

import hashlib
import inspect

import pytest
from channels.consumer import AsyncConsumer
from channels.db import DatabaseSyncToAsync
from django.core.handlers.asgi import ASGIHandler

# (the original, the piece that mirrors it, the first 16 hex digits of the original's SHA-256)
MIRRORED = [
    (ASGIHandler.handle, "games/infra/threads.py: PooledASGIHandler.handle and _respond", "98faeb5bef800331"),
    (ASGIHandler.__call__, "games/infra/threads.py: PooledASGIHandler.__call__", "f756809e9c9308dc"),
    (AsyncConsumer.dispatch, "games/infra/sockets.py: Consumer.dispatch", "39f34e7d4fb0f655"),
    (DatabaseSyncToAsync.thread_handler, "games/infra/sockets.py: _SocketSyncToAsync", "00f86b58c522f98e"),
]


def _digest(function) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("original", "mirror", "pinned"), MIRRORED, ids=[original.__qualname__ for original, _, _ in MIRRORED]
)
def test_the_source_a_piece_mirrors_is_the_one_it_was_written_against(original, mirror, pinned) -> None:
    assert _digest(original) == pinned, (
        f"{original.__module__}.{original.__qualname__} changed with this version of the library: "
        f"compare it with {mirror}, bring that up to date, then pin {_digest(original)}"
    )


def test_a_changed_source_changes_the_digest() -> None:
    def one():
        return 1

    def two():
        return 2

    assert _digest(one) != _digest(two)
