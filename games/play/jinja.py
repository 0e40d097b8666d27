"""The components' Jinja2 environment (``TEMPLATES``' ``components`` engine): the same card,
board and text helpers the Django templates load with ``{% load cribbage %}``, as globals and
filters, and Django's own filters where a component needs one (``pluralize``, ``floatformat``, ``date``)."""

from __future__ import annotations

import jinja2
from django.template import defaultfilters
from django.urls import reverse
from django.utils import timezone

from games.play import hooks
from games.play.templatetags import cribbage


def date(value, arg: str | None = None) -> str:
    """Django's ``date`` filter, given the moment in the site's time zone as Django's engine does."""
    return defaultfilters.date(timezone.template_localtime(value), arg)


def environment(**options) -> jinja2.Environment:
    # An unknown name, or a name's unknown part, is empty, in DEBUG too, as in Django's templates:
    # the pages must not change with the setting (Django's backend would print it back under DEBUG).
    options["undefined"] = jinja2.ChainableUndefined
    # The components are a few dozen files: kept in a plain dict, not an LRU behind a lock, which
    # every include and import of a board asked.
    options["cache_size"] = -1
    env = jinja2.Environment(**options)
    env.filters.update({f.__name__: f for f in (
        cribbage.card_name, cribbage.cards_text, cribbage.countdown,
        defaultfilters.pluralize, defaultfilters.floatformat, date,
    )})
    env.globals.update({f.__name__: f for f in (
        cribbage.card_face, cribbage.card_back, cribbage.card_back_items, cribbage.cribbage_board,
        cribbage.deal_commitment, cribbage.quick_message_buttons,
    )}, url=lambda name, *args: reverse(name, args=args), page_url=hooks.page_url)
    return env
