"""The board's components engine (Jinja2 through Django's backend) draws as Django's templates
would: escaped, the same with DEBUG on or off, the CSRF field and times as Django draws them."""

from __future__ import annotations

from datetime import UTC, datetime

import jinja2
import pytest
from django.template import Context, Template
from django.test import override_settings

from games.play import components
from games.play.components import csrf_field
from games.play.jinja import date, environment
from games.play.narration import LogLine


def test_a_component_escapes_what_it_is_given_and_trusts_markup():
    html = components.render("play/parts/log.jinja", {
        "log": [LogLine("<b>bob</b>", "says go", 0, "go", (), False)]})
    assert "&lt;b&gt;bob&lt;/b&gt;" in html and "<b>bob" not in html
    held = components.render("play/parts/held_hand.jinja", {"cards": ["5H"]})
    assert 'data-card="5H"' in held  # the card tag's markup is printed, not escaped


@pytest.mark.parametrize("undefined", [None, jinja2.Undefined, jinja2.DebugUndefined])
def test_the_sites_components_draw_an_unknown_name_as_nothing(undefined):
    """The site draws an unknown name empty whatever DEBUG says (Django's Jinja2 backend would
    print it back under DEBUG, and a test run and production would differ)."""
    options = {} if undefined is None else {"undefined": undefined}
    env = environment(**options)
    assert env.from_string("[{{ nothing }}][{{ v.nothing }}]").render() == "[][]"


def test_the_suite_draws_the_components_with_unknown_names_raising():
    """tests/settings.py asks for StrictUndefined: a name a component misspells, or its context
    forgot, fails the test that draws it."""
    from django.template import engines

    with pytest.raises(jinja2.UndefinedError):
        engines["components"].from_string("[{{ nothing }}]").render({})


def test_a_counted_hand_not_given_a_claim_says_nothing_of_one():
    html = components.render("play/parts/counted_hand.jinja", {
        "label": "Hand", "cards": ["5H", "5C", "5D", "JS"], "starter": "5S", "status": "done",
        "groups": [], "total": 29, "awarded": 29, "scored_label": "Total"})
    assert "Worth" not in html and "undercount" not in html and "Hand with the starter" in html


def test_a_django_page_draws_a_component_with_its_values_alone():
    page = Template('{% load cribbage %}{% component "play/parts/held_hand.jinja" cards=kept %}')
    html = page.render(Context({"kept": ["5H", "JD"], "cards": ["AS"]}))
    assert html.startswith('<ul class="hand" aria-label="Your hand">')
    assert 'data-card="5H"' in html and 'data-card="JD"' in html and 'data-card="AS"' not in html


def test_the_csrf_field_is_the_one_django_draws():
    token = "a" * 64
    django_field = Template("{% csrf_token %}").render(Context({"csrf_token": token}))
    assert str(csrf_field(token)) == django_field
    assert csrf_field("") == "" and csrf_field(None) == "" and csrf_field("NOTPROVIDED") == ""


@override_settings(TIME_ZONE="Europe/Paris")
def test_times_are_drawn_in_the_sites_time_zone_as_djangos_date_filter_draws_them():
    moment = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)
    django_drawn = Template("{{ m|date:'c' }} {{ m|date:'H:i:s' }}").render(Context({"m": moment}))
    assert f"{date(moment, 'c')} {date(moment, 'H:i:s')}" == django_drawn
    assert date(moment, "H:i") == "10:30"


def test_each_shared_helper_is_in_both_engines():
    """One list: every helper in it is a Django filter or tag of ``{% load cribbage %}`` and a
    Jinja2 filter or global of the components, under the same name."""
    from django.template import engines

    from games.play.templatetags import cribbage

    env = engines["components"].env
    for f in cribbage.SHARED_FILTERS:
        assert cribbage.register.filters[f.__name__] is f and env.filters[f.__name__] is f
    for f in cribbage.SHARED_GLOBALS:
        assert f.__name__ in cribbage.register.tags and env.globals[f.__name__] is f
    page = Template('{% load cribbage %}{{ "5H"|card_name }} {% card_back "small" %}').render(Context())
    assert page.startswith("Five of hearts ") and "card" in page
