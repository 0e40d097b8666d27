"""How to play: the rules as the site plays them, and a hand counter that uses the engine."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.scoring import score_hand
from games.pages.forms import HandCountForm
from games.play import presence

# Hands worth trying, as (what, hand, starter, crib): each shows one rule of the show at work.
EXAMPLES = (
    ("The best hand, 29", "5H 5C 5S JD", "5D", False),
    ("A double double run, 24", "4H 4S 5C 6D", "6H", False),
    ("7 7 7 8 with a 9: 21", "7H 7C 7S 8D", "9H", False),
    ("A hand flush, 4", "2H 4H 8H QH", "KS", False),
    ("No crib flush without the starter", "2H 4H 8H QH", "KS", True),
    ("Nineteen: nothing", "2H 4S 6D 8C", "KH", False),
)


def how_to_play(request: HttpRequest) -> HttpResponse:
    asked = "hand" in request.GET or "starter" in request.GET
    form = HandCountForm(request.GET if asked else None)
    score = None
    if asked and form.is_valid():
        data = form.cleaned_data
        score = score_hand(data["hand"], data["starter"], crib=data["crib"])
    context = {
        "form": form, "score": score, "examples": EXAMPLES,
        # Leaving the table: the figures the site plays by (settings), as the board counts them.
        "absence_minutes": max(1, presence.absence_limit() // 60),
        "presence_seconds": round(presence.PRESENCE_EXPIRES_SECONDS),
    }
    status = 400 if asked and score is None else 200
    # The counter's own form asks for its result only; the whole page stays put around it.
    if request.htmx and request.htmx.target == "counter":
        return render(request, "pages/rules/_counter.html", context, status=status)
    return render(request, "pages/rules/how_to_play.html", context, status=status)
