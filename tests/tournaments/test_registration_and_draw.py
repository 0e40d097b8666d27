"""Tournaments through the service layer, up to the first games: the registration window and the
limit, seeding by hand, by registration order or by rating, and the draw of a round robin and of a
knockout with byes for the top seeds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.history.models import Rating
from games.play import registry
from games.play.models import Game
from games.tournaments import selectors, services
from games.tournaments.models import Entrant, Match, Tournament

from .helpers import (
    _secrets,  # noqa: F401  autouse: games dealt from the "tournaments" secrets
    active_matches,
    make_players,
    make_tournament,
)

pytestmark = pytest.mark.django_db


# --- registration ---------------------------------------------------------------------------------


def test_registration_window_and_limit() -> None:
    now = timezone.now()
    a, b, c = make_players(3)
    t = make_tournament(
        registration_opens=now + timedelta(hours=1),
        registration_closes=now + timedelta(hours=2),
        max_entrants=2,
    )
    with pytest.raises(services.NotNow, match="not open"):
        services.tournament_register(user=a, tournament_id=t.pk)
    later = now + timedelta(minutes=90)
    services.tournament_register(user=a, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="already"):
        services.tournament_register(user=a, tournament_id=t.pk, now=later)
    services.tournament_register(user=b, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="full"):
        services.tournament_register(user=c, tournament_id=t.pk, now=later)
    with pytest.raises(services.NotNow, match="not open"):
        services.tournament_register(user=c, tournament_id=t.pk, now=now + timedelta(hours=3))
    services.tournament_unregister(user=a, tournament_id=t.pk)
    assert list(t.entrants.values_list("user__username", flat=True)) == ["p2"]


def test_nobody_registers_once_started() -> None:
    players = make_players(3)
    t = make_tournament(players[:2])
    services.tournament_start(tournament_id=t.pk)
    with pytest.raises(services.NotNow):
        services.tournament_register(user=players[2], tournament_id=t.pk)
    with pytest.raises(services.NotNow):
        services.tournament_unregister(user=players[0], tournament_id=t.pk)


def test_start_needs_two_players() -> None:
    t = make_tournament(make_players(1))
    with pytest.raises(services.NotNow, match="two players"):
        services.tournament_start(tournament_id=t.pk)


def test_seeding_by_hand_then_registration_order(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_ratings", [])  # a site without ratings
    players = make_players(4)
    t = make_tournament(players)
    Entrant.objects.filter(tournament=t, user=players[3]).update(seed=1)
    assert [e.user for e in selectors.seeding_order(t)] == [players[3], players[0], players[1], players[2]]
    assert selectors.rating_function(t) is None
    assert services.seed_entrants(tournament_id=t.pk) is False  # no ratings: registration order
    assert [e.user for e in selectors.seeding_order(t)] == players


def test_seeding_by_rating_when_the_site_has_ratings(monkeypatch) -> None:
    players = make_players(4)
    t = make_tournament(players)
    ratings = {players[0].pk: 1400, players[1].pk: None, players[2].pk: 1700, players[3].pk: 1550}
    asked = set()

    def fake_rating(user, target):
        asked.add(target)
        return ratings[user.pk]

    monkeypatch.setattr(registry, "_ratings", [fake_rating])
    assert services.seed_entrants(tournament_id=t.pk) is True
    # The unrated player comes last.
    assert [e.user for e in selectors.seeding_order(t)] == [players[2], players[3], players[0], players[1]]
    assert asked == {t.target}


def test_seeding_reads_the_ratings_history_keeps_for_the_events_length() -> None:
    players = make_players(3)
    t = make_tournament(players)
    Rating.objects.create(user=players[2], pool=t.target, rating=1800)
    Rating.objects.create(user=players[1], pool=t.target, rating=1600)
    Rating.objects.create(user=players[0], pool=61 if t.target == 121 else 121, rating=2000)  # another length
    assert services.seed_entrants(tournament_id=t.pk) is True
    assert [e.user for e in selectors.seeding_order(t)] == [players[2], players[1], players[0]]


# --- the draw -------------------------------------------------------------------------------------


def test_round_robin_start_creates_round_one_games_with_the_house_rules() -> None:
    players = make_players(5)
    t = make_tournament(
        players, format=Tournament.Format.ROUND_ROBIN, match_games=3, target=61, peg_out_zone=5, skunks=True
    )
    services.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    assert (t.status, t.stage, t.current_round) == ("running", "rr", 1)
    matches = Match.objects.filter(tournament=t)
    assert matches.count() == 5 * 3  # five rounds of two matches and a bye
    assert matches.filter(status=Match.Status.BYE).count() == 5
    round_one = active_matches(t)
    assert len(round_one) == 2
    for m in round_one:
        game = m.game
        assert game.status == Game.Status.ACTIVE
        assert (game.target, game.match_games, game.peg_out_zone, game.manual_counting, game.hints) == (
            61,
            3,
            5,
            False,
            False,
        )
        assert [s.user_id for s in game.seats.order_by("index")] == [m.entrant1.user_id, m.entrant2.user_id]
    assert sorted(e.seed for e in t.entrants.all()) == [1, 2, 3, 4, 5]


def test_knockout_start_gives_byes_to_the_top_seeds() -> None:
    players = make_players(5)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first = Match.objects.filter(tournament=t, stage="ko", round_no=1).order_by("slot")
    byes = sorted(m.entrant1.seed for m in first if m.status == Match.Status.BYE)
    assert byes == [1, 2, 3]
    # Seeds 1, 2 and 3 are already in round two; seeds 4 and 5 play.
    played = [m for m in first if m.status == Match.Status.ACTIVE]
    assert len(played) == 1 and {played[0].entrant1.seed, played[0].entrant2.seed} == {4, 5}
    second = Match.objects.filter(tournament=t, stage="ko", round_no=2)
    assert second.count() == 2
    # Seeds 2 and 3 meet in round two, and that game starts at once.
    m23 = second.get(status=Match.Status.ACTIVE)
    assert {m23.entrant1.seed, m23.entrant2.seed} == {2, 3}
