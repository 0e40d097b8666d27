"""Tournament pages: the list, and one page per tournament whose live part is pushed over the socket
(``tournaments/detail.html#tournament-live``, rendered for each watcher's own user)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.play.models import Game
from games.play.registry import page_url
from games.tournaments import bracket, notice_words, pairing, selectors, services
from games.tournaments import watch as watching
from games.tournaments.models import Entrant, Match, Notice, ResultChange, Tournament
from games.tournaments.services.entered_results import SHEET_REASON

DECIDED = selectors.DECIDED


def tournament_list(request: HttpRequest) -> HttpResponse:
    base = Tournament.objects.annotate(players=Count("entrants", filter=Q(entrants__withdrawn=False)))
    context = {
        "upcoming": base.upcoming().order_by("registration_closes", "created_at"),
        "running": base.running().order_by("started_at"),
        "finished": base.finished().select_related("champion").order_by("-finished_at")[:50],
        "now": timezone.now(),
    }
    return render(request, "tournaments/list.html", context)


@dataclass(frozen=True)
class NextMatch:
    match: Match
    opponent: Entrant | None
    text: str
    can_claim: bool = False
    claim_after: object = None
    opponent_absent: bool = False

    @property
    def round_name(self) -> str:
        m = self.match
        return m.tournament.round_name(m.stage, m.round_no)


def _next_match(t: Tournament, me: Entrant | None, matches: list[Match]) -> NextMatch | None:
    if me is None or me.withdrawn or t.status != Tournament.Status.RUNNING:
        return None
    mine = [m for m in matches if me.pk in (m.entrant1_id, m.entrant2_id) and m.status not in DECIDED]
    if not mine:
        return None
    mine.sort(key=lambda m: (m.status != Match.Status.ACTIVE, m.stage != t.stage, m.round_no))
    m = mine[0]
    opponent = m.entrant2 if m.entrant1_id == me.pk else m.entrant1
    if m.status == Match.Status.ACTIVE:
        check = services.forfeit_check(m)
        absent = check.absent is not None and check.absent != m.side_of(me.pk)
        return NextMatch(
            m,
            opponent,
            "Your match is ready.",
            can_claim=absent and check.due,
            claim_after=check.deadline,
            opponent_absent=absent,
        )
    if opponent is None:
        return NextMatch(m, None, f"You play the winner of {_feeder_text(m, me, matches)}.")
    return NextMatch(m, opponent, "It starts when the round before it is over.")


def _feeder_text(m: Match, me: Entrant, matches: list[Match]) -> str:
    """The knockout match whose winner comes to ``m`` to meet ``me``: "carol v dave" when known."""
    feeders = [f for f in matches if f.stage == m.stage and f.round_no == m.round_no - 1
               and f.slot // 2 == m.slot and me.pk not in (f.entrant1_id, f.entrant2_id)]
    names = [e.name for f in feeders[:1] for e in (f.entrant1, f.entrant2) if e is not None]
    return " v ".join(names) if len(names) == 2 else "the match before this one"


def _line(m: Match, side: int, me: Entrant | None) -> bracket.Line:
    entrant = m.entrant1 if side == 0 else m.entrant2
    if entrant is None:
        return bracket.Line("bye" if m.status == Match.Status.BYE else "to be decided", empty=True)
    seed = entrant.qualifying_rank or entrant.seed
    name = f"{seed}. {entrant.name}" if seed else entrant.name
    if entrant.withdrawn:
        name += " (withdrawn)"
    score, live = "", False
    if m.status == Match.Status.FINISHED:
        score = str(m.games1 if side == 0 else m.games2)
    elif (state := _state_in_play(m)) is not None:  # the points of the game in play, set apart
        score, live = str(state["scores"][side]), True
    return bracket.Line(
        name, score, winner=m.winner_id == entrant.pk, me=me is not None and me.pk == entrant.pk, live=live
    )


def _state_in_play(m: Match) -> dict | None:
    """The game state of a match being played (server side only: it holds the hands and the deck)."""
    if m.status != Match.Status.ACTIVE or m.game is None or not m.game.state:
        return None
    return m.game.state


def in_play(m: Match) -> str:
    """The score of a match being played, entrant 1's first (seat 0 is entrant 1: progress.start_match):
    "87–64, deal 8", with the game and the games won in a longer match. Only the scores and the
    deal's number leave the state."""
    state = _state_in_play(m)
    if state is None:
        return ""
    if state["phase"] == "cut" and state["game_no"] == 0:
        return "cutting for deal"
    a, b = state["scores"][:2]
    text = f"{a}–{b}, deal {state['deal_no'] + 1}"
    if m.match_games > 1:
        won = [0, 0]
        for result in state.get("results", []):
            won[result["winner"]] += 1
        text = f"game {state['game_no'] + 1}: {text}; games {won[0]}–{won[1]}"
    return text


def _drawing(ko: list[Match], me: Entrant | None, user) -> bracket.Drawing | None:
    if not ko:
        return None
    rounds_total = max(m.round_no for m in ko)
    rounds: dict[int, list] = {}
    for m in ko:
        href = ""
        players = {m.entrant1.user_id if m.entrant1 else None, m.entrant2.user_id if m.entrant2 else None}
        if m.game_id and user.is_authenticated and m.game is not None and user.pk in players:
            href = m.game.get_absolute_url()
        elif m.status == Match.Status.ACTIVE and m.game_id:  # anyone else may watch it
            href = reverse("tournaments:watch", args=[m.tournament_id, m.pk])
        elif m.game_id and m.game is not None and m.game.status == Game.Status.FINISHED:  # public record
            href = page_url("record", m.game_id)
        rounds.setdefault(m.round_no, []).append((m.slot, _line(m, 0, me), _line(m, 1, me), href, m.status))
    names = {r: pairing.round_name(r, rounds_total) for r in rounds}
    return bracket.layout(rounds, names)


def page_data(t: Tournament) -> dict:
    """What the page shows every reader alike: read once for a change and shared by everyone's page
    (``live_pages``), only what is theirs added for each (``detail_context``)."""
    entrants = list(t.entrants.select_related("user").order_by("withdrawn", "seed", "registered_at", "pk"))
    # A game's snapshot (its cards, a few KB) is read only for the games in play, in one query: an
    # event of 256 read a thousand of them to draw its page.
    matches = list(
        Match.objects.filter(tournament=t)
        .select_related("entrant1__user", "entrant2__user", "winner__user", "game")
        .defer("game__state", "game__result", "game__last_events", "game__seat_plan")
        .order_by("-stage", "round_no", "slot")
    )
    in_play_ids = [m.game_id for m in matches if m.status == Match.Status.ACTIVE and m.game_id]
    states = dict(Game.objects.filter(pk__in=in_play_ids).values_list("pk", "state")) if in_play_ids else {}
    for m in matches:
        if m.game is not None:
            m.game.state = states.get(m.game_id)
    corrected = _corrections(matches)
    for m in matches:
        m.in_play = in_play(m)
        m.corrections = corrected.get(m.pk, [])
    rr = [m for m in matches if m.stage == t.rounds_stage]
    ko = [m for m in matches if m.stage == Tournament.Stage.KNOCKOUT]
    ko_rounds = max((m.round_no for m in ko), default=0)
    schedule = [(round_title(t, r), list(ms)) for r, ms in groupby(rr, key=lambda m: m.round_no)]
    schedule += [
        (pairing.round_name(r, ko_rounds), list(ms)) for r, ms in groupby(ko, key=lambda m: m.round_no)
    ]
    show_standings = t.format != Tournament.Format.KNOCKOUT
    table = selectors.standings(t) if show_standings else []
    qualified = selectors.qualification(t, table) if t.status != Tournament.Status.UPCOMING else None
    return {
        "t": t,
        "login_url": resolve_url(settings.LOGIN_URL),
        "entrants": entrants,
        "matches": matches,
        "ko": ko,
        "active_count": sum(1 for e in entrants if not e.withdrawn),
        "registration_open": t.registration_open(),
        "full": t.is_full(),
        "announcements": notice_words.in_words(t.notices.filter(kind=Notice.Kind.ANNOUNCEMENT)[:20]),
        "notices": notice_words.in_words(t.notices.exclude(kind=Notice.Kind.ANNOUNCEMENT)[:40]),
        "standings": table,
        "qualified": qualified.qualified if qualified else frozenset(),
        "qualifiers": pairing.qualifier_count(sum(1 for e in entrants if not e.withdrawn), t.qualifiers)
        if t.has_qualifying
        else 0,
        "schedule": schedule,
        "stage_text": t.stage_text(ko_rounds),
        "sheet_reason": SHEET_REASON,
    }


def detail_context(t: Tournament, user, data: dict | None = None) -> dict:
    """The page for ``user``: what everyone sees (``data``, read now if not given) and what is
    theirs (their entry, their next match, their games' links)."""
    data = data if data is not None else page_data(t)
    matches = data["matches"]
    me = next((e for e in data["entrants"] if user.is_authenticated and e.user_id == user.pk), None)
    return {
        **data,
        "user": user,
        "me": me,
        "can_register": (user.is_authenticated and me is None and data["registration_open"]
                         and not data["full"]),
        "can_unregister": me is not None and t.status == Tournament.Status.UPCOMING,
        "drawing": _drawing(data["ko"], me, user),
        "next": _next_match(t, me, matches),
        "my_game_ids": {
            m.game_id
            for m in matches
            if me is not None and m.game_id and me.pk in (m.entrant1_id, m.entrant2_id)
        },
    }


def round_title(t: Tournament, round_no: int) -> str:
    """A round before any bracket, as the schedule heads it: "Round 3", "Qualifying round 3 of 9"."""
    return t.round_name(t.rounds_stage, round_no)


def _corrections(matches: list[Match]) -> dict[int, list[ResultChange]]:
    """Each corrected match's audit lines (results the director changed), in order."""
    ids = [m.pk for m in matches if m.decided_by == Match.Decided.ADMIN]
    found: dict[int, list[ResultChange]] = {}
    for change in ResultChange.objects.filter(match_id__in=ids).select_related("by"):
        if change.correction:
            found.setdefault(change.match_id, []).append(change)
    return found


def render_live(tournament_id: int, user, data: dict | None = None) -> str | None:
    """The live part of the page for one user, as an out-of-band swap (pushed over the socket);
    ``data``: what everyone sees, read already (``page_data``)."""
    t = data["t"] if data is not None else (
        Tournament.objects.filter(pk=tournament_id).select_related("champion").first())
    if t is None:
        return None
    return render_to_string(
        "tournaments/detail.html#tournament-live", {**detail_context(t, user, data), "oob": True}
    )


def live_data(tournament_id: int) -> dict | None:
    """``page_data`` of the tournament as it is now, or None if it is gone."""
    t = Tournament.objects.filter(pk=tournament_id).select_related("champion").first()
    return None if t is None else page_data(t)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = get_object_or_404(Tournament.objects.select_related("champion"), pk=tournament_id)
    return render(request, "tournaments/detail.html", detail_context(t, request.user))


def _run(request: HttpRequest, func, success: str, **kwargs) -> None:
    try:
        func(**kwargs)
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _run(
        request,
        services.tournament_register,
        "You are registered.",
        user=request.user,
        tournament_id=tournament_id,
    )
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _run(
        request,
        services.tournament_unregister,
        "You are no longer registered.",
        user=request.user,
        tournament_id=tournament_id,
    )
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def claim_forfeit(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    get_object_or_404(Match, pk=match_id, tournament_id=tournament_id)
    _run(
        request,
        services.match_claim_forfeit,
        "Your opponent forfeits: the match is yours.",
        user=request.user,
        match_id=match_id,
    )
    return redirect("tournaments:detail", tournament_id)


def watch(request: HttpRequest, tournament_id: int, match_id: int) -> HttpResponse:
    """A match's game for spectators: the board as the table shows it, followed over a socket."""
    m = get_object_or_404(Match.objects.select_related("tournament", "entrant1", "entrant2"), pk=match_id,
                          tournament_id=tournament_id)
    game = watching.match_game(m.game_id, request.user) if m.game_id else None
    if game is None:
        raise Http404("This match has no game to watch yet.")
    return render(request, "tournaments/watch.html", {
        "t": m.tournament, "match": m, "game": game, "board": watching.watch_html(game),
    })
