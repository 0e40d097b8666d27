"""Helpers for tournament tests: tournaments with entrants, and matches played to an end."""

from __future__ import annotations

import random

import pytest

from games.play import services as game_services
from games.play.models import Game
from games.tournaments import notice_words, services
from games.tournaments.models import Entrant, Match, Tournament
from tests.play.factories import fixed_secrets, make_user, play_out


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    """Autouse in each tournament service test module that imports it: their games' secrets."""
    fixed_secrets(monkeypatch, "tournaments")


def make_players(n: int, prefix: str = "p") -> list:
    return [make_user(f"{prefix}{i}") for i in range(1, n + 1)]


def make_tournament(players=(), **fields) -> Tournament:
    t = Tournament.objects.create(name=fields.pop("name", "Spring Open"), **fields)
    for user in players:
        services.tournament_register(user=user, tournament_id=t.pk)
    return t


def refresh(obj):
    obj.refresh_from_db()
    return obj


def active_matches(t: Tournament):
    return list(
        Match.objects.filter(tournament=t, status=Match.Status.ACTIVE)
        .select_related("entrant1__user", "entrant2__user", "game")
        .order_by("-stage", "round_no", "slot")
    )


def resign_match(m: Match, winner: Entrant) -> None:
    """The loser resigns the match's game through the game services."""
    loser = m.entrant2 if winner.pk == m.entrant1_id else m.entrant1
    game = Game.objects.get(pk=m.game_id)
    game_services.game_act(user=loser.user, game_id=game.pk, version=game.version, action={"type": "resign"})


def play_match(m: Match, seed: int = 0) -> None:
    """Random legal moves through games.play.services.game_act until the match is over."""
    game = Game.objects.get(pk=m.game_id)
    play_out(game, {0: m.entrant1.user, 1: m.entrant2.user}, random.Random(seed), limit=20000)


def better_seed_wins(t: Tournament) -> None:
    """Resign every active match in favour of the better (lower) seed, until none is left."""
    for _ in range(100):
        matches = active_matches(t)
        if not matches:
            return
        for m in matches:
            winner = min((m.entrant1, m.entrant2), key=lambda e: e.qualifying_rank or e.seed)
            resign_match(m, winner)
    raise AssertionError("matches kept coming")


def plays(m: Match, user) -> bool:
    return user.pk in (m.entrant1.user_id, m.entrant2.user_id)


def my_active_match(t: Tournament, user) -> Match:
    return next(m for m in active_matches(t) if plays(m, user))


def my_match_in_round_one(name: str):
    """A round robin of four, started, its other first-round match decided: ``(tournament, me,
    my match, my opponent)``, with ``me`` the first player and my match still in play."""
    from games.tournaments.services.entered_results import Entry

    players = make_players(4)
    t = make_tournament(players, name=name, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=t.pk)
    me = players[0]
    mine, other = sorted(active_matches(t), key=lambda m: not plays(m, me))
    services.round_set_results(tournament_id=t.pk, entries=[Entry(other.pk, other.entrant1_id)], reason="")
    opponent = mine.entrant2.user if mine.entrant1.user_id == me.pk else mine.entrant1.user
    return t, me, mine, opponent


def said(t: Tournament, fragment: str, **filters) -> int:
    """How many of ``t``'s notices (``filters`` on them) say ``fragment`` in words."""
    return sum(fragment in n.words for n in notice_words.in_words(t.notices.filter(**filters)))
