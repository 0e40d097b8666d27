from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def test_health_endpoint(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["ok"] is True


def test_home_page_explains_the_site(client):
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
