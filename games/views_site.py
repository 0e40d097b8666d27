"""Pages that are not about one game: home, health, and a DEBUG-only style sheet demo."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.engine.cards import parse_cards


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


def board_demo(request: HttpRequest) -> HttpResponse:
    """Every piece of the board page with made-up data: the reference markup for the CSS (DEBUG only)."""
    if not settings.DEBUG:
        raise Http404
    hand = parse_cards("5H JD 4C 6S KH AS")
    # ?you=52 moves your front peg (the old front becomes the back peg): a way to watch pegs slide.
    you = int(request.GET["you"]) if request.GET.get("you", "").isdigit() else 45
    context = {
        "tracks": [
            {"label": "You", "front": you, "back": 40 if you == 45 else 45, "color": "red"},
            {"label": "Computer", "front": 38, "back": 31, "color": "blue"},
        ],
        "late_tracks": [
            {"label": "You", "front": 120, "back": 112, "color": "red"},
            {"label": "Computer", "front": 90, "back": 84, "color": "blue"},
        ],
        "short_tracks": [
            {"label": "Ann", "front": 61, "back": 55, "color": "red"},
            {"label": "Bob", "front": 30, "back": 22, "color": "blue"},
            {"label": "Cy", "front": 0, "back": 0, "color": "green"},
        ],
        # (card, state): state drives the button's classes in the template.
        "hand": list(zip(hand, ["playable", "selected", "playable", "off", "off", "playable"], strict=True)),
        "old_pile": parse_cards("KS QD 9C"),
        "pile": parse_cards("7H 8D 6C"),
        "starter": parse_cards("5C")[0],
        "show": parse_cards("5H 5S JD 4C"),
    }
    return render(request, "dev/board_demo.html", context)
