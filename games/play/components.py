"""The board's components: the templates under ``games/play/jinja2/`` (a seat, the middle of the
table, a counted hand, a card, the log…), drawn by Django's Jinja2 backend.

A board is drawn twice a move (the mover's answer and the opponent's push), about 165 template
nodes each; Django's template engine took 2.4 ms a board where Jinja2 takes under 1 (see
docs/performance.md). Every other page is a Django template; one that shows a component (the game
record's counted hands, the replay's table) draws it through :func:`render` or ``{% component %}``.
"""

from __future__ import annotations

import re
from functools import cache

from django.template import engines
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe


@cache
def _engine():
    return engines["components"]


def render(template_name: str, context: dict) -> SafeString:
    """``template_name`` (a component) drawn with ``context``; markup, ready to print. A context
    with a ``csrf_token`` gets its form field as ``csrf_input`` (the name Django's Jinja2 backend
    gives it for a request), drawn once for the board's several forms."""
    if "csrf_token" in context and "csrf_input" not in context:
        context = {**context, "csrf_input": csrf_field(context["csrf_token"])}
    return mark_safe(_engine().get_template(template_name).render(context))


_LAYOUT_WHITESPACE = re.compile(r">\s*\n\s*<")


def board(template_name: str, context: dict) -> SafeString:
    """A board (the player's, the spectator's): :func:`render`, without the templates' line breaks
    and indentation between tags. Each such run is a text node the browser parses and the morph
    walks on every move (a tenth to a fifth of a board's swap on a slow CPU), and draws nothing: a
    space that must show between two inline elements is written in the template as a space on one
    line, which is kept."""
    return mark_safe(_LAYOUT_WHITESPACE.sub("><", render(template_name, context)))


def csrf_field(token) -> SafeString:
    """The form's CSRF field, as ``{% csrf_token %}`` draws it (nothing without a token)."""
    token = str(token or "")
    if not token or token == "NOTPROVIDED":
        return mark_safe("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
