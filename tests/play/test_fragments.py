"""Board pieces drawn once per distinct content (games.play.fragments)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

from games.engine.cards import parse_card
from games.engine.rules import HouseRules
from games.play import fragments
from games.play.board import render_board
from tests.play.factories import human_game, make_user, play_out

pytestmark = pytest.mark.django_db


def crib(owner, **overrides) -> dict:
    values = {"owner_seat": 1, "me": 0, "owner": owner, "size": 2, "crib": (), "backs": range(2),
              "starter": None}
    return {**values, **overrides}


def test_values_that_python_calls_equal_but_render_differently_never_share_an_entry():
    assert freeze_differs(1, True)
    assert freeze_differs(0, False)
    assert freeze_differs(1, 1.0)
    assert freeze_differs(mark_safe("<b>x</b>"), "<b>x</b>")
    assert freeze_differs((mark_safe("<i>"),), ("<i>",))
    assert freeze_differs({"name": mark_safe("<i>")}, {"name": "<i>"})
    assert fragments.freeze([parse_card("5H")]) == fragments.freeze((parse_card("5H"),))


def freeze_differs(a, b) -> bool:
    assert a == b  # the trap: Python says these are the same
    return fragments.freeze(a) != fragments.freeze(b)


def test_only_plain_immutable_values_are_taken():
    @dataclasses.dataclass
    class Mutable:
        x: int

    for bad in ({1, 2}, Mutable(1), object(), [{3}]):
        with pytest.raises(TypeError, match="plain immutable"):
            fragments.freeze(bad)


def test_a_fragment_is_drawn_once_for_the_same_values():
    fragments.cache_clear()
    first = fragments.render_fragment("crib", crib("Bob"))
    again = fragments.render_fragment("crib", crib("Bob"))
    assert again is first
    assert fragments.cache_info().hits == 1
    other = fragments.render_fragment("crib", crib("Bob", size=3, backs=range(3)))
    assert "(3)" in other and "(2)" in first


def test_a_plain_name_is_escaped_even_after_the_same_text_was_drawn_as_trusted_html():
    fragments.cache_clear()
    trusted = fragments.render_fragment("crib", crib(mark_safe("<em>Bob</em>")))
    assert "<em>Bob</em>'s crib" in trusted
    plain = fragments.render_fragment("crib", crib("<em>Bob</em>"))
    assert "&lt;em&gt;Bob&lt;/em&gt;" in plain and "<em>" not in plain


def test_a_fragment_sees_only_the_values_it_is_given():
    fragments.cache_clear()
    # The crib's owner is "me" only if the tag passes me: nothing leaks in from a page's context.
    html = fragments.render_fragment("crib", crib("Bob", owner_seat=0))
    assert "Your crib" in html
    without_me = {k: v for k, v in crib("Bob", owner_seat=0).items() if k != "me"}
    html = fragments.render_fragment("crib", without_me)
    assert "Your crib" not in html


def test_boards_name_every_value_their_fragments_print(monkeypatch):
    """A fragment that prints a value its tag does not pass would print nothing, silently: play
    whole games (automatic and manual counting) and look for any missing value on any board."""
    engine = engines["django"].engine
    monkeypatch.setattr(engine, "string_if_invalid", "MISSING[%s]")
    alice, bob = make_user("alice"), make_user("bob<i>")
    rng = random.Random(11)
    for rules in (HouseRules(target=61), HouseRules(target=61, manual_counting=True, muggins=True)):
        fragments.cache_clear()
        game = human_game(alice, bob, rules=rules)
        seen = set()

        def look(state, game=game, seen=seen):
            game.refresh_from_db()
            for user in (alice, bob):
                html = render_board(game, user, oob=True, csrf_token="x" * 64)
                assert "MISSING[" not in html, re.search(r"MISSING\[[^\]]*\]", html).group(0)
            seen.add(state.phase)
            return False

        play_out(game, {0: alice, 1: bob}, rng, stop=look)
        assert {"discard", "play", "show"} <= seen
    assert fragments.cache_info().hits > 0


def test_a_board_drawn_from_remembered_pieces_equals_one_drawn_afresh():
    alice, bob = make_user("alice"), make_user("bob")
    game = human_game(alice, bob, rules=HouseRules(target=61))
    rng = random.Random(4)
    boards = []

    def draw(state):
        game.refresh_from_db()
        fragments.cache_clear()
        fresh = render_board(game, alice, csrf_token="x" * 64)
        boards.append(state.phase)
        assert render_board(game, alice, csrf_token="x" * 64) == fresh
        return len(boards) > 60

    play_out(game, {0: alice, 1: bob}, rng, stop=draw)
    assert "show" in boards


def test_fragment_output_is_trusted_html():
    fragments.cache_clear()
    assert isinstance(fragments.render_fragment("held_hand", {"cards": (parse_card("AS"),)}), SafeString)


def test_an_edited_template_is_drawn_afresh_by_the_development_server(tmp_path):
    from django.utils.autoreload import file_changed

    fragments.render_fragment("held_hand", {"cards": (parse_card("AS"),)})
    assert fragments.cache_info().currsize > 0
    file_changed.send(sender=None, file_path=tmp_path / "notes.txt")
    assert fragments.cache_info().currsize > 0
    file_changed.send(sender=None, file_path=tmp_path / "held_hand.jinja")
    assert fragments.cache_info().currsize == 0
