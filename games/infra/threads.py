"""A fixed set of reused threads for the synchronous work of requests and sockets.

Django's ASGI handler gives every HTTP request a thread of its own (an asgiref
``ThreadSensitiveContext`` with a new one-thread executor), and asgiref starts a second thread to
join it afterwards: two thread starts per request, made on the event loop's thread, and no bound
on how many requests run Django at once. Under ``bench.load`` at 200 games the loop spent its time
starting threads, hundreds of threads fought over the GIL, and every pooled database connection was
taken while more requests queued for one until they failed with 503.

Here each process keeps ``HTTP_THREADS`` one-thread executors and lends one to each request for
its whole life, so Django's thread-sensitive code (middleware, view, the request signals that
return the database connection to the pool) still runs on one thread per request, as Django
expects. A request that finds none free waits in the event loop, where waiting costs nothing.
Socket renders run on their own ``SOCKET_THREADS``. With at most that many threads wanting a
connection, the database pool never runs dry (settings checks that it is big enough).

What it relies on in Django: ``handle`` and ``__call__`` mirror ``ASGIHandler``'s of Django 5.2;
``tests/infra/test_mirrored_sources.py`` pins their source, and fails on the version that changes them.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix

from games.infra import timeline


@functools.cache
def socket_executor() -> ThreadPoolExecutor:
    """Where websocket consumers run their database work (renders, presence)."""
    return ThreadPoolExecutor(max_workers=settings.SOCKET_THREADS, thread_name_prefix="socket")


class PooledASGIHandler(ASGIHandler):
    """Django's ASGI handler, with each request run on a borrowed thread instead of a new one."""

    def __init__(self, threads: int) -> None:
        super().__init__()
        # The middleware chain built for sync mode, entered once per request: Django's async chain
        # hops into the request's thread for the sync-only middleware (whitenoise), back out to the
        # event loop for the inner handler, and in again for the view.
        self.load_middleware(is_async=False)
        self.threads = threads
        # One set per event loop: an asyncio.Queue belongs to the loop that first uses it (the test
        # suite runs many loops; a server runs one).
        self._idle: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Queue] = (
            weakref.WeakKeyDictionary()
        )

    def _idle_executors(self) -> asyncio.Queue:
        loop = asyncio.get_running_loop()
        idle = self._idle.get(loop)
        if idle is None:
            idle = self._idle[loop] = asyncio.Queue()
            for n in range(self.threads):
                idle.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"http{n}"))
        return idle

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope, receive, send) -> None:
        """Django's ``handle``, with all of a request's synchronous work in one visit to its thread:
        the ``request_started`` signal, the middleware and the view, and closing the response
        (``request_finished``, which gives the database connection back). Django's makes three
        visits and starts two tasks a request, one of them to cancel an async view when the client
        goes away; these views are synchronous and cannot be cancelled anyway. A streamed
        response (a static file) is closed after it is sent, as Django does."""
        timeline.mark("http", path=scope["path"])
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            set_script_prefix(get_script_prefix(scope))
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
            if request is not None:
                # The request is done with (the response holds its bytes, and closing it sent
                # request_finished). Its lazy user, its messages and its htmx details each point
                # back at it, so it would wait for the garbage collector with all it holds: at
                # 200 games the collector's passes over such cycles were a tenth of a worker.
                request.__dict__.clear()
        return response

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        idle = self._idle_executors()
        executor = await idle.get()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            idle.put_nowait(executor)
