"""Reading the pages the site sends a bot: the board's version, phase and the moves it offers."""

from __future__ import annotations

import random
import re
from functools import lru_cache

BOARD_VERSION = re.compile(r'<div id="board"[^>]*\bdata-version="(\d+)"')
PHASE = re.compile(r'<div id="board"[^>]*\bclass="[^"]*\bphase-([a-z_]+)')
CUT_BUTTON = re.compile(r'<button[^>]*\bname="position" value="(\d+)"[^>]*>')
DISCARD_BOX = re.compile(r'<input type="checkbox" name="cards" value="([^"]+)"')
PLAYABLE = re.compile(r'<button[^>]*\bname="card" value="([^"]+)"[^>]*\bclass="[^"]*\bplayable\b')
BUTTON = re.compile(r'<button[^>]*\bname="type" value="(go|cut_starter|next_deal|next_game)"')
ACCEPT_FORM = re.compile(r'action="/games/(\d+)/accept/"')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def board_version(html: str) -> int | None:
    # The board's root element opens the page's answer and every push: look there first.
    match = BOARD_VERSION.search(html, 0, 600) or BOARD_VERSION.search(html)
    return int(match.group(1)) if match else None


def phase(html: str) -> str:
    match = PHASE.search(html, 0, 600) or PHASE.search(html)
    return match.group(1) if match else ""


def decide(html: str, rng: random.Random) -> list[tuple[str, str]] | None:
    """The form fields of a move this board offers its player, or None when it is not their move."""
    offer = options(html)
    if offer is None:
        return None
    kind, choices = offer
    if kind == "cut_for_deal":
        return [("type", kind), ("position", rng.choice(choices))]
    if kind == "discard":
        laid = rng.sample(choices, len(choices) - 4)  # keep four, whatever the deal size
        return [("type", kind), *(("cards", card) for card in laid)]
    if kind == "play":
        return [("type", kind), ("card", rng.choice(choices))]
    return [("type", kind)]


# A bot reads each board several times (before and after thinking, while it waits) and the
# regular expressions over a whole board were a third of the bots' CPU, on the server's cores.
@lru_cache(maxsize=4096)
def options(html: str) -> tuple[str, tuple[str, ...]] | None:
    """What this board lets its player do: ``(action type, the choices)``, or None."""
    where = phase(html)
    if where == "cut":
        cuts = tuple(m.group(1) for m in CUT_BUTTON.finditer(html) if " disabled" not in m.group(0))
        return ("cut_for_deal", cuts) if cuts else None
    if where == "discard":
        boxes = tuple(DISCARD_BOX.findall(html))
        return ("discard", boxes) if boxes else None
    if where == "play":
        playable = tuple(PLAYABLE.findall(html))
        if playable:
            return ("play", playable)
    buttons = BUTTON.findall(html)
    return (buttons[0], ()) if buttons else None
