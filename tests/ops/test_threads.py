"""Requests run on a fixed set of reused threads (cribsite/threads.py), never more at once."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator

from cribsite.threads import PooledASGIHandler

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class _Probe(PooledASGIHandler):
    """Stands in for Django's request handling: notes the thread its sync work runs on."""

    def __init__(self, threads: int) -> None:
        super().__init__(threads)
        self.threads_used: list[int] = []
        self.running = self.peak = 0

    async def handle(self, scope, receive, send) -> None:
        self.running += 1
        self.peak = max(self.peak, self.running)
        # Thread-sensitive, as Django runs middleware, views and the request signals.
        first = await sync_to_async(threading.get_ident)()
        await asyncio.sleep(0.02)
        again = await sync_to_async(threading.get_ident)()
        assert first == again, "one request's sync work moved to another thread"
        self.threads_used.append(first)
        self.running -= 1
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def test_at_most_the_configured_number_of_requests_run_at_once_on_reused_threads():
    app = _Probe(threads=2)
    answers = await asyncio.gather(*(HttpCommunicator(app, "GET", "/").get_response(timeout=10)
                                     for _ in range(12)))
    assert [a["status"] for a in answers] == [204] * 12
    assert app.peak == 2
    assert len(set(app.threads_used)) == 2  # twelve requests, two threads, none started per request


async def test_a_real_page_is_served_through_the_pooled_handler():
    from cribsite.asgi import django_asgi_app

    assert isinstance(django_asgi_app, PooledASGIHandler)
    page = HttpCommunicator(django_asgi_app, "GET", "/", headers=[(b"host", b"localhost")])
    answer = await page.get_response(timeout=10)
    assert answer["status"] == 200 and b"cribbage" in answer["body"].lower()
