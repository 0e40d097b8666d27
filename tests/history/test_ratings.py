"""Ratings: Glicko-2, the first-dealer adjustment, what counts and the separate pools."""

from __future__ import annotations

import math
import random
from datetime import timedelta

import pytest
from django.db.models import F

from games.engine.rules import HouseRules
from games.history import glicko2
from games.history.models import Rating, RatingChange
from games.history.ratings import FIRST_DEALER_WIN_RATE, game_outcomes, rate_game, rebuild_ratings
from games.play import services
from games.play.models import Round
from tests.history.helpers import finish_between, finish_vs_computer, resign_after
from tests.play.factories import act, play_out

pytestmark = pytest.mark.django_db

PAPER_OPPONENTS = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_glicko2_follows_glickmans_worked_example():
    player = glicko2.Rating(1500, 200, 0.06)
    results = [glicko2.Result(glicko2.Rating(r, rd), s) for r, rd, s in PAPER_OPPONENTS]
    after = glicko2.update(player, results)
    # The paper rounds its intermediate values and prints 1464.06, 151.52 and 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_is_the_same_wherever_the_ratings_sit():
    # Only rating differences matter, so shifting everyone by 600 shifts the result by 600 and
    # leaves deviation and volatility alone. (PyPI glicko2 2.1.0 squares the rating where the
    # paper squares the deviation in the volatility step, which breaks this away from 1500.)
    def results(shift: int) -> list[glicko2.Result]:
        return [glicko2.Result(glicko2.Rating(r + shift, rd), s) for r, rd, s in PAPER_OPPONENTS]

    base = glicko2.update(glicko2.Rating(1500, 200, 0.06), results(0))
    for shift in (600, -300):
        moved = glicko2.update(glicko2.Rating(1500 + shift, 200, 0.06), results(shift))
        assert moved.rating == pytest.approx(base.rating + shift)
        assert moved.rd == pytest.approx(base.rd)
        assert moved.volatility == pytest.approx(base.volatility, rel=1e-9)


def test_a_shock_result_raises_the_volatility():
    after = glicko2.update(glicko2.Rating(2100, 60, 0.06), [glicko2.Result(glicko2.Rating(1300, 30), 0)] * 3)
    assert after.volatility > 0.06 and after.rating < 2100


def test_an_idle_player_deviation_grows_to_at_most_350():
    r = glicko2.Rating(1600, 50, 0.06)
    assert glicko2.idle(r).rd > 50
    assert glicko2.idle(r, 10_000).rd == 350


def test_the_first_dealer_is_expected_to_win_55_percent_between_equals():
    edge = glicko2.first_dealer_advantage(FIRST_DEALER_WIN_RATE[121])
    assert edge == pytest.approx(math.log(0.55 / 0.45))
    for rd in (350, 200, 50):
        equal = glicko2.Rating(1500, rd)
        assert glicko2.expected(equal, equal, advantage=edge) == pytest.approx(0.55)
        assert glicko2.expected(equal, equal, advantage=-edge) == pytest.approx(0.45)


def test_winning_from_the_deal_earns_less_than_winning_as_pone():
    edge = glicko2.first_dealer_advantage(0.55)
    me, them = glicko2.Rating(1500, 200), glicko2.Rating(1500, 200)
    as_dealer = glicko2.update(me, [glicko2.Result(them, 1, edge)])
    as_pone = glicko2.update(me, [glicko2.Result(them, 1, -edge)])
    plain = glicko2.update(me, [glicko2.Result(them, 1)])
    assert 1500 < as_dealer.rating < plain.rating < as_pone.rating


def test_a_rated_game_moves_both_ratings_the_right_way(alice, bob):
    game = finish_between(alice, bob, seed=31, rated=True, rules=HouseRules(target=61))
    winner = alice if game.winner_seat == 0 else bob
    loser = bob if winner == alice else alice
    w, lo = Rating.objects.get(user=winner, pool=61), Rating.objects.get(user=loser, pool=61)
    assert w.rating > 1500 > lo.rating
    assert w.rd < 350 and lo.rd < 350
    assert (w.games, w.wins, w.losses) == (1, 1, 0) and (lo.games, lo.wins, lo.losses) == (1, 0, 1)
    changes = {c.user: c for c in RatingChange.objects.filter(game=game)}
    assert changes[winner].delta > 0 > changes[loser].delta
    assert changes[winner].rating_before == 1500 and changes[winner].rating_after == w.rating
    assert not Rating.objects.filter(pool=121).exists()  # the 121 pool is untouched


def test_the_change_is_glicko2_with_the_first_dealer_adjustment(alice, bob):
    game = finish_between(alice, bob, seed=32, rated=True, rules=HouseRules(target=61))
    first_dealer = Round.objects.get(game=game, game_no=0, deal_no=0).dealer
    assert game_outcomes(game) == [(game.winner_seat, first_dealer)]
    edge = glicko2.first_dealer_advantage(0.55)
    start = glicko2.Rating()
    for seat, user in ((0, alice), (1, bob)):
        won = 1.0 if game.winner_seat == seat else 0.0
        advantage = edge if first_dealer == seat else -edge
        expected = glicko2.update(start, [glicko2.Result(start, won, advantage)])
        rating = Rating.objects.get(user=user, pool=61)
        assert rating.rating == pytest.approx(expected.rating)
        assert rating.rd == pytest.approx(expected.rd)


def test_casual_and_computer_games_do_not_count(alice, bob):
    finish_between(alice, bob, seed=33, rated=False, rules=HouseRules(target=61))
    finish_vs_computer(alice, seed=34, rules=HouseRules(target=61))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_pools_are_separate(alice, bob):
    resign_after(alice, bob, 0, resigner=1, rated=True)  # 121: alice wins
    resign_after(alice, bob, 0, resigner=0, rated=True, rules=HouseRules(target=61))  # 61: bob wins
    assert Rating.objects.get(user=alice, pool=121).rating > 1500
    assert Rating.objects.get(user=alice, pool=61).rating < 1500
    assert Rating.objects.get(user=bob, pool=121).rating < 1500
    assert Rating.objects.get(user=bob, pool=61).rating > 1500


def test_a_match_counts_each_game_and_rating_a_game_twice_does_nothing(alice, bob):
    game = finish_between(alice, bob, seed=35, rated=True, rules=HouseRules(target=61, match_games=3))
    outcomes = game_outcomes(game)
    assert len(outcomes) == len(game.result["games"]) >= 2
    change = RatingChange.objects.get(game=game, user=alice)
    assert change.results == len(outcomes)
    assert change.score == sum(winner == 0 for winner, _ in outcomes)
    assert rate_game(game) == []
    assert RatingChange.objects.filter(game=game).count() == 2


def test_rebuilding_reproduces_the_live_ratings(alice, bob, carol):
    resign_after(alice, bob, 0, resigner=1, rated=True)
    resign_after(bob, carol, 12, resigner=0, rated=True)
    resign_after(carol, alice, 30, resigner=0, rated=True)
    live = {(r.user_id, r.pool): (r.rating, r.rd, r.volatility, r.games) for r in Rating.objects.all()}
    assert rebuild_ratings() == 3
    again = {(r.user_id, r.pool): (r.rating, r.rd, r.volatility, r.games) for r in Rating.objects.all()}
    assert again == live


def test_leaderboard_lists_a_pool_by_rating(alice, bob, carol, client):
    resign_after(alice, bob, 0, resigner=1, rated=True)
    resign_after(carol, bob, 0, resigner=1, rated=True, rules=HouseRules(target=61))
    html = client.get("/leaderboard/").content.decode()
    assert html.index('data-player="alice"') < html.index('data-player="bob"')
    assert 'data-player="carol"' not in html
    short = client.get("/leaderboard/?pool=61").content.decode()
    assert 'data-player="carol"' in short and 'data-player="alice"' not in short
    assert client.get("/leaderboard/?pool=99").status_code == 200  # falls back to 121
    assert "How ratings work" in html and "55%" in html


def test_profile_shows_the_rating_and_its_history(alice, bob, client):
    resign_after(alice, bob, 0, resigner=1, rated=True)
    resign_after(alice, bob, 0, resigner=1, rated=True)
    html = client.get(f"/accounts/u/{alice.username}/").content.decode()
    rating = Rating.objects.get(user=alice, pool=121)
    assert f'data-testid="rating-121">{rating.rating:.0f}<abbr title="provisional' in html  # provisional
    assert 'class="rating-chart"' in html and "121 points rating history" in html
    assert f"/players/{alice.username}/games/" in html and f"/players/{alice.username}/stats/" in html


def test_resigning_a_match_between_games_counts_as_one_more_loss(alice, bob):
    rules = HouseRules(target=61, match_games=3)
    game = services.game_create_between(players=[alice, bob], rules=rules, rated=True)
    play_out(game, {0: alice, 1: bob}, random.Random(36), stop=lambda s: s.phase == "game_over")
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    assert len(game.result["games"]) == 1 and game.winner_seat == 0
    outcomes = game_outcomes(game)
    assert len(outcomes) == 2 and outcomes[-1] == (0, None)
    assert RatingChange.objects.get(game=game, user=bob).results == 2


def test_an_idle_player_deviation_grows_before_the_next_game(alice, bob):
    resign_after(alice, bob, 0, resigner=1, rated=True)
    Rating.objects.update(updated_at=F("updated_at") - timedelta(days=65))  # two idle 30-day periods
    stored = {r.user_id: glicko2.Rating(r.rating, r.rd, r.volatility) for r in Rating.objects.all()}
    game = resign_after(alice, bob, 0, resigner=1, rated=True)
    before = {u: glicko2.idle(r, 2) for u, r in stored.items()}
    assert before[alice.pk].rd > stored[alice.pk].rd
    expected = glicko2.update(before[alice.pk], [glicko2.Result(before[bob.pk], 1.0)])
    change = RatingChange.objects.get(game=game, user=alice)
    assert change.rd_before == pytest.approx(stored[alice.pk].rd)
    assert change.rating_after == pytest.approx(expected.rating)
    assert change.rd_after == pytest.approx(expected.rd)
