"""No websocket message ever shows a player a card they may not see, over whole games between people.

Both players hold a lobby socket and a game socket (in-process ``WebsocketCommunicator``s on the
real ASGI application, so the auth, routing and consumers are the production ones). Moves go
through the service layer, one at a time; after each, every message each socket receives is
scanned for every card hidden from its player at that moment, worked out from the private engine
state in the database (the opponent's unplayed cards, the deck, the crib before its count, the
face-down cut deck). Nothing moves until both boards have arrived, so "that moment" is exact.
The scanner and the rule of what is hidden are those of tests/play/test_hidden_information.py.
"""

from __future__ import annotations

import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cribsite.asgi import application
from games.engine.game import GameState
from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.live.support import as_form, board_version, load, next_turn
from tests.play.factories import fixed_secrets, human_game, make_user, socket_headers
from tests.play.test_hidden_information import cards_in, hidden_from, without_last_deal

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.timeout(240),
]

MAX_MOVES = 1500
RECEIVE_SECONDS = 10


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "live-hidden")


class Watcher:
    """One player's sockets, and the scan of everything they receive."""

    def __init__(self, seat: int, user, headers) -> None:
        self.seat = seat
        self.user = user
        self.headers = headers
        self.lobby: WebsocketCommunicator | None = None
        self.board: WebsocketCommunicator | None = None
        self.scanned = 0
        self.boards = 0
        self.own_cards_seen = 0
        self.lobby_messages = 0
        self.states: dict[int, GameState] = {}  # each board version's private state

    async def open(self, path: str) -> WebsocketCommunicator:
        communicator = WebsocketCommunicator(application, path, headers=self.headers)
        connected, _ = await communicator.connect(timeout=RECEIVE_SECONDS)
        assert connected, path
        return communicator

    def scan(self, message: str, state: GameState, where: str) -> None:
        # A board drawn for an earlier version (a presence change re-sends the current board) may
        # arrive after the next move: it is checked against the state it was drawn from.
        state = self.states.get(board_version(message), state)
        message = without_last_deal(message, state)
        leaked = cards_in(message, hidden_from(state, self.seat))
        assert not leaked, (
            f"{where}: seat {self.seat} was sent {sorted(map(str, leaked))} in phase {state.phase} "
            f"(version {board_version(message)}):\n" + "\n---\n".join(leaked.values())
        )
        self.scanned += 1
        if board_version(message) is not None:
            self.boards += 1
            own = set(state.hands[self.seat])
            if own:  # the scanner must see the seat's own cards, or it is not reading the real markup
                assert cards_in(message, own), f"{where}: own hand {sorted(map(str, own))} not found"
                self.own_cards_seen += 1

    async def read_until(self, version: int, state: GameState) -> None:
        """Scan every game-socket message up to the board of ``version`` (whose private state is
        ``state``), then any lobby message."""
        self.states[version] = state
        while True:
            message = await self.board.receive_from(timeout=RECEIVE_SECONDS)
            self.scan(message, state, "game socket")
            seen = board_version(message)
            if seen is not None:
                assert seen <= version, f"a board from the future: {seen} > {version}"
                if seen == version:
                    break
        await self.read_lobby(state)

    async def read_lobby(self, state: GameState, wait: float = 0) -> None:
        while not await self.lobby.receive_nothing(timeout=wait):
            self.scan(await self.lobby.receive_from(), state, "lobby socket")
            self.lobby_messages += 1

    async def close(self) -> None:
        for communicator in (self.board, self.lobby):
            if communicator is not None:
                await communicator.disconnect(timeout=10)


def _players(names: tuple[str, str]):
    users = [make_user(n) for n in names]
    return users, [socket_headers(u) for u in users]


def _move(game: Game, users, rng: random.Random) -> tuple[int, GameState] | None:
    """The next player's move through the service layer: the new version and private state, or None
    once the game is over."""
    state = load(game)
    if game.status != Game.Status.ACTIVE:
        return None
    seat, action = next_turn(state, rng)
    services.game_act(user=users[seat], game_id=game.pk, version=game.version, action=as_form(action))
    return game.version + 1, load(game)


GAMES = [
    pytest.param(HouseRules(target=61), 41, id="61-auto"),
    pytest.param(HouseRules(target=61, manual_counting=True, muggins=True), 42, id="61-manual-muggins"),
    pytest.param(HouseRules(target=61, match_games=3, peg_out_zone=5), 43, id="61-best-of-3"),
]


@pytest.mark.parametrize(("rules", "seed"), GAMES)
async def test_no_socket_message_shows_a_hidden_card(rules: HouseRules, seed: int):
    (alice, bob), (h_alice, h_bob) = await sync_to_async(_players)(("alice", "bob"))
    watchers = [Watcher(0, alice, h_alice), Watcher(1, bob, h_bob)]
    try:
        for w in watchers:
            w.lobby = await w.open("/ws/lobby/")
        # The seek and the accept are pushed to both lobbies.
        game = await sync_to_async(human_game)(alice, bob, rules=rules)
        state = await sync_to_async(load)(game)
        for w in watchers:
            w.board = await w.open(f"/ws/game/{game.pk}/")
            await w.read_until(game.version, state)
        rng = random.Random(seed)
        moves = 0
        for moves in range(1, MAX_MOVES + 1):  # noqa: B007 - the count is checked below
            moved = await sync_to_async(_move)(game, [alice, bob], rng)
            if moved is None:
                break
            version, state = moved
            for w in watchers:
                await w.read_until(version, state)
        else:
            pytest.fail("the game did not end")
        for w in watchers:  # anything still on its way (presence, a late lobby update)
            while not await w.board.receive_nothing(timeout=0.2):
                w.scan(await w.board.receive_from(), state, "game socket")
            await w.read_lobby(state, wait=0.2)
    finally:
        for w in watchers:
            await w.close()

    assert game.status == Game.Status.FINISHED
    for w in watchers:
        assert w.boards >= moves, (w.seat, w.boards, moves)
        assert w.own_cards_seen > moves // 4, (w.seat, w.own_cards_seen)
        assert w.lobby_messages >= 2, (w.seat, w.lobby_messages)  # the seek and the accept, at least


async def test_the_socket_scan_catches_a_leak(monkeypatch):
    """The check is live: a pushed board that slips in one card of the deck fails it."""
    from games.play.board import player as board

    original = board.render_board_oob

    def leaky(game_id, user, *args, **kwargs):
        html = original(game_id, user, *args, **kwargs)
        state = services.load_state(Game.objects.get(pk=game_id))
        return html.replace("</header>", f"<p>{state.hands[1][0] if state.deck else ''}</p></header>", 1)

    monkeypatch.setattr(board, "render_board_oob", leaky)
    (alice, bob), (h_alice, _) = await sync_to_async(_players)(("alice", "bob"))
    watcher = Watcher(0, alice, h_alice)
    try:
        watcher.lobby = await watcher.open("/ws/lobby/")
        game = await sync_to_async(human_game)(alice, bob, rules=HouseRules(target=61))
        watcher.board = await watcher.open(f"/ws/game/{game.pk}/")
        with pytest.raises(AssertionError, match="was sent"):
            rng = random.Random(1)
            for _ in range(10):  # the cut (nothing dealt, nothing leaked), then the deal leaks
                version, state = await sync_to_async(_move)(game, [alice, bob], rng)
                await watcher.read_until(version, state)
    finally:
        await watcher.close()
