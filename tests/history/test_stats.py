"""Statistics: what the site shows equals what this test recomputes on its own from the Move log."""

from __future__ import annotations

from collections import defaultdict

import pytest

from games.engine.cards import parse_cards
from games.engine.rules import HouseRules
from games.engine.scoring import score_hand
from games.history.stats import player_stats
from games.play.models import Game, Move
from tests.history.helpers import finish_between, finish_vs_computer, resign_after

pytestmark = pytest.mark.django_db

PEGGING = {"fifteen", "thirty_one", "pair", "run", "go", "last_card"}


def recompute(user, *, vs_computer: bool) -> dict:
    """Statistics straight from the logged events, without the history app's code."""
    out = defaultdict(int)
    out["best_hand"] = None
    opponents: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for game in Game.objects.filter(status=Game.Status.FINISHED, vs_computer=vs_computer, seats__user=user):
        seats = {s.index: s for s in game.seats.all()}
        me = next(i for i, s in seats.items() if s.user_id == user.pk)
        them = 1 - me
        deal = None
        match_winner = None
        for move in Move.objects.filter(game=game).order_by("seq"):
            for e in move.events:
                kind, seat, points = e["kind"], e["seat"], e["points"]
                if kind == "deal":
                    deal = {"dealer": seat, "pegging": 0, "hand": 0, "crib": 0, "shows": 0}
                elif kind in PEGGING and seat == me:
                    deal["pegging"] += points
                elif kind in ("hand", "crib", "peg_out_zone"):
                    if seat == me and kind != "peg_out_zone":
                        deal[kind] += points
                    if kind == "hand" and seat == me:
                        cards = parse_cards(e["cards"])
                        total = score_hand(cards[:4], cards[4]).total
                        out["best_hand"] = max(out["best_hand"] or 0, total)
                        out["hands_28"] += total == 28
                        out["hands_29"] += total == 29
                    deal["shows"] += 1
                    if deal["shows"] == 3:  # pone's hand, dealer's hand, crib: a complete deal
                        role = "dealer" if deal["dealer"] == me else "pone"
                        out[f"deals_{role}"] += 1
                        out[f"pegging_{role}"] += deal["pegging"]
                        out[f"hand_{role}"] += deal["hand"]
                        out["crib"] += deal["crib"]
                elif kind == "game_won":
                    match_winner = seat
                    if max(e["skunks"]) == 1:  # a plain skunk
                        out["skunks_given" if seat == me else "skunks_taken"] += 1
                elif kind == "match_won":
                    match_winner = seat
        out["games"] += 1
        out["wins"] += match_winner == me
        name = seats[them].display_name
        opponents[name][0] += 1
        opponents[name][1] += match_winner == me
    out["opponents"] = dict(opponents)
    return out


def _avg(points: int, deals: int) -> float | None:
    return round(points / deals, 2) if deals else None


def _assert_same(site: dict, mine: dict) -> None:
    assert site["games"] == mine["games"]
    assert site["wins"] == mine["wins"] and site["losses"] == mine["games"] - mine["wins"]
    assert site["skunks_given"] == mine["skunks_given"] and site["skunks_taken"] == mine["skunks_taken"]
    assert site["best_hand"] == mine["best_hand"]
    assert site["hands_28"] == mine["hands_28"] and site["hands_29"] == mine["hands_29"]
    assert site["complete_deals_dealer"] == mine["deals_dealer"]
    assert site["complete_deals_pone"] == mine["deals_pone"]
    assert site["avg"]["pegging_dealer"] == _avg(mine["pegging_dealer"], mine["deals_dealer"])
    assert site["avg"]["pegging_pone"] == _avg(mine["pegging_pone"], mine["deals_pone"])
    assert site["avg"]["hand_dealer"] == _avg(mine["hand_dealer"], mine["deals_dealer"])
    assert site["avg"]["hand_pone"] == _avg(mine["hand_pone"], mine["deals_pone"])
    assert site["avg"]["crib"] == _avg(mine["crib"], mine["deals_dealer"])
    assert site["avg"]["pegging"] == _avg(mine["pegging_dealer"] + mine["pegging_pone"],
                                          mine["deals_dealer"] + mine["deals_pone"])
    assert {o["name"]: [o["games"], o["wins"]] for o in site["opponents"]} == mine["opponents"]


@pytest.fixture
def games(alice, bob, carol):
    finish_vs_computer(alice, seed=21, rules=HouseRules(target=61))
    finish_vs_computer(alice, seed=22, level="standard", rules=HouseRules(target=61))
    finish_between(alice, bob, seed=23, rated=True)
    finish_between(bob, alice, seed=24, rules=HouseRules(target=61, peg_out_zone=5))
    finish_between(carol, alice, seed=25, rules=HouseRules(target=61, match_games=3))
    resign_after(alice, carol, 30, resigner=0)
    finish_between(bob, carol, seed=26, rules=HouseRules(target=61))  # not alice's


def test_statistics_match_a_recomputation_from_the_log(games, alice, bob, carol):
    online = player_stats(alice, vs_computer=False)
    mine = recompute(alice, vs_computer=False)
    assert online["games"] == 4
    _assert_same(online, mine)
    assert online["win_pct"] == round(100 * mine["wins"] / 4, 1)
    # Games against the computer are kept apart.
    computer = player_stats(alice, vs_computer=True)
    _assert_same(computer, recompute(alice, vs_computer=True))
    assert computer["games"] == 2
    assert [o["name"] for o in computer["opponents"]] == ["Computer (easy)", "Computer (standard)"]
    for player in (bob, carol):
        _assert_same(player_stats(player, vs_computer=False), recompute(player, vs_computer=False))


def test_no_games_no_statistics(alice):
    site = player_stats(alice, vs_computer=False)
    assert site["games"] == 0 and site["win_pct"] is None and site["avg"]["pegging"] is None
    assert site["best_hand"] is None and site["opponents"] == []


def test_the_statistics_page_shows_both_sections(games, alice, client):
    site = player_stats(alice, vs_computer=False)
    response = client.get(f"/players/{alice.username}/stats/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-stat="games">{site["games"]}<' in html
    assert f'data-stat="avg_pegging_dealer">{site["avg"]["pegging_dealer"]:.2f}<' in html  # two decimals
    # Games against the computer are private to their player: others see the online ones only.
    assert "Online games" in html and "Against the computer" not in html
    assert 'data-opponent="bob"' in html and 'data-opponent="Computer (easy)"' not in html
    client.force_login(alice)
    html = client.get(f"/players/{alice.username}/stats/").content.decode()
    assert "Online games" in html and "Against the computer" in html
    assert 'data-opponent="bob"' in html and 'data-opponent="Computer (easy)"' in html
    assert client.get("/players/nobody/stats/").status_code == 404


def test_a_resignation_by_the_side_ahead_counts_no_margin():
    from games.history.summaries import game_margin

    ahead_resigns = {"winner": 1, "scores": [40, 25]}
    assert (game_margin(ahead_resigns, 0, 121), game_margin(ahead_resigns, 1, 121)) == (0, 0)
    behind_resigns = {"winner": 0, "scores": [40, 25]}
    assert (game_margin(behind_resigns, 0, 121), game_margin(behind_resigns, 1, 121)) == (15, -15)
    three = {"winner": 2, "scores": [50, 30, 61]}
    assert [game_margin(three, s, 61) for s in range(3)] == [-11, -31, 11]


def test_a_win_past_the_target_counts_the_spread_from_the_game_hole():
    """The ACC's spread: the winner at the target, so a 29 hand from 119 earns no more than a peg."""
    from games.history.summaries import game_margin

    out_with_a_big_hand = {"winner": 0, "scores": [140, 100]}
    assert (game_margin(out_with_a_big_hand, 0, 121), game_margin(out_with_a_big_hand, 1, 121)) == (21, -21)


def test_a_section_without_games_is_left_out(alice, bob, client):
    """Only games against the computer: no empty "Online games" section; nobody's games: one line."""
    client.force_login(alice)
    html = client.get(f"/players/{alice.username}/stats/").content.decode()
    assert "Online games" not in html and "stats-section" not in html
    assert "No finished games yet. <a" in html
    finish_vs_computer(alice, seed=4, rules=HouseRules(target=61))
    html = client.get(f"/players/{alice.username}/stats/").content.decode()
    assert "Against the computer" in html and "Online games" not in html and "No finished games" not in html
    # A visitor does not see the games against the computer: nothing to show them.
    client.force_login(bob)
    html = client.get(f"/players/{alice.username}/stats/").content.decode()
    assert "Against the computer" not in html and "No finished games yet." in html
