"""What follows a player onto every page they have open: an organiser's news ("Your match is ready")
and the count of own-pace games waiting on them ("Your turn (N)" in the menu). Pushed by
``consumers.NewsConsumer``, and the count by the lobby's and a board's own sockets too."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import format_html

from games.play import registry


def render_news(user) -> str:
    """The player's news as an out-of-band swap of the page's ``#site-news``, drawn for ``user``."""
    return render_to_string("play/_site_news.html", {"news": registry.site_notices(user)})


def render_opening(user) -> str:
    """What a notices socket sends when it opens: the turn count, and the news if any may be due."""
    count = render_turn_count(user.pk)
    return count + render_news(user) if registry.news_expected(user) else count


def render_turn_count(user_id: int) -> str:
    """The menu's count of own-pace games waiting on this player, as an out-of-band swap of the
    ``#your-turn-count`` in every page's menu (``templates/base.html``)."""
    count = registry.waiting_count(user_id)
    shown = f" ({count})" if count else ""
    return format_html('<span id="your-turn-count" hx-swap-oob="true">{}</span>', shown)
