"""Tables of three and four in ratings, lists and statistics: tables never touch ratings (the
leaderboard says so), game lists filter by table size and opponent, and statistics have a section per
table size while two-player figures stay as they were.

Games are made only through the services (``game_create_table`` / ``game_accept``), the people
playing random legal moves against easy computers (the ``three`` and ``four`` fixtures of
``tests/history/conftest.py``).
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from games.engine.cards import parse_cards
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.history.models import Rating, RatingChange
from games.history.ratings import is_rated, rate_game, rebuild_ratings
from games.history.stats import player_stats
from games.play.models import Game, Move
from tests.history.helpers import EASY, play_table, resign_after

pytestmark = pytest.mark.django_db

PEGGING = {"fifteen", "thirty_one", "pair", "run", "go", "last_card"}


# --- ratings, lists, statistics ----------------------------------------------------------------


def test_tables_never_touch_ratings(four, alice, bob):
    game, _ = four
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    Game.objects.filter(pk=game.pk).update(rated=True)  # even flagged rated, a table is not rated
    game.refresh_from_db()
    assert not is_rated(game) and rate_game(game) == []
    rated = resign_after(alice, bob, 0, resigner=1, rated=True)
    assert RatingChange.objects.filter(game=rated).count() == 2
    assert rebuild_ratings() == 1
    assert not RatingChange.objects.filter(game=game).exists()
    assert Rating.objects.get(user=alice, pool=121).games == 1


def test_the_leaderboard_says_tables_do_not_count(client):
    html = client.get("/leaderboard/").content.decode()
    assert "<title>Leaderboard · 121 points · Cribbage Hall</title>" in html
    assert html.count('id="how-ratings-work"') == 1 and "tables of three or four do not count" in html


def _rows_shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-game="(\d+)"', html)]


def test_filters_by_players_and_opponent(three, four, alice, bob, carol, client):
    table3, table4 = three[0], four[0]
    duel = resign_after(alice, bob, 0, resigner=1)
    client.force_login(alice)
    cases = {
        "": [duel, table4, table3],
        "players=2": [duel],
        "players=3": [table3],
        "players=4": [table4],
        "players=5": [duel, table4, table3],  # a bad value is ignored
        "opponent=bob": [duel, table4],  # bob sat against alice at the table of four
        "opponent=carol": [],  # carol was her partner
        "opponent=alice": [],
        "opponent=computer": [table3],
        "kind=online&players=4": [table4],
    }
    for query, expected in cases.items():
        html = client.get(f"/players/alice/games/?{query}").content.decode()
        assert _rows_shown(html) == [g.pk for g in expected], query
    html = client.get("/players/alice/games/").content.decode()
    assert "partner carol" in html and "bob &amp; Computer (easy)" in html
    assert 'name="players"' in html and "Four (partners)" in html
    final = table3.result["scores"]
    assert f'<td class="num"><span class="nowrap">{"–".join(str(s) for s in final)}</span></td>' in html
    # carol's own list: alice was her partner, bob her opponent.
    client.force_login(carol)
    assert _rows_shown(client.get("/players/carol/games/?opponent=bob").content.decode()) == [table4.pk]
    assert _rows_shown(client.get("/players/carol/games/?opponent=alice").content.decode()) == []
    # Someone else sees alice's online games only: the table of three was against the computer.
    client.force_login(bob)
    assert _rows_shown(client.get("/players/alice/games/").content.decode()) == [duel.pk, table4.pk]


def recompute(user, players: int) -> dict:
    """Table statistics straight from the logged events, without the history app's code."""
    out: dict = defaultdict(int)
    out["best_hand"] = None
    partners: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sides = 2 if players == 4 else players
    for game in Game.objects.filter(status=Game.Status.FINISHED, players=players, seats__user=user):
        seats = {s.index: s for s in game.seats.all()}
        me = next(i for i, s in seats.items() if s.user_id == user.pk)
        deal, winner = None, None
        for move in Move.objects.filter(game=game).order_by("seq"):
            for e in move.events:
                kind, seat, points = e["kind"], e["seat"], e["points"]
                if kind == "deal":
                    deal = {"dealer": seat, "pegging": 0, "hand": 0, "crib": 0, "shows": 0}
                elif kind in PEGGING and seat == me:
                    deal["pegging"] += points
                elif kind in ("hand", "crib"):
                    if seat == me:
                        deal[kind] += points
                    if kind == "hand" and seat == me:
                        cards = parse_cards(e["cards"])
                        total = score_hand(cards[:4], cards[4]).total
                        out["best_hand"] = max(out["best_hand"] or 0, total)
                    deal["shows"] += 1
                    if deal["shows"] == players + 1:  # every hand and the crib: a complete deal
                        role = "dealer" if deal["dealer"] == me else "pone"
                        out[f"deals_{role}"] += 1
                        out[f"pegging_{role}"] += deal["pegging"]
                        out[f"hand_{role}"] += deal["hand"]
                        out["crib"] += deal["crib"]
                elif kind in ("game_won", "match_won"):
                    winner = seat  # the winning side
        out["games"] += 1
        out["wins"] += winner == me % sides
        if players == 4:
            partner = seats[(me + 2) % 4]
            partners[partner.display_name][0] += 1
            partners[partner.display_name][1] += winner == me % sides
    out["partners"] = dict(partners)
    return out


def test_statistics_have_a_section_per_table_size_and_two_player_figures_stay(three, four, alice, bob,
                                                                              carol, client):
    # alice's two-player figures before and after one more table: unchanged, the tables apart.
    resign_after(alice, bob, 40, resigner=1)
    duel_only = player_stats(alice, vs_computer=False)
    assert duel_only["games"] == 1 and duel_only["complete_deals"] >= 1
    assert [o["name"] for o in duel_only["opponents"]] == ["bob"]
    more, _ = play_table(alice, [EASY, EASY], rules=HouseRules(players=3, target=61), seed=33)
    assert player_stats(alice, vs_computer=False) == duel_only
    assert player_stats(alice, vs_computer=True)["games"] == 0
    for user, players in ((alice, 3), (alice, 4), (bob, 4), (carol, 4)):
        site, mine = player_stats(user, players=players), recompute(user, players)
        assert (site["games"], site["wins"]) == (mine["games"], mine["wins"])
        assert site["best_hand"] == mine["best_hand"]
        assert (site["complete_deals_dealer"], site["complete_deals_pone"]) == (mine["deals_dealer"],
                                                                                mine["deals_pone"])
        for key in ("pegging_dealer", "pegging_pone", "hand_dealer", "hand_pone", "crib"):
            assert site[key] == mine[key], key
        assert site["opponents"] == []  # a record against one opponent is for games of two
        assert {p["name"]: [p["games"], p["wins"]] for p in site["partners"]} == mine["partners"]
    assert player_stats(alice, players=3)["games"] == 2
    html = client.get("/players/alice/stats/").content.decode()
    assert 'id="stats-four-online"' in html and "Record with each partner" in html
    assert 'data-partner="carol"' in html and "Not dealing" in html
    # Her tables of three were against the computer: hers to see, apart from the online ones.
    assert 'id="stats-three' not in html
    client.force_login(alice)
    html = client.get("/players/alice/stats/").content.decode()
    assert 'id="stats-three-computer"' in html and 'id="stats-three-online"' not in html
    assert 'id="stats-four-online"' in html and 'id="stats-four-computer"' not in html
    # bob has no table of three: no empty section for it.
    html = client.get("/players/bob/stats/").content.decode()
    assert 'id="stats-four-online"' in html and 'id="stats-three' not in html
    assert more.players == 3
    profile = client.get("/accounts/u/alice/").content.decode()
    assert 'data-testid="table-games"' in profile
