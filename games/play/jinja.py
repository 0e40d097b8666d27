"""The components' Jinja2 environment (``TEMPLATES``' ``components`` engine): the same card,
board and text helpers the Django templates load with ``{% load cribbage %}`` (one list of them,
``cribbage.SHARED_FILTERS`` and ``SHARED_GLOBALS``), as globals and filters, and Django's own
filters where a component needs one (``pluralize``, ``floatformat``, ``date``)."""

from __future__ import annotations

import hashlib
import re

import jinja2
from django.template import defaultfilters
from django.urls import reverse
from django.utils import timezone
from markupsafe import Markup

from games.play import registry
from games.play.templatetags import cribbage


def date(value, arg: str | None = None) -> str:
    """Django's ``date`` filter, given the moment in the site's time zone as Django's engine does."""
    return defaultfilters.date(timezone.template_localtime(value), arg)


_FIRST_TAG = re.compile(r"<[a-zA-Z][^>]*")
_CSRF_VALUE = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def morph_key(html: str) -> Markup:
    """The part drawn, its first element keyed by what was drawn (``data-morph-key``): the board's
    morph (static/js/morph.js) leaves a part whose key is unchanged as it is, unwalked. The CSRF
    token, masked afresh on every drawing, is left out of the key (the one in place stays good)."""
    text = str(html)
    first = _FIRST_TAG.search(text)
    if first is None:
        return Markup(text)
    drawn = _CSRF_VALUE.sub("", text) if "csrfmiddlewaretoken" in text else text
    key = hashlib.blake2b(drawn.encode(), digest_size=8).hexdigest()
    end = first.end()
    return Markup(f'{text[:end]} data-morph-key="{key}"{text[end:]}')


def environment(**options) -> jinja2.Environment:
    # An unknown name, or a name's unknown part, is empty, in DEBUG too, as in Django's templates:
    # the pages must not change with the setting (Django's backend would print it back under DEBUG).
    # The test suite asks for StrictUndefined (tests/settings.py), so a misspelt name fails a test.
    if options.get("undefined") is not jinja2.StrictUndefined:
        options["undefined"] = jinja2.ChainableUndefined
    # The components are a few dozen files: kept in a plain dict, not an LRU behind a lock, which
    # every include and import of a board asked.
    options["cache_size"] = -1
    env = jinja2.Environment(**options)
    env.filters.update({f.__name__: f for f in (
        *cribbage.SHARED_FILTERS, defaultfilters.pluralize, defaultfilters.floatformat, date, morph_key,
    )})
    env.globals.update({f.__name__: f for f in cribbage.SHARED_GLOBALS},
                       url=lambda name, *args: reverse(name, args=args), page_url=registry.page_url)
    return env
