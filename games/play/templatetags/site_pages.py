"""``{% page_url "record" game.pk %}``: a page another app serves, by what it is to play
(``games.play.registry.PAGES``), so a template below that app does not name its URL."""

from __future__ import annotations

from django import template

from games.play import registry

register = template.Library()


@register.simple_tag
def page_url(name: str, *args) -> str:
    return registry.page_url(name, *args)
