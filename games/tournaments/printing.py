"""Printable pairings, standings and bracket: black on white, one page a round, each page headed by
the event's name and times, for the club's wall. Public, as the tournament page is."""

from __future__ import annotations

from itertools import groupby

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from games.tournaments import pairing, selectors
from games.tournaments.models import Match, Tournament
from games.tournaments.views import _drawing


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("champion"), pk=tournament_id)


def _context(t: Tournament, what: str) -> dict:
    return {"t": t, "what": what, "printed_at": timezone.now()}


def pairings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every round drawn so far (``?round=N``: that one; ``?stage=ko``: the playoff's), one a page:
    table, players with their seeds, and the result, or a space to write it in. A player's number
    is their seed at entry on every page, the playoff's too, so one player never has two numbers
    and two players never share one."""
    t = _tournament(tournament_id)
    matches = list(
        Match.objects.filter(tournament=t)
        .select_related("entrant1__user", "entrant2__user", "winner__user")
        .order_by("-stage", "round_no", "slot")
    )
    ko_rounds = max((m.round_no for m in matches if m.stage == Tournament.Stage.KNOCKOUT), default=0)
    pages = []
    for (stage, round_no), group in groupby(matches, key=lambda m: (m.stage, m.round_no)):
        group = list(group)
        title = t.round_name(stage, round_no, ko_rounds)
        # A round starts with its first game (a bracket's later matches start as their players are
        # known): each match keeps when its game began.
        started = min((m.started_at for m in group if m.started_at is not None), default=None)
        pages.append({"stage": stage, "round": round_no, "title": title, "started_at": started,
                      "matches": [m for m in group if m.status != Match.Status.BYE],
                      "byes": [m for m in group if m.status == Match.Status.BYE and m.entrant2_id is None]})
    wanted_round = request.GET.get("round", "")
    wanted_stage = request.GET.get("stage", t.rounds_stage if wanted_round else "")
    if wanted_round:
        if not wanted_round.isdigit():
            raise Http404("No such round.")
        pages = [p for p in pages if p["round"] == int(wanted_round) and p["stage"] == wanted_stage]
    elif wanted_stage:
        pages = [p for p in pages if p["stage"] == wanted_stage]
    if not pages:
        raise Http404("No pairings to print yet.")
    return render(request, "tournaments/print/pairings.html", {**_context(t, "Pairings"), "pages": pages})


def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _tournament(tournament_id)
    if t.format == Tournament.Format.KNOCKOUT or t.status == Tournament.Status.UPCOMING:
        raise Http404("This event has no standings to print.")
    table = selectors.standings(t)
    found = selectors.qualification(t, table)
    return render(request, "tournaments/print/standings.html", {
        **_context(t, "Standings"),
        "standings": table,
        "after_round": selectors.rounds_complete(t),
        "qualified": found.qualified if found else frozenset(),
        "qualifiers": pairing.qualifier_count(sum(1 for r in table if not r.withdrawn), t.qualifiers)
        if t.has_qualifying else 0,
    })


def bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _tournament(tournament_id)
    ko = list(
        Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
        .select_related("entrant1__user", "entrant2__user", "winner__user", "game")
        .order_by("round_no", "slot")
    )
    for m in ko:  # the print shows results, not the points of a game in play
        m.game = None
    drawing = _drawing(ko, None, AnonymousUser())
    if drawing is None:
        raise Http404("This event has no bracket yet.")
    return render(request, "tournaments/print/bracket.html", {**_context(t, "Bracket"), "drawing": drawing})
