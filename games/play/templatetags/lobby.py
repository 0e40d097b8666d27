"""Template tags of the lobby."""

from __future__ import annotations

import functools

from django import template
from django.conf import settings
from django.forms import Form
from django.template.loader import render_to_string

register = template.Library()


@register.simple_tag
def new_game_fields(form: Form) -> str:
    """A new-game form's fields (``_new_game_form.html``). A form nobody has filled in is the same
    for everyone, so it is drawn once per process: Django draws every field through templates, and
    the three forms' thirty-odd fields were half the cost of each lobby page."""
    if form.is_bound or settings.DEBUG:  # DEBUG: template edits show at once
        return _draw(form)
    # A form that starts as a player's last game did: players who chose alike share its drawing.
    return _blank(type(form), form.prefix, tuple(sorted(form.initial.items())))


@functools.lru_cache(maxsize=256)
def _blank(form_class: type[Form], prefix: str | None, initial: tuple = ()) -> str:
    return _draw(form_class(prefix=prefix, initial=dict(initial)))


def _draw(form: Form) -> str:
    return render_to_string("play/_new_game_form.html", {"form": form})
