"""Pages that are not about one game: health, the CSRF failure page and the favicon."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib import messages
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache

from games.infra import outages
from games.queue.worker import health as queue_health

log = logging.getLogger(__name__)

# Each check must answer within this many seconds or it counts as down (a probe must not hang).
HEALTH_TIMEOUT_SECONDS = 3.0


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form or htmx request with a stale CSRF token (the session changed in another tab, or the
    page is very old): nothing was done. An htmx request reloads its page, which brings a fresh
    token and the board as it is now; a plain form gets a page that says what happened."""
    log.info("path=%s action=csrf_refused reason=%s", request.path, reason)
    if request.headers.get("HX-Request") == "true":
        messages.warning(request, "This page was out of date (your session changed), so it was reloaded "
                                  "and nothing was sent: please try again.")
        response = HttpResponse("This page was out of date: reload it and try again.", status=403,
                                content_type="text/plain; charset=utf-8")
        response["HX-Refresh"] = "true"
        return response
    # Back to the page the form was on; the refused POST's own address may answer only POSTs.
    referer = request.headers.get("Referer", "")
    back = referer if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}) else "/"
    return render(request, "403_csrf.html", {"back": back}, status=403)


def _database_round_trip() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not give 1")


# One probe channel per layer and event loop, reused: a pub/sub layer keeps every new channel
# subscribed until its reader is cancelled, so a fresh channel per probe would leak one a probe.
_probe_channels: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def _channel_layer_round_trip() -> None:
    """A message to this process's probe channel and back: the path every push takes."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    probes = _probe_channels.setdefault(layer, weakref.WeakKeyDictionary())
    probe = probes.setdefault(asyncio.get_running_loop(), {"lock": asyncio.Lock(), "channel": None})
    # One probe at a time: two would take each other's answers, and two first probes would each
    # subscribe a channel of their own.
    async with probe["lock"]:
        if probe["channel"] is None:
            probe["channel"] = await layer.new_channel("health.")
        try:
            nonce = secrets.token_hex(8)
            await layer.send(probe["channel"], {"type": "health.check", "nonce": nonce})
            if (await layer.receive(probe["channel"])).get("nonce") != nonce:
                raise RuntimeError("the channel layer gave back another message")
            outages.layer.delivered()
        except BaseException:
            # A failed or cancelled probe may leave the channel unsubscribed, or its answer behind:
            # the next one makes a new channel, which subscribes before it sends.
            probe["channel"] = None
            raise


async def _check(name: str, probe) -> dict:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(probe(), HEALTH_TIMEOUT_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any failure is "down"; the reason goes to the log
        log.warning("health check %s failed: %r", name, exc)
        # The exception's class only: a public probe must not describe the infrastructure.
        result = {"ok": False, "error": type(exc).__name__}
    else:
        result = {"ok": True}
    return {**result, "ms": round((time.perf_counter() - started) * 1000, 1)}


@never_cache
async def health(request: HttpRequest) -> JsonResponse:
    """JSON for load balancers and operators: 200 when the database and the channel layer both answer
    (``{"ok": true, "database": {...}, "channel_layer": {...}, "tasks": {...}}``), 503 when either does
    not. ``tasks`` is the task queue (``games.queue.worker.health``: workers alive, the last
    heartbeat's age, how long the oldest task due has waited); it is for monitoring and does not
    change the status: a late worker is no reason to take a web process out of service."""
    database, layer = await asyncio.gather(
        _check("database", sync_to_async(_database_round_trip)),
        _check("channel_layer", _channel_layer_round_trip),
    )
    tasks = {"ok": False, "error": "database"}
    if database["ok"]:
        try:
            tasks = await asyncio.wait_for(sync_to_async(queue_health)(), HEALTH_TIMEOUT_SECONDS)
        except Exception as exc:  # noqa: BLE001 - reported as down, the reason in the log
            log.warning("health check tasks failed: %r", exc)
            tasks = {"ok": False, "error": type(exc).__name__}
    ok = database["ok"] and layer["ok"]
    return JsonResponse({"ok": ok, "database": database, "channel_layer": layer, "tasks": tasks},
                        status=200 if ok else 503)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)
