"""News an organiser has for a player that follows them onto every page ("Your match is ready"):
whether a page listens for it, and the notice it draws. Pushed by ``consumers.NewsConsumer``."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject

from games.play import registry


def render_news(user) -> str:
    """The player's news as an out-of-band swap of the page's ``#site-news``, drawn for ``user``."""
    return render_to_string("play/_site_news.html", {"news": registry.site_notices(user)})


def news_socket(request) -> dict:
    """Context processor: ``news_socket``, true where the page should listen for news. Asked only by
    the pages that can (the lobby and a board have sockets of their own), once per request."""
    return {"news_socket": SimpleLazyObject(lambda: registry.news_expected(request.user))}
