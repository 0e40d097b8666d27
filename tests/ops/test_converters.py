"""The one converter for ids in paths (cribsite/converters.py): its rule, and that every route uses it.

The walk of every URL and socket route with bad values, as every kind of user, is in test_bad_path_values.
"""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, Resolver404, URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.converters import IntConverter
from django.urls.resolvers import RoutePattern

from cribsite.routing import websocket_urlpatterns
from games.play.converters import MAX_ID, IdConverter, parse_id

IDS = ["1", "9", "10", "120", "2147483648", str(MAX_ID)]
NOT_IDS = ["0", "00", "01", "007", "-1", "-0", "+1", " 1", "1 ", "1.0", "1e3", "1_000", "0x1", "٣", "１", "",
           "abc", "ünï", str(MAX_ID + 1), str(2**64), "1" + "0" * 30, "9" * 19, "1" * 20]


@pytest.mark.parametrize("text", IDS)
def test_an_id_is_a_positive_64_bit_integer_in_plain_digits(text):
    assert parse_id(text) == int(text)
    assert IdConverter().to_python(text) == int(text)
    assert IdConverter().to_url(int(text)) == text


@pytest.mark.parametrize("text", NOT_IDS)
def test_anything_else_is_no_id(text):
    with pytest.raises(ValueError):
        parse_id(text)
    with pytest.raises(ValueError):
        IdConverter().to_url(text)


@pytest.mark.parametrize("value", [0, -1, MAX_ID + 1, 10**30, True, None, 1.5])
def test_no_url_is_built_for_a_value_that_is_no_id(value):
    with pytest.raises(ValueError):
        IdConverter().to_url(value)
    with pytest.raises(NoReverseMatch):
        reverse("game", args=[value])
    assert reverse("game", args=[MAX_ID]) == f"/games/{MAX_ID}/"


@pytest.mark.parametrize("text", NOT_IDS)
def test_a_url_with_what_is_no_id_resolves_to_nothing(text):
    if "/" in text or not text.strip():
        return
    with pytest.raises(Resolver404):
        resolve(f"/games/{text}/act/")
    assert resolve(f"/games/{MAX_ID}/act/").kwargs == {"game_id": MAX_ID}


def _patterns(patterns, prefix: str = ""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p.url_patterns, prefix + str(p.pattern))
        else:
            assert isinstance(p, URLPattern)
            yield prefix + str(p.pattern), p


def test_every_id_in_every_url_and_socket_route_goes_through_it():
    routes = [*_patterns(get_resolver().url_patterns), *_patterns(websocket_urlpatterns, "[socket] ")]
    with_ids = []
    for template, pattern in routes:
        assert "<int:" not in template, template
        if not isinstance(pattern.pattern, RoutePattern):
            continue
        for name, converter in pattern.pattern.converters.items():
            assert not isinstance(converter, IntConverter), template
            # Django's admin takes any primary key (<path:object_id>) and answers a missing object
            # itself (test_bad_path_values walks it as staff); every other id of the site is the converter's.
            if name.endswith("_id") and not (template.startswith("admin/") and name.endswith("object_id")
                                             or name == "content_type_id"):
                assert isinstance(converter, IdConverter), template
                with_ids.append(template)
    assert len(with_ids) >= 25, with_ids
    assert {"[socket] ws/game/<id:game_id>/", "[socket] ws/watch/<id:game_id>/",
            "admin/tournaments/match/<id:match_id>/result/"} <= set(with_ids)


@pytest.mark.parametrize("bad", ["00", "01", "-1", "12345", "9" * 30, "x", "٣"])
def test_a_deal_s_place_is_a_small_count_from_nought_spelt_one_way(bad):
    assert resolve("/games/7/record/deals/0-0/").kwargs == {"game_id": 7, "game_no": 0, "deal_no": 0}
    assert resolve("/games/7/record/deals/2-13/").kwargs["deal_no"] == 13
    with pytest.raises(Resolver404):
        resolve(f"/games/7/record/deals/0-{bad}/")
    with pytest.raises(NoReverseMatch):
        reverse("game_record_deal", args=[7, 0, bad])
