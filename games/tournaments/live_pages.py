"""The tournament page's live part for its watchers: drawn once for each change and shared.

Each push of a change carries a stamp of its own (``broadcast.tournament_changed``). For a stamp,
what everyone sees is read once (``views.page_data``), and the page is drawn once for each kind of
reader who sees the same thing (a visitor, a signed-in player not entered) and handed to every
socket of that kind in this process; an entrant's page holds their own match and links, and is
drawn for them from the same shared reading. Only the latest change's pages are kept; a socket that
(re)connects is drawn afresh.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from games.tournaments.models import Entrant

VISITOR = ("visitor",)
SIGNED_IN = ("signed-in",)


def reader(tournament_id: int, user) -> tuple:
    """Who ``user`` is to the page: a visitor, a signed-in player not entered, or an entrant."""
    if not getattr(user, "is_authenticated", False):
        return VISITOR
    entrant = (Entrant.objects.filter(tournament_id=tournament_id, user=user)
               .values_list("pk", flat=True).first())
    return SIGNED_IN if entrant is None else ("entrant", entrant)


@dataclass
class _Change:
    stamp: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    data: dict | None = None
    read: bool = False
    pages: dict[tuple, str | None] = field(default_factory=dict)
    drawing: dict[tuple, threading.Lock] = field(default_factory=dict)


class LivePages:
    """The pages of each tournament's latest change, for this process's sockets."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[int, _Change] = {}
        self.drawn = 0  # pages drawn (for the tests and the bench: shared pages are not drawn again)

    def page(self, tournament_id: int, user, stamp: str | None) -> str | None:
        from games.tournaments import views  # the page's own module; it reads every app's models

        if stamp is None:
            self.drawn += 1
            return views.render_live(tournament_id, user)
        change = self._change(tournament_id, stamp)
        with change.lock:
            if not change.read:
                change.data, change.read = views.live_data(tournament_id), True
            key = reader(tournament_id, user)
            shared = key in (VISITOR, SIGNED_IN)
            drawing = change.drawing.setdefault(key, threading.Lock()) if shared else threading.Lock()
        if change.data is None:
            return None
        with drawing:
            if shared and key in change.pages:
                return change.pages[key]
            html = views.render_live(tournament_id, user, change.data)
            self.drawn += 1
            if shared:
                change.pages[key] = html
            return html

    def _change(self, tournament_id: int, stamp: str) -> _Change:
        with self._lock:
            change = self._latest.get(tournament_id)
            if change is None or change.stamp != stamp:
                change = self._latest[tournament_id] = _Change(stamp)
            return change


pages = LivePages()
