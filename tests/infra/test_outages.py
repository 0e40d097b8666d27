"""An outage of the channel layer is logged once when it starts and once when it ends: the failed
pushes, channels-redis' receive task and the sockets that could not subscribe meanwhile log nothing
more, and no traceback (the cache's outages the same way: tests/ops/test_sessions.py). The layer here
fails on cue (a ConnectionError a number of times, then works), as Redis does while it restarts."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from redis.exceptions import ConnectionError as RedisConnectionError

from games.infra import outages
from games.pages.consumers import HealthConsumer
from games.play import broadcast


class FlakyLayer:
    """A channel layer whose sends raise ``ConnectionError`` ``failures`` times, then go through."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((group, message))

    async def new_channel(self, prefix: str = "specific.") -> str:
        if self.failures > 0:
            self.failures -= 1
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return f"{prefix}test!1"


@pytest.fixture(autouse=True)
def _layer_up():
    outages.layer.down_since = None
    yield
    outages.layer.down_since = None


def outage_records(caplog) -> tuple[list[logging.LogRecord], list[logging.LogRecord]]:
    down = [r for r in caplog.records if "channel layer unreachable" in r.getMessage()]
    back = [r for r in caplog.records if "channel layer back" in r.getMessage()]
    return down, back


def test_failed_pushes_and_the_receive_task_log_one_line_down_and_one_back(monkeypatch, caplog):
    layer = FlakyLayer(failures=8)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    receive_task = logging.getLogger("channels_redis.pubsub")
    with caplog.at_level(logging.INFO):
        for n in range(10):
            broadcast.group_send("game-7", {"type": "game.changed", "n": n})
            try:  # channels-redis' receive task, failing on each turn of its loop
                raise RedisConnectionError("Connection closed by server.")
            except RedisConnectionError:
                if n < 4:
                    receive_task.exception("Unexpected exception in receive task")
    down, back = outage_records(caplog)
    assert len(down) == 1 and len(back) == 1
    assert down[0].exc_info is None and "Traceback" not in caplog.text
    assert "push to game-7 failed" in down[0].getMessage()
    assert "failures meanwhile not logged" in back[0].getMessage()
    site = ("games", "channels_redis", "daphne")  # not asyncio's, whose garbage comes when it comes
    assert not [r for r in caplog.records
                if r not in down + back and r.levelno >= logging.WARNING and r.name.startswith(site)]
    assert [message["n"] for _, message in layer.sent] == [8, 9]
    # Another record with no outage in it passes as it was.
    with caplog.at_level(logging.INFO):
        logging.getLogger("games.play.broadcast").warning("push to %s dropped: the server is stopping", "x")
    assert caplog.records[-1].getMessage() == "push to x dropped: the server is stopping"


@pytest.mark.asyncio
async def test_sockets_that_cannot_subscribe_are_closed_quietly_and_logged_once(monkeypatch, caplog):
    import channels.consumer

    layer = FlakyLayer(failures=3)
    monkeypatch.setattr(channels.consumer, "get_channel_layer", lambda alias=None: layer)
    with caplog.at_level(logging.INFO):
        for _ in range(3):  # a page reconnecting while Redis is away: refused, no traceback
            communicator = WebsocketCommunicator(HealthConsumer.as_asgi(), "/ws/health/")
            connected, code = await communicator.connect()
            assert not connected and code == 1013
            await communicator.wait()
        assert outages.layer.down
        monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
        await sync_to_async(broadcast.group_send)("game-7", {"type": "game.changed"})
    down, back = outage_records(caplog)
    assert len(down) == 1 and len(back) == 1 and "Traceback" not in caplog.text
