"""``{% load player_names %}``: a player's name as everyone else sees it (``games.play.names``)."""

from __future__ import annotations

from django import template

from games.play import names

register = template.Library()


@register.filter
def public_name(username: str | None) -> str:
    """``{{ user.username|public_name }}``: the username, or "a deleted player"."""
    return names.public_name(username)
