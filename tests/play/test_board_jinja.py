"""The board's Jinja2 templates escape as Django's do, and print nothing for a missing value."""

from __future__ import annotations

import jinja2
import pytest
from django.contrib.auth import get_user_model
from django.utils.safestring import mark_safe

from games.play.board import board_context, board_html, render_board_oob
from games.play.jinja import environment
from tests.play.factories import fixed_secrets, human_game


def test_plain_text_is_escaped_and_django_safe_text_is_not():
    env = environment(autoescape=True)
    template = env.from_string("{{ plain }}|{{ trusted }}")
    assert template.render(plain="<b>x</b>", trusted=mark_safe("<i>y</i>")) == "&lt;b&gt;x&lt;/b&gt;|<i>y</i>"


def test_a_missing_value_prints_nothing_even_where_the_backend_asks_for_debug_output():
    # Django's Jinja2 backend passes DebugUndefined when DEBUG is on: a page would print "{{ x }}".
    env = environment(autoescape=True, undefined=jinja2.DebugUndefined)
    assert env.from_string("[{{ missing }}{{ missing.deeper }}]").render() == "[]"


class _Thing:
    name = "attribute"

    def __getitem__(self, key):
        return f"item {key}"


@pytest.mark.parametrize("source, values", [
    ("{{ d.name }}|{{ d.missing }}|{{ d.missing.deeper }}", {"d": {"name": "n"}}),
    ("{{ d.items()|list }}|{{ d.get('a') }}|{{ d.keys()|list }}", {"d": {"a": 1, "items": "shadowed"}}),
    ("{{ d.__class__.__name__ }}|{{ d.copy }}", {"d": {"copy": "key"}}),
    ("{{ t.name }}|{{ t.other }}", {"t": _Thing()}),
    ("{{ s.upper() }}|{{ n.real }}|{{ none.x }}", {"s": "abc", "n": 3, "none": None}),
    ("{{ range(3)|list }}|{{ card_name }}", {}),
])
def test_the_environment_reads_values_as_jinja_does(source, values):
    """Dicts read item-first and globals as one dict (games.play.jinja.Environment) change nothing a
    template prints: the same text as Jinja2's own environment, for dicts, objects and globals."""
    ours = environment(autoescape=True)
    theirs = jinja2.Environment(autoescape=True, undefined=jinja2.ChainableUndefined)
    theirs.globals.update(ours.globals)
    assert ours.from_string(source).render(**values) == theirs.from_string(source).render(**values)


def test_a_template_sees_every_global_of_the_environment():
    env = environment(autoescape=True)
    template = env.from_string("{{ url is defined }} {{ card_face is defined }} {{ cycler is defined }}")
    assert type(template.globals) is dict
    assert template.render() == "True True True"


@pytest.mark.django_db
def test_names_and_messages_on_the_board_are_escaped(alice, bob, monkeypatch):
    fixed_secrets(monkeypatch, "jinja")
    game = human_game(alice, bob)
    # The sign-up form refuses such a name; the board must not trust that it never gets one.
    get_user_model().objects.filter(pk=alice.pk).update(username="<script>al</script>")
    pushed = render_board_oob(game.pk, bob, "x" * 64)
    assert "<script>al" not in pushed and "&lt;script&gt;al&lt;/script&gt;" in pushed
    game.refresh_from_db()
    drawn = board_html(board_context(game, bob, error="<img src=x onerror=alert(1)>") | {"csrf_token": "t"})
    assert "<img src=x" not in drawn and "&lt;img src=x onerror=alert(1)&gt;" in drawn
    assert 'name="csrfmiddlewaretoken" value="t"' in drawn
