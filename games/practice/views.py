"""The counting trainer's page: the hand waiting for a count, and after a count its breakdown. A count
is a plain form post answered by a redirect to the result (so a reload does not post it again); with
htmx the trainer is swapped in place."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.practice import trainer
from games.practice.levels import LEVELS, STEP
from games.practice.services import PracticeError

PAGE = "practice/counting.html"
NUMBERS = {2: "Two", 3: "Three", 4: "Four", 5: "Five"}


def _context(request: HttpRequest, **values) -> dict:
    step = NUMBERS.get(STEP, str(STEP))
    return {"record": trainer.record_for(request), "levels": LEVELS, "step": step, **values}


@require_http_methods(["GET", "POST"])
def counting(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _count(request)
    counted = None
    if request.GET.get("counted", "").isdigit():
        counted = trainer.last(request, int(request.GET["counted"]))
    if counted is not None:
        return render(request, PAGE, _context(request, counted=counted))
    template = f"{PAGE}#trainer" if request.htmx else PAGE
    return render(request, template, _context(request, hand=trainer.current(request)))


def _count(request: HttpRequest) -> HttpResponse:
    template = f"{PAGE}#trainer" if request.htmx else PAGE
    try:
        counted = trainer.count(request, number=request.POST.get("hand", ""),
                                points=request.POST.get("points", ""))
    except PracticeError as e:
        # The hand waiting now, with what was typed if the hand is the same one.
        hand = trainer.current(request)
        typed = request.POST.get("points", "")[:3] if request.POST.get("hand", "") == str(hand.number) else ""
        context = _context(request, hand=hand, error=str(e), claimed=typed)
        return render(request, template, context, status=e.status)
    if request.htmx:
        return render(request, template, _context(request, counted=counted))
    response = HttpResponse(status=303)
    response["Location"] = f"{reverse('practice:counting')}?counted={counted.hand.number}"
    return response
