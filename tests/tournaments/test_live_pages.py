"""The tournament page's live part is drawn once for each change and shared by the sockets that
see the same page; an entrant's own page is theirs; a new change draws again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.play import broadcast
from games.tournaments import services
from games.tournaments.broadcast import tournament_changed
from games.tournaments.live_pages import LivePages
from games.tournaments.models import Tournament
from games.tournaments.views import render_live
from tests.play.factories import make_user

from .helpers import make_players, make_tournament

pytestmark = pytest.mark.django_db


def _running():
    players = make_players(3)
    t = make_tournament(players, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    return t, players


def test_one_drawing_for_each_kind_of_reader_of_one_change():
    t, players = _running()
    pages = LivePages()
    visitors = [pages.page(t.pk, AnonymousUser(), "one") for _ in range(5)]
    assert pages.drawn == 1 and len(set(visitors)) == 1
    assert visitors[0] == render_live(t.pk, AnonymousUser())  # the page a socket drew for itself
    strangers = [pages.page(t.pk, make_user(f"s{i}"), "one") for i in range(3)]
    assert pages.drawn == 2 and len(set(strangers)) == 1
    mine = pages.page(t.pk, players[0], "one")
    assert pages.drawn == 3 and mine == render_live(t.pk, players[0]) and "t-me" in mine
    pages.page(t.pk, players[1], "one")
    assert pages.drawn == 4  # each entrant's page is their own


def test_a_new_change_or_a_reconnect_draws_afresh():
    t, _ = _running()
    pages = LivePages()
    first = pages.page(t.pk, AnonymousUser(), "one")
    services.entrant_withdraw(entrant_id=t.entrants.first().pk, reason="Called away")
    assert pages.page(t.pk, AnonymousUser(), "one") == first  # the same change: the same page
    second = pages.page(t.pk, AnonymousUser(), "two")
    assert second != first and "Called away" in second
    pages.page(t.pk, AnonymousUser(), None)
    pages.page(t.pk, AnonymousUser(), None)
    assert pages.drawn == 4


def test_a_gone_tournament_has_no_page():
    t, _ = _running()
    pages = LivePages()
    pk = t.pk
    t.delete()
    assert pages.page(pk, AnonymousUser(), "one") is None


def test_each_push_carries_its_own_stamp(monkeypatch):
    sent = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append(message))
    tournament_changed(7)
    tournament_changed(7)
    assert [m["tournament"] for m in sent] == [7, 7] and sent[0]["stamp"] != sent[1]["stamp"]
