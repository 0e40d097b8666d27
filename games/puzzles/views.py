"""The puzzle pages: today's, any past day's (a stable address to share), the archive, your record.
An answer is a plain form post; with htmx the puzzle is swapped in place with the results."""

from __future__ import annotations

import re
from datetime import date

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games.puzzles import browser, clock, services
from games.puzzles.explain import explanation
from games.puzzles.models import Puzzle, Vote
from games.puzzles.record import record_of

PAGE = "puzzles/puzzle.html"


DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day(value: str) -> date:
    try:
        if not DAY.fullmatch(value):
            raise ValueError(value)
        day = date.fromisoformat(value)
    except ValueError as e:
        raise Http404("No puzzle on that day.") from e
    if day > clock.today():
        raise Http404("That day's puzzle is not out yet.")
    return day


class NotOutYet(Exception):
    """Today's puzzle has not been chosen yet, and the scheduler is not late."""


def _puzzle_of(day: date) -> Puzzle:
    puzzle = Puzzle.objects.filter(day=day).first()
    if puzzle is not None:
        return puzzle
    if day != clock.today():
        raise Http404("There was no puzzle on that day.")
    # The task worker chooses the day's puzzle at midnight; a request chooses it only when the
    # scheduler is late (no worker running, or one busy), so that nobody is turned away for long.
    if not services.scheduler_late():
        raise NotOutYet
    return services.puzzle_for(day, late=True)


def _coming(request: HttpRequest) -> HttpResponse:
    """In the first moments of a day, before the midnight job has chosen its puzzle."""
    wait = int(services.LATE_AFTER.total_seconds())
    response = render(request, "puzzles/coming.html", status=503)
    response["Retry-After"] = str(wait)
    return response


def _shares(puzzle: Puzzle) -> tuple[list[dict], int]:
    counts: dict[str, int] = {}
    for laid_away in puzzle.votes.values_list("laid_away", flat=True):
        counts[laid_away] = counts.get(laid_away, 0) + 1
    total = sum(counts.values())
    rows = []
    for rank, row in enumerate(puzzle.table, start=1):
        n = counts.get(row["laid_away"], 0)
        rows.append({**row, "rank": rank, "votes": n, "share": round(100 * n / total) if total else 0,
                     "win_pct": 100 * row["win"], "crib_abs": abs(row["expected_crib"])})
    return rows, total


def _context(request: HttpRequest, puzzle: Puzzle, *, error: str = "", picked: list[str] = ()) -> dict:
    vote = services.existing_vote(puzzle, user=request.user, browser=browser.token_of(request))
    today = clock.today()
    reveal = vote is None and puzzle.day < today and request.GET.get("reveal") == "1"
    context = {
        "puzzle": puzzle, "vote": vote, "reveal": reveal, "error": error, "picked": list(picked),
        "is_today": puzzle.day == today, "past": puzzle.day < today,
        "record": record_of(user=request.user, browser=browser.token_of(request)),
        "crib_words": "your crib" if puzzle.is_dealer else "your opponent's crib",
    }
    if vote is not None or reveal:
        rows, total = _shares(puzzle)
        context.update(rows=rows, total=total, words=explanation(puzzle, vote.laid_away if vote else None),
                       chosen=vote.laid_away if vote else "")
    return context


@require_GET
def today(request: HttpRequest) -> HttpResponse:
    return redirect("puzzles:day", clock.today().isoformat())


@require_GET
def day(request: HttpRequest, day: str) -> HttpResponse:
    try:
        puzzle = _puzzle_of(_day(day))
    except NotOutYet:
        return _coming(request)
    return render(request, PAGE, _context(request, puzzle))


@require_POST
def answer(request: HttpRequest, day: str) -> HttpResponse:
    try:
        puzzle = _puzzle_of(_day(day))
    except NotOutYet:
        return _coming(request)
    cards = request.POST.getlist("cards")
    token = browser.ensure_token(request)  # a new browser's token is read back by this answer's page
    try:
        if request.POST.get("puzzle", "") != str(puzzle.pk):
            raise services.PuzzleError("This answer is for another puzzle: reload the page and answer again.")
        services.vote_cast(puzzle_id=puzzle.pk, cards=cards, user=request.user, browser=token)
    except services.PuzzleError as e:
        template = f"{PAGE}#puzzle" if request.htmx else PAGE
        context = _context(request, puzzle, error=str(e), picked=cards)
        response = render(request, template, context, status=e.status)
        return browser.remember(request, response)
    if request.htmx:
        response = render(request, f"{PAGE}#puzzle", _context(request, puzzle))
    else:
        response = redirect(puzzle)
        response.status_code = 303
    return browser.remember(request, response)


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    puzzles = Puzzle.objects.filter(day__lte=clock.today()).annotate(answers=Count("votes")).order_by("-day")
    page = Paginator(puzzles, 30).get_page(request.GET.get("page"))
    mine = _answers(request, [p.pk for p in page.object_list])
    rows = [{"puzzle": p, "vote": mine.get(p.pk)} for p in page.object_list]
    return render(request, "puzzles/archive.html", {"page": page, "rows": rows, "today": clock.today()})


@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    token = browser.token_of(request)
    if request.user.is_authenticated:
        votes = Vote.objects.filter(user=request.user)
    else:
        votes = Vote.objects.filter(browser=token, user=None) if token else Vote.objects.none()
    votes = votes.select_related("puzzle").order_by("-puzzle__day")
    page = Paginator(votes, 30).get_page(request.GET.get("page"))
    return render(request, "puzzles/mine.html", {
        "page": page, "record": record_of(user=request.user, browser=token),
    })


def _answers(request: HttpRequest, puzzle_ids: list[int]) -> dict[int, Vote]:
    token = browser.token_of(request)
    if request.user.is_authenticated:
        votes = Vote.objects.filter(user=request.user)
    elif token:
        votes = Vote.objects.filter(browser=token, user=None)
    else:
        return {}
    return {v.puzzle_id: v for v in votes.filter(puzzle_id__in=puzzle_ids)}
