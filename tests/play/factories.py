"""Helpers for service and web tests: users, games in a known situation, playing moves.

Plain functions (not fixtures) so that any test can use them. Games get fixed
secrets through :func:`fixed_secrets`, so every deal (and every cut) is the same on every run.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets as real_secrets
from collections.abc import Callable, Sequence

from django.contrib.auth import get_user_model
from django.test import Client

from games.engine.actions import Action, action_from_dict, action_to_dict
from games.engine.game import GameState, apply, legal_actions, new_game
from games.engine.rules import HouseRules
from games.engine.testing import start_deal
from games.play import services
from games.play.models import Connection, Game, Move, Round
from games.play.models import game as game_module


class FixedSecrets:
    """Stands in for the ``secrets`` module inside ``games.play.models.game``: game secrets from a counter."""

    def __init__(self, prefix: str = "test") -> None:
        self._counter = itertools.count()
        self._prefix = prefix

    def token_hex(self, nbytes: int = 32) -> str:
        digest = hashlib.sha256(f"{self._prefix}-{next(self._counter)}".encode()).hexdigest()
        return digest[: nbytes * 2]

    def token_urlsafe(self, nbytes: int = 12) -> str:
        return real_secrets.token_urlsafe(nbytes)


def fixed_secrets(monkeypatch, prefix: str = "test") -> None:
    """Make every new Game's secret deterministic (call from a fixture)."""
    monkeypatch.setattr(game_module, "secrets", FixedSecrets(prefix))


def make_user(username: str):
    """A user without a usable password (hashing one is slow): log in with ``client.force_login``."""
    return get_user_model().objects.create_user(username=username, password=None)


def socket_headers(user=None) -> list[tuple[bytes, bytes]]:
    """A websocket handshake's headers from this site's page: its origin and, for ``user``, a
    session cookie (anonymous without one)."""
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if user is not None:
        client = logged_in(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


def logged_in(user, **kwargs) -> Client:
    """A test client with ``user``'s session (``kwargs`` go to ``Client``, e.g. headers)."""
    client = Client(**kwargs)
    client.force_login(user)
    return client


def computer_game(user, *, level: str = "easy", rules: HouseRules | None = None, hints: bool = False) -> Game:
    return services.game_create_vs_computer(user=user, level=level, rules=rules or HouseRules(), hints=hints)


def human_game(alice, bob, *, rules: HouseRules | None = None, rated: bool = False) -> Game:
    """Alice seeks (seat 0), Bob accepts (seat 1): an active game in phase ``cut``."""
    seek = services.game_create_seek(user=alice, rules=rules or HouseRules(), rated=rated)
    return services.game_accept(user=bob, game_id=seek.pk)


def away_for(game: Game, seconds: int) -> None:
    """The current decision (and the game) began ``seconds`` ago: a turn clock or an absence ran."""
    from datetime import timedelta

    from django.utils import timezone

    then = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(turn_started_at=then, created_at=then)
    game.refresh_from_db()


def socket_last_heard(game: Game, user, channel_name: str, when) -> Connection:
    """A socket of ``user`` at ``game`` last heard from at ``when``, in every place presence reads a
    beat: its row, and the shared cache's key when the beats live there (``PRESENCE_IN_CACHE``, on
    with Redis). The live servers the browser tests start read the same cache."""
    from django.core.cache import cache

    from games.play import presence

    row = Connection.objects.create(game=game, user=user, channel_name=channel_name, last_seen=when)
    if presence.in_cache():
        cache.set(presence.beat_key(channel_name), when.timestamp(), presence.KEY_SECONDS)
    return row


def timed_game(alice, bob, seconds: int = 30) -> Game:
    """A game between alice and bob with a turn timer of ``seconds``."""
    game = human_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(turn_timer=seconds)
    game.refresh_from_db()
    return game


def forfeit_on_time(alice, bob) -> Game:
    """bob's third timeout, just after alice's cut for deal: the site forfeits the game for him."""
    game = timed_game(alice, bob)
    game.seats.filter(user=bob).update(timeouts=2)
    act(game, alice, {"type": "cut_for_deal", "position": 3})
    away_for(game, 31)
    services.game_timeout(user=alice, game_id=game.pk)
    game.refresh_from_db()
    return game


def claimed_win(alice, bob) -> tuple:
    """A game in the play whose player to act has been away for five minutes, and the other claims
    the win (the settings must allow a claim after that). Returns (game, absent, claimer)."""
    from games.play import presence

    game = human_game(alice, bob)
    rng = random.Random(5)
    while load(game).phase != "play":
        state = load(game)
        act(game, [alice, bob][state.to_act[0]], as_form(random_action(state, state.to_act[0], rng)))
    absent, claimer = (bob, alice) if load(game).turn == 1 else (alice, bob)
    presence.connected(game_id=game.pk, user=claimer, channel_name="claimer")
    away_for(game, 300)
    services.game_claim_win(user=claimer, game_id=game.pk)
    return game, absent, claimer


def load(game: Game) -> GameState:
    game.refresh_from_db()
    return services.load_state(game)


def put_state(game: Game, state: GameState) -> Game:
    """Overwrite the snapshot (tests only: a stacked deal the Move log cannot rebuild)."""
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())
    game.refresh_from_db()
    return game


def stack(
    game: Game,
    *,
    dealer: int,
    hands: Sequence[str],
    starter: str,
    scores: Sequence[int] | None = None,
    match_scores: Sequence[int] | None = None,
    game_no: int = 0,
    deal_no: int = 0,
) -> Game:
    """Put ``game`` at the start of a deal with the given hands (``hands[seat]``) and starter."""
    state = start_deal(
        game.house_rules, dealer=dealer, hands=hands, starter=starter, scores=scores,
        secret=bytes.fromhex(game.secret), match_scores=match_scores, game_no=game_no, deal_no=deal_no,
    )
    return put_state(game, state)


def act(game: Game, user, action: dict, *, version: int | None = None) -> services.Outcome:
    """``services.game_act`` at the game's current version (or the one given)."""
    game.refresh_from_db()
    return services.game_act(
        user=user, game_id=game.pk, version=game.version if version is None else version, action=action
    )


def as_form(action: Action) -> dict:
    """An engine action as a player would send it: no seat (the service takes it from the user)."""
    data = action_to_dict(action)
    del data["seat"]
    return data


def acting_at_once(state: GameState) -> bool:
    """Whether a seat due may act on a board from before another seat's move of the same kind
    (``services.SIMULTANEOUS_ACTIONS``): the cut, laying away, asking for the next hand."""
    return any(
        action_to_dict(a)["type"] in services.SIMULTANEOUS_ACTIONS
        for seat in state.to_act for a in legal_actions(state, seat)
    )


def random_action(state: GameState, seat: int, rng: random.Random) -> Action:
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} has nothing to do in phase {state.phase}"
    return rng.choice(legal)


def play_out(
    game: Game,
    users: dict[int, object],
    rng: random.Random,
    *,
    limit: int = 3000,
    stop: Callable[[GameState], bool] | None = None,
    choose: Callable[[GameState, int, random.Random], Action] = random_action,
) -> GameState:
    """Play random legal moves for the human seats in ``users`` (computer seats through the services)
    until the game is over (or ``stop(state)``). Returns the last state."""
    for _ in range(limit):
        game.refresh_from_db()
        state = services.load_state(game)
        if game.status != Game.Status.ACTIVE or (stop is not None and stop(state)):
            return state
        if services.computer_to_act(game):
            assert services.game_computer_step(game_id=game.pk) is not None
            continue
        due = [s for s in state.to_act if s in users]
        assert due, f"nobody can act in phase {state.phase} (to_act={state.to_act})"
        seat = due[0]
        act(game, users[seat], as_form(choose(state, seat, rng)))
    raise AssertionError("the game did not end")


def replay(game: Game) -> GameState:
    """Rebuild the game from its secret and Move log, checking each Move's recorded events."""
    state = new_game(game.house_rules, bytes.fromhex(game.secret))
    for move in Move.objects.filter(game=game).order_by("seq"):
        state, events = apply(state, action_from_dict(move.action))
        assert [e.to_dict() for e in events] == move.events, f"move {move.seq} events differ"
    return state


def snapshot(game: Game) -> tuple:
    """What a refused action must leave unchanged."""
    game.refresh_from_db()
    return (
        game.version, game.state, game.status,
        Move.objects.filter(game=game).count(), Round.objects.filter(game=game).count(),
    )


# A deal where the pone plays on after a go: used by service and view tests alike.
GO_HANDS = ("TD 5D 6D 7D 8S 9S", "KH 9C AH 2C 3S 4S")
GO_STARTER = "5C"
# (seat, action) after the discards, up to the last card.
GO_PLAY = [
    (1, {"type": "play", "card": "KH"}),
    (0, {"type": "play", "card": "TD"}),
    (1, {"type": "play", "card": "9C"}),
    (0, {"type": "go"}),
    (1, {"type": "play", "card": "AH"}),
    (0, {"type": "play", "card": "5D"}),
    (1, {"type": "play", "card": "2C"}),
    (0, {"type": "play", "card": "6D"}),
    (0, {"type": "play", "card": "7D"}),
]
