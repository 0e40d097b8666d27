from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def test_health_endpoint(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["ok"] is True


def test_home_page_explains_the_site(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Play cribbage online" in response.content


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_health_socket_answers_ping():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=HEADERS)
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "hello"
    await communicator.send_to(text_data='{"type": "ping"}')
    assert (await communicator.receive_json_from())["type"] == "pong"
    await communicator.disconnect(timeout=10)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_socket_from_another_origin_is_refused():
    headers = [(b"origin", b"http://evil.example"), (b"host", b"localhost")]
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect(timeout=10)


@pytest.mark.asyncio
async def test_the_channel_layer_probe_reuses_one_channel_and_survives_a_probe_that_gave_up(monkeypatch):
    """A pub/sub layer keeps every new channel subscribed: probes (a load balancer's, every few
    seconds) reuse one. After a probe that gave up waiting, the next makes a fresh channel (the
    old one may have been unsubscribed by the cancelled read) and passes."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.pages.views import site as views_site

    layer, made = get_channel_layer(), []
    original = layer.new_channel

    async def counted(prefix="specific."):
        made.append(prefix)
        return await original(prefix)

    monkeypatch.setattr(layer, "new_channel", counted)
    for _ in range(5):
        await views_site._channel_layer_round_trip()
    assert made == ["health."]

    real_receive = layer.receive

    async def never(channel):
        await asyncio.sleep(60)

    monkeypatch.setattr(layer, "receive", never)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(views_site._channel_layer_round_trip(), 0.2)  # its answer stays queued
    monkeypatch.setattr(layer, "receive", real_receive)
    await views_site._channel_layer_round_trip()
    assert made == ["health.", "health."]


@pytest.mark.asyncio
async def test_probes_at_once_share_one_channel(monkeypatch):
    """Two load balancers probing at the same moment: one channel, each probe gets its own answer."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.pages.views import site as views_site

    layer, made = get_channel_layer(), []
    original = layer.new_channel

    async def counted(prefix="specific."):
        made.append(prefix)
        await asyncio.sleep(0.01)  # both first probes are waiting here before either has a channel
        return await original(prefix)

    monkeypatch.setattr(layer, "new_channel", counted)
    await asyncio.gather(*(views_site._channel_layer_round_trip() for _ in range(3)))
    assert made == ["health."]
