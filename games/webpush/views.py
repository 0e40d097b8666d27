"""Turning browser notifications on and off: the account page's script posts the browser's push
subscription here as JSON (with the CSRF token in ``X-CSRFToken``), and gets JSON back."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from games.webpush import services
from games.webpush.delivery import push_enabled

log = logging.getLogger("games.webpush")

MAX_BODY = 4096  # a subscription is about 400 bytes


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _json_body(request: HttpRequest) -> object:
    if len(request.body) > MAX_BODY:
        raise services.BadSubscription("The request is too long.")
    try:
        return json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise services.BadSubscription("The request is not JSON.") from None


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        return _error("Log in to turn notifications on.", 403)
    if not push_enabled():
        return _error("Browser notifications are not set up on this site.", 409)
    try:
        endpoint, p256dh, auth = services.parse_subscription(_json_body(request))
    except services.BadSubscription as exc:
        return _error(str(exc), 400)
    sub = services.subscription_save(user=request.user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    log.info("user=%s action=push_subscribe service=%s", request.user.pk, sub.service)
    return JsonResponse({"state": "on"}, status=201)


@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        return _error("Log in to turn notifications off.", 403)
    try:
        data = _json_body(request)
        endpoint = services.parse_endpoint(data.get("endpoint") if isinstance(data, dict) else None)
    except services.BadSubscription as exc:
        return _error(str(exc), 400)
    services.subscription_delete(user=request.user, endpoint=endpoint)
    log.info("user=%s action=push_unsubscribe", request.user.pk)
    return JsonResponse({"state": "off"})
