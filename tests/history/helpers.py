"""Finished games for the history tests, made only through the service layer (never Game.state)."""

from __future__ import annotations

import random
from unittest import mock

from games.engine.actions import Discard
from games.engine.game import legal_actions
from games.engine.players import discard_table
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move
from games.play.models import game as game_module
from tests.play.factories import FixedSecrets, act, as_form, play_out, random_action

# A table seat for an easy computer (``game_create_table``).
EASY = {"kind": "computer", "level": "easy"}


def finish_vs_computer(user, *, seed: int = 1, rules: HouseRules | None = None, level: str = "easy") -> Game:
    """A game against the computer, played to the end with random legal moves for the person."""
    game = services.game_create_vs_computer(user=user, level=level, rules=rules or HouseRules())
    play_out(game, {0: user}, random.Random(seed))
    game.refresh_from_db()
    return game


def finish_between(alice, bob, *, seed: int = 1, rules: HouseRules | None = None,
                   rated: bool = False) -> Game:
    """Alice (seat 0) and Bob (seat 1) play random legal moves to the end."""
    game = services.game_create_between(players=[alice, bob], rules=rules or HouseRules(), rated=rated)
    play_out(game, {0: alice, 1: bob}, random.Random(seed))
    game.refresh_from_db()
    return game


def expert_discards(state, seat, rng):
    """Lay away what the expert would; anything else at random."""
    if state.phase == "discard":
        best = discard_table(state.hands[seat], is_dealer=state.dealer == seat)[0]
        return Discard(seat, tuple(c for c in state.hands[seat] if c in best.laid_away))
    return rng.choice(legal_actions(state, seat))


def nine_deals(alice, bob) -> Game:
    """A game of 121 between two people who lay away as the expert would, over nine deals (the
    length of the site's games): its cards come from a secret of its own, whatever games the test
    made before it."""
    with mock.patch.object(game_module, "secrets", FixedSecrets("nine-deals-2")):
        game = services.game_create_between(players=[alice, bob], rules=HouseRules(), rated=False)
    play_out(game, {0: alice, 1: bob}, random.Random(2), choose=expert_discards)
    game.refresh_from_db()
    assert game.rounds.count() == 9
    return game


def resign_after(alice, bob, moves: int, *, resigner: int = 0, seed: int = 1, rated: bool = False,
                 rules: HouseRules | None = None) -> Game:
    """Alice and Bob play ``moves`` random moves, then seat ``resigner`` resigns."""
    game = services.game_create_between(players=[alice, bob], rules=rules or HouseRules(), rated=rated)
    users = {0: alice, 1: bob}
    play_out(game, users, random.Random(seed), stop=lambda s: Move.objects.filter(game=game).count() >= moves)
    act(game, users[resigner], {"type": "resign"})
    game.refresh_from_db()
    return game


def resign_vs_computer(user, moves: int = 0, *, seed: int = 1, rules: HouseRules | None = None) -> Game:
    """A game against the computer that the person resigns after about ``moves`` moves."""
    game = services.game_create_vs_computer(user=user, level="easy", rules=rules or HouseRules())
    def enough(_state) -> bool:
        return Move.objects.filter(game=game).count() >= moves

    play_out(game, {0: user}, random.Random(seed), stop=enough)
    act(game, user, {"type": "resign"})
    game.refresh_from_db()
    return game


def play_recording(game: Game, users: dict, rng: random.Random, limit: int = 3000) -> list[dict]:
    """Like ``play_out`` but returns the live snapshot (``Game.state``) after every move, index 0 first."""
    game.refresh_from_db()
    snapshots = [game.state]
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return snapshots
        state = services.load_state(game)
        if services.computer_to_act(game):
            services.game_computer_step(game_id=game.pk)
        else:
            seat = next(s for s in state.to_act if s in users)
            act(game, users[seat], as_form(random_action(state, seat, rng)))
        game.refresh_from_db()
        snapshots.append(game.state)
    raise AssertionError("the game did not end")


def play_table(user, seats: list[dict], *, rules: HouseRules, seed: int = 1,
               accept: tuple = ()) -> tuple[Game, list[dict]]:
    """A table of three or four (``services.game_create_table``; ``seats`` describes seats 1..n-1),
    ``accept`` = ``((user, seat), ...)`` taking their seats through ``game_accept``; the people play
    random legal moves, the computers their own, to the end. Returns the game and the live
    snapshot after every move (``play_recording``)."""
    game = services.game_create_table(user=user, rules=rules, seats=seats)
    users = {0: user}
    for who, seat in accept:
        services.game_accept(user=who, game_id=game.pk, seat=seat)
        users[seat] = who
    snapshots = play_recording(game, users, random.Random(seed))
    game.refresh_from_db()
    return game, snapshots


def finish_table(user, seats: list[dict], *, rules: HouseRules, seed: int = 1, accept: tuple = ()) -> Game:
    """:func:`play_table` without the snapshots."""
    return play_table(user, seats, rules=rules, seed=seed, accept=accept)[0]


def record_parts(client, game: Game) -> list[str]:
    """The URLs of the parts the record's first answer fetches as the reader opens them (each deal,
    the fair-deal check, the analyses)."""
    import re

    page = client.get(f"/games/{game.pk}/record/").content.decode()
    return re.findall(r'hx-get="([^"]+)"', page)


def whole_record(client, game: Game) -> str:
    """The record with every part opened: its first answer, then each part as htmx fetches it."""
    page = client.get(f"/games/{game.pk}/record/").content.decode()
    parts = [client.get(url, headers={"HX-Request": "true"}) for url in record_parts(client, game)]
    assert all(p.status_code == 200 for p in parts)
    return page + "".join(p.content.decode() for p in parts)
