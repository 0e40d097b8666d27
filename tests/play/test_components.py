"""The board's components engine (Jinja2 through Django's backend) draws as Django's templates
would: escaped, the same with DEBUG on or off, the CSRF field and times as Django draws them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.test import override_settings

from games.play import components
from games.play.components import csrf_field
from games.play.jinja import date
from games.play.narration import LogLine


def test_a_component_escapes_what_it_is_given_and_trusts_markup():
    html = components.render("play/parts/log.jinja", {
        "log": [LogLine("<b>bob</b>", "says go", 0, "go", (), False)]})
    assert "&lt;b&gt;bob&lt;/b&gt;" in html and "<b>bob" not in html
    held = components.render("play/parts/held_hand.jinja", {"cards": ["5H"]})
    assert 'data-card="5H"' in held  # the card tag's markup is printed, not escaped


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_name_draws_nothing_whatever_debug_says(debug):
    """Django's Jinja2 backend prints an unknown name back under DEBUG; a page must not change
    with the setting (a test run and production would differ)."""
    from django.template import engines

    with override_settings(DEBUG=debug):
        engine = engines["components"]
        assert engine.from_string("[{{ nothing }}][{{ v.nothing }}]").render({}) == "[][]"


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
