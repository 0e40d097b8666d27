"""Whether the channel layer delivers, watched once per process for all of its game sockets.

Redis pub/sub delivers at most once: a push sent while Redis is away is lost, and the boards it was
for stay behind until something draws them again. Each socket's own heartbeat would notice, but only
every ``HEARTBEAT_SECONDS``, so boards caught up 10 to 20 s after Redis came back. Here one task per
process sends a probe through the layer to itself every ``PROBE_SECONDS``; a probe that does not come
back within ``PROBE_TIMEOUT`` means the layer is down. When it delivers again, every socket of the
process whose board is older than its game's version (one query for all their games) draws the
board at once, and every socket tells its page whether pushes flow (``GameConsumer.layer_changed``).
While the layer is away, moves still commit over HTTP: the watch reads its games' versions every
``OUTAGE_POLL_SECONDS`` (again one query) and the sockets behind draw their boards, so a game goes on
at that pace instead of stalling until the layer returns.

While the layer delivers, the watch reads its games' versions every ``HEARTBEAT_SECONDS`` too (one
query for all of them), draws the boards of sockets behind (a push lost in a blip) and keeps the
versions for the sockets' heartbeats (``version_of``), which would otherwise each ask the database.

And every ``HEARTBEAT_SECONDS``, whether the layer delivers or not, it says that the players' sockets
of its process are alive (``presence.heartbeats``): one write to the cache for all of them, where a
beat of each socket's own was a hop to a thread and a round trip to Redis each, and at a thousand
open tables the larger part of what they cost while nobody moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Protocol

from channels.layers import get_channel_layer

from games.infra import outages
from games.infra.sockets import database_sync_to_async
from games.play import presence

log = logging.getLogger(__name__)

PROBE_SECONDS = 0.5
OUTAGE_POLL_SECONDS = 2.0
# Generous: an event loop busy with hundreds of sockets must not read as an outage.
PROBE_TIMEOUT = 2.0
# A probe published while Redis was back but this process not yet subscribed again is lost: within
# the timeout another goes out this often, so the return is seen at the first one that can arrive.
PROBE_AGAIN_SECONDS = 0.2


class Watched(Protocol):
    game_id: int
    sent_version: int
    channel_name: str
    at_table: bool  # a player's socket, whose presence the watch keeps alive

    async def layer_changed(self, up: bool, version: int | None) -> None: ...

    async def catch_up(self, version: int) -> None: ...


class _Probe:
    """A channel of the watch's own and the probes sent through it, for one run of the watch (a
    run that ends while the next begins must not share its channel)."""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.reader: asyncio.Task | None = None
        self.arrived = asyncio.Event()
        self.sent = 0  # the newest probe sent
        self.back = 0  # the newest probe that came back

    async def answers(self) -> bool:
        """Whether a probe comes back through the layer within ``PROBE_TIMEOUT``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PROBE_TIMEOUT
        first = self.sent + 1
        try:
            if self.reader is not None and self.reader.done():  # its read failed: start afresh
                self.channel = self.reader = None
            if self.channel is None:
                # Subscribing needs the layer: tried again at every probe until it answers.
                self.channel = await asyncio.wait_for(self.layer.new_channel("layer-watch."), PROBE_TIMEOUT)
                self.reader = asyncio.ensure_future(self._read(self.channel))
            while True:
                self.sent += 1
                self.arrived.clear()
                message = {"type": "probe", "n": self.sent}
                await asyncio.wait_for(self.layer.send(self.channel, message), deadline - loop.time())
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(PROBE_AGAIN_SECONDS, max(0.0, deadline - loop.time()))):
                        while self.back < first:
                            await self.arrived.wait()
                            self.arrived.clear()
                if self.back >= first:
                    return True
                if loop.time() >= deadline:
                    return False
        except Exception:  # noqa: BLE001 - refused, reset or timed out: all say the layer is away
            return False

    async def _read(self, channel: str) -> None:
        # One read that is never cut off: the pub/sub layer forgets a channel whose read is cancelled.
        while True:
            message = await self.layer.receive(channel)
            self.back = max(self.back, int(message.get("n", 0)))
            self.arrived.set()

    def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()


class LayerWatch:
    def __init__(self) -> None:
        self.sockets: set[Watched] = set()
        self.up = True
        self._task: asyncio.Task | None = None
        # {game id: version} as last read, and when (the loop's clock): for the sockets' heartbeats.
        self.versions: dict[int, int] = {}
        self.read_at = float("-inf")

    def version_of(self, game_id: int) -> int | None:
        """The game's version as the watch last read it, if that was within a heartbeat (any thread)."""
        loop = self._task.get_loop() if self._task is not None else None
        if loop is None or loop.time() - self.read_at > 1.5 * presence.HEARTBEAT_SECONDS:
            return None
        return self.versions.get(game_id)

    def join(self, socket: Watched) -> None:
        self.sockets.add(socket)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    def leave(self, socket: Watched) -> None:
        self.sockets.discard(socket)
        if not self.sockets and self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        probe = _Probe(get_channel_layer())
        loop = asyncio.get_running_loop()
        polled = beaten = 0.0
        try:
            while self.sockets:
                if loop.time() - beaten >= presence.HEARTBEAT_SECONDS:
                    beaten = loop.time()
                    await _presence_beats([s.channel_name for s in self.sockets if s.at_table])
                up = await probe.answers()
                if up:
                    outages.layer.delivered()
                if up != self.up:
                    self.up = up
                    if not up:
                        outages.layer.failed("a probe did not come back")
                    word = "delivers again: catching up" if up else "does not deliver: polling for"
                    log.info("the channel layer %s %d sockets", word, len(self.sockets))
                    await self._tell(up)
                    polled = loop.time()
                elif loop.time() - polled >= (presence.HEARTBEAT_SECONDS if up else OUTAGE_POLL_SECONDS):
                    await self._poll()
                    polled = loop.time()
                await asyncio.sleep(PROBE_SECONDS)
        finally:
            probe.close()

    async def _tell(self, up: bool) -> None:
        sockets = list(self.sockets)
        versions: dict[int, int] = {}
        if up:
            with contextlib.suppress(Exception):  # a database that is away too: each heartbeat heals
                versions = await _versions({s.game_id for s in sockets})
        await asyncio.gather(*(s.layer_changed(up, versions.get(s.game_id)) for s in sockets),
                             return_exceptions=True)


    async def _poll(self) -> None:
        sockets = list(self.sockets)
        try:
            versions = await _versions({s.game_id for s in sockets})
        except Exception:  # noqa: BLE001 - a database that is away too: the next poll tries again
            return
        self.versions, self.read_at = versions, asyncio.get_running_loop().time()
        behind = [s for s in sockets if versions.get(s.game_id, -1) > s.sent_version]
        await asyncio.gather(*(s.catch_up(versions[s.game_id]) for s in behind), return_exceptions=True)


@database_sync_to_async
def _presence_beats(channel_names: list[str]) -> None:
    try:
        presence.heartbeats(channel_names)
    except Exception:  # noqa: BLE001 - a database that is away: the cache's beats went, the next try comes
        log.warning("the heartbeat could not record presence", exc_info=True)


@database_sync_to_async
def _versions(game_ids: set[int]) -> dict[int, int]:
    from games.play.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LayerWatch] = weakref.WeakKeyDictionary()


def watch() -> LayerWatch:
    """The running event loop's watch (one per process: daphne runs one loop)."""
    loop = asyncio.get_running_loop()
    found = _watches.get(loop)
    if found is None:
        found = _watches[loop] = LayerWatch()
    return found
