"""What a serving process does that Django settings do not say (games/infra/serving.py), and the hot
path's promise behind it: a move and a push leave nothing for the garbage collector to find.

A reference cycle keeps everything it reaches (a game, its snapshot, a whole board's context)
alive until a collection walks it; under load those walks were a tenth of a worker's CPU."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections import Counter
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from channels.testing import HttpCommunicator
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client, RequestFactory
from django_htmx.middleware import HtmxDetails

from games.infra.serving import GC_THRESHOLDS
from games.play.board.player import board_context, board_html, render_board_oob
from tests.play.factories import fixed_secrets, human_game

# What must never wait for the collector after a move or a push (by type name).
HOT_TYPES = {"Game", "Seat", "GameState", "SeatView", "Event", "LogLine", "RequestContext", "Context",
             "ContextDict", "ASGIRequest", "WSGIRequest", "HttpResponse", "User"}


@contextmanager
def cyclic_garbage():
    """Collects what becomes unreachable inside the block only through reference cycles."""
    found: list = []
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def _kinds(objects: list) -> Counter:
    return Counter(type(o).__name__ for o in objects)


def test_a_worker_freezes_its_start_up_heap_and_leaves_form_bodies_to_django():
    probe = ("import gc, cribsite.asgi; from daphne import http_protocol as h; "
             "print(gc.get_threshold(), gc.get_freeze_count() > 0, h.WebRequest.parses_forms)")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cribsite.settings"}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                         check=True, timeout=60).stdout.strip().splitlines()[-1]
    assert out == f"{GC_THRESHOLDS} True False"


def test_daphne_requests_ask_twisted_not_to_parse_the_body():
    from daphne import http_protocol

    from games.infra.serving import skip_twisted_form_parsing

    skip_twisted_form_parsing()
    skip_twisted_form_parsing()  # twice is once: no subclass of the subclass
    assert http_protocol.WebRequest.__mro__[1].__module__ == "daphne.http_protocol"
    server = SimpleNamespace(protocol_connected=lambda request: None)
    channel = SimpleNamespace(factory=SimpleNamespace(server=server), transport=None,
                              getPeer=lambda: None, getHost=lambda: None)
    request = http_protocol.WebRequest(channel, 0)
    assert request._parsePOSTFormSubmission is False


@pytest.mark.django_db
def test_a_pushed_board_leaves_no_reference_cycle(alice, bob, monkeypatch):
    fixed_secrets(monkeypatch, "cycles")
    game = human_game(alice, bob)
    render_board_oob(game.pk, bob, "x" * 64)  # the template and its caches, built once
    with cyclic_garbage() as found:
        html = render_board_oob(game.pk, bob, "x" * 64)
    assert 'id="board"' in html
    assert not HOT_TYPES & set(_kinds(found)), _kinds(found)


@pytest.mark.django_db
def test_a_board_drawn_for_a_request_leaves_no_reference_cycle(alice, bob, monkeypatch):
    fixed_secrets(monkeypatch, "cycles")
    game = human_game(alice, bob)
    request = RequestFactory(headers={"HX-Request": "true"}).post(f"/games/{game.pk}/act/")
    request.user, request.htmx = alice, HtmxDetails(request)
    board_html(board_context(game, alice), request)
    with cyclic_garbage() as found:
        html = board_html(board_context(game, alice), request)
    assert 'id="board"' in html and 'hx-swap-oob="innerHTML"' in html  # the announce line, for htmx
    assert not HOT_TYPES & set(_kinds(found)), _kinds(found)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_through_the_pooled_handler_leaves_no_reference_cycle(monkeypatch):
    from asgiref.sync import sync_to_async

    from cribsite.asgi import django_asgi_app

    def set_up():
        fixed_secrets(monkeypatch, "cycles")
        from django.contrib.auth import get_user_model

        alice = get_user_model().objects.create_user("alice", password="pw")
        bob = get_user_model().objects.create_user("bob", password="pw")
        game = human_game(alice, bob)
        client = Client()
        client.force_login(alice)
        return game, client.cookies["sessionid"].value

    game, session = await sync_to_async(set_up)()
    secret = _get_new_csrf_string()

    async def cut(version_offset: int) -> dict:
        version = await sync_to_async(lambda: type(game).objects.get(pk=game.pk).version)()
        body = f"type=cut_for_deal&position=7&version={version + version_offset}".encode()
        headers = [(b"host", b"localhost"), (b"cookie", f"sessionid={session}; csrftoken={secret}".encode()),
                   (b"x-csrftoken", secret.encode()), (b"hx-request", b"true"),
                   (b"content-type", b"application/x-www-form-urlencoded")]
        return await HttpCommunicator(django_asgi_app, "POST", f"/games/{game.pk}/act/", body=body,
                                      headers=headers).get_response(timeout=10)

    stale = await cut(-1)  # refused, with the board: the template and its caches, built once
    assert stale["status"] == 409, stale
    with cyclic_garbage() as found:
        answer = await cut(0)
    assert answer["status"] == 200 and b'id="board"' in answer["body"], answer
    assert not HOT_TYPES & set(_kinds(found)), _kinds(found)
