"""Requests run on a fixed set of reused threads (games/infra/threads.py), never more at once."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator

from games.infra.threads import PooledASGIHandler

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


class _Recorder:
    """Notes which thread sends each request signal, and how many visits to a thread a request makes."""

    def __init__(self, monkeypatch) -> None:
        from django.core import signals

        import games.infra.threads as threads

        self.events: list[tuple[str, int]] = []
        self.visits = 0
        real = threads.sync_to_async

        def counting(func, *args, **kwargs):
            wrapped = real(func, *args, **kwargs)

            async def call(*a, **kw):
                self.visits += 1
                return await wrapped(*a, **kw)

            return call

        monkeypatch.setattr(threads, "sync_to_async", counting)
        self._started = lambda **kw: self.events.append(("started", threading.get_ident()))
        self._finished = lambda **kw: self.events.append(("finished", threading.get_ident()))
        signals.request_started.connect(self._started, weak=False)
        signals.request_finished.connect(self._finished, weak=False)

    def stop(self) -> None:
        from django.core import signals

        signals.request_started.disconnect(self._started)
        signals.request_finished.disconnect(self._finished)


@pytest.fixture
def recorder(monkeypatch):
    rec = _Recorder(monkeypatch)
    yield rec
    rec.stop()


async def test_a_page_is_one_visit_to_its_thread_with_both_request_signals(recorder):
    from cribsite.asgi import django_asgi_app

    page = HttpCommunicator(django_asgi_app, "GET", "/", headers=[(b"host", b"localhost")])
    answer = await page.get_response(timeout=10)
    assert answer["status"] == 200 and b"cribbage" in answer["body"].lower()
    assert [e for e, _ in recorder.events] == ["started", "finished"]  # the connection went back
    assert len({t for _, t in recorder.events}) == 1
    assert recorder.visits == 1


async def test_a_streamed_response_is_sent_whole_then_closed(recorder):
    from django.http import StreamingHttpResponse

    class Streaming(PooledASGIHandler):
        def get_response(self, request):
            async def parts():
                for part in (b"first ", b"second"):
                    yield part

            response = StreamingHttpResponse(parts())
            response._resource_closers.append(request.close)
            return response

    from asgiref.testing import ApplicationCommunicator

    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": "/", "raw_path": b"/",
             "query_string": b"", "headers": [], "scheme": "http", "server": ("testserver", 80)}
    stream = ApplicationCommunicator(Streaming(threads=1), scope)
    await stream.send_input({"type": "http.request", "body": b""})
    start = await stream.receive_output(timeout=10)
    body = b""
    while True:  # ASGI lets the last message leave "body" out
        message = await stream.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    assert start["status"] == 200 and body == b"first second"
    await stream.wait(timeout=10)
    assert [e for e, _ in recorder.events] == ["started", "finished"]
    assert recorder.visits == 2  # the view, then closing the response once it was sent


async def test_a_request_django_cannot_read_is_answered_and_closed(recorder, settings):
    from cribsite.asgi import django_asgi_app

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    settings.ALLOWED_HOSTS = ["localhost"]
    post = HttpCommunicator(django_asgi_app, "POST", "/accounts/login/", body=b"x" * 100,
                            headers=[(b"host", b"localhost"), (b"content-length", b"100")])
    answer = await post.get_response(timeout=10)
    assert answer["status"] in (400, 403, 413)
    assert [e for e, _ in recorder.events] == ["started", "finished"]
