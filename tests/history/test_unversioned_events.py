"""Games stored before events carried a version read and replay as games stored today."""

from __future__ import annotations

import pytest

from games.history.replay import final_state, replay_steps
from games.play.models import Game, Move
from tests.history.helpers import finish_between
from tests.play.factories import logged_in

pytestmark = pytest.mark.django_db


def _unversioned(events: list) -> list:
    return [{k: v for k, v in e.items() if k != "v"} if isinstance(e, dict) else e for e in events]


def _store_without_versions(game: Game) -> None:
    for move in Move.objects.filter(game=game):
        Move.objects.filter(pk=move.pk).update(events=_unversioned(move.events))
    state = {**game.state, "log": _unversioned(game.state.get("log", []))}
    Game.objects.filter(pk=game.pk).update(state=state, last_events=_unversioned(game.last_events))


def test_an_old_game_replays_checks_and_shows(alice, bob):
    game = finish_between(alice, bob, seed=3)
    today = final_state(game).to_dict()
    _store_without_versions(game)
    game.refresh_from_db()
    assert not any("v" in e for m in Move.objects.filter(game=game) for e in m.events)
    steps = list(replay_steps(game, check=True))  # the logged events still match the engine's
    assert steps and steps[-1].after.to_dict() == today
    client = logged_in(alice)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/record/", f"/games/{game.pk}/replay/"):
        assert client.get(url).status_code == 200, url
