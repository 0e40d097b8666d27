"""Pieces of the board drawn once per distinct content: ``{% fragment "name" key=value ... %}``.

A board is drawn twice a move (the mover's answer, the opponent's push), and templates were most
of the cost; yet from one move to the next most of a viewer's board is unchanged (the crib, the
starter, the opponent's seat, the show). A fragment template (``games/play/jinja2/play/fragments/``)
sees exactly the values its tag passes and nothing else, so its HTML is a function of them and
can be kept per process: no request, no CSRF token, no other viewer's data can get into it.

Values must be plain, immutable data: numbers, strings, cards, tuples, ranges, dicts of them and
frozen dataclasses of them. The cache key records each value's type, so ``1`` and ``True`` (equal
in Python) and a trusted ``SafeString`` and a plain ``str`` of the same text (equal too) never
share an entry: an untrusted name can never be answered with HTML cached for trusted text.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from django.dispatch import receiver
from django.template import engines
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeData, SafeString, mark_safe

from games.engine.cards import Card

_SCALARS = (str, int, float, bool, type(None))


def freeze(value: Any) -> Any:
    """A hashable key that is equal for two values only if they render the same."""
    if isinstance(value, Card):
        return value  # rank and suit: the only fields
    if isinstance(value, _SCALARS):
        if isinstance(value, SafeData):
            return (SafeData, str(value))
        return (type(value), value)
    if isinstance(value, tuple | list):
        return (tuple, *(freeze(item) for item in value))
    if isinstance(value, range):
        return (range, value.start, value.stop, value.step)
    if isinstance(value, dict):
        return (dict, *((key, freeze(item)) for key, item in sorted(value.items())))
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.frozen:
        return (type(value), *(freeze(getattr(value, f.name)) for f in dataclasses.fields(value)))
    raise TypeError(f"a fragment takes plain immutable values, not {type(value).__name__}")


class _Values:
    """The values of one fragment, compared and hashed by their frozen key."""

    __slots__ = ("name", "values", "key", "hash")

    def __init__(self, name: str, values: dict) -> None:
        self.name = name
        self.values = values
        self.key = (name, *((key, freeze(item)) for key, item in sorted(values.items())))
        self.hash = hash(self.key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Values) and self.key == other.key


def render_fragment(name: str, values: dict) -> SafeString:
    return _render(_Values(name, values))


# A few hundred games in play keep some thousands of distinct pieces; each is a few hundred bytes.
@lru_cache(maxsize=16384)
def _render(values: _Values) -> SafeString:
    template = engines["jinja2"].env.get_template(f"play/fragments/{values.name}.jinja")
    return mark_safe(template.render(values.values))


def cache_info():
    return _render.cache_info()


def cache_clear() -> None:
    _render.cache_clear()


@receiver(file_changed, dispatch_uid="games.play.fragments.template_changed")
def _template_changed(sender, file_path, **kwargs) -> None:
    """``make run`` reloads templates without restarting: an edited fragment is drawn afresh."""
    if str(file_path).endswith(".jinja"):
        cache_clear()
