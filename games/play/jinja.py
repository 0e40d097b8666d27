"""The Jinja2 environment of the board's templates (``games/play/jinja2/``).

The board is drawn twice a move (the mover's answer, the opponent's push) and Django's template
engine was most of the cost of drawing it: resolving each variable through its lookup chain and
rendering each node of the tree. Jinja2 compiles a template to Python once, so the same board
costs about half (0.5 against 1.1 ms in session 9). The rest of the site (forms, lists, pages
drawn once a visit) stays in Django's templates; the board page (``games/board.html``) prints
the board drawn here.

The helpers are the same functions the Django tags of ``{% load cribbage %}`` call, so a card or
the pegboard is the same HTML in either engine. Their results are Django ``SafeString``\\ s, which
Jinja2 leaves unescaped (``__html__``), as Django does.
"""

from __future__ import annotations

import jinja2
from django.template.defaultfilters import floatformat, pluralize
from django.urls import reverse

from games.play.templatetags.cribbage import (
    card_back,
    card_face,
    card_name,
    cards_text,
    cribbage_board,
    deal_commitment,
    fragment,
    quick_message_buttons,
    score_log,
)


def url(name: str, *args) -> str:
    return reverse(name, args=args)


_DICT_ATTRIBUTES = frozenset(dir(dict))


class Environment(jinja2.Environment):
    """Jinja2's environment, with two lookups that raised an exception on every board.

    - ``value.name`` on a dict (most of a board's values): Jinja tries ``getattr`` first, and
      every miss made and formatted an ``AttributeError`` before the item was read, about 55
      times a move. A dict's attributes are its class's, so reading the item first for any other
      name gives exactly what Jinja gives.
    - A template's globals are Jinja's ``ChainMap`` of its own (none here) over the environment's,
      copied into the context of every render: a ``KeyError`` from the empty first map for each
      global, every time. Here they are one plain dict, which is the same as long as the
      environment's globals are complete before a template is loaded (:func:`environment`).
    """

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def make_globals(self, d):
        return {**self.globals, **d} if d else dict(self.globals)


def environment(**options) -> jinja2.Environment:
    # A missing value (or an attribute of one) prints nothing, as in Django's templates, and not
    # the "{{ name }}" Django's Jinja2 backend shows with DEBUG on: no page differs between the two.
    options["undefined"] = jinja2.ChainableUndefined
    # An included file keeps its last newline, as Django's include does.
    options["keep_trailing_newline"] = True
    env = Environment(**options)
    env.globals.update(
        card_back=card_back,
        card_face=card_face,
        cribbage_board=cribbage_board,
        deal_commitment=deal_commitment,
        fragment=fragment,
        quick_message_buttons=quick_message_buttons,
        score_log=score_log,
        url=url,
    )
    env.filters.update(
        card_name=card_name, cards_text=cards_text, floatformat=floatformat, pluralize=pluralize
    )
    return env
