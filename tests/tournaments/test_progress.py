"""A tournament's progress has one owner (``services.progress``), whose loop cannot run away: a
step that leaves the event where it was ends it, and a result decided inside a step leaves the
next step to the loop already running."""

from __future__ import annotations

import logging

import pytest

from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.services import progress

from .helpers import active_matches, make_players, make_tournament, refresh, resign_match

pytestmark = pytest.mark.django_db


def test_a_step_that_moves_nothing_ends_the_loop(monkeypatch, caplog) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    steps = []

    def stuck(t, force, by):
        steps.append(force)
        return True  # says it moved, moves nothing

    monkeypatch.setattr(progress, "_step", stuck)
    with caplog.at_level(logging.WARNING, logger="games.tournaments"):
        progress.move_on(refresh(t), force=True)
    assert steps == [True]
    assert "left the event where it was" in caplog.text


def test_moving_on_inside_a_step_is_left_to_the_running_loop(monkeypatch) -> None:
    t = make_tournament(make_players(4), format=Tournament.Format.ROUND_ROBIN, auto_advance=False)
    services.tournament_start(tournament_id=t.pk)
    inner = []
    real = progress._step

    def step(t, force, by):
        inner.append(progress.move_on(t))  # returns at once: this event is being moved on
        return real(t, force, by)

    monkeypatch.setattr(progress, "_step", step)
    progress.move_on(refresh(t), force=True)
    assert inner and refresh(t).current_round == 2


def test_walkovers_carry_a_bracket_to_its_end_in_one_call() -> None:
    players = make_players(4)
    t = make_tournament(players, format=Tournament.Format.KNOCKOUT)
    services.tournament_start(tournament_id=t.pk)
    first, second = active_matches(t)
    resign_match(first, first.entrant1)
    for e in (second.entrant1, second.entrant2):
        services.entrant_withdraw(entrant_id=e.pk)
    t = refresh(t)
    assert t.status == Tournament.Status.FINISHED and t.champion == first.entrant1.user
